//! `tera-defs decode` as a process.

mod common;

use common::*;

#[test]
fn hex_argument_with_each_def_form() {
    if !own_defs() {
        return;
    }
    // A bare name is its latest version (S_CHAT.4 among the own defs):
    // `--version` picks 2.
    let forms: [&[&str]; 3] = [
        &["--def", "S_CHAT.2"],
        &["--def", "S_CHAT.2.def"],
        &["--def", "S_CHAT", "--version", "2"],
    ];
    for form in forms {
        let hex = chat2_hex();
        let out = run(&[&["decode"], form, &[hex.as_str()]].concat(), None);
        assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"), "{form:?}");
        assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    }
    // Whitespace inside the hex is fine.
    let out = run(&["decode", "--def", "S_CHAT.2", CHAT2_HEX], None);
    assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"));
}

#[test]
fn version_option_picks_an_older_version() {
    if !own_defs() {
        return;
    }
    // S_CHAT.1 reads the same bytes without the three flags (readers follow
    // the offsets of the strings).
    let out = run(
        &["decode", "--def", "S_CHAT", "--version", "1", &chat2_hex()],
        None,
    );
    assert_eq!(
        out.stdout,
        "{\"channel\":1,\"authorID\":\"5\",\"authorName\":\"Bob\",\"message\":\"hi\"}\n"
    );
    let out = run(
        &[
            "decode",
            "--def",
            "S_CHAT.2",
            "--version",
            "1",
            &chat2_hex(),
        ],
        None,
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("names version 2 but --version says 1"),
        "{}",
        out.stderr
    );
}

#[test]
fn hex_on_stdin() {
    if !own_defs() {
        return;
    }
    let input = format!("{CHAT2_HEX}\n");
    for args in [
        &["decode", "--def", "S_CHAT.2"][..],
        &["decode", "--def", "S_CHAT.2", "-"],
    ] {
        let out = run(args, Some(input.as_bytes()));
        assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"), "{args:?}");
        assert_eq!(out.code, 0);
    }
}

