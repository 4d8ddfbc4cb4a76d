//! Random and mutated input never panics; random trees round-trip.

mod common;

use proptest::prelude::*;
use tera_datacenter::fuzzing;
use tera_datacenter::{
    Arch, DataCenter, OwnedElement, OwnedValue, Version, WriteOptions, verify, write_dec,
};

fn value() -> impl Strategy<Value = OwnedValue> {
    prop_oneof![
        any::<i32>().prop_map(OwnedValue::Int),
        any::<bool>().prop_map(OwnedValue::Bool),
        any::<u32>().prop_map(|b| OwnedValue::Float(f32::from_bits(b))),
        "[a-zA-Zé東😀 &<>\"]{0,12}".prop_map(OwnedValue::Str),
    ]
}

fn element() -> impl Strategy<Value = OwnedElement> {
    let leaf = (
        "[A-C][a-c]{0,2}",
        prop::collection::btree_map("[a-e]{1,3}", value(), 0..5),
    )
        .prop_map(|(n, attrs)| {
            let mut e = OwnedElement::new(n);
            e.attributes = attrs.into_iter().collect();
            e
        });
    leaf.prop_recursive(4, 64, 6, |inner| {
        (inner.clone(), prop::collection::vec(inner, 0..6)).prop_map(|(mut e, children)| {
            e.children = children;
            e
        })
    })
}

fn options() -> impl Strategy<Value = WriteOptions> {
    (any::<bool>(), any::<bool>(), any::<u32>(), any::<bool>()).prop_map(
        |(x64, v6, revision, dedup)| WriteOptions {
            arch: if x64 { Arch::X64 } else { Arch::X86 },
            version: if v6 { Version::V6 } else { Version::V3 },
            revision,
            timestamp: -1.0,
            dedup,
        },
    )
}

fn small_file() -> Vec<u8> {
    write_dec(&common::tree(21, 60), &WriteOptions::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_trees_round_trip(children in prop::collection::vec(element(), 0..5), options in options()) {
        let tree = OwnedElement::root(children);
        let bytes = write_dec(&tree, &options).unwrap();
        let report = verify(&bytes, Some(options.arch));
        prop_assert!(report.is_ok(), "{:?}", report.problems);
        let dc = DataCenter::parse_as(&bytes, Some(options.arch)).unwrap();
        prop_assert_eq!(dc.root().to_owned_tree().unwrap(), tree.canonical());
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        fuzzing::open(&bytes);
        fuzzing::dat(&bytes);
    }

    #[test]
    fn mutated_files_never_panic(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = small_file();
        for (at, v) in edits {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        fuzzing::open(&bytes);
    }

    #[test]
    fn truncated_files_never_panic(cut in any::<prop::sample::Index>()) {
        let bytes = small_file();
        let n = cut.index(bytes.len());
        fuzzing::open(&bytes[..n]);
        prop_assert!(!verify(&bytes[..n], None).is_ok());
    }
}

#[test]
fn structural_mutations_at_record_fields_never_panic() {
    // Every u16 field of every node and attribute record set to extremes.
    let bytes = small_file();
    let dc = DataCenter::parse(&bytes).unwrap();
    let mut offsets = Vec::new();
    let mut stack = vec![dc.root()];
    while let Some(e) = stack.pop() {
        offsets.extend((0..12).map(|i| e.offset() + 2 * i));
        offsets.extend(
            e.attributes()
                .flat_map(|a| (0..6).map(move |i| a.offset() + 2 * i)),
        );
        stack.extend(e.children());
    }
    for o in offsets {
        for v in [0u16, 1, 0x7fff, 0xffff] {
            let mut b = bytes.clone();
            b[o..o + 2].copy_from_slice(&v.to_le_bytes());
            fuzzing::open(&b);
        }
    }
}
