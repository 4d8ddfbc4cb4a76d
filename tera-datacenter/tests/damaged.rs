//! A catalogue of damaged files: each corruption is caught by the verifier
//! with the expected problem at the expected place.

mod common;

use std::io::Write;

use aes::Aes128;
use cfb_mode::cipher::{AsyncStreamCipher, KeyIvInit};
use tera_datacenter::{
    Arch, DatError, DatKey, DataCenter, ExportError, ExportOptions, Format, OwnedElement,
    OwnedValue, Place, Problem, ProblemKind, Table, Value, WriteOptions, export, string_hash,
    verify, verify_dat, write_dec,
};

fn base_tree() -> OwnedElement {
    let mut list = OwnedElement::new("AreaList");
    for i in 0..2000 {
        list.children.push(
            OwnedElement::new("Area")
                .attr("id", OwnedValue::Int(i))
                .attr("open", OwnedValue::Bool(i % 2 == 0))
                .attr("scale", OwnedValue::Float(i as f32 / 4.0))
                .attr("name", OwnedValue::Str(format!("Area number {i}"))),
        );
    }
    OwnedElement::root(vec![list, OwnedElement::new("Zone").text("zone text")])
}

fn base() -> Vec<u8> {
    write_dec(&base_tree(), &WriteOptions::default()).unwrap()
}

fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}

fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}

fn get32(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}

/// The kinds found, for messages.
fn kinds(b: &[u8]) -> Vec<ProblemKind> {
    verify(b, None)
        .problems
        .into_iter()
        .map(|p| p.kind)
        .collect()
}

/// Offsets of a node and of an attribute of the base file, through the API.
struct Spots {
    area: usize,
    area_list: usize,
    open_attr: usize,
    scale_attr: usize,
    name_attr: usize,
}

fn spots(b: &[u8]) -> Spots {
    let dc = DataCenter::parse(b).unwrap();
    let list = dc.root().child("AreaList").unwrap();
    let area = list.children().nth(1).unwrap();
    let attr = |n: &str| area.attributes().find(|a| a.name() == n).unwrap().offset();
    Spots {
        area: area.offset(),
        area_list: list.offset(),
        open_attr: attr("open"),
        scale_attr: attr("scale"),
        name_attr: attr("name"),
    }
}

#[test]
fn the_base_file_is_clean() {
    assert_eq!(kinds(&base()), []);
}

#[test]
fn wrong_hash() {
    let mut b = base();
    let l = common::layout(&b, Arch::X64);
    let (bucket, &(o, _)) = l
        .names
        .buckets
        .iter()
        .enumerate()
        .find(|(_, (_, n))| *n == 1)
        .unwrap();
    // Flipping bit 0 of both halves keeps the bucket: only the hash is wrong.
    let h = get32(&b, o);
    put32(&mut b, o, h ^ 0x0001_0001);
    let r = verify(&b, None);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert_eq!(r.problems[0].offset, o);
    assert_eq!(
        r.problems[0].place,
        Place::Entry {
            table: Table::Names,
            bucket: bucket as u32,
            entry: 0
        }
    );
    assert_eq!(
        r.problems[0].kind,
        ProblemKind::WrongHash {
            expected: h,
            found: h ^ 0x0001_0001
        }
    );
}

#[test]
fn wrong_bucket() {
    let mut b = base();
    let l = common::layout(&b, Arch::X64);
    let singles: Vec<usize> = l
        .values
        .buckets
        .iter()
        .filter(|(_, n)| *n == 1)
        .map(|(o, _)| *o)
        .collect();
    let (x, y) = (singles[0], singles[1]);
    let (ex, ey) = (b[x..x + 16].to_vec(), b[y..y + 16].to_vec());
    b[x..x + 16].copy_from_slice(&ey);
    b[y..y + 16].copy_from_slice(&ex);
    let k = kinds(&b);
    assert_eq!(k.len(), 2, "{k:?}");
    assert!(
        k.iter()
            .all(|k| matches!(k, ProblemKind::WrongBucket { .. })),
        "{k:?}"
    );
}

