//! `--defs DIR`: defs loaded at run time by a binary built from the
//! project's own defs. Over the shared vectors, `decode --defs ... --jsonl`
//! prints what the dynamic decoder (held to the compiled packets by
//! `tera-dynamic`'s tests) gives, and exactly what the compiled-in decoder
//! prints when the binary has the corpus compiled in; `encode --defs ...
//! --jsonl` gives the vectors' bytes, from the decoded values and from the
//! vectors' own JSON.
//!
//! The shared data: `TERA_SHARED_DIR`, default `../shared` beside the
//! project (skipped with a notice when absent).

mod common;

use std::path::PathBuf;

use serde_json::Value as Json;
use tera_dynamic::Catalog;

use common::{corpus, run, scratch};

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("../shared"));
    if dir.join("vectors/corpus.jsonl").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: no shared data at {} (set TERA_SHARED_DIR)",
            dir.display()
        );
        None
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Both ways over `vectors/FILE` with `--defs DEFS`; returns (decoded,
/// encoded from the decoded values, encoded from the vectors' JSON).
fn both_ways(shared: &std::path::Path, file: &str, defs: &str) -> (usize, usize, usize, usize) {
    let defs = shared.join(defs).display().to_string();
    let text = std::fs::read_to_string(shared.join("vectors").join(file)).unwrap();
    let vectors: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut catalog = Catalog::new();
    catalog.load_dir(&defs);

    let decoded = run(
        &["decode", "--jsonl", "--defs", &defs],
        Some(text.as_bytes()),
    );
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    let lines: Vec<Json> = decoded
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), vectors.len());
    // Compared as text: floats print as f32 (`0.1`), which reads back as
    // another f64 than the f32 does.
    let mut same_json = 0;
    for (vector, line) in vectors.iter().zip(decoded.stdout.lines()) {
        let def = vector["def"].as_str().unwrap();
        let (name, version) = def.strip_suffix(".def").unwrap().rsplit_once('.').unwrap();
        let schema = catalog.get(name, version.parse().unwrap()).unwrap();
        let bytes = unhex(vector["hex"].as_str().unwrap());
        let value = serde_json::to_string(&schema.decode(&bytes).unwrap()).unwrap();
        if line == format!("{{\"def\":\"{def}\",\"value\":{value}}}") {
            same_json += 1;
        }
    }

    // The decoded values, and the vectors' own JSON, encoded again.
    let encode = |key: &dyn Fn(usize) -> Json| {
        let input: String = vectors
            .iter()
            .enumerate()
            .map(|(n, v)| {
                format!(
                    "{}\n",
                    serde_json::json!({"def": v["def"], "value": key(n)})
                )
            })
            .collect();
        let out = run(
            &["encode", "--jsonl", "--defs", &defs],
            Some(input.as_bytes()),
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
            .lines()
            .zip(&vectors)
            .filter(|(l, v)| serde_json::from_str::<Json>(l).unwrap()["hex"] == v["hex"])
            .count()
    };
    let round_trip = encode(&|n| lines[n]["value"].clone());
    let from_vectors = encode(&|n| {
        let v = &vectors[n];
        v.get("input").unwrap_or(&v["value"]).clone()
    });

    if corpus() {
        let compiled = run(&["decode", "--jsonl"], Some(text.as_bytes()));
        assert_eq!(
            compiled.stdout, decoded.stdout,
            "the compiled-in decoder prints the same lines"
        );
    }
    (vectors.len(), same_json, round_trip, from_vectors)
}

fn check_both_ways(file: &str, defs: &str) {
    let Some(shared) = shared() else { return };
    let (n, decoded, round_trip, from_vectors) = both_ways(&shared, file, defs);
    println!(
        "dynamic CLI {file}: decode {decoded}/{n}, encode {round_trip}/{n} (decoded values), \
         {from_vectors}/{n} (vector JSON)"
    );
    assert_eq!((decoded, round_trip, from_vectors), (n, n, n));
}

#[test]
fn corpus_vectors_both_ways_with_defs_loaded_at_run_time() {
    check_both_ways("corpus.jsonl", "tera-data");
}

#[test]
fn synthetic_vectors_both_ways_with_defs_loaded_at_run_time() {
    check_both_ways("synthetic.jsonl", "vectors/synthetic-defs");
}

