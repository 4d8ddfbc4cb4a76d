//! Checks the real tera-data corpus and the synthetic defs.
//!
//! Needs `TERA_DATA_DIR` (e.g. `../shared/tera-data`); skipped with a notice
//! when it is unset.

use std::path::PathBuf;

use tera_defs_front::{FieldType, MapKind, check_paths, load_map_file};

fn data_dir() -> Option<PathBuf> {
    match std::env::var_os("TERA_DATA_DIR") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => {
            eprintln!("TERA_DATA_DIR is not set: skipping the corpus test");
            None
        }
    }
}

#[test]
fn all_corpus_defs_pass() {
    let Some(dir) = data_dir() else { return };
    let checked = check_paths(&[dir.join("definitions")]);
    assert_eq!(checked.len(), 836, "number of corpus defs");
    let mut errors = 0;
    let mut warnings = 0;
    let mut warned = Vec::new();
    let mut explicit = 0;
    for c in &checked {
        errors += c.report.error_count();
        warnings += c.report.warning_count();
        if c.report.warning_count() > 0 {
            warned.push(c.report.file_name.clone());
        }
        if !c.is_ok() {
            eprintln!("{}", c.report.render(false));
        }
        if c.def.as_ref().is_some_and(|d| d.explicit_refs) {
            explicit += 1;
        }
    }
    eprintln!(
        "corpus: {} defs, {errors} errors, {warnings} warnings ({})",
        checked.len(),
        warned.join(", ")
    );
    assert_eq!(errors, 0);
    assert_eq!(explicit, 37, "defs with explicit refs");
    assert!(warned.contains(&"I_INPUT_COMMAND.1.def".to_string()));
}

#[test]
fn split_objects_are_kept_in_place() {
    let Some(dir) = data_dir() else { return };
    let c = tera_defs_front::load_def_file(&dir.join("definitions/S_EACH_SKILL_RESULT.14.def"));
    let def = c.def.expect("valid def");
    let parts: Vec<_> = def.root.object_parts("reaction").collect();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts.iter().map(|p| p.fields().count()).sum::<usize>(), 10);
    let reaction = def.root.field("reaction").expect("reaction");
    assert_eq!(
        reaction.doc.as_deref(),
        Some("Used for knockdown, stagger etc.")
    );
    assert!(matches!(reaction.ty, FieldType::Object(_)));
}

#[test]
fn synthetic_defs_pass() {
    let Some(dir) = data_dir() else { return };
    let checked = check_paths(&[dir.join("../vectors/synthetic-defs")]);
    assert_eq!(checked.len(), 9);
    for c in &checked {
        assert!(c.is_ok(), "{}", c.report.render(false));
    }
    let legacy = checked
        .iter()
        .find(|c| c.report.file_name == "SYN_LEGACY_COUNT_OFFSET.1.def")
        .and_then(|c| c.def.as_ref())
        .expect("legacy def");
    assert!(legacy.explicit_refs);
    assert_eq!(legacy.root.refs().count(), 2);
}

#[test]
fn corpus_maps() {
    let Some(dir) = data_dir() else { return };
    let protocol = load_map_file(&dir.join("maps/protocol.365100.map"))
        .into_result()
        .unwrap_or_else(|r| panic!("{}", r.render(false)));
    assert_eq!(protocol.kind, MapKind::Protocol);
    assert_eq!(protocol.revision, 365100);
    assert_eq!(protocol.entries.len(), 417);
    assert_eq!(protocol.code("C_ADD_FRIEND"), Some(33048));
    let sysmsg = load_map_file(&dir.join("maps/sysmsg.347377.map"))
        .into_result()
        .unwrap_or_else(|r| panic!("{}", r.render(false)));
    assert_eq!(sysmsg.kind, MapKind::Sysmsg);
    assert_eq!(sysmsg.entries.len(), 4322);
    assert_eq!(sysmsg.code("SMT_UNDEFINED"), Some(0));
}
