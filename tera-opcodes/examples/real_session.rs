//! Discovery on a recorded session, graded against that build's map: any
//! source `tera-sessions` reads (pcap, pcapng, `.TeraLog`, `.pkt`, JSONL),
//! a def folder and the map. Runs with only the fixed opcodes known, then
//! with a partial map of 20 entries (every k-th opcode of the truth the
//! session holds), each with the game rules on and off; prints the
//! figures, every wrong entry and every opcode missed with its best
//! candidate, and the written entries by confidence band.
//!
//! With DRIFTS, then as many drifted copies of the session
//! ([`simulate::drift`](tera_opcodes::simulate::drift): names gone, new
//! and stale, neighbours swapped, unknown packets among the others), as a
//! build some patches away and as one years away, each discovered with
//! only the fixed opcodes known, rules on and off: what the rules written
//! from this session are worth on sessions that do not follow them to the
//! letter.
//!
//! ```sh
//! cargo run --release -p tera-opcodes --features simulate --example real_session -- \
//!     ../shared/real-sessions/classic-plus-376012-server.jsonl \
//!     ../shared/real-sessions/defs-376012 ../shared/real-sessions/protocol.376012.map [DRIFTS]
//! ```
//!
//! Defs the front end rejects are skipped with a diagnostic on stderr. A
//! map line whose code an earlier line already holds (the public 376012
//! map's `C_CANCEL_SKILL_STRICTLYY`, a typo'd alias) is dropped here with
//! a diagnostic, as the front end's loader refuses the whole file for it.

use std::path::Path;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Calibration, Drift, Recorded, Score, drift, explain};
use tera_opcodes::{DefSet, Discovery, FIXED, GameRules, ProtocolMap, Samples};
use tera_sessions::{Event, Events};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (source, defs_dir, map_path, drifts) = match &args[..] {
        [s, d, m] => (s, d, m, 0),
        [s, d, m, n] if n.parse::<u64>().is_ok() => (s, d, m, n.parse().unwrap_or(0)),
        _ => {
            eprintln!("usage: real_session SOURCE DEFS_DIR MAP [DRIFTS]");
            std::process::exit(2);
        }
    };
    let truth = match load_map(Path::new(map_path)) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{map_path}: {e}");
            std::process::exit(2);
        }
    };
    let mut catalog = Catalog::new();
    catalog.load_dir(defs_dir);
    for problem in catalog.problems() {
        eprintln!("skipped a def: {}", problem.render(false).trim_end());
    }
    let defs = DefSet::from_catalog(&catalog);
    let mut samples = Samples::new();
    let mut recorded: Vec<Recorded> = Vec::new();
    match Events::open(source) {
        Ok(events) => {
            for event in events {
                match event {
                    Ok(e) => {
                        samples.push(&e);
                        if let Event::Packet(p) = e {
                            recorded.push((p.time, p.direction, p.bytes.to_vec()));
                        }
                    }
                    Err(e) => {
                        eprintln!("{source}: {e}");
                        break;
                    }
                }
            }
        }
        Err(e) => {
            eprintln!("{source}: {e}");
            std::process::exit(2);
        }
    }
    let partial = partial_map(&truth, &samples, 20);
    let mut calibration = Calibration::default();
    for (label, known) in [
        ("fixed opcodes only", ProtocolMap::new()),
        ("partial map of 20", partial),
    ] {
        for (rules_label, rules) in [
            ("rules on", GameRules::standard()),
            ("rules off", GameRules::none()),
        ] {
            let report = Discovery::new(defs.clone())
                .known(known.clone())
                .rules(rules)
                .run(&mut samples);
            let score = Score::of_fitting(&report, &samples, &truth, &defs);
            println!(
                "{label}, {rules_label}: {} opcodes, {} whose def fits; {} written, {} right, {} wrong; recall {:.1}%, precision {:.1}%",
                samples.groups().len(),
                score.seen,
                score.written,
                score.right,
                score.wrong,
                100.0 * score.right as f64 / score.seen.max(1) as f64,
                100.0 * score.precision()
            );
            let verbose = std::env::var_os("REAL_SESSION_VERBOSE").is_some();
            print!("{}", explain(&report, &samples, &truth, verbose));
            if rules_label == "rules on" {
                calibration.add(&report, &truth);
            }
        }
    }
    println!();
    println!("Written entries by confidence band (rules on, both runs):");
    println!();
    print!("{}", calibration.table());
    if drifts > 0 {
        drifted(&recorded, &defs, &truth, drifts, &Drift::patches_away());
        drifted(&recorded, &defs, &truth, drifts, &Drift::years_away());
    }
}

/// Discovery on `n` drifted copies of the session, rules on and off: the
/// figures summed, and the written entries by confidence band.
fn drifted(recorded: &[Recorded], defs: &DefSet, truth: &ProtocolMap, n: u64, how: &Drift) {
    let mut totals = [Score::default(), Score::default()];
    let mut calibration = Calibration::default();
    let verbose = std::env::var_os("REAL_SESSION_VERBOSE").is_some();
    for seed in 1..=n {
        let d = drift(recorded, defs, truth, how, seed);
        for (k, rules) in [GameRules::standard(), GameRules::none()]
            .into_iter()
            .enumerate()
        {
            let mut samples = d.samples.clone();
            let report = Discovery::new(d.defs.clone())
                .rules(rules)
                .run(&mut samples);
            let score = Score::of_fitting(&report, &samples, &d.truth, &d.defs);
            if verbose || score.wrong > 0 {
                print!(
                    "drift {seed}{}",
                    explain(&report, &samples, &d.truth, false).replace("  wrong", " wrong")
                );
            }
            totals[k] += score;
            if k == 0 {
                calibration.add(&report, &d.truth);
            }
        }
    }
    println!();
    println!("{n} drifted copies ({how:?}):");
    for (label, t) in ["rules on", "rules off"].iter().zip(&totals) {
        println!(
            "{label}: {} opcodes whose def fits; {} written, {} right, {} wrong; recall {:.1}%",
            t.seen,
            t.written,
            t.right,
            t.wrong,
            100.0 * t.right as f64 / t.seen.max(1) as f64
        );
    }
    println!();
    println!("Written entries by confidence band (rules on):");
    println!();
    print!("{}", calibration.table());
}

/// The map; its lines that make no entry (the published map's alias line)
/// left out by the loader and reported on stderr.
fn load_map(path: &Path) -> Result<ProtocolMap, String> {
    let loaded = tera_dynamic::load_protocol_map(path).map_err(|r| r.render(false))?;
    if !loaded.is_whole() {
        eprint!("{}", loaded.report.render(false));
    }
    Ok(loaded.map)
}

/// `n` entries of the truth among the opcodes the session holds (every
/// k-th by opcode), the fixed ones aside.
fn partial_map(truth: &ProtocolMap, samples: &Samples, n: usize) -> ProtocolMap {
    let fixed: Vec<u16> = FIXED.iter().map(|(_, c)| *c).collect();
    let mut held: Vec<(u16, &str)> = samples
        .groups()
        .iter()
        .filter(|g| !fixed.contains(&g.opcode))
        .filter_map(|g| truth.name(g.opcode).map(|name| (g.opcode, name)))
        .collect();
    held.sort();
    let step = (held.len() / n).max(1);
    let mut map = ProtocolMap::new();
    for &(code, name) in held.iter().step_by(step).take(n) {
        map.insert(name, code);
    }
    map
}