/// `fooBar` and `foo_bar` are two fields, as for tera-data-parser: both
/// decode and encode at run time under their def names (in Rust they are
/// `foo_bar` and `foo_bar_2`, which the dynamic path never sees).
#[test]
fn two_fields_of_one_rust_name_decode_and_encode() {
    let dir = scratch("dynamic-rust-names");
    std::fs::write(dir.join("S_FOO.1.def"), "uint32 fooBar\nuint32 foo_bar\n").unwrap();
    let dirs = dir.display().to_string();
    let packet = "0c0000000100000002000000";
    let decoded = run(
        &["decode", "--defs", &dirs, "--def", "S_FOO.1", packet],
        None,
    );
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    assert_eq!(decoded.stdout, "{\"fooBar\":1,\"foo_bar\":2}\n");
    assert_eq!(decoded.stderr, "");
    let value = r#"{"foo_bar":2,"fooBar":1}"#;
    let encoded = run(
        &["encode", "--defs", &dirs, "--def", "S_FOO.1", value],
        None,
    );
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    assert_eq!(encoded.stdout.trim(), packet);
}

#[test]
fn a_def_with_errors_is_reported_and_the_others_decode() {
    let dir = scratch("dynamic-broken");
    std::fs::write(dir.join("S_GOOD.1.def"), "uint16 a\nstring s\n").unwrap();
    std::fs::write(dir.join("S_BROKEN.1.def"), "int32 a\nint33 b\n").unwrap();
    let dirs = dir.display().to_string();

    let listed = run(&["list", "--defs", &dirs], None);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(
        listed.stderr.contains("S_BROKEN.1.def:2:1"),
        "{}",
        listed.stderr
    );
    assert!(
        listed.stderr.contains("unknown type `int33`"),
        "{}",
        listed.stderr
    );
    assert!(listed.stdout.contains("S_GOOD"), "{}", listed.stdout);
    assert!(!listed.stdout.contains("S_BROKEN"), "{}", listed.stdout);
    assert!(
        listed.stdout.ends_with("1 packets, 1 versions\n"),
        "{}",
        listed.stdout
    );

    let packet = "0c00 0000 0800 0700 6800 0000";
    let decoded = run(
        &["decode", "--defs", &dirs, "--def", "S_GOOD", packet],
        None,
    );
    assert_eq!(decoded.code, 0, "{}", decoded.stderr);
    assert_eq!(decoded.stdout, "{\"a\":7,\"s\":\"h\"}\n");
    assert!(decoded.stderr.contains("S_BROKEN.1.def:2:1"));

    let broken = run(
        &["decode", "--defs", &dirs, "--def", "S_BROKEN", packet],
        None,
    );
    assert_eq!(broken.code, 2);
    assert!(
        broken.stderr.contains("unknown packet `S_BROKEN`"),
        "{}",
        broken.stderr
    );

    let encoded = run(
        &[
            "encode",
            "--defs",
            &dirs,
            "--def",
            "S_GOOD.1",
            r#"{"a":7,"s":"h"}"#,
        ],
        None,
    );
    assert_eq!(encoded.code, 0, "{}", encoded.stderr);
    assert_eq!(encoded.stdout.trim(), packet.replace(' ', ""));
}

#[test]
fn decode_by_opcode_through_a_map_with_defs_loaded_at_run_time() {
    let dir = scratch("dynamic-opcode");
    std::fs::write(dir.join("S_GOOD.1.def"), "uint16 a\n").unwrap();
    std::fs::write(dir.join("S_GOOD.2.def"), "uint16 a\nuint16 b\n").unwrap();
    let map = dir.join("protocol.7.map");
    std::fs::write(&map, "S_GOOD = 4660\n").unwrap();
    let (dirs, map) = (dir.display().to_string(), map.display().to_string());
    let latest = run(
        &[
            "decode",
            "--defs",
            &dirs,
            "--map",
            &map,
            "--opcode",
            "0800 3412 0100 0200",
        ],
        None,
    );
    assert_eq!(latest.code, 0, "{}", latest.stderr);
    assert_eq!(latest.stdout, "{\"a\":1,\"b\":2}\n");
    assert!(
        latest.stderr.contains("opcode 4660: S_GOOD.2"),
        "{}",
        latest.stderr
    );
    let v1 = run(
        &[
            "decode",
            "--defs",
            &dirs,
            "--map",
            &map,
            "--opcode",
            "--version",
            "1",
            "0600 3412 0100",
        ],
        None,
    );
    assert_eq!(v1.stdout, "{\"a\":1}\n", "{}", v1.stderr);
    let encoded = run(
        &[
            "encode",
            "--defs",
            &dirs,
            "--map",
            &map,
            "--def",
            "S_GOOD.1",
            r#"{"a":1}"#,
        ],
        None,
    );
    assert_eq!(encoded.stdout.trim(), "060034120100", "{}", encoded.stderr);
    let listed = run(&["list", "--defs", &dirs, "--map", &map], None);
    assert!(listed.stdout.contains("protocol.7"), "{}", listed.stdout);
    assert!(listed.stdout.contains("4660"), "{}", listed.stdout);
}
