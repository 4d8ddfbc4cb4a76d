//! Dynamic decode (to a view, to a view in a kept buffer and to a record)
//! and encode of the eight bench packets, with the corpus
//! loaded at run time: `cargo bench -p tera-dynamic --bench dynamic`.
//!
//! The shared data is found through `TERA_SHARED_DIR` (default `../shared`
//! beside the project); without it the bench prints a notice and measures
//! nothing. The JS reference's figures for the same packets come from
//! `node ../shared/bench/js/bench.js`, run in the same minutes; the
//! workspace's `cargo bench --bench table` prints both side by side.
//!
//! `encode_at/DEF/OFFSET` encodes into the same buffer starting `OFFSET`
//! bytes in. Where the output sits within a 4 KiB page, relative to the
//! value tree and the stack, can change an encode's time, as a load whose
//! low twelve address bits match a store just made may wait for it: in one
//! run here S_EACH_SKILL_RESULT.15 took 74 to 109 ns over the eight
//! offsets, and S_LOGIN.15 107 to 198 ns over offsets in other processes.
//! A single `encode/DEF` figure may have met such a place.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use tera_dynamic::{Catalog, ViewBuf};

#[path = "../tests/common/bench_packets.rs"]
mod bench_packets;

use bench_packets::{bench_packets, shared_dir};

fn dynamic(c: &mut Criterion) {
    let shared = shared_dir();
    let Some(packets) = bench_packets(&shared) else {
        eprintln!(
            "benches/dynamic: no bench packets under {} (set TERA_SHARED_DIR); nothing to measure",
            shared.display()
        );
        return;
    };
    let mut catalog = Catalog::new();
    catalog.load_dir(shared.join("tera-data"));
    let mut buf = vec![0u8; 65536 + PAGE];
    for (def, bytes) in &packets {
        let (name, version) = def.rsplit_once('.').expect("NAME.VERSION");
        let schema = catalog
            .get(name, version.parse().expect("a version"))
            .expect("the corpus has every bench def");
        let value = schema.decode(bytes).expect("bench packet decodes");
        let n = schema.encode_into(&value, 0, &mut buf).expect("encodes");
        assert_eq!(&buf[..n], &bytes[..], "{def}: dynamic encode differs");
        c.bench_function(&format!("view/{def}"), |b| {
            b.iter(|| schema.view(black_box(bytes)).map(|v| v.record().len()))
        });
        let mut kept = ViewBuf::new();
        c.bench_function(&format!("view_in/{def}"), |b| {
            b.iter(|| {
                schema
                    .view_in(black_box(bytes), &mut kept)
                    .map(|v| v.record().len())
            })
        });
        c.bench_function(&format!("decode/{def}"), |b| {
            b.iter(|| schema.decode(black_box(bytes)).map(|v| v.len()))
        });
        c.bench_function(&format!("encode/{def}"), |b| {
            b.iter(|| schema.encode_into(black_box(&value), 0, &mut buf))
        });
        let mut at = c.benchmark_group(format!("encode_at/{def}"));
        at.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(1))
            .sample_size(10);
        for offset in (0..PAGE).step_by(PAGE / 8) {
            at.bench_with_input(
                BenchmarkId::from_parameter(offset),
                &offset,
                |b, &offset| {
                    b.iter(|| schema.encode_into(black_box(&value), 0, &mut buf[offset..]))
                },
            );
        }
        at.finish();
    }
}

/// A page: the span over which the output's offset is varied.
const PAGE: usize = 4096;

criterion_group!(benches, dynamic);
criterion_main!(benches);
