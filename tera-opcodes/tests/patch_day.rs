//! Simulated patch days on the real corpus: a session played under a map
//! whose opcodes are permuted at random, discovered with only the fixed
//! opcodes known and with the previous map as a prior. A few seeds here;
//! `cargo run --release -p tera-opcodes --example patch_days` gives the
//! table over twenty.

mod common;

use tera_opcodes::simulate::{Score, patch_day, play};
use tera_opcodes::{Discovery, FIXED};

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
                score.recall() >= 0.90,
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
    assert!(
        score.right >= before.right + known.len(),
        "{score:?} against {before:?}"
    );
    assert_eq!(score.duplicates, 0);
}
