//! A property over every compiled-in packet type: a random value
//! (`AnyPacket::arbitrary_as`) encoded by the generated code decodes
//! through the dynamic path to the same JSON, and the dynamic encode of
//! that gives the same bytes.
//!
//! Built and run with `TERA_DATA_DIR` (and `TERA_EXTRA_DEFS`) this covers
//! the 836 corpus types and the synthetic ones, loaded at run time from the
//! same folders; without them, the project's own defs. `PROPERTY_CASES`
//! sets the cases per type (default 24).

use arbitrary::Unstructured;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tera_data::{AnyPacket, ErrorKind, PACKETS, PacketInfo};
use tera_dynamic::Catalog;

/// The defs compiled into `tera-data`, loaded at run time.
fn catalog() -> Catalog {
    let catalog = if std::env::var_os("TERA_DATA_DIR").is_some() {
        Catalog::from_env()
    } else {
        let mut own = Catalog::new();
        own.load_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../defs"));
        own
    };
    let problems: Vec<String> = catalog.problems().iter().map(|r| r.render(false)).collect();
    assert!(problems.is_empty(), "{problems:?}");
    catalog
}

/// Bytes for `Unstructured`, most with their low bit set: `arbitrary` goes
/// on with a list while the next byte is odd, so these reach long arrays.
fn inputs() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(any::<u8>(), 0..3000),
        prop::sample::select(vec![0u8, 12, 15]),
    )
        .prop_map(|(mut bytes, odd_per_16)| {
            for (n, b) in bytes.iter_mut().enumerate() {
                if (n * 7 % 16) < usize::from(odd_per_16) {
                    *b |= 1;
                }
            }
            bytes
        })
}

fn check(catalog: &Catalog, info: &PacketInfo, data: &[u8]) -> Result<(), TestCaseError> {
    let schema = match info.platform {
        Some(p) => catalog.get_platform(info.name, info.version, p),
        None => catalog.get(info.name, info.version),
    }
    .ok_or_else(|| TestCaseError::fail(format!("{info:?} did not load")))?;
    let Some(Ok(value)) =
        AnyPacket::arbitrary_as(info.name, info.version, &mut Unstructured::new(data))
    else {
        return Ok(());
    };
    let bytes = match value.encode() {
        Ok(bytes) => bytes,
        Err(e) if matches!(e.kind(), ErrorKind::TooLarge { .. }) => return Ok(()),
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{info:?}: generated encode: {e}"
            )));
        }
    };
    let decoded = schema
        .decode(&bytes)
        .map_err(|e| TestCaseError::fail(format!("{info:?}: dynamic decode: {e}")))?;
    let (ours, theirs) = (
        serde_json::to_value(&decoded).unwrap(),
        serde_json::to_value(&value).unwrap(),
    );
    prop_assert_eq!(&ours, &theirs, "{:?}: JSON", info);
    let view = schema
        .view(&bytes)
        .map_err(|e| TestCaseError::fail(format!("{info:?}: dynamic view: {e}")))?;
    prop_assert_eq!(
        &serde_json::to_value(&view).unwrap(),
        &ours,
        "{:?}: view JSON",
        info
    );
    match schema.encode(&decoded, 0) {
        Ok(again) => prop_assert!(again == bytes, "{:?}: dynamic encode differs", info),
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{info:?}: dynamic encode: {e}"
            )));
        }
    }
    Ok(())
}

#[test]
fn random_values_of_every_type_agree() {
    let catalog = catalog();
    let cases: u32 = std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(24);
    let mut types = 0;
    for info in PACKETS {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        if let Err(e) = runner.run(&inputs(), |data| check(&catalog, info, &data)) {
            panic!("{e}");
        }
        types += 1;
    }
    assert_eq!(types, PACKETS.len());
    println!("dynamic properties: {types} types x {cases} cases: same JSON and bytes");
}
