//! The diep.io benches, side by side with `node ../shared/diep/js/bench.js`
//! (diepcustom's Writer and Reader):
//!
//! - `write Update`: encoding the JS bench's 150 Update messages from their
//!   owned form into a reused vector (the server's per-tick hot path);
//! - `read Input`: decoding the vectors' 150 Input messages and reading
//!   their fields, as the JS bench does;
//! - `decode Update`: validating the Update views, and walking every field
//!   (throughput in MB/s).
//!
//! ```text
//! node diep-packets/benches/js-bench-updates.js > target/diep-bench-updates.jsonl
//! DIEP_BENCH_UPDATES=$PWD/target/diep-bench-updates.jsonl cargo bench -p diep-packets
//! ```
//!
//! Without `DIEP_BENCH_UPDATES` the vectors' own 150 Update messages are
//! written instead (similar, not the same). `DIEP_VECTORS` as in the tests.
//! Criterion prints per-iteration times over all 150 messages and the
//! throughput in messages (elements) or bytes per second.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput};
use diep_packets::{FieldTable, InputMessage, Serverbound, Update, UpdateView};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .filter_map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

/// `(name, bytes)` of every line of a messages JSONL file.
fn messages(path: &PathBuf) -> Vec<(String, Vec<u8>)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| {
            (
                v["name"].as_str().unwrap_or_default().to_owned(),
                unhex(v["hex"].as_str().unwrap_or_default()),
            )
        })
        .collect()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let vectors = match std::env::var_os("DIEP_VECTORS").map(PathBuf::from) {
        Some(d) if d.is_relative() && !d.is_dir() => root.join(d),
        Some(d) => d,
        None => root.join("../shared/diep/vectors"),
    };
    let all = messages(&vectors.join("messages.jsonl"));
    if all.is_empty() {
        eprintln!(
            "benches/diep: no vectors in {}; nothing to measure",
            vectors.display()
        );
        return;
    }
    let inputs: Vec<Vec<u8>> = all
        .iter()
        .filter(|(n, _)| n == "Input")
        .map(|(_, b)| b.clone())
        .collect();
    let update_bytes: Vec<Vec<u8>> = match std::env::var_os("DIEP_BENCH_UPDATES") {
        Some(p) => messages(&PathBuf::from(p))
            .into_iter()
            .map(|(_, b)| b)
            .collect(),
        None => {
            eprintln!(
                "benches/diep: DIEP_BENCH_UPDATES not set: writing the vectors' Update messages"
            );
            all.iter()
                .filter(|(n, _)| n == "Update")
                .map(|(_, b)| b.clone())
                .collect()
        }
    };
    let table = FieldTable::builtin();
    let updates: Vec<Update> = update_bytes
        .iter()
        .filter_map(|b| UpdateView::decode(b, table).ok())
        .map(|v| Update::from_view(&v))
        .collect();
    assert_eq!(
        updates.len(),
        update_bytes.len(),
        "an Update message did not decode"
    );
    let total_update: usize = update_bytes.iter().map(Vec::len).sum();
    eprintln!(
        "benches/diep: {} Update messages ({total_update} bytes), {} Input messages",
        updates.len(),
        inputs.len()
    );

    measure(&inputs, &update_bytes, &updates, table);
}

/// Times writing the Updates, reading the Inputs and decoding the Updates
/// (as views, and walking every field).
fn measure(inputs: &[Vec<u8>], update_bytes: &[Vec<u8>], updates: &[Update], table: &FieldTable) {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("diep");

    g.throughput(Throughput::Elements(updates.len() as u64));
    let mut buf = Vec::with_capacity(1 << 16);
    g.bench_function("write Update", |b| {
        b.iter(|| {
            for u in updates {
                u.encode_into(table, &mut buf).unwrap_or_default();
                black_box(&buf);
            }
        })
    });

    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.bench_function("read Input", |b| {
        b.iter(|| {
            let mut sink = 0f64;
            for m in black_box(inputs) {
                if let Ok(Serverbound::Input(InputMessage { input, .. })) = Serverbound::decode(m) {
                    sink += f64::from(input.flags.bits())
                        + f64::from(input.mouse_x.0)
                        + f64::from(input.mouse_y.0);
                }
            }
            black_box(sink)
        })
    });

    let total_update: usize = update_bytes.iter().map(Vec::len).sum();
    g.throughput(Throughput::Bytes(total_update as u64));
    g.bench_function("decode Update view", |b| {
        b.iter(|| {
            for m in update_bytes {
                black_box(UpdateView::decode(black_box(m), table).is_ok());
            }
        })
    });
    g.bench_function("decode Update and walk every field", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for m in update_bytes {
                if let Ok(view) = UpdateView::decode(black_box(m), table) {
                    for u in view.upcreates() {
                        for f in u.fields() {
                            black_box(&f.value);
                            n += 1;
                        }
                    }
                }
            }
            black_box(n)
        })
    });
    g.finish();
    c.final_summary();
}
