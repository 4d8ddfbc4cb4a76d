//! `decode --jsonl` and `encode --jsonl` as processes, and the round trip
//! over every shared vector.

mod common;

use common::*;
use serde_json::Value;

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn decode_lines_in_order_with_errors() {
    if !own_defs() {
        return;
    }
    let hex = chat2_hex();
    let input = format!(
        "{{\"def\":\"S_CHAT.2.def\",\"hex\":\"{hex}\",\"k\":0}}\n\
         \n\
         {{\"def\":\"S_CAHT.2.def\",\"hex\":\"{hex}\"}}\n\
         {{\"def\":\"S_CHAT.2.def\",\"hex\":\"0400zz\"}}\n\
         not json\n\
         {{\"def\":\"S_PING.1.def\",\"hex\":\"04002f4c\"}}\n\
         {{\"def\":\"S_CHAT.2.def\",\"hex\":\"2500\"}}\n"
    );
    let out = run(&["decode", "--jsonl"], Some(input.as_bytes()));
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "4 of 6 lines failed (see their \"error\" keys)\n"
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 6);
    assert_eq!(got[0]["def"], "S_CHAT.2.def");
    assert_eq!(
        got[0]["value"],
        serde_json::from_str::<Value>(CHAT2_JSON).unwrap()
    );
    assert_eq!(
        got[1]["error"],
        "unknown packet `S_CAHT`: did you mean S_CHAT?"
    );
    assert_eq!(
        got[2]["error"],
        "bad hex: 'z' at character 5 is not a hex digit"
    );
    assert_eq!(got[3]["def"], Value::Null);
    assert!(
        got[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("input line 5: expected ident"),
        "{}",
        got[3]
    );
    // A non-zero opcode is kept, so that encode --jsonl can write it back.
    assert_eq!(
        got[4],
        serde_json::json!({"def": "S_PING.1.def", "opcode": 19503, "value": {}})
    );
    assert!(got[5]["error"].as_str().unwrap().contains("4-byte header"));
}

#[test]
fn encode_lines_in_order_with_errors() {
    if !own_defs() {
        return;
    }
    let input = format!(
        "{{\"def\":\"S_CHAT.2.def\",\"value\":{CHAT2_JSON}}}\n\
         {{\"value\":{{}},\"def\":\"S_PING.1.def\",\"opcode\":7}}\n\
         {{\"def\":\"S_PING.1\",\"value\":5}}\n\
         {{\"def\":\"S_CHAT.3.def\",\"value\":{{}}}}\n"
    );
    let out = run(&["encode", "--jsonl"], Some(input.as_bytes()));
    assert_eq!(out.code, 1);
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 4);
    assert_eq!(
        got[0],
        serde_json::json!({"def": "S_CHAT.2.def", "hex": chat2_hex()})
    );
    assert_eq!(
        got[1],
        serde_json::json!({"def": "S_PING.1.def", "hex": "04000700"})
    );
    assert!(
        got[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("the JSON is not a value of S_PING.1")
    );
    assert_eq!(
        got[3]["error"],
        "S_CHAT has no version 3; compiled in: 1, 2, 4"
    );
    // --map fills the opcode of lines without one.
    let map = project("maps/protocol.1.map");
    let line = "{\"def\":\"S_PING.1.def\",\"value\":{}}\n";
    let out = run(&["encode", "--jsonl", "--map", &map], Some(line.as_bytes()));
    assert_eq!(
        out.stdout,
        "{\"def\":\"S_PING.1.def\",\"hex\":\"0400344c\"}\n"
    );
    assert_eq!(out.code, 0);
}

#[test]
fn own_round_trip_keeps_opcodes() {
    if !own_defs() {
        return;
    }
    let with_opcode = chat2_hex().replacen("25000000", "25002f4c", 1);
    let input = format!(
        "{{\"def\":\"S_CHAT.2.def\",\"hex\":\"{with_opcode}\"}}\n{{\"def\":\"S_PING.1.def\",\"hex\":\"04000000\"}}\n"
    );
    let decoded = run(&["decode", "--jsonl"], Some(input.as_bytes()));
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    let encoded = run(&["encode", "--jsonl"], Some(decoded.stdout.as_bytes()));
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    let got = lines(&encoded.stdout);
    assert_eq!(got[0]["hex"], with_opcode.as_str());
    assert_eq!(got[1]["hex"], "04000000");
}

/// decode --jsonl | encode --jsonl over a whole vector file gives every
/// line's hex back, in order.
fn round_trip(file: &str) -> usize {
    let Some(dir) = vectors() else { return 0 };
    let input = std::fs::read(dir.join(file)).unwrap();
    let wanted: Vec<String> = lines(std::str::from_utf8(&input).unwrap())
        .iter()
        .map(|v| v["hex"].as_str().unwrap().to_owned())
        .collect();
    let decoded = run(&["decode", "--jsonl"], Some(&input));
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    let encoded = run(&["encode", "--jsonl"], Some(decoded.stdout.as_bytes()));
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    let got = lines(&encoded.stdout);
    assert_eq!(got.len(), wanted.len());
    let input_lines = lines(std::str::from_utf8(&input).unwrap());
    for ((line, want), source) in got.iter().zip(&wanted).zip(&input_lines) {
        assert_eq!(line["def"], source["def"]);
        assert_eq!(
            line["hex"].as_str(),
            Some(want.as_str()),
            "{}",
            source["def"]
        );
    }
    got.len()
}

#[test]
fn corpus_round_trip() {
    if !corpus() {
        return;
    }
    let n = round_trip("corpus.jsonl");
    if vectors().is_some() {
        assert_eq!(n, 6688);
    }
}

#[test]
fn synthetic_round_trip() {
    if !tera_data::PACKETS.iter().any(|p| p.name == "SYN_ALL_PRIMS") {
        eprintln!("skipping: the synthetic defs are not compiled in (set TERA_EXTRA_DEFS)");
        return;
    }
    let n = round_trip("synthetic.jsonl");
    if vectors().is_some() {
        assert_eq!(n, 72);
    }
}