#[test]
fn unsorted_bucket() {
    let mut b = base();
    let l = common::layout(&b, Arch::X64);
    let &(o, _) = l
        .values
        .buckets
        .iter()
        .find(|(o, n)| *n >= 2 && get32(&b, *o) != get32(&b, o + 16))
        .unwrap();
    let (first, second) = (b[o..o + 16].to_vec(), b[o + 16..o + 32].to_vec());
    b[o..o + 16].copy_from_slice(&second);
    b[o + 16..o + 32].copy_from_slice(&first);
    let r = verify(&b, None);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert_eq!(r.problems[0].offset, o + 16);
    assert!(matches!(
        r.problems[0].kind,
        ProblemKind::UnsortedBucket { .. }
    ));
}

#[test]
fn bad_address() {
    let mut b = base();
    let s = spots(&b);
    // AreaList's children now start in a segment that does not exist.
    put16(&mut b, s.area_list + 16, 9);
    let r = verify(&b, None);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert_eq!(r.problems[0].offset, s.area_list + 16);
    assert!(matches!(
        r.problems[0].kind,
        ProblemKind::BadAddress {
            what: "children",
            ..
        }
    ));
    // Opening refuses it with the same problem, at the same place.
    assert_eq!(DataCenter::parse(&b).err().as_ref(), Some(&r.problems[0]));
}

#[test]
fn bad_boolean() {
    let mut b = base();
    let s = spots(&b);
    put32(&mut b, s.open_attr + 4, 2);
    let r = verify(&b, None);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert_eq!(r.problems[0].kind, ProblemKind::BadBoolean(2));
    assert_eq!(r.problems[0].offset, s.open_attr + 4);
    // The lenient reader still reads it.
    let dc = DataCenter::parse(&b).unwrap();
    let area = dc
        .root()
        .child("AreaList")
        .unwrap()
        .children()
        .nth(1)
        .unwrap();
    assert_eq!(area.attribute("open"), Some(Value::Bool(true)));
}

#[test]
fn wrong_size() {
    let b = base();
    let key = DatKey {
        key: [3; 16],
        iv: [4; 16],
    };
    // A .dat whose size field is one too many.
    let mut plain = ((b.len() + 1) as u32).to_le_bytes().to_vec();
    let mut z = flate2::write::ZlibEncoder::new(&mut plain, flate2::Compression::default());
    z.write_all(&b).unwrap();
    z.finish().unwrap();
    cfb_mode::Encryptor::<Aes128>::new(&key.key.into(), &key.iv.into()).encrypt(&mut plain);
    let r = verify_dat(&plain, &key, None).unwrap();
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert_eq!(
        r.problems[0].kind,
        ProblemKind::DeclaredSize {
            declared: b.len() as u32 + 1,
            actual: b.len()
        }
    );
    assert!(matches!(
        tera_datacenter::unpack(&plain, &key),
        Err(DatError::SizeMismatch { .. })
    ));
    // A .dec with a byte too many or too few does not read to its end.
    let mut longer = b.clone();
    longer.push(0);
    for damaged in [&longer[..], &b[..b.len() - 1]] {
        let report = verify(damaged, None);
        assert!(report.arch.is_none(), "{:?}", report.problems);
        assert!(
            matches!(&report.problems[..], [p] if p.kind.is_structural()),
            "{:?}",
            report.problems
        );
        assert_eq!(
            DataCenter::parse(damaged).err().as_ref(),
            Some(&report.problems[0])
        );
    }
    let ProblemKind::NoLayoutFits { x64, .. } = &kinds(&longer)[0] else {
        panic!("{:?}", kinds(&longer));
    };
    assert_eq!(x64.kind, ProblemKind::TrailingBytes { len: 1 });
    assert_eq!(x64.offset, b.len());
}

