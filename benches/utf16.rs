//! UTF-16LE <-> UTF-8 transcoding of the runtime (`tera_packets::utf16`),
//! on the kinds of text packets carry: short ASCII names, chat lines, and
//! non-ASCII (Hangul) text.
//!
//! `cargo bench --bench utf16`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_data::{Str, utf16};

fn texts() -> [(&'static str, String); 4] {
    [
        ("ascii_10", "Playername".to_string()),
        ("ascii_100", "Hello TERA, ".repeat(9) + "abcd"),
        ("hangul_10", "안녕하세요테라월드".to_string() + "!"),
        (
            "mixed_40",
            "Hello 테라 world, <FONT>링크</FONT> 12345 ok".to_string(),
        ),
    ]
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf16_decode");
    for (name, text) in texts() {
        let s = Str::from(text.as_str());
        g.throughput(Throughput::Bytes(s.as_utf16le().len() as u64));
        // The `String` is looked at in place: returning it would move it
        // into criterion's `black_box`, and the copy stalls on the stores
        // that just returned it.
        g.bench_function(name, |b| {
            b.iter(|| {
                let text = black_box(&s).to_string_lossy();
                black_box(&text);
            })
        });
        // Into a `String` the caller reuses: no allocation.
        let mut out = String::with_capacity(3 * s.len_utf16());
        g.bench_function(format!("{name}_reused"), |b| {
            b.iter(|| {
                out.clear();
                black_box(&s).decode_into(&mut out);
                black_box(&out);
            })
        });
    }
    g.finish();
}

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("utf16_encode");
    for (name, text) in texts() {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| b.iter(|| Str::from(black_box(text.as_str()))));
        let mut out = Vec::with_capacity(4 * text.len());
        g.bench_function(format!("{name}_reused"), |b| {
            b.iter(|| {
                out.clear();
                utf16::encode_into(black_box(text.as_str()), &mut out);
                black_box(out.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, decode, encode);
criterion_main!(benches);
