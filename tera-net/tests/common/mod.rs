//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Decodes a hex string (panics on bad input: test data only).
pub fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 128-byte key from hex.
pub fn key(s: &str) -> [u8; 128] {
    unhex(s).try_into().expect("key is 128 bytes")
}

/// `$TERA_DATA_DIR/../net/pike-vectors.json`, parsed; `None` (with a notice)
/// when the variable is unset.
pub fn vectors(test: &str) -> Option<serde_json::Value> {
    let Some(dir) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("{test}: TERA_DATA_DIR is not set; skipping the pike-vectors.json test");
        return None;
    };
    let path = PathBuf::from(dir)
        .join("..")
        .join("net")
        .join("pike-vectors.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    Some(serde_json::from_str(&text).expect("pike-vectors.json is valid JSON"))
}

/// A string field of a JSON object.
pub fn field<'a>(v: &'a serde_json::Value, name: &str) -> &'a str {
    v.get(name)
        .and_then(|x| x.as_str())
        .unwrap_or_else(|| panic!("missing string field {name}"))
}
