//! Property test: no text makes the def parser, the validator or the map
//! parser panic, and their reports always render.

use proptest::prelude::*;
use tera_defs_front::{parse_def, parse_map};

/// Pieces of the def and map languages, glued together at random.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("-".to_string()),
        Just("- ".to_string()),
        Just("--".to_string()),
        Just("<".to_string()),
        Just(">".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(".".to_string()),
        Just("=".to_string()),
        Just(" ".to_string()),
        Just("\t".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r".to_string()),
        Just("\u{feff}".to_string()),
        Just("#".to_string()),
        Just("interleaved".to_string()),
        Just("ref".to_string()),
        Just("offset".to_string()),
        Just("count".to_string()),
        Just("array".to_string()),
        Just("object".to_string()),
        Just("string".to_string()),
        Just("bytes".to_string()),
        Just("int32".to_string()),
        Just("vec3".to_string()),
        Just("65536".to_string()),
        Just("4294967296".to_string()),
        "[a-zA-Z_][a-zA-Z0-9_]{0,6}",
        "[0-9]{1,12}",
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(token(), 0..60).prop_map(|t| t.concat()),
        ".{0,200}",
    ]
}

/// Lines that are mostly valid, with random nesting, types and refs.
fn def_like() -> impl Strategy<Value = String> {
    let line = (
        0usize..5,
        prop::sample::select(vec![
            "int32",
            "string",
            "bytes",
            "array",
            "object",
            "array<int32>",
            "array<string>",
            "array[interleaved]",
            "ref",
            "offset",
            "count",
            "bool",
            "foo",
        ]),
        prop::sample::select(vec!["a", "b", "o", "o.s", "s", "type", "A", "aB", "a_b"]),
    )
        .prop_map(|(depth, ty, name)| format!("{}{ty} {name}", "- ".repeat(depth)));
    prop::collection::vec(line, 0..25).prop_map(|l| l.join("\n"))
}

fn check(source: &str) {
    let checked = parse_def("S_FUZZ.1.def", source);
    let _ = checked.report.render(false);
    let _ = checked.report.render(true);
    assert_eq!(checked.def.is_some(), checked.report.error_count() == 0);
    for name in ["protocol.1.map", "sysmsg.2.map", "bad.map"] {
        let map = parse_map(name, source);
        let _ = map.report.render(false);
        // A map whenever the file name is a map's, with at most an entry a line.
        assert_eq!(map.map.is_some(), name != "bad.map");
        if let Some(map) = &map.map {
            assert!(map.entries.len() <= source.lines().count());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(source in text()) {
        check(&source);
    }

    #[test]
    fn def_like_text_never_panics(source in def_like()) {
        check(&source);
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let source: String = (0..200)
        .map(|i| format!("{}object o{i}\n", "-".repeat(i)))
        .collect();
    let checked = parse_def("S_DEEP.1.def", &source);
    assert!(checked.report.error_count() > 0);
}
