//! PIKE throughput: `cargo bench -p tera-net --bench cipher`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_net::pike::Pike;
use tera_net::session::SessionKeys;

fn cipher(c: &mut Criterion) {
    let mut group = c.benchmark_group("pike");
    for size in [64 * 1024, 1500, 61] {
        let mut buf = vec![0x5au8; size];
        let mut pike = Pike::new(&[0x12; 128]);
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(format!("apply/{size}"), |b| {
            b.iter(|| pike.apply(black_box(&mut buf)));
        });
    }
    group.finish();

    // A lost gigabyte costs what a lost byte costs.
    let mut pike = Pike::new(&[0x12; 128]);
    c.bench_function("pike/skip/1GiB", |b| {
        b.iter(|| pike.skip(black_box(1 << 30)));
    });
    c.bench_function("pike/new", |b| {
        b.iter(|| Pike::new(black_box(&[0x12; 128])))
    });

    let keys = SessionKeys {
        client_key1: [1; 128],
        server_key1: [2; 128],
        client_key2: [3; 128],
        server_key2: [4; 128],
    };
    c.bench_function("session/derive", |b| b.iter(|| black_box(&keys).derive()));
}

criterion_group!(benches, cipher);
criterion_main!(benches);
