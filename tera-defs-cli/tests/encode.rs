//! `tera-defs encode` as a process.

mod common;

use common::*;

#[test]
fn json_argument_and_stdin() {
    if !own_defs() {
        return;
    }
    let out = run(&["encode", "--def", "S_CHAT.2", CHAT2_JSON], None);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, format!("{}\n", chat2_hex()));
    for args in [
        &["encode", "--def", "S_CHAT.2"][..],
        &["encode", "--def", "S_CHAT.2.def", "-"],
    ] {
        let out = run(args, Some(CHAT2_JSON.as_bytes()));
        assert_eq!(out.stdout, format!("{}\n", chat2_hex()), "{args:?}");
    }
    let out = run(&["encode", "--def", "S_PING", "{}"], None);
    assert_eq!(out.stdout, "04000000\n");
}

#[test]
fn json_from_a_file() {
    if !own_defs() {
        return;
    }
    let dir = scratch("encode-file");
    let path = dir.join("chat.json");
    std::fs::write(&path, format!("{CHAT2_JSON}\n")).unwrap();
    let out = run(
        &[
            "encode",
            "--def",
            "S_CHAT.2",
            "--file",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.stdout, format!("{}\n", chat2_hex()));
}

#[test]
fn opcode_from_option_or_map() {
    if !own_defs() {
        return;
    }
    let with_opcode = chat2_hex().replacen("25000000", "25002f4c", 1);
    let out = run(
        &[
            "encode", "--def", "S_CHAT.2", "--opcode", "19503", CHAT2_JSON,
        ],
        None,
    );
    assert_eq!(out.stdout, format!("{with_opcode}\n"));
    let map = project("maps/protocol.1.map");
    let out = run(
        &["encode", "--def", "S_CHAT.2", "--map", &map, CHAT2_JSON],
        None,
    );
    assert_eq!(out.stdout, format!("{with_opcode}\n"));
    // A map without the packet.
    let dir = scratch("encode-map");
    let other = dir.join("protocol.2.map");
    std::fs::write(&other, "S_PING = 7\n").unwrap();
    let out = run(
        &[
            "encode",
            "--def",
            "S_CHAT.2",
            "--map",
            other.to_str().unwrap(),
            CHAT2_JSON,
        ],
        None,
    );
    assert_eq!(out.stderr, "error: S_CHAT is not in the protocol map\n");
    assert_eq!(out.code, 2);
    let out = run(
        &[
            "encode", "--def", "S_CHAT.2", "--opcode", "70000", CHAT2_JSON,
        ],
        None,
    );
    assert_eq!(out.code, 2);
}

#[test]
fn bad_json_is_a_data_error() {
    if !own_defs() {
        return;
    }
    let out = run(&["encode", "--def", "S_CHAT.2", "{\"channel\": 1"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .starts_with("error: the JSON is not a value of S_CHAT.2: "),
        "{}",
        out.stderr
    );
    let out = run(&["encode", "--def", "S_CHAT.2", "{\"channel\": 1}"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("missing field `authorID`"),
        "{}",
        out.stderr
    );
    let out = run(
        &[
            "encode",
            "--def",
            "S_CHAT.2",
            &format!("{CHAT2_JSON} trailing"),
        ],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("trailing characters"), "{}", out.stderr);
    let big = CHAT2_JSON.replace("\"hi\"", &format!("\"{}\"", "x".repeat(40_000)));
    let out = run(&["encode", "--def", "S_CHAT.2"], Some(big.as_bytes()));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("more than 65535"), "{}", out.stderr);
}

#[test]
fn unknown_names_and_usage() {
    let out = run(&["encode", "--def", "S_CAHT", "{}"], None);
    assert_eq!(
        out.stderr,
        "error: unknown packet `S_CAHT`: did you mean S_CHAT?\n"
    );
    assert_eq!(out.code, 2);
    for args in [
        &["encode", "{}"][..],
        &[
            "encode", "--def", "S_PING", "--opcode", "1", "--map", "m.map", "{}",
        ],
        &["encode", "--jsonl", "{}"],
    ] {
        let out = run(args, None);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
    }
}
