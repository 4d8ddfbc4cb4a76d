//! Def names that meet in Rust: the renames of docs/def-language.md
//! ("Names in Rust"), as the warnings `check` and the build show, and as the
//! generated code spells them.

use std::path::Path;

use tera_defs::{Builder, FIELD_RENAMED, Report, TYPE_RENAMED, rust_name_warnings};

/// The def's report with the warnings of its Rust names, rendered.
fn warnings(file_name: &str, source: &str) -> (Report, String) {
    let checked = tera_defs_front::parse_def(file_name, source);
    let mut report = checked.report;
    let def = checked
        .def
        .expect("a valid def: the front end has no Rust names to refuse");
    for warning in rust_name_warnings(&def) {
        report.push(warning);
    }
    report.sort();
    let text = report.render(false);
    (report, text)
}

#[test]
fn fields_of_one_rust_name() {
    let (report, text) = warnings(
        "S_TEST.1.def",
        "int32 itemId\nint32 item_id\nint32 type\nint32 Type\narray list\n- int32 zoneId\n- int32 ZoneId\n",
    );
    assert_eq!(
        (report.error_count(), report.warning_count()),
        (0, 3),
        "{text}"
    );
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.code.as_deref() == Some(FIELD_RENAMED))
    );
    insta::assert_snapshot!("fields_of_one_rust_name", text);
}

#[test]
fn nested_types_of_one_rust_name() {
    let (report, text) = warnings(
        "S_TEST.1.def",
        "object a_b\n- array items\n- - int32 x\nobject a\n- object b\n- - array items\n- - - int32 y\narray items\n- int32 z\n",
    );
    assert_eq!((report.error_count(), report.warning_count()), (0, 1));
    assert_eq!(report.diagnostics[0].code.as_deref(), Some(TYPE_RENAMED));
    insta::assert_snapshot!("nested_types_of_one_rust_name", text);
}

#[test]
fn distinct_rust_names_give_no_warning() {
    let (report, _) = warnings(
        "S_TEST.1.def",
        "array items\n- int32 a\nobject x\n- array items\n- - int32 b\narray other\n- int32 c\n",
    );
    assert!(report.diagnostics.is_empty());
}

/// The generated struct: the second field numbered, both named by their
/// def names on the wire and in JSON.
#[test]
fn generated_code_of_two_fields_of_one_rust_name() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust-names-defs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("S_FOO.1.def"), "uint32 fooBar\nuint32 foo_bar\n").unwrap();
    let mut builder = Builder::new();
    builder.defs_dir(&dir).serde(tera_defs::Serde::feature());
    let warnings = builder.warnings().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("warning[W032]"), "{warnings:?}");
    let source = builder.generate().unwrap();
    assert!(source.contains("pub foo_bar: u32"), "{source}");
    assert!(source.contains("pub foo_bar_2: u32"), "{source}");
    let module = source
        .split("/// Every compiled-in")
        .next()
        .unwrap_or_default();
    insta::assert_snapshot!("s_foo_1", module);
}
