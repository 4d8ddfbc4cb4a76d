//! The `.def` parser and validator on arbitrary text and file names: a
//! report, never a panic. Rendering the report (spans into the source) and
//! emitting and formatting a def that passed must not fail either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_defs::emit::{EmitOptions, emit_file, format};
use tera_defs::rust_name_warnings;

fuzz_target!(|data: &[u8]| {
    // `file name NUL source`, or the whole input as the source of a valid name.
    let text = String::from_utf8_lossy(data);
    let (file_name, source) = match text.split_once('\0') {
        Some((name, source)) => (name, source),
        None => ("S_FUZZ.1.def", &*text),
    };
    let mut checked = tera_defs_front::parse_def(file_name, source);
    if let Some(def) = &checked.def {
        for warning in rust_name_warnings(def) {
            checked.report.push(warning);
        }
    }
    let rendered = checked.report.render(false);
    if let Some(def) = checked.def {
        let tokens = emit_file(std::slice::from_ref(&def), &[], &EmitOptions::default());
        if let Err(e) = format(tokens) {
            panic!("emitted code of a valid def does not parse: {e}\n{rendered}");
        }
    } else {
        assert!(checked.report.error_count() > 0, "no def and no error");
        assert!(!rendered.is_empty());
    }
});
