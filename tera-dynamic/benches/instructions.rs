//! Instructions per dynamic view and encode of each bench packet, counted
//! by callgrind: repeatable where wall time is not (a shared machine), so
//! that one change to the core can be measured against the code before it.
//!
//! ```text
//! cargo bench -p tera-dynamic --bench instructions --no-run
//! BIN=$(ls -t target/release/deps/instructions-* | grep -v '\.d$' | head -1)
//! for op in view encode; do for def in $($BIN list); do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     --toggle-collect='*measured*' $BIN $op $def 10000 2>&1 |
//!     awk -v op=$op -v def=$def '/Collected/ { printf "%s %s %.1f\n", op, def, $4 / 10000 }'
//! done; done
//! ```
//!
//! `$BIN OP DEF N` runs `OP` (`view` or `encode`) on bench packet `DEF`
//! (`S_LOGIN.15`) `N` times inside the function callgrind counts; loading
//! the def and preparing the value are outside it. `$BIN list` prints the
//! bench packets. Without the shared data (`TERA_SHARED_DIR`, default
//! `../shared` beside the project) it prints a notice and measures nothing.
//! Under `cargo bench` (an argument `--bench`) it does nothing: it is run by
//! hand, under callgrind.

use std::hint::black_box;

use tera_dynamic::{Catalog, Record, Schema};

#[path = "../tests/common/bench_packets.rs"]
mod bench_packets;

use bench_packets::{bench_packets, shared_dir};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--bench") {
        return;
    }
    let shared = shared_dir();
    let Some(packets) = bench_packets(&shared) else {
        eprintln!(
            "benches/instructions: no bench packets under {} (set TERA_SHARED_DIR)",
            shared.display()
        );
        return;
    };
    match args.as_slice() {
        [list] if list == "list" => {
            for (def, _) in &packets {
                println!("{def}");
            }
        }
        [op, def, n] => {
            let Some((_, bytes)) = packets.iter().find(|(d, _)| d == def) else {
                eprintln!("benches/instructions: no bench packet {def}");
                std::process::exit(2);
            };
            let n: usize = n.parse().expect("a count of runs");
            let schema = load(&shared, def);
            let value = schema.decode(bytes).expect("the bench packet decodes");
            let mut buf = vec![0u8; 65536];
            match op.as_str() {
                "view" => measured_view(&schema, bytes, n),
                "encode" => measured_encode(&schema, &value, &mut buf, n),
                other => {
                    eprintln!("benches/instructions: no operation {other} (view, encode)");
                    std::process::exit(2);
                }
            }
        }
        _ => {
            eprintln!("usage: instructions list | instructions view|encode DEF N");
            std::process::exit(2);
        }
    }
}

/// Bench packet `def`'s schema, from its one def file of the corpus.
fn load(shared: &std::path::Path, def: &str) -> Schema {
    let path = shared.join(format!("tera-data/definitions/{def}.def"));
    let text = std::fs::read_to_string(&path).expect("the corpus has every bench def");
    let mut catalog = Catalog::new();
    let schema = catalog
        .add_def(&format!("{def}.def"), &text)
        .map_err(|report| report.render(false))
        .expect("the bench def loads");
    Schema::clone(&schema)
}

#[inline(never)]
fn measured_view(schema: &Schema, bytes: &[u8], n: usize) {
    for _ in 0..n {
        black_box(schema.view(black_box(bytes)).map(|v| v.record().len())).ok();
    }
}

#[inline(never)]
fn measured_encode(schema: &Schema, value: &Record<'_>, buf: &mut [u8], n: usize) {
    for _ in 0..n {
        black_box(schema.encode_into(black_box(value), 0, buf)).ok();
    }
}
