//! Simulated patch days on the real corpus: a session played under a map
//! whose opcodes are permuted at random, discovered with only the fixed
//! opcodes known and with the previous map as a prior. A few seeds here;
//! `cargo run --release -p tera-opcodes --example patch_days` gives the
//! table over twenty.

mod common;

use tera_opcodes::simulate::{PatchChanges, Perturbation, Score, patch_day, play};
use tera_opcodes::{Discovery, Evidence, FIXED, GameRules, Report};

/// The least recall on a session that plays the rules as written, every
/// def current (measured 2026-11-29, less a little): the evidence counts a
/// fit only as much as the def's layout is rare (among the def set's and
/// the session's) and a value only as much as it is rare in the session,
/// so single packets of small fixed layouts go unnamed, and ids and
/// positions alone name nothing (any packet about the player holds them:
/// `discover/lacking.rs`). Seeds 101 and 202 gave 0.427 and 0.461 (0.416
/// for 101 before a lacking def was weighed as one of a like layout, 0.551
/// before `lacking.rs`).
const PLAIN_RECALL: f64 = 0.38;

#[test]
fn patch_days_name_most_opcodes_and_none_twice() {
    let Some(corpus) = common::corpus("patch_day") else {
        return;
    };
    for seed in [101, 202] {
        let truth = patch_day(&corpus.previous, seed);
        // Every opcode moved but the fixed ones (and the few a shuffle
        // leaves in place).
        let moved = corpus
            .previous
            .iter()
            .filter(|(n, c)| truth.code(n) != Some(*c))
            .count();
        assert!(
            moved + FIXED.len() + 8 >= corpus.previous.len(),
            "seed {seed}: only {moved} moved"
        );
        let session = play(&corpus.protocol.with_map(&truth), seed, 2500);
        assert!(session.errors.is_empty(), "{:?}", session.errors);
        for prior in [false, true] {
            let mut samples = session.samples();
            let mut discovery = Discovery::new(corpus.defs.clone());
            if prior {
                discovery = discovery.previous(corpus.previous.clone());
            }
            let report = discovery.run(&mut samples);
            let score = Score::of(&report, &samples, &truth);
            eprintln!("seed {seed}, prior {prior}: {score:?}");
            assert_eq!(
                score.duplicates, 0,
                "seed {seed}: a name or opcode written twice"
            );
            assert!(
                score.seen >= 70,
                "seed {seed}: the session shows {} opcodes",
                score.seen
            );
            assert!(
                score.recall() >= PLAIN_RECALL,
                "seed {seed}, prior {prior}: recall {:.3}",
                score.recall()
            );
            assert_eq!(score.wrong, 0, "seed {seed}, prior {prior}: wrong entries");
            // The fixed opcodes are always written, as given.
            for (name, code) in FIXED {
                assert_eq!(report.map().code(name), Some(code));
            }
            // Every entry written has its evidence and reaches the threshold.
            for e in &report.entries {
                assert!(
                    e.margin >= report.threshold,
                    "{} written below the threshold",
                    e.name
                );
                assert!(!e.evidence.is_empty());
            }
            for c in &report.candidates {
                assert!(c.margin < report.threshold);
                assert!(report.map().code(&c.name) != Some(c.opcode));
            }
        }
    }
}

#[test]
fn a_partial_map_is_kept_and_helps() {
    let Some(corpus) = common::corpus("patch_day") else {
        return;
    };
    let seed = 303;
    let truth = patch_day(&corpus.previous, seed);
    let session = play(&corpus.protocol.with_map(&truth), seed, 2500);
    let mut samples = session.samples();
    let bare = Discovery::new(corpus.defs.clone()).run(&mut samples);
    // Give ten of the opcodes the bare run missed.
    let mut known = tera_opcodes::ProtocolMap::new();
    for g in samples.groups() {
        let name = truth.name(g.opcode).expect("every opcode is in the truth");
        if bare.map().code(name).is_none() && known.len() < 10 {
            known.insert(name, g.opcode);
        }
    }
    let report = Discovery::new(corpus.defs.clone())
        .known(known.clone())
        .run(&mut samples);
    let map = report.map();
    for (name, code) in known.iter() {
        assert_eq!(map.code(name), Some(code), "{name} given, not kept");
    }
    let score = Score::of(&report, &samples, &truth);
    let before = Score::of(&bare, &samples, &truth);
    // The ten given, and the entries they anchor; an entry named by a
    // close margin may fall below the threshold once the given ones change
    // what is specific in the session (60 against 51 on 2026-11-29).
    assert!(
        score.right + 2 >= before.right + known.len(),
        "{score:?} against {before:?}"
    );
    assert_eq!(score.wrong, 0);
    assert_eq!(score.duplicates, 0);
}

/// Rule evidence never counts against: a session that does not play a
/// rule gets nothing from it.
fn no_rule_counts_against(report: &Report) {
    for e in report.entries.iter().chain(&report.candidates) {
        for ev in &e.evidence {
            let rule = matches!(
                ev,
                Evidence::LoginOrder { .. }
                    | Evidence::Scene { .. }
                    | Evidence::Follows { .. }
                    | Evidence::Pair { .. }
                    | Evidence::Keepalive { .. }
            );
            assert!(!rule || ev.bits() >= 0.0, "{}: {}", e.name, ev.summary());
        }
    }
}

#[test]
fn patch_days_that_stray_from_the_rules_write_nothing_wrong() {
    let Some(corpus) = common::corpus("patch_day") else {
        return;
    };
    for seed in [11, 12] {
        let truth = patch_day(&corpus.previous, seed);
        let changes = PatchChanges::draw(seed, 5, 5);
        assert_eq!((changes.stale.len(), changes.new.len()), (5, 5));
        let protocol = corpus
            .protocol
            .with_map(&truth)
            .perturbed(Perturbation::real_like(changes.stale.clone()));
        let defs = corpus.defs.without(|n| changes.new.contains(n));
        let session = play(&protocol, seed, 2500);
        assert!(session.errors.is_empty(), "{:?}", session.errors);
        let mut recall = Vec::new();
        for rules in [GameRules::standard(), GameRules::none()] {
            let mut samples = session.samples();
            let report = Discovery::new(defs.clone()).rules(rules).run(&mut samples);
            let score = Score::of_fitting(&report, &samples, &truth, &defs);
            eprintln!("seed {seed}: {score:?}");
            assert_eq!(score.wrong, 0, "seed {seed}: wrong entries");
            assert_eq!(score.duplicates, 0);
            no_rule_counts_against(&report);
            // A new name has no def, a stale one a def that does not fit:
            // neither is written.
            for name in changes.stale.iter().chain(&changes.new) {
                assert_eq!(report.map().code(name), None, "seed {seed}: {name} written");
            }
            recall.push(score.recall());
        }
        assert!(recall[0] >= PERTURBED_RECALL, "seed {seed}: {recall:?}");
        assert!(
            recall[0] >= recall[1],
            "seed {seed}: rules cost recall: {recall:?}"
        );
    }
}

/// The least recall with the rules on, on a session that strays from
/// them (measured 2026-11-29, less a little: seeds 11 and 12 gave 0.261
/// and 0.256, and 0.203 and 0.202 with the rules off; 0.319 and 0.287
/// before a lacking def was weighed as one of a like layout (further
/// lengths, text fields' names) with four lacking groups for each no def
/// fits, 0.348 and 0.326 before a name with nothing of its own paid for
/// the unfit groups, 0.384 and 0.372 before `discover/lacking.rs`).
const PERTURBED_RECALL: f64 = 0.24;
