//! The vectors written by diepcustom's own Writer: every encoding decodes
//! to its value and encodes to its bytes; every message decodes to its
//! value and its value encodes to its bytes.
//!
//! Reads `DIEP_VECTORS` (default `../shared/diep/vectors` from the
//! workspace root); prints a notice and checks nothing when absent.

use std::path::PathBuf;

use diep_packets::Side;
use diep_packets::json::{self, entid_from_json, entid_to_json, f32_from_json};
use diep_packets::{Codec, EntId, FieldTable, Fixed64, StringNt, Vf, Vi, Vu};
use serde_json::Value as Json;
use tera_packets::{Reader, Writer};

fn vectors_dir() -> Option<PathBuf> {
    // Tests run in the crate's directory: a relative `DIEP_VECTORS` is
    // taken from there or, failing that, from the workspace root (where
    // `DIEP_VECTORS=../shared/diep/vectors cargo test` is typed).
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = match std::env::var_os("DIEP_VECTORS").map(PathBuf::from) {
        Some(d) if d.is_relative() && !d.is_dir() => root.join(d),
        Some(d) => d,
        // Tests run in the crate's directory; the shared data sits beside
        // the workspace root.
        None => root.join("../shared/diep/vectors"),
    };
    dir.join("encodings.jsonl").is_file().then_some(dir)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Reads one `T` from all of `bytes`.
fn read_all<'a, T: Codec<'a>>(bytes: &'a [u8]) -> Result<T, String> {
    let mut r = Reader::at(bytes, 0);
    let v = T::read_at(&mut r).map_err(|e| e.to_string())?;
    if r.remaining() != 0 {
        return Err(format!("{} bytes left", r.remaining()));
    }
    Ok(v)
}

fn write<'a, T: Codec<'a>>(v: &T) -> Vec<u8> {
    let mut buf = vec![0; v.byte_len()];
    let mut w = Writer::new(&mut buf, 0);
    v.write_at(&mut w);
    assert_eq!(w.pos(), buf.len());
    buf
}

/// Checks one line of `encodings.jsonl`: decode gives the value, the
/// value encodes to the bytes.
fn check_encoding(line: &Json) -> Result<(), String> {
    let encoding = line["encoding"].as_str().unwrap_or_default();
    let bytes = unhex(line["hex"].as_str().unwrap_or_default());
    let value = &line["value"];
    let bits = line["bits"]
        .as_str()
        .map(|b| u32::from_str_radix(b, 16).unwrap());
    let as_u32 = |v: &Json| {
        v.as_u64()
            .map(|n| n as u32)
            .or_else(|| v.as_i64().map(|n| n as u32))
    };
    let encoded = match encoding {
        "vu" => {
            let want = as_u32(value).ok_or("value is not a u32")?;
            let got = read_all::<Vu>(&bytes)?;
            if got.0 != want {
                return Err(format!("decoded {}", got.0));
            }
            write(&Vu(want))
        }
        "vi" => {
            let want = value.as_i64().ok_or("value is not an i32")? as i32;
            let got = read_all::<Vi>(&bytes)?;
            if got.0 != want {
                return Err(format!("decoded {}", got.0));
            }
            write(&Vi(want))
        }
        "vf" | "f32" => {
            let bits = bits.ok_or("no bits")?;
            let got = if encoding == "vf" {
                read_all::<Vf>(&bytes)?.0
            } else {
                read_all::<f32>(&bytes)?
            };
            if got.to_bits() != bits {
                return Err(format!("decoded bits {:08x}", got.to_bits()));
            }
            // The value agrees with the bits.
            let from_json = f32_from_json(value).ok_or("value is not an f32")?;
            if from_json.to_bits() != bits && !(from_json.is_nan() && got.is_nan()) {
                return Err(format!("value {value} is not bits {bits:08x}"));
            }
            let x = f32::from_bits(bits);
            if encoding == "vf" {
                write(&Vf(x))
            } else {
                write(&x)
            }
        }
        "u32" => {
            let want = as_u32(value).ok_or("value is not a u32")?;
            let got = read_all::<u32>(&bytes)?;
            if got != want {
                return Err(format!("decoded {got}"));
            }
            write(&want)
        }
        "u8" => {
            let want = value.as_u64().ok_or("value is not a u8")? as u8;
            let got = read_all::<u8>(&bytes)?;
            if got != want {
                return Err(format!("decoded {got}"));
            }
            write(&want)
        }
        "stringNT" => {
            let want = value.as_str().ok_or("value is not a string")?;
            let got = read_all::<StringNt<'_>>(&bytes)?;
            if got != want {
                return Err(format!("decoded {got:?}"));
            }
            write(&StringNt::new(want).map_err(|e| e.to_string())?)
        }
        "entid" => {
            let want = entid_from_json(value).ok_or("value is not an entid")?;
            let got = read_all::<EntId>(&bytes)?;
            if got != want {
                return Err(format!("decoded {}", entid_to_json(got)));
            }
            write(&want)
        }
        "fixed64" => {
            let want = value.as_f64().ok_or("value is not a number")?;
            let got = read_all::<Fixed64>(&bytes)?;
            if got.to_f64() != want {
                return Err(format!("decoded {}", got.to_f64()));
            }
            write(&Fixed64::from_f64(want))
        }
        other => return Err(format!("unknown encoding {other}")),
    };
    if encoded != bytes {
        return Err(format!("encoded {}", hex(&encoded)));
    }
    Ok(())
}

/// Whether two JSON values are equal, numbers as `f64` (an `f32` is
/// written as its exact `f64`) and integers also modulo 2^32 (the JS writer
/// writes a negative `vu` as its two's complement).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                return x == y || (x as u32 == y as u32);
            }
            x.as_f64() == y.as_f64()
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Checks one line of `messages.jsonl`.
fn check_message(line: &Json, table: &FieldTable) -> Result<(), String> {
    let side = Side::from_name(line["side"].as_str().unwrap_or_default()).ok_or("bad side")?;
    let name = line["name"].as_str().unwrap_or_default();
    let bytes = unhex(line["hex"].as_str().unwrap_or_default());
    let decoded = json::decode(side, &bytes, table).map_err(|e| format!("decode: {e}"))?;
    if u64::from(decoded.id) != line["id"].as_u64().unwrap_or(999) || decoded.name != name {
        return Err(format!("decoded as {} {}", decoded.id, decoded.name));
    }
    if !same(&decoded.value, &line["value"]) {
        return Err(format!("decoded value {}", decoded.value));
    }
    let encoded =
        json::encode(side, name, &line["value"], table).map_err(|e| format!("encode: {e}"))?;
    if encoded != bytes {
        return Err(format!("encoded {}", hex(&encoded)));
    }
    Ok(())
}

