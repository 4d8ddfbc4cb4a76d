//! `tera-defs gen` as a process.

mod common;

use common::*;

#[test]
fn one_def_file() {
    let out = run(&["gen", &project("defs/S_CHAT.2.def")], None);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(out.stdout.contains("pub mod s_chat {"), "{}", out.stdout);
    assert!(out.stdout.contains("pub struct V2<'a>"));
    assert!(
        out.stdout
            .contains("pub author_name: ::tera_packets::Str<'a>"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("pub struct V1<'a>"));
    assert!(out.stdout.contains("pub static PROTOCOL_MAPS"));
}

#[test]
fn a_folder_with_maps_and_filters() {
    let defs = project("defs");
    let maps = project("maps");
    let out = run(&["gen", &defs, &maps], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("pub mod s_spawn_npc {"));
    assert!(
        out.stdout.contains("(\"S_CHAT\", 19503u16)"),
        "the map is compiled in"
    );
    let out = run(&["gen", &defs, "--packet", "S_CHAT", "--latest-only"], None);
    assert!(out.stdout.contains("pub struct V4<'a>"));
    assert!(!out.stdout.contains("pub struct V2<'a>"));
    assert!(!out.stdout.contains("pub mod s_spawn_npc"));
}

#[test]
fn schema_errors_print_diagnostics() {
    let dir = scratch("gen-bad");
    std::fs::write(dir.join("S_BAD.1.def"), "uint32 id\nint33 x\n").unwrap();
    let out = run(&["gen", dir.to_str().unwrap()], None);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.contains("error[E010]: unknown type `int33`"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("S_BAD.1.def:2:1"), "{}", out.stderr);
    assert!(
        out.stderr
            .ends_with("error: 1 errors in the packet definitions: nothing generated\n"),
        "{}",
        out.stderr
    );
    let out = run(&["gen"], None);
    assert_eq!(out.code, 2);
}
