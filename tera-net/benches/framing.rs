//! Framing throughput: `cargo bench -p tera-net --bench framing`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_net::framing::{Reassembler, packets};

/// ~64 KiB of packets with a mix of small and larger lengths.
fn stream() -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0u32;
    while out.len() < 64 * 1024 {
        let len = [4u16, 12, 40, 120, 300, 1200][(i % 6) as usize];
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(i as u16).to_le_bytes());
        out.resize(out.len() + usize::from(len) - 4, 0xab);
        i += 1;
    }
    out
}

fn framing(c: &mut Criterion) {
    let data = stream();
    let count = packets(&data).count();
    let mut group = c.benchmark_group("framing");
    group.throughput(Throughput::Bytes(data.len() as u64));

    group.bench_function(format!("packets/{count}pkts"), |b| {
        b.iter(|| {
            let mut it = packets(black_box(&data));
            let n = it.by_ref().filter(Result::is_ok).count();
            (n, it.consumed())
        });
    });

    for read in [1460usize, 16 * 1024] {
        group.bench_function(format!("reassembler/read{read}"), |b| {
            let mut r = Reassembler::new();
            b.iter(|| {
                let mut n = 0usize;
                for chunk in black_box(&data).chunks(read) {
                    r.push(chunk);
                    while let Ok(Some(p)) = r.next_packet() {
                        n += p.len();
                    }
                }
                n
            });
        });
    }
    group.finish();
}

criterion_group!(benches, framing);
criterion_main!(benches);
