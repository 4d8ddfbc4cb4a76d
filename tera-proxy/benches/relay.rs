//! Relay throughput: `cargo bench -p tera-proxy --bench relay`.
//!
//! One connection on 127.0.0.1 (real handshake and cipher), 2,000 packets
//! each way, through the relay with no hook, a raw hook on every packet and
//! a typed hook on every packet. The raw runs use the load run's sizes (4
//! to 65535 bytes, mostly small); the typed run the fixed-size packets of
//! the compiled-in defs. Each iteration includes connecting and the
//! handshake, and the scripted peers' own cipher work. The 200-connection
//! run with peak memory is `cargo run --release -p tera-proxy --example load`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_proxy::ProxyConfig;
use tera_proxy::harness::load::{LoadConfig, LoadHooks, run};

fn relay(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut group = c.benchmark_group("relay");
    group.sample_size(10);
    for hooks in [LoadHooks::None, LoadHooks::Raw, LoadHooks::Typed] {
        let config = LoadConfig {
            connections: 1,
            packets: 2_000,
            hooks,
            seed: 0x7e2a_5eed,
            queue_bytes: ProxyConfig::default().queue_bytes,
            time_limit: Duration::from_secs(120),
            socket_buffer: Some(128 * 1024),
            setup: None,
        };
        let report = rt.block_on(run(&config)).expect("the load run passes");
        group.throughput(Throughput::ElementsAndBytes {
            elements: report.packets,
            bytes: report.bytes,
        });
        group.bench_function(format!("{hooks:?}").to_lowercase(), |b| {
            b.iter(|| rt.block_on(run(&config)).expect("the load run passes"));
        });
    }
    group.finish();
}

criterion_group!(benches, relay);
criterion_main!(benches);
