//! The JS reference's vectors against the generated packets: decode every
//! vector's `hex`, compare the JSON with `value` (with `input` where the JS
//! reader is wrong), encode the JSON value back and get `hex` byte for byte.
//!
//! Needs the crate built from the real corpus (`TERA_DATA_DIR`) and, for the
//! synthetic vectors, the synthetic defs too (`TERA_EXTRA_DEFS`).

use std::path::PathBuf;

use serde_json::Value;
use tera_data::{AnyPacket, PACKETS};

fn shared_vectors() -> Option<PathBuf> {
    let Some(data) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("skipping: TERA_DATA_DIR is not set (point it at ../shared/tera-data)");
        return None;
    };
    let dir = PathBuf::from(data).join("../vectors");
    dir.is_dir().then_some(dir)
}

/// Numbers compare by value (the JS writes `0` where serde writes `0.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// `S_LOGIN.15.def` -> (`S_LOGIN`, 15).
fn split_def(def: &str) -> (&str, u32) {
    let stem = def.strip_suffix(".def").unwrap();
    let (name, version) = stem.rsplit_once('.').unwrap();
    (name, version.parse().unwrap())
}

fn check(line: &Value) -> Result<(), String> {
    let (name, version) = split_def(line["def"].as_str().unwrap());
    let bytes = hex(line["hex"].as_str().unwrap());
    let expected = line.get("input").unwrap_or(&line["value"]);
    let decoded = AnyPacket::decode(name, version, &bytes).map_err(|e| format!("decode: {e}"))?;
    let json = serde_json::to_value(&decoded).unwrap();
    if !same(&json, expected) {
        return Err(format!("value differs:\n ours {json}\n want {expected}"));
    }
    if decoded.encode().map_err(|e| format!("encode: {e}"))? != bytes {
        return Err("re-encoding the decoded value changed the bytes".into());
    }
    let from_json = AnyPacket::deserialize_as(name, version, expected.clone())
        .map_err(|e| format!("json: {e}"))?;
    if from_json.encode().map_err(|e| format!("encode: {e}"))? != bytes {
        return Err("encoding the JSON value does not give `hex`".into());
    }
    Ok(())
}

/// Runs every line of a vector file; returns how many passed.
fn run(file: &str) -> usize {
    let Some(dir) = shared_vectors() else {
        return 0;
    };
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match check(&v) {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{} k={}: {e}", v["def"], v["k"])),
        }
    }
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{shown:#?}",
        failures.len(),
        text.lines().count()
    );
    passed
}

fn compiled(name: &str) -> bool {
    PACKETS.iter().any(|p| p.name == name)
}

/// The whole corpus is compiled in (the project's own defs hold some of
/// its packets too, S_LOGIN among them, but not 836).
fn corpus_compiled() -> bool {
    PACKETS.len() >= 836
}

#[test]
fn corpus_vectors_round_trip_byte_exact() {
    if !corpus_compiled() {
        eprintln!(
            "skipping: the crate was not built from the corpus (set TERA_DATA_DIR when building)"
        );
        return;
    }
    assert!(PACKETS.len() >= 836, "the whole corpus is compiled in");
    let passed = run("corpus.jsonl");
    if shared_vectors().is_some() {
        assert_eq!(passed, 6688);
    }
}

#[test]
fn synthetic_vectors_round_trip_byte_exact() {
    if !compiled("SYN_ALL_PRIMS") {
        eprintln!(
            "skipping: the synthetic defs are not compiled in (set TERA_EXTRA_DEFS when building)"
        );
        return;
    }
    let passed = run("synthetic.jsonl");
    if shared_vectors().is_some() {
        assert_eq!(passed, 72);
    }
}
