//! `tera-defs opcodes discover` and `check` read every session source the
//! sessions library reads (JSONL, and a `.TeraLog` written from it here),
//! go on past broken defs (reported with file, line and column), and take a
//! map whose alias line (a second name on a code) is a warning. On the real
//! session of `../shared/real-sessions` with its build's public map and
//! defs (skipped with a notice when absent, `TERA_SHARED_DIR` to move it),
//! and on a small fixture of this file's own.

mod common;

use std::path::{Path, PathBuf};

use common::{run, scratch};

fn real_sessions() -> Option<PathBuf> {
    let shared = std::env::var_os("TERA_SHARED_DIR")
        .map_or_else(|| common::root().join("../shared"), PathBuf::from);
    let dir = shared.join("real-sessions");
    if dir.join("protocol.376012.map").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: no real sessions at {} (set TERA_SHARED_DIR)",
            dir.display()
        );
        None
    }
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// `capture SOURCE --write OUT`: the sessions library's writer.
fn convert(source: &Path, out: &Path) {
    let r = run(&["capture", text(source), "--write", text(out)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn discover_and_check_read_the_real_session_as_jsonl_and_teralog() {
    let Some(dir) = real_sessions() else { return };
    let jsonl = dir.join("classic-plus-376012-server.jsonl");
    let defs = dir.join("defs-376012");
    let map = dir.join("protocol.376012.map");
    let teralog = scratch("opcodes-real").join("session.TeraLog");
    convert(&jsonl, &teralog);
    for source in [&jsonl, &teralog] {
        let r = run(
            &["opcodes", "discover", text(source), "--defs", text(&defs)],
            None,
        );
        assert_eq!(r.code, 0, "{}: {}", source.display(), r.stderr);
        // The folder's broken def is reported where it is wrong, and the
        // others are used.
        assert!(
            r.stderr
                .contains("error[E031]: duplicate field `achievements`")
                && r.stderr.contains("S_LOAD_ACHIEVEMENT_LIST.1.def:7:7"),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains("235 packets in 1 sessions, 97 opcodes"),
            "{}",
            r.stderr
        );
        assert!(r.stdout.contains("S_CHECK_VERSION"), "{}", r.stdout);
    }
    let r = run(
        &[
            "opcodes",
            "check",
            text(&jsonl),
            "--map",
            text(&map),
            "--defs",
            text(&defs),
        ],
        None,
    );
    assert_ne!(r.code, 2, "the map is taken: {}", r.stderr);
    assert!(
        r.stderr.contains(
            "warning[W007]: duplicate code 5216 (`C_CANCEL_SKILL_STRICTLY` and \
             `C_CANCEL_SKILL_STRICTLYY`)"
        ) && r.stderr.contains("protocol.376012.map:2170:26"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.starts_with("entries seen: "), "{}", r.stdout);
}

#[test]
fn capture_takes_the_real_map_with_its_alias_line() {
    let Some(dir) = real_sessions() else { return };
    let r = run(
        &[
            "capture",
            text(&dir.join("classic-plus-376012-server.jsonl")),
            "--defs",
            text(&dir.join("defs-376012")),
            "--map",
            text(&dir.join("protocol.376012.map")),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("warning[W007]"), "{}", r.stderr);
    assert!(r.stdout.contains("\"name\":\"S_LOGIN\""), "{}", r.stdout);
}

/// A folder with one def that fits and one that does not parse, a map
/// with an alias line, and a JSONL session of four packets of the def.
fn fixture() -> PathBuf {
    let dir = scratch("opcodes-fixture");
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).expect("a defs folder");
    std::fs::write(defs.join("S_FIX.1.def"), "uint32 a\nuint32 b\n").expect("write");
    std::fs::write(defs.join("S_BROKEN.1.def"), "uint32 a\nint33 b\n").expect("write");
    std::fs::write(
        dir.join("protocol.9.map"),
        "S_FIX 30000\nS_FIXX 30000\nS_BROKEN 30001\n",
    )
    .expect("write");
    let mut lines = vec![
        r#"{"session":0,"time":"2026-01-01T00:00:00Z","start":{"keys":"current"}}"#.to_owned(),
    ];
    for k in 0..4u8 {
        lines.push(format!(
            r#"{{"session":0,"time":"2026-01-01T00:00:0{k}Z","dir":"s2c","opcode":30000,"hex":"0c003075{k:02x}000000{:02x}000000"}}"#,
            k * 7 + 1
        ));
    }
    std::fs::write(dir.join("session.jsonl"), lines.join("\n") + "\n").expect("write");
    dir
}

#[test]
fn a_fixture_of_our_own_as_jsonl_and_teralog() {
    let dir = fixture();
    let jsonl = dir.join("session.jsonl");
    let teralog = dir.join("session.TeraLog");
    convert(&jsonl, &teralog);
    let defs = dir.join("defs");
    let map = dir.join("protocol.9.map");
    for source in [&jsonl, &teralog] {
        let r = run(
            &["opcodes", "discover", text(source), "--defs", text(&defs)],
            None,
        );
        assert_eq!(r.code, 0, "{}: {}", source.display(), r.stderr);
        assert!(
            r.stderr.contains("error[E010]: unknown type `int33`")
                && r.stderr.contains("S_BROKEN.1.def:2:1"),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr.contains("4 packets in 1 sessions, 1 opcodes"),
            "{}",
            r.stderr
        );
        let r = run(
            &[
                "opcodes",
                "check",
                text(source),
                "--map",
                text(&map),
                "--defs",
                text(&defs),
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}: {}", source.display(), r.stderr);
        assert!(
            r.stderr
                .contains("warning[W007]: duplicate code 30000 (`S_FIX` and `S_FIXX`)")
                && r.stderr.contains("protocol.9.map:2:8")
                && r.stderr.contains("S_BROKEN.1.def:2:1"),
            "{}",
            r.stderr
        );
        assert!(
            r.stdout.starts_with("entries seen: 1, fitting: 1"),
            "{}",
            r.stdout
        );
    }
}
