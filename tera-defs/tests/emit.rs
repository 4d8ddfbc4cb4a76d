//! Snapshots of the generated source for a handful of the project's own
//! defs, so that a change in emission shows in review; and the Builder's
//! behaviour on bad input and on unchanged output.

use std::path::{Path, PathBuf};

use tera_defs::{BuildError, Builder, Serde};

fn own_def(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../defs")
        .join(name)
}

/// As the root crate's build.rs asks: serde and `Arbitrary` behind features.
fn generate(file: &str) -> String {
    Builder::new()
        .defs_dir(own_def(file))
        .serde(Serde::feature())
        .arbitrary_feature(Some("arbitrary"))
        .generate()
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn snapshot_plain_packet_with_versions_and_renames() {
    insta::assert_snapshot!("s_chat_2", generate("S_CHAT.2.def"));
}

#[test]
fn snapshot_split_object_and_array_of_values() {
    insta::assert_snapshot!("s_skill_result_1", generate("S_SKILL_RESULT.1.def"));
}

#[test]
fn snapshot_explicit_refs_and_nested_arrays() {
    insta::assert_snapshot!("s_itemlist_1", generate("S_ITEMLIST.1.def"));
}

#[test]
fn snapshot_interleaved_arrays() {
    insta::assert_snapshot!(
        "c_start_combo_skill_1",
        generate("C_START_COMBO_SKILL.1.def")
    );
}

#[test]
fn snapshot_empty_packet_without_serde_or_arbitrary() {
    let source = Builder::new()
        .defs_dir(own_def("S_PING.1.def"))
        .serde(Serde::Off)
        .arbitrary_feature(None)
        .generate()
        .unwrap();
    assert!(!source.contains("serde"));
    assert!(!source.contains("arbitrary"));
    insta::assert_snapshot!("s_ping_1_no_serde", source);
}

#[test]
fn packets_filter_and_latest_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../defs");
    let only_chat = Builder::new()
        .defs_dir(&dir)
        .packets(["S_CHAT"])
        .generate()
        .unwrap();
    assert!(only_chat.contains("pub mod s_chat"));
    assert!(!only_chat.contains("pub mod s_ping"));
    assert!(only_chat.contains("pub struct V1") && only_chat.contains("pub struct V2"));
    let latest = Builder::new()
        .defs_dir(&dir)
        .packets(["S_CHAT"])
        .latest_only(true)
        .generate()
        .unwrap();
    assert!(latest.contains("pub struct V4") && !latest.contains("pub struct V2"));
}

#[test]
fn schema_errors_stop_the_build_with_diagnostics() {
    let dir = std::env::temp_dir().join(format!("tera-defs-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("S_BAD.1.def"), "int32 a\nfloot b\narray<nope> c\n").unwrap();
    std::fs::write(dir.join("S_GOOD.1.def"), "int32 a\n").unwrap();
    let err = Builder::new().defs_dir(&dir).generate().unwrap_err();
    let BuildError::Schema(reports) = &err else {
        panic!("expected schema errors, got {err}");
    };
    assert_eq!(reports.len(), 1);
    let text = err.to_string();
    assert!(text.contains("S_BAD.1.def:2:1"), "{text}");
    assert!(text.contains("unknown type `floot`"), "{text}");
    assert!(
        text.ends_with("2 errors in the packet definitions\n"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compile_writes_only_when_the_content_changes() {
    let out = std::env::temp_dir().join(format!("tera-defs-out-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut builder = Builder::new();
    builder.defs_dir(own_def("S_PING.1.def")).out_dir(&out);
    builder.compile().unwrap();
    let file = out.join("tera_packets.rs");
    let first = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    builder.compile().unwrap();
    let second = std::fs::metadata(&file).unwrap().modified().unwrap();
    assert_eq!(first, second, "an unchanged build rewrote the file");
    std::fs::remove_dir_all(&out).unwrap();
}

/// `Builder::compile` prints these as `cargo:warning=` lines: one line per
/// warning, naming the def's path, line and column.
#[test]
fn warnings_name_path_line_and_column() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../defs");
    let warnings = Builder::new().defs_dir(&dir).warnings().unwrap();
    let join = dir.join("C_JOIN_PRIVATE_CHANNEL.1.def");
    let expected = format!(
        "{}:3:1: warning[W002]: fixed field `password` follows variable field `channelName`; \
         this crate reads it where the writer puts it;",
        join.display()
    );
    assert!(
        warnings.iter().any(|w| w.starts_with(&expected)),
        "{warnings:#?}"
    );
    // The two W002 and S_JOIN_PRIVATE_CHANNEL.2's field-less array (W001),
    // as the protocol has it.
    assert_eq!(warnings.len(), 3, "{warnings:#?}");
    assert!(warnings.iter().all(|w| !w.contains('\n')));
}

/// A reviewed warning (`expect_warning`) is not shown by `compile`, the
/// others are, and a review whose warning is gone is shown instead.
#[test]
fn reviewed_warnings_are_not_shown_and_a_stale_review_is() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../defs");
    let mut builder = Builder::new();
    builder
        .defs_dir(&dir)
        .expect_warning("C_JOIN_PRIVATE_CHANNEL.1.def", "W002")
        .expect_warning("C_EDIT_PRIVATE_CHANNEL.1.def", "W002");
    let shown = builder.unexpected_warnings().unwrap();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(shown[0].contains("S_JOIN_PRIVATE_CHANNEL.2.def:7:1: warning[W001]"));
    assert_eq!(builder.warnings().unwrap().len(), 3, "all still listed");

    // Another code of the same def is no review of this one.
    builder
        .expect_warning("S_JOIN_PRIVATE_CHANNEL.2.def", "W001")
        .expect_warning("S_JOIN_PRIVATE_CHANNEL.2.def", "W002");
    let shown = builder.unexpected_warnings().unwrap();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with("S_JOIN_PRIVATE_CHANNEL.2.def: warning W002 was expected"),
        "{}",
        shown[0]
    );
}

/// By default the generated code assumes no feature of the crate that
/// includes it (no `cfg(feature = ...)`, no serde, no `Arbitrary`).
#[test]
fn default_builder_assumes_no_features() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../defs");
    let source = Builder::new().defs_dir(&dir).generate().unwrap();
    for word in ["feature", "serde", "arbitrary", "Arbitrary"] {
        assert!(!source.contains(word), "`{word}` in the default output");
    }
    let asked = Builder::new()
        .defs_dir(&dir)
        .serde(Serde::feature())
        .arbitrary_feature(Some("arbitrary"))
        .generate()
        .unwrap();
    assert!(asked.contains("#[cfg_attr(feature = \"serde\""));
    assert!(asked.contains("#[cfg_attr(feature = \"arbitrary\""));
}
