//! Simulated patch days over the real corpus: for each seed, a session
//! played under a map whose opcodes are permuted at random, straying from
//! the rules as real sessions do (`Perturbation::real_like`: values drawn
//! without their field names, bursts shuffled, consequences 60% of the
//! time, packets no scene plays interleaved), five names stale (their
//! packets carry a field the def lacks) and five new (no def); discovered
//! with the game rules on and off (fixed opcodes only), then with the
//! previous map as a prior. `PATCH_DAYS_PLAIN=1` plays the rules as
//! written, every def current. Prints one line per seed, the table of
//! figures (graded on the opcodes whose true def fits; a name written on
//! a stale or new opcode is wrong) and the calibration table;
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
use tera_opcodes::simulate::{
    Breakdown, Calibration, PatchChanges, Perturbation, Protocol, Score, explain, patch_day,
    play_as,
};
use tera_opcodes::{DEFAULT_THRESHOLD, DefSet, Discovery, GameRules, Samples};
use tera_sessions::SessionId;

/// The runs of each patch day: the game rules on or off, the previous
/// map as a prior or not.
const RUNS: [(&str, bool, bool); 3] = [
    ("rules on, fixed opcodes only", true, false),
    ("rules off, fixed opcodes only", false, false),
    ("rules on, fixed + previous map", true, true),
];

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
    let plain = std::env::var_os("PATCH_DAYS_PLAIN").is_some();
    let previous = tera_dynamic::load_protocol_map(root.join("maps/protocol.365100.map"))
        .expect("the corpus map")
        .map;
    let base = Protocol::load(&root, &previous, 365_100).expect("the corpus defs");
    let mut catalog = Catalog::new();
    catalog.load_dir(&root);
    let all_defs = DefSet::from_catalog(&catalog);
    let mut totals = [Score::default(); RUNS.len()];
    let mut breakdowns: Vec<Breakdown> = RUNS.iter().map(|_| Breakdown::default()).collect();
    let mut calibration = Calibration::default();
    for seed in first..first + seeds {
        let truth = patch_day(&previous, seed);
        let changes = if plain {
            PatchChanges::default()
        } else {
            PatchChanges::draw(seed, 5, 5)
        };
        let perturb = if plain {
            Perturbation::none()
        } else {
            Perturbation::real_like(changes.stale.clone())
        };
        let protocol = base.with_map(&truth).perturbed(perturb);
        let defs = all_defs.without(|n| changes.new.contains(n));
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
        for (k, (label, rules, prior)) in RUNS.into_iter().enumerate() {
            let mut samples = Samples::new();
            for e in played.iter().flat_map(|s| &s.events) {
                samples.push(e);
            }
            let mut discovery = Discovery::new(defs.clone())
                .threshold(threshold)
                .rules(if rules {
                    GameRules::standard()
                } else {
                    GameRules::none()
                });
            if prior {
                discovery = discovery.previous(previous.clone());
            }
            let started = Instant::now();
            let report = discovery.run(&mut samples);
            let took = started.elapsed().as_secs_f64() * 1000.0;
            let s = Score::of_fitting(&report, &samples, &truth, &defs);
            line += &format!(
                " {label}: {}/{} right, {} written, {} wrong ({took:.0} ms) |",
                s.right, s.seen, s.written, s.wrong,
            );
            if verbose {
                eprint!("{}", explain(&report, &samples, &truth, true));
            }
            totals[k] += s;
            breakdowns[k].add(&report, &samples, &truth);
            if rules {
                calibration.add(&report, &truth);
            }
        }
        println!("{line}");
    }
    table(seeds, &totals);
    println!();
    println!("Written entries by confidence band (rules on, both runs, {seeds} seeds):");
    println!();
    print!("{}", calibration.table());
    losses(seeds, &breakdowns);
}

/// Where recall is lost, for each run.
fn losses(seeds: u64, breakdowns: &[Breakdown]) {
    for (k, b) in breakdowns.iter().enumerate() {
        println!();
        println!(
            "Where recall is lost ({}), opcodes by the shape of their packets:",
            RUNS[k].0
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

fn table(seeds: u64, totals: &[Score; RUNS.len()]) {
    println!();
    println!(
        "| run | seeds | opcodes whose def fits | named right | written | wrong | twice | recall | precision |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (k, t) in totals.iter().enumerate() {
        println!(
            "| {} | {seeds} | {} | {} | {} | {} | {} | {:.1}% | {:.2}% |",
            RUNS[k].0,
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
