//! Inputs found by fuzzing: a file the strict verifier passes must open, and
//! a file that does not open must have a problem in the verifier's report.

use tera_datacenter::{DataCenter, verify};

fn check(file: &str) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    let report = verify(&bytes, None);
    let opened = DataCenter::parse(&bytes);
    assert_eq!(
        report.is_ok(),
        opened.is_ok(),
        "{file}: verifier ok = {}, open = {:?}",
        report.is_ok(),
        opened.err()
    );
}

/// A record that the root never reaches has a children address out of
/// range: opening refuses it, so the verifier reports it too.
#[test]
fn unreached_record_with_a_bad_address_is_a_problem() {
    check("unreached-bad-children.dec");
    let path = format!(
        "{}/tests/data/unreached-bad-children.dec",
        env!("CARGO_MANIFEST_DIR")
    );
    let report = verify(&std::fs::read(path).unwrap(), None);
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.to_string().contains("children")),
        "{:?}",
        report.problems
    );
}

#[test]
fn nameless_root_is_a_problem_and_does_not_open() {
    check("nameless-root.dec");
}
