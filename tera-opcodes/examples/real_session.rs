//! Discovery on a recorded session, graded against that build's map: any
//! source `tera-sessions` reads (pcap, pcapng, `.TeraLog`, `.pkt`, JSONL),
//! a def folder and the map. Runs with only the fixed opcodes known, then
//! with a partial map of 20 entries (every k-th opcode of the truth the
//! session holds), each with the game rules on and off; prints the
//! figures, every wrong entry and every opcode missed with its best
//! candidate, and the written entries by confidence band.
//!
//! ```sh
//! cargo run --release -p tera-opcodes --example real_session -- \
//!     ../shared/real-sessions/classic-plus-376012-server.jsonl \
//!     ../shared/real-sessions/defs-376012 ../shared/real-sessions/protocol.376012.map
//! ```
//!
//! Defs the front end rejects are skipped with a diagnostic on stderr. A
//! map line whose code an earlier line already holds (the public 376012
//! map's `C_CANCEL_SKILL_STRICTLYY`, a typo'd alias) is dropped here with
//! a diagnostic, as the front end's loader refuses the whole file for it.

use std::path::Path;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Calibration, Score};
use tera_opcodes::{DefSet, Discovery, FIXED, GameRules, ProtocolMap, Report, Samples};
use tera_sessions::Events;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [source, defs_dir, map_path] = &args[..] else {
        eprintln!("usage: real_session SOURCE DEFS_DIR MAP");
        std::process::exit(2);
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
    match Events::open(source) {
        Ok(events) => {
            for event in events {
                match event {
                    Ok(e) => samples.push(&e),
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
            explain(&report, &samples, &truth);
            if rules_label == "rules on" {
                calibration.add(&report, &truth);
            }
        }
    }
    println!();
    println!("Written entries by confidence band (rules on, both runs):");
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

/// Each wrong entry, and each opcode whose truth was not written.
fn explain(report: &Report, samples: &Samples, truth: &ProtocolMap) {
    let summary = |e: &tera_opcodes::Entry| -> Vec<String> {
        e.evidence.iter().map(|x| x.summary()).collect()
    };
    for e in &report.entries {
        if e.margin.is_finite() && truth.name(e.opcode) != Some(e.name.as_str()) {
            println!(
                "  wrong {} at {} (truly {:?}), margin {:.1}: {:?}",
                e.name,
                e.opcode,
                truth.name(e.opcode),
                e.margin,
                summary(e)
            );
        }
    }
    if std::env::var_os("REAL_SESSION_VERBOSE").is_none() {
        return;
    }
    for g in samples.groups() {
        if report.entries.iter().any(|e| e.opcode == g.opcode) {
            continue;
        }
        let best = report.candidates.iter().find(|e| e.opcode == g.opcode);
        println!(
            "  left out {} {} ({} packets, {} lengths): {:?}",
            g.opcode,
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