#[test]
fn diep_vectors() {
    let Some(dir) = vectors_dir() else {
        eprintln!("diep vectors: DIEP_VECTORS not found (default ../shared/diep/vectors): skipped");
        return;
    };
    let table = FieldTable::builtin();
    let mut failures = Vec::new();
    let mut count = |file: &str, check: &dyn Fn(&Json) -> Result<(), String>| {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let (mut ok, mut total) = (0, 0);
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
            total += 1;
            let v: Json = serde_json::from_str(line).unwrap();
            match check(&v) {
                Ok(()) => ok += 1,
                Err(e) => failures.push(format!("{file}:{}: {e}\n  {line}", n + 1)),
            }
        }
        (ok, total)
    };
    let (enc_ok, enc_total) = count("encodings.jsonl", &check_encoding);
    let (msg_ok, msg_total) = count("messages.jsonl", &|v| check_message(v, table));
    println!("diep vectors: {enc_ok}/{enc_total} encodings, {msg_ok}/{msg_total} messages");
    for f in failures.iter().take(10) {
        println!("{f}");
    }
    assert!(enc_total > 0 && msg_total > 0, "no vectors read");
    assert!(failures.is_empty(), "{} vectors failed", failures.len());
}

#[test]
fn the_compiled_in_table_is_the_shared_fields_json() {
    let Some(dir) = vectors_dir() else {
        eprintln!("diep vectors: fields.json not found: skipped");
        return;
    };
    let text = std::fs::read_to_string(dir.join("../fields.json")).unwrap();
    let loaded = FieldTable::from_json(&text).unwrap();
    assert_eq!(&loaded, FieldTable::builtin());
    assert_eq!(loaded.order().len(), 68);
    assert_eq!(
        loaded.field(21).map(|f| f.name()),
        Some("Example.exampleTest")
    );
}
