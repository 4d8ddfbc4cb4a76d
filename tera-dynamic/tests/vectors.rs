//! The JS reference's vectors through the dynamic path, side by side with
//! the generated packets: for every line, the dynamic decode (the record and
//! the view) gives exactly the JSON the compiled-in decoder gives (which the root crate's
//! `tests/vectors.rs` holds to the vector's value), and the dynamic encode
//! of the decoded value and of the vector's JSON gives the vector's bytes;
//! two vectors of each def, cut short at every length, the view refuses as
//! the compiled packet does (the same error at the same byte).
//!
//! Needs `TERA_DATA_DIR` (the real corpus, loaded at run time and compiled
//! into `tera-data`) and, for the synthetic set, `TERA_EXTRA_DEFS`.

use std::path::PathBuf;

use serde_json::Value as Json;
use tera_data::{AnyPacket, PACKETS};
use tera_dynamic::Catalog;

fn vectors_dir() -> Option<PathBuf> {
    let Some(data) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("skipping: TERA_DATA_DIR is not set (point it at ../shared/tera-data)");
        return None;
    };
    let dir = PathBuf::from(data).join("../vectors");
    dir.is_dir().then_some(dir)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn check(catalog: &Catalog, line: &Json) -> Result<(), String> {
    let def = line["def"].as_str().unwrap();
    let (name, version) = def.strip_suffix(".def").unwrap().rsplit_once('.').unwrap();
    let version: u32 = version.parse().unwrap();
    let bytes = hex(line["hex"].as_str().unwrap());
    let expected = line.get("input").unwrap_or(&line["value"]);
    let schema = catalog
        .get(name, version)
        .ok_or_else(|| format!("{def} did not load"))?;

    let dynamic = schema.decode(&bytes).map_err(|e| format!("decode: {e}"))?;
    let json = serde_json::to_value(&dynamic).unwrap();
    let compiled =
        AnyPacket::decode(name, version, &bytes).map_err(|e| format!("compiled: {e}"))?;
    if json != serde_json::to_value(&compiled).unwrap() {
        return Err(format!(
            "JSON differs from the compiled packet's:\n ours {json}"
        ));
    }
    let view = schema.view(&bytes).map_err(|e| format!("view: {e}"))?;
    if serde_json::to_value(&view).unwrap() != json {
        return Err("the view's JSON differs from the record's".into());
    }
    if schema
        .encode(&dynamic, 0)
        .map_err(|e| format!("encode: {e}"))?
        != bytes
    {
        return Err("re-encoding the decoded value changed the bytes".into());
    }
    let from_json = schema
        .deserialize(expected.clone())
        .map_err(|e| format!("json: {e}"))?;
    if schema
        .encode(&from_json, 0)
        .map_err(|e| format!("encode: {e}"))?
        != bytes
    {
        return Err("encoding the JSON value does not give `hex`".into());
    }
    // Every cut of every vector takes minutes in a debug build: two vectors
    // of each def are cut, its zero value and its first random one.
    if matches!(line["k"].as_u64(), Some(0 | 3)) {
        cut_short_alike(name, version, schema, &bytes)?;
    }
    Ok(())
}

/// The packet cut short at every length (its header's length made to
/// agree): the view refuses it as the compiled packet does, with the same
/// error at the same byte, or reads it as the compiled packet does.
fn cut_short_alike(
    name: &str,
    version: u32,
    schema: &tera_dynamic::Schema,
    bytes: &[u8],
) -> Result<(), String> {
    for len in tera_packets::HEADER_LEN..bytes.len() {
        let mut cut = bytes[..len].to_vec();
        cut[..2].copy_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
        let compiled = AnyPacket::decode(name, version, &cut);
        let view = schema.view(&cut);
        match (&compiled, &view) {
            (Err(tera_data::AnyError::Decode(c)), Err(d))
                if (c.kind(), c.offset()) == (d.kind(), d.offset()) => {}
            (Ok(c), Ok(d)) if serde_json::to_value(c).ok() == serde_json::to_value(d).ok() => {}
            _ => {
                return Err(format!(
                    "cut to {len} bytes: compiled {:?}, view {:?}",
                    compiled.as_ref().map(|_| "Ok").map_err(ToString::to_string),
                    view.as_ref().map(|_| "Ok").map_err(ToString::to_string)
                ));
            }
        }
    }
    Ok(())
}

/// Runs every line of a vector file; returns (passed, lines).
fn run(catalog: &Catalog, dir: &std::path::Path, file: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let mut failures = Vec::new();
    let lines = text.lines().count();
    for line in text.lines() {
        let v: Json = serde_json::from_str(line).unwrap();
        if let Err(e) = check(catalog, &v) {
            failures.push(format!("{} k={}: {e}", v["def"], v["k"]));
        }
    }
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} of {lines} failed:\n{shown:#?}",
        failures.len()
    );
    println!("dynamic vectors {file}: {lines}/{lines} same JSON and bytes as the compiled packets");
    (lines - failures.len(), lines)
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
fn corpus_vectors_match_the_compiled_packets() {
    let Some(dir) = vectors_dir() else { return };
    if !corpus_compiled() {
        eprintln!(
            "skipping: tera-data was not built from the corpus (TERA_DATA_DIR at build time)"
        );
        return;
    }
    let catalog = Catalog::from_env();
    assert!(catalog.problems().is_empty(), "{:?}", catalog.problems());
    assert!(catalog.len() >= 836);
    assert_eq!(run(&catalog, &dir, "corpus.jsonl"), (6688, 6688));
}

#[test]
fn synthetic_vectors_match_the_compiled_packets() {
    let Some(dir) = vectors_dir() else { return };
    if !compiled("SYN_ALL_PRIMS") {
        eprintln!(
            "skipping: the synthetic defs are not compiled in (TERA_EXTRA_DEFS at build time)"
        );
        return;
    }
    let catalog = Catalog::from_env();
    assert!(catalog.problems().is_empty(), "{:?}", catalog.problems());
    assert_eq!(run(&catalog, &dir, "synthetic.jsonl"), (72, 72));
}
