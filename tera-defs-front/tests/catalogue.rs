//! The catalogue of malformed defs and maps: every file under
//! `tests/catalogue/` is checked and its rendered diagnostics (no color) are
//! compared with a snapshot in `tests/snapshots/`.
//!
//! A catalogue file is named `CASE__FILENAME`: `FILENAME` is the file name
//! given to the parser (it matters: file names are validated too), `CASE`
//! names the snapshot. Files ending in `.map` are map files.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use tera_defs_front::{Report, codes, load_def_file, parse_def, parse_map};

fn check(file_name: &str, source: &str) -> Report {
    if file_name.ends_with(".map") {
        parse_map(file_name, source).report
    } else {
        parse_def(file_name, source).report
    }
}

fn codes_of(report: &Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .filter_map(|d| d.code.clone())
        .collect()
}

#[test]
fn catalogue() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/catalogue");
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("catalogue folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut cases = 0;
    for path in entries {
        let full = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 file name")
            .to_string();
        let Some((case, file_name)) = full.split_once("__") else {
            continue;
        };
        let bytes = fs::read(&path).expect("read catalogue file");
        let source = String::from_utf8(bytes).expect("utf-8 catalogue file");
        let report = check(file_name, &source);
        assert!(
            !report.diagnostics.is_empty(),
            "{full}: expected at least one diagnostic"
        );
        seen.extend(codes_of(&report));
        let rendered = report.render(false);
        insta::assert_snapshot!(case.to_string(), rendered);
        cases += 1;
    }
    // A file that cannot be read.
    let missing = load_def_file(&dir.join("does_not_exist/S_MISSING.1.def"));
    assert!(missing.def.is_none());
    seen.extend(codes_of(&missing.report));
    let rendered = missing
        .report
        .render(false)
        .replace(env!("CARGO_MANIFEST_DIR"), "$CARGO_MANIFEST_DIR");
    assert!(rendered.contains("error[E003]: cannot read"), "{rendered}");

    // A def checked with a protocol map that lacks its name (what
    // `tera-defs check DEFS MAP` adds to the def's report).
    let map = parse_map("protocol.365100.map", "S_TSET = 1\nS_OTHER = 2\n")
        .into_result()
        .expect("a map");
    let mut checked = parse_def("S_TEST.1.def", "uint32 id\n");
    let def = checked.def.as_ref().expect("a def");
    checked
        .report
        .push(map.missing_def(def).expect("S_TEST is missing"));
    seen.extend(codes_of(&checked.report));
    insta::assert_snapshot!("missing_from_map", checked.report.render(false));
    let present = parse_def("S_OTHER.1.def", "").def.expect("a def");
    assert!(map.missing_def(&present).is_none());

    assert!(cases >= 30, "only {cases} catalogue cases");
    let missing_codes: Vec<&str> = codes::ALL
        .iter()
        .copied()
        .filter(|c| !seen.contains(*c))
        .collect();
    assert!(
        missing_codes.is_empty(),
        "codes without a catalogue case: {missing_codes:?}"
    );
}
