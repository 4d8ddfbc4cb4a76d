//! Discovery's speed: a simulated session of 10,000 to 100,000 packets
//! against the whole corpus of defs, and 100,000 packets against a half
//! and a quarter of it, one core. Needs `TERA_DATA_DIR` (a tera-data
//! checkout); without it the bench prints a notice and measures nothing.
//!
//! ```sh
//! TERA_DATA_DIR=../shared/tera-data cargo bench -p tera-opcodes --bench discover
//! ```

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Protocol, patch_day, play};
use tera_opcodes::{DefSet, Discovery};

fn bench(c: &mut Criterion) {
    let Some(root) = std::env::var_os("TERA_DATA_DIR").map(PathBuf::from) else {
        eprintln!(
            "discover bench: TERA_DATA_DIR is not set (a tera-data checkout): nothing measured"
        );
        return;
    };
    let previous = tera_dynamic::load_protocol_map(root.join("maps/protocol.365100.map"))
        .expect("the corpus map")
        .map;
    let protocol = Protocol::load(&root, &previous, 365_100).expect("the corpus defs");
    let mut catalog = Catalog::new();
    catalog.load_dir(&root);
    let all = DefSet::from_catalog(&catalog);
    let truth = patch_day(&previous, 1);
    let protocol = protocol.with_map(&truth);

    let mut group = c.benchmark_group("discover");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for packets in [10_000, 30_000, 100_000] {
        let session = play(&protocol, 1, packets);
        let defs = all.clone();
        group.bench_function(format!("{packets}_packets/{}_defs", defs.defs()), |b| {
            b.iter(|| Discovery::new(defs.clone()).run(&mut session.samples()))
        });
    }
    // Fewer defs: every second (fourth) name of the corpus, the names the
    // session uses kept so that the work per opcode stays alike.
    let session = play(&protocol, 1, 100_000);
    for keep in [2, 4] {
        let mut defs = DefSet::default();
        let mut names: Vec<&str> = catalog.iter().map(|s| s.name()).collect();
        names.dedup();
        for (k, name) in names.iter().enumerate() {
            if k % keep == 0 || truth.code(name).is_some() {
                for schema in catalog.iter().filter(|s| s.name() == *name) {
                    defs.add(std::sync::Arc::clone(schema));
                }
            }
        }
        group.bench_function(format!("100000_packets/{}_defs", defs.defs()), |b| {
            b.iter(|| Discovery::new(defs.clone()).run(&mut session.samples()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