#[test]
fn value_hash_float_code_and_type_code() {
    let mut b = base();
    let s = spots(&b);
    let info = u16::from_le_bytes([b[s.name_attr + 2], b[s.name_attr + 3]]);
    put16(&mut b, s.name_attr + 2, info ^ 0x4);
    put16(&mut b, s.scale_attr + 2, 2 | 1 << 2);
    let k = kinds(&b);
    assert!(
        matches!(
            k[..],
            [ProblemKind::ValueHash { .. }, ProblemKind::FloatExtended(1)]
        ),
        "{k:?}"
    );
    put16(&mut b, s.scale_attr + 2, 0);
    assert!(kinds(&b).contains(&ProblemKind::TypeCode(0)));
    let problem = DataCenter::parse(&b).unwrap_err();
    assert_eq!(problem.kind, ProblemKind::TypeCode(0));
    assert_eq!(problem.offset, s.scale_attr + 2);
}

#[test]
fn count_address_disagreement_and_unsorted_attributes() {
    let mut b = base();
    let s = spots(&b);
    // Zone has no children: give it a child address without a count.
    let dc = DataCenter::parse(&b).unwrap();
    let zone = dc.root().child("Zone").unwrap().offset();
    drop(dc);
    put32(&mut b, zone + 16, 0);
    // Swap two attributes of an Area.
    let (a0, a1) = (s.open_attr, s.scale_attr);
    let (x, y) = (b[a0..a0 + 12].to_vec(), b[a1..a1 + 12].to_vec());
    b[a0..a0 + 12].copy_from_slice(&y);
    b[a1..a1 + 12].copy_from_slice(&x);
    let k = kinds(&b);
    assert!(
        k.contains(&ProblemKind::CountAddress {
            what: "children",
            count: 0,
            address: tera_datacenter::Address {
                segment: 0,
                element: 0
            }
        }),
        "{k:?}"
    );
    assert!(k.contains(&ProblemKind::AttributesUnsorted), "{k:?}");
}

#[test]
fn cycle_is_reported_and_stops_walks() {
    let mut b = base();
    let s = spots(&b);
    // An Area gets AreaList's children as its own: the Area is below itself.
    let list_children = b[s.area_list + 16..s.area_list + 20].to_vec();
    b[s.area + 6..s.area + 8].copy_from_slice(&2000u16.to_le_bytes());
    b[s.area + 16..s.area + 20].copy_from_slice(&list_children);
    let k = kinds(&b);
    assert!(
        k.iter().any(|k| matches!(k, ProblemKind::Cycle(_))),
        "{k:?}"
    );
    let dc = DataCenter::parse(&b).unwrap();
    // Copying and exporting meet the cycle at the same node as the
    // verifier, and say so in the same words.
    let cycle = dc.root().to_owned_tree().unwrap_err();
    assert!(matches!(cycle.kind, ProblemKind::Cycle(_)), "{cycle}");
    let found = verify(&b, None).problems;
    assert!(found.contains(&cycle), "{cycle} not in {found:?}");
    let options = ExportOptions {
        format: Format::Json,
        pretty: false,
    };
    match export(&dc.root(), &mut std::io::sink(), options, &mut |_| {}) {
        Err(ExportError::Format(p)) => assert_eq!(p, cycle),
        other => panic!("{other:?}"),
    }
}

