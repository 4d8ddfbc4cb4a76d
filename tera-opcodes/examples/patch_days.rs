//! Simulated patch days over the real corpus: for each seed, a session
//! played under a map whose opcodes are permuted at random, discovered
//! with only the fixed opcodes known, then with the previous map as a
//! prior. Prints one line per seed and the table of figures;
//! `PATCH_DAYS_VERBOSE=1` also prints each wrong entry and each opcode
//! left out, with its best candidate and evidence.
//!
//! ```sh
//! TERA_DATA_DIR=../shared/tera-data cargo run --release -p tera-opcodes \
//!     --example patch_days -- [SEEDS] [PACKETS] [SESSIONS] [THRESHOLD] [FIRST]
//! ```
//!
//! Seeds run from FIRST (default 1): a set of seeds the evidence was
//! never looked at on (`-- 20 3000 1 10 1001`) checks that the figures
//! are not tuned to the first.
//!
//! SESSIONS (default 1) plays that many sessions per patch day (other
//! players, the same new version), all discovered together; THRESHOLD
//! (default `DEFAULT_THRESHOLD`, 10 bits) is the margin an entry needs to
//! be written, as `tera-defs opcodes discover --threshold`.

use std::path::PathBuf;
use std::time::Instant;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Breakdown, Protocol, Score, patch_day, play_as};
use tera_opcodes::{DEFAULT_THRESHOLD, DefSet, Discovery, ProtocolMap, Report, Samples};
use tera_sessions::SessionId;

fn main() {
    let Some(root) = std::env::var_os("TERA_DATA_DIR").map(PathBuf::from) else {
        eprintln!("set TERA_DATA_DIR to a tera-data checkout (../shared/tera-data)");
        std::process::exit(2);
    };
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let packets: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let sessions: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let threshold: f64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(DEFAULT_THRESHOLD);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let verbose = std::env::var_os("PATCH_DAYS_VERBOSE").is_some();
    let previous = tera_dynamic::load_protocol_map(root.join("maps/protocol.365100.map"))
        .expect("the corpus map")
        .map;
    let base = Protocol::load(&root, &previous, 365_100).expect("the corpus defs");
    let mut catalog = Catalog::new();
    catalog.load_dir(&root);
    let defs = DefSet::from_catalog(&catalog);
    let mut totals = [Score::default(); 2];
    let mut breakdowns = [Breakdown::default(), Breakdown::default()];
    for seed in first..first + seeds {
        let truth = patch_day(&previous, seed);
        let protocol = base.with_map(&truth);
        let played: Vec<_> = (0..sessions)
            .map(|k| {
                let player = if k == 0 {
                    seed
                } else {
                    seed * 1000 + u64::from(k)
                };
                let s = play_as(&protocol, player, packets, SessionId(k));
                assert!(s.errors.is_empty(), "{:?}", s.errors);
                s
            })
            .collect();
        let mut line = format!("seed {seed:>3}:");
        for (k, prior) in [false, true].into_iter().enumerate() {
            let mut samples = Samples::new();
            for e in played.iter().flat_map(|s| &s.events) {
                samples.push(e);
            }
            let mut discovery = Discovery::new(defs.clone()).threshold(threshold);
            if prior {
                discovery = discovery.previous(previous.clone());
            }
            let started = Instant::now();
            let report = discovery.run(&mut samples);
            let took = started.elapsed().as_secs_f64() * 1000.0;
            let s = Score::of(&report, &samples, &truth);
            line += &format!(
                " {}: {}/{} right, {} written, {} wrong, {} twice ({took:.0} ms) |",
                if prior { "prior" } else { "fixed" },
                s.right,
                s.seen,
                s.written,
                s.wrong,
                s.duplicates
            );
            if verbose {
                explain(&report, &samples, &truth);
            }
            add(&mut totals[k], &s);
            breakdowns[k].add(&report, &samples, &truth);
        }
        println!("{line}");
    }
    table(seeds, &totals);
    for (k, b) in breakdowns.iter().enumerate() {
        println!();
        println!(
            "Where recall is lost ({}), opcodes by the shape of their packets:",
            if k == 0 {
                "fixed opcodes only"
            } else {
                "fixed + previous map"
            }
        );
        println!();
        print!("{}", b.table());
        let missed: Vec<String> = b
            .most_missed(40)
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        println!();
        println!("Missed most (of {seeds} seeds): {}", missed.join(", "));
    }
}

fn add(total: &mut Score, s: &Score) {
    total.seen += s.seen;
    total.right += s.right;
    total.written += s.written;
    total.wrong += s.wrong;
    total.duplicates += s.duplicates;
}

/// Each wrong entry, and each opcode left out with its best candidate.
fn explain(report: &Report, samples: &Samples, truth: &ProtocolMap) {
    let summary = |e: &tera_opcodes::Entry| -> Vec<String> {
        e.evidence.iter().map(|x| x.summary()).collect()
    };
    for e in &report.entries {
        if e.margin.is_finite() && truth.name(e.opcode) != Some(e.name.as_str()) {
            eprintln!(
                "  wrong {} at {} (truly {:?}), margin {:.1}: {:?}",
                e.name,
                e.opcode,
                truth.name(e.opcode),
                e.margin,
                summary(e)
            );
        }
    }
    for g in samples.groups() {
        if report.entries.iter().any(|e| e.opcode == g.opcode) {
            continue;
        }
        let best = report.candidates.iter().find(|e| e.opcode == g.opcode);
        eprintln!(
            "  left out {} ({} packets, {} lengths): {:?}",
            truth.name(g.opcode).unwrap_or("?"),
            g.len(),
            g.lengths(),
            best.map(|c| (
                &c.name,
                (c.margin * 10.0).round() / 10.0,
                &c.beat,
                summary(c)
            ))
        );
    }
}

fn table(seeds: u64, totals: &[Score; 2]) {
    println!();
    println!(
        "| known | seeds | opcodes seen | named right | written | wrong | twice | recall | precision |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (k, t) in totals.iter().enumerate() {
        println!(
            "| {} | {seeds} | {} | {} | {} | {} | {} | {:.1}% | {:.2}% |",
            if k == 0 {
                "fixed opcodes only"
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
