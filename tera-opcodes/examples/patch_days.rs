//! Simulated patch days over the real corpus: for each seed, a session
//! played under a map whose opcodes are permuted at random, discovered
//! with only the fixed opcodes known, then with the previous map as a
//! prior. Prints one line per seed and the table of figures.
//!
//! ```sh
//! TERA_DATA_DIR=../shared/tera-data cargo run --release -p tera-opcodes \
//!     --example patch_days -- [SEEDS] [PACKETS]
//! ```

use std::path::PathBuf;
use std::time::Instant;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Protocol, Score, patch_day, play};
use tera_opcodes::{DefSet, Discovery, OpcodeMap};

fn main() {
    let Some(root) = std::env::var_os("TERA_DATA_DIR").map(PathBuf::from) else {
        eprintln!("set TERA_DATA_DIR to a tera-data checkout (../shared/tera-data)");
        std::process::exit(2);
    };
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let packets: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let verbose = std::env::var_os("VERBOSE").is_some();
    let previous = OpcodeMap::load(root.join("maps/protocol.365100.map")).expect("the corpus map");
    let base = Protocol::load(&root, &previous, 365_100).expect("the corpus defs");
    let mut catalog = Catalog::new();
    catalog.load_dir(&root);
    let defs = DefSet::from_catalog(&catalog);
    let mut totals = [Score::default(); 2];
    for seed in 1..=seeds {
        let truth = patch_day(&previous, seed);
        let protocol = base.with_map(&truth);
        let session = play(&protocol, seed, packets);
        assert!(session.errors.is_empty(), "{:?}", session.errors);
        let mut line = format!("seed {seed:>3}:");
        for (k, prior) in [false, true].into_iter().enumerate() {
            let mut samples = session.samples();
            let mut discovery = Discovery::new(defs.clone());
            if prior {
                discovery = discovery.previous(previous.clone());
            }
            let t = Instant::now();
            let report = discovery.clone().run(&mut samples);
            if std::env::var_os("SWEEP").is_some() {
                let all = discovery.clone().threshold(0.0).run(&mut session.samples());
                for th in [2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 16.0] {
                    let (mut right, mut wrong) = (0, 0);
                    for e in all
                        .entries
                        .iter()
                        .filter(|e| e.margin >= th && e.margin.is_finite())
                    {
                        if truth.name(e.opcode) == Some(e.name.as_str()) {
                            right += 1
                        } else {
                            wrong += 1
                        }
                    }
                    eprint!(" t{th}: {right}/{wrong}");
                }
                eprintln!(" [{}]", if prior { "prior" } else { "fixed" });
            }
            let took = t.elapsed();
            let s = Score::of(&report, &samples, &truth);
            line += &format!(
                " {} seen {} right {} written {} wrong {} dup {} ({:.0} ms) |",
                if prior { "prior" } else { "fixed" },
                s.seen,
                s.right,
                s.written,
                s.wrong,
                s.duplicates,
                took.as_secs_f64() * 1000.0
            );
            if verbose {
                for e in &report.entries {
                    if truth.name(e.opcode) != Some(e.name.as_str()) && e.margin.is_finite() {
                        eprintln!(
                            "  WRONG {} at {} (truth {:?}) margin {:.1}: {:?}",
                            e.name,
                            e.opcode,
                            truth.name(e.opcode),
                            e.margin,
                            e.evidence.iter().map(|x| x.summary()).collect::<Vec<_>>()
                        );
                    }
                }
                for g in samples.groups() {
                    let t = truth.name(g.opcode).unwrap_or("?");
                    if !report.entries.iter().any(|e| e.opcode == g.opcode) {
                        let c = report.candidates.iter().find(|e| e.opcode == g.opcode);
                        eprintln!(
                            "  MISS {t} ({} pkts, {} lens): cand {:?}",
                            g.len(),
                            g.lengths(),
                            c.map(|c| (
                                c.name.clone(),
                                (c.margin * 10.0).round() / 10.0,
                                c.beat.clone(),
                                c.evidence.iter().map(|x| x.summary()).collect::<Vec<_>>()
                            ))
                        );
                    }
                }
            }
            let t = &mut totals[k];
            t.seen += s.seen;
            t.right += s.right;
            t.written += s.written;
            t.wrong += s.wrong;
            t.duplicates += s.duplicates;
        }
        println!("{line}");
    }
    println!();
    println!(
        "| known | seeds | opcodes seen | right | written | wrong | duplicates | recall | precision |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (k, t) in totals.iter().enumerate() {
        println!(
            "| {} | {seeds} | {} | {} | {} | {} | {} | {:.1}% | {:.2}% |",
            if k == 0 {
                "fixed codes only"
            } else {
                "fixed + previous map"
            },
            t.seen,
            t.right,
            t.written,
            t.wrong,
            t.duplicates,
            100.0 * t.recall(),
            100.0 * t.precision()
        );
    }
}