#[test]
fn overlapping_runs_of_children_are_reported_but_shared_runs_are_not() {
    let b = base();
    let s = spots(&b);
    let list_children = b[s.area_list + 16..s.area_list + 20].to_vec();
    let element = u16::from_le_bytes([list_children[2], list_children[3]]);
    // An Area gets two of AreaList's children, which are already in
    // AreaList's run: the runs overlap without being the same.
    let mut overlap = b.clone();
    put16(&mut overlap, s.area + 6, 2);
    overlap[s.area + 16..s.area + 18].copy_from_slice(&list_children[..2]);
    put16(&mut overlap, s.area + 18, element + 1000);
    let k = kinds(&overlap);
    assert!(k.contains(&ProblemKind::ReachedTwice), "{k:?}");
    // Zone gets exactly AreaList's run: a shared run, which is legal.
    let dc = DataCenter::parse(&b).unwrap();
    let zone = dc.root().child("Zone").unwrap().offset();
    let mut shared = b.clone();
    put16(&mut shared, zone + 6, 2000);
    shared[zone + 16..zone + 20].copy_from_slice(&list_children);
    let report = verify(&shared, None);
    assert!(report.is_ok(), "{:?}", report.problems);
    assert_eq!(report.nodes, 1 + 2 * 2001);
    let dc = DataCenter::parse(&shared).unwrap();
    let tree = dc.root().to_owned_tree().unwrap();
    assert_eq!(tree.children[1].children.len(), 2000);
    assert_eq!(tree.children[1].children, tree.children[0].children);
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let mut b = base();
    let s = spots(&b);
    put32(&mut b, s.open_attr + 4, 5);
    put16(&mut b, s.scale_attr + 2, 2 | 1 << 2);
    let footer = b.len() - 4;
    put32(&mut b, footer, 1);
    put16(&mut b, 16, 7);
    let k = kinds(&b);
    assert_eq!(k.len(), 4, "{k:?}");
    assert!(k.contains(&ProblemKind::BadBoolean(5)));
    assert!(k.contains(&ProblemKind::FloatExtended(1)));
    assert!(k.contains(&ProblemKind::Footer(1)));
    assert!(k.contains(&ProblemKind::HeaderField { field: 0, value: 7 }));
}

#[test]
fn index_address_disagreement_root_name_and_missing_special_name() {
    let mut b = base();
    let l = common::layout(&b, Arch::X64);
    // Swap two entries of the names addresses region.
    let a = l.names.addresses + 4;
    let (x, y) = (b[a..a + 4].to_vec(), b[a + 4..a + 8].to_vec());
    b[a..a + 4].copy_from_slice(&y);
    b[a + 4..a + 8].copy_from_slice(&x);
    let k = kinds(&b);
    assert_eq!(
        k.iter()
            .filter(|k| matches!(k, ProblemKind::IndexAddress { .. }))
            .count(),
        2,
        "{k:?}"
    );

    // Rename __root__ to __roox__ in the names data, fixing nothing else.
    let mut b = base();
    let units: Vec<u8> = "__root__"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let at = b.windows(units.len()).rposition(|w| w == units).unwrap();
    b[at + 10] = b'x';
    let k = kinds(&b);
    assert!(k.contains(&ProblemKind::RootName), "{k:?}");
    assert!(k.contains(&ProblemKind::MissingName("__root__")), "{k:?}");
    let h = string_hash("__root__".encode_utf16());
    assert!(
        k.contains(&ProblemKind::WrongHash {
            expected: string_hash("__roox__".encode_utf16()),
            found: h
        }),
        "{k:?}"
    );
}

/// Found by the `datacenter` fuzz target: a nameless root was not checked
/// when opened (nameless records are skipped), so reading its attributes
/// through an address out of range panicked.
#[test]
fn nameless_root_is_an_error_not_a_panic() {
    let mut b = base();
    let root = DataCenter::parse(&b).unwrap().root().offset();
    put16(&mut b, root, 0);
    // One attribute, in a segment that does not exist.
    put16(&mut b, root + 4, 1);
    put16(&mut b, root + 8, 9);
    assert!(
        matches!(
            DataCenter::parse(&b),
            Err(Problem { kind: ProblemKind::NameIndex(0), offset, .. }) if offset == root
        ),
        "{:?}",
        DataCenter::parse(&b).err()
    );
    assert!(!verify(&b, None).is_ok());
    tera_datacenter::fuzzing::open(&b);
}
