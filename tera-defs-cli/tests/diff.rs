//! `tera-defs diff` as a process.

mod common;

use common::*;

#[test]
fn own_chat_versions() {
    let (a, b) = (project("defs/S_CHAT.1.def"), project("defs/S_CHAT.2.def"));
    let out = run(&["diff", &a, &b], None);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(
        out.stdout,
        format!(
            "A: {a}\nB: {b}\n\
             \x20 + added      unk1: bool (after authorID)\n\
             \x20 + added      gm: bool (after unk1)\n\
             \x20 + added      founder: bool (after gm)\n\
             not wire-compatible: at byte 20 of the packet, after `authorID`: B has 3 more fixed bytes \
             (unk1: bool, gm: bool, founder: bool) that A lacks\n"
        )
    );
}

#[test]
fn same_file_and_renames() {
    let a = project("defs/S_CHAT.1.def");
    let out = run(&["diff", &a, &a], None);
    assert!(
        out.stdout
            .ends_with("no field differs\nwire-compatible: identical layout\n"),
        "{}",
        out.stdout
    );
    let dir = scratch("diff-rename");
    let (x, y) = (dir.join("S_X.1.def"), dir.join("S_Y.2.def"));
    std::fs::write(&x, "int32 a\nint32 unk\narray list\n- float f\n").unwrap();
    std::fs::write(&y, "int32 a\nint32 count\narray list\n- int32 f\n").unwrap();
    let out = run(&["diff", x.to_str().unwrap(), y.to_str().unwrap()], None);
    assert!(
        out.stdout
            .contains("note: comparing two different packets, S_X and S_Y\n")
    );
    assert!(
        out.stdout.contains("  = renamed    unk -> count: int32\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("  ~ retyped    list[].f: float -> int32 (same size)\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with(
        "wire-compatible layout, but bytes are read as other types: (list[].f: float) read as (list[].f: int32)\n"
    ), "{}", out.stdout);
}

#[test]
fn bad_def_and_usage() {
    let dir = scratch("diff-bad");
    let bad = dir.join("S_X.1.def");
    std::fs::write(&bad, "int33 a\n").unwrap();
    let good = project("defs/S_CHAT.1.def");
    let out = run(&["diff", bad.to_str().unwrap(), &good], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("unknown type `int33`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("has errors: nothing compared"),
        "{}",
        out.stderr
    );
    let out = run(&["diff", &good], None);
    assert_eq!(out.code, 2);
}

#[test]
fn corpus_versions() {
    let Some(vectors) = vectors() else { return };
    let defs = vectors.join("../tera-data/definitions");
    let path = |f: &str| defs.join(f).display().to_string();
    let out = run(
        &[
            "diff",
            &path("C_PRESS_SKILL.4.def"),
            &path("C_PRESS_SKILL.5.def"),
        ],
        None,
    );
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .contains("  + added      unkn1: vec3 (after w)\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with(
            "not wire-compatible: at byte 27 of the packet, after `w`: B has 14 more fixed bytes \
         (unkn1: vec3, unkn2: bool, unkn3: bool) that A lacks\n"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn check_exits_1_when_not_wire_compatible() {
    let (a, b) = (project("defs/S_CHAT.1.def"), project("defs/S_CHAT.2.def"));
    let out = run(&["diff", "--check", &a, &b], None);
    assert_eq!((out.code, out.stderr.as_str()), (1, ""));
    // The same explanation as without --check.
    assert!(
        out.stdout
            .contains("  + added      gm: bool (after unk1)\n")
            && out
                .stdout
                .contains("not wire-compatible: at byte 20 of the packet"),
        "{}",
        out.stdout
    );
    // Without --check the verdict does not change the exit code.
    assert_eq!(run(&["diff", &a, &b], None).code, 0);
}

#[test]
fn check_exits_0_when_wire_compatible() {
    let dir = scratch("diff-check");
    let (x, y) = (dir.join("S_X.1.def"), dir.join("S_X.2.def"));
    // A rename, and two int32 read as one int64: the same bytes.
    std::fs::write(&x, "int32 lo\nint32 hi\nstring name\n").unwrap();
    std::fs::write(&y, "int64 both\nstring title\n").unwrap();
    let out = run(
        &["diff", "--check", x.to_str().unwrap(), y.to_str().unwrap()],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stdout.ends_with(
            "wire-compatible layout, but bytes are read as other types: \
             (lo: int32, hi: int32) read as (both: int64)\n"
        ),
        "{}",
        out.stdout
    );
    // Identical layouts pass too.
    let a = project("defs/S_CHAT.2.def");
    assert_eq!(run(&["diff", "--check", &a, &a], None).code, 0);
}