#[test]
fn raw_bytes_from_a_file() {
    if !own_defs() {
        return;
    }
    let dir = scratch("decode-file");
    let path = dir.join("chat.bin");
    let bytes: Vec<u8> = (0..chat2_hex().len() / 2)
        .map(|i| u8::from_str_radix(&chat2_hex()[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    std::fs::write(&path, bytes).unwrap();
    let out = run(
        &[
            "decode",
            "--def",
            "S_CHAT.2",
            "--file",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"));
    let missing = dir.join("missing.bin");
    let out = run(
        &[
            "decode",
            "--def",
            "S_CHAT.2",
            "--file",
            missing.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("error: cannot read "),
        "{}",
        out.stderr
    );
}

#[test]
fn pretty() {
    if !own_defs() {
        return;
    }
    let out = run(
        &["decode", "--def", "S_CHAT.2", "--pretty", &chat2_hex()],
        None,
    );
    assert!(
        out.stdout
            .starts_with("{\n  \"channel\": 1,\n  \"authorID\": \"5\",\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with("\n}\n"));
}

#[test]
fn opcode_through_a_map_file() {
    if !own_defs() {
        return;
    }
    let map = project("maps/protocol.1.map");
    // 19503 = 0x4c2f: S_CHAT in the own map.
    let packet = chat2_hex().replacen("25000000", "25002f4c", 1);
    let out = run(
        &[
            "decode",
            "--opcode",
            "--map",
            &map,
            "--version",
            "2",
            &packet,
        ],
        None,
    );
    assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"));
    assert_eq!(out.stderr, "opcode 19503: S_CHAT.2\n");
    assert_eq!(out.code, 0);
    // Without --map: the compiled-in map, which is the same file.
    let out = run(&["decode", "--opcode", "--version", "1", &packet], None);
    assert_eq!(out.stderr, "opcode 19503: S_CHAT.1\n");
    assert_eq!(out.code, 0);
    // Opcode 0 is in no map.
    let out = run(&["decode", "--opcode", "--map", &map, &chat2_hex()], None);
    assert_eq!(out.stderr, "error: opcode 0 is not in the protocol map\n");
    assert_eq!(out.code, 1);
    // A map that names a packet which is not compiled in.
    let dir = scratch("decode-map");
    let other = dir.join("protocol.2.map");
    std::fs::write(&other, "S_CHAT_TYPO = 19503\n").unwrap();
    let out = run(
        &[
            "decode",
            "--opcode",
            "--map",
            other.to_str().unwrap(),
            &packet,
        ],
        None,
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("opcode 19503 is S_CHAT_TYPO in the map, but unknown packet"),
        "{}",
        out.stderr
    );
    // A typo'd second name on S_CHAT's code (as the public map of build
    // 376012 has one): a warning, and the map without that line.
    std::fs::write(&other, "S_CHAT = 19503\nS_CHATT = 19503\nS_PING = 1 2\n").unwrap();
    let out = run(
        &[
            "decode",
            "--opcode",
            "--map",
            other.to_str().unwrap(),
            "--version",
            "2",
            &packet,
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, format!("{CHAT2_JSON}\n"));
    assert!(
        out.stderr
            .contains("warning[W007]: duplicate code 19503 (`S_CHAT` and `S_CHATT`)")
            && out.stderr.contains("protocol.2.map:2:11")
            && out.stderr.contains("error[E050]")
            && out.stderr.ends_with("opcode 19503: S_CHAT.2\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn decode_errors_name_field_and_offset() {
    if !own_defs() {
        return;
    }
    // The message offset points past the end of the packet.
    let bad = chat2_hex().replacen("1f00", "ff00", 1);
    let out = run(&["decode", "--def", "S_CHAT.2", &bad], None);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: S_CHAT.2 does not decode: offset points past the end of the packet at byte 6 (field `message`)\n"
    );
    assert_eq!(out.stdout, "");
    // A short packet.
    let out = run(&["decode", "--def", "S_CHAT.2", "2500"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("shorter than its 4-byte header"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_hex_says_where() {
    let out = run(&["decode", "--def", "S_CHAT", "0400 00x0"], None);
    assert_eq!(
        out.stderr,
        "error: bad hex: 'x' at character 8 is not a hex digit\n"
    );
    assert_eq!(out.code, 1);
    let out = run(&["decode", "--def", "S_CHAT", "04000"], None);
    assert_eq!(
        out.stderr,
        "error: bad hex: 5 digits is an odd number; every byte takes two\n"
    );
    assert_eq!(out.code, 1);
}

#[test]
fn unknown_names_suggest() {
    // S_CHAT is compiled in both from the own defs and from the corpus.
    let out = run(&["decode", "--def", "S_CAHT", "04000000"], None);
    assert_eq!(
        out.stderr,
        "error: unknown packet `S_CAHT`: did you mean S_CHAT?\n"
    );
    assert_eq!(out.code, 2);
    let out = run(&["decode", "--def", "S_CHAT.999", "04000000"], None);
    assert!(
        out.stderr
            .starts_with("error: S_CHAT has no version 999; compiled in: "),
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 2);
    let out = run(&["decode", "--def", "S_CHAT.x", "04000000"], None);
    assert!(
        out.stderr
            .contains("expected NAME, NAME.VERSION or NAME.VERSION.def"),
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 2);
    let out = run(&["decode", "--def", "ZZZZZZZZZZZZ", "04000000"], None);
    assert!(
        out.stderr
            .contains("`tera-defs list` shows the compiled-in packets"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["decode", "00"][..],
        &["decode", "--def", "S_CHAT", "--opcode", "00"],
        &["decode", "--def", "S_CHAT", "--file", "x.bin", "0400"],
        &[
            "decode",
            "--def",
            "S_CHAT",
            "--map",
            "protocol.1.map",
            "0400",
        ],
        &["decode", "--jsonl", "--pretty"],
        &["decode", "--def", "S_CHAT", "--version", "x"],
    ] {
        let out = run(args, None);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("error: "),
            "{args:?}: {}",
            out.stderr
        );
        assert!(out.stderr.contains("--help"), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn corpus_packet_by_opcode() {
    if !corpus() {
        return;
    }
    let Some(vectors) = vectors() else { return };
    let map = vectors.join("../tera-data/maps/protocol.365100.map");
    let map = map.to_str().unwrap();
    let corpus = std::fs::read_to_string(vectors.join("corpus.jsonl")).unwrap();
    let line: serde_json::Value = corpus
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .find(|v: &serde_json::Value| v["def"] == "C_PLAYER_LOCATION.5.def" && v["k"] == 3)
        .expect("a random C_PLAYER_LOCATION.5 vector");
    let value = line["value"].to_string();
    // Encode with the opcode of the real map: 39258 = 0x995a.
    let out = run(
        &[
            "encode",
            "--def",
            "C_PLAYER_LOCATION.5",
            "--map",
            map,
            &value,
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let hex = out.stdout.trim().to_string();
    let vector_hex = line["hex"].as_str().unwrap();
    assert_eq!(hex, vector_hex.replacen("2b000000", "2b005a99", 1));
    // Decode by that opcode: the same value as decoding by name.
    let by_opcode = run(&["decode", "--opcode", "--map", map, &hex], None);
    assert_eq!(by_opcode.code, 0, "{}", by_opcode.stderr);
    assert_eq!(by_opcode.stderr, "opcode 39258: C_PLAYER_LOCATION.5\n");
    let by_name = run(
        &["decode", "--def", "C_PLAYER_LOCATION.5.def", vector_hex],
        None,
    );
    assert_eq!(by_opcode.stdout, by_name.stdout);
    let decoded: serde_json::Value = serde_json::from_str(&by_name.stdout).unwrap();
    assert_eq!(decoded["time"], line["value"]["time"]);
    assert_eq!(decoded["jumpDistance"], 1);
}
