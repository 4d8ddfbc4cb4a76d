//! Grading a map against a session: a right map passes, and a map with
//! three pairs of entries swapped is caught, each swap named.

mod common;

use tera_opcodes::simulate::{patch_day, play};
use tera_opcodes::{Check, Discovery};

#[test]
fn check_finds_three_swapped_entries() {
    let Some(corpus) = common::corpus("check") else {
        return;
    };
    let seed = 404;
    let truth = patch_day(&corpus.previous, seed);
    let session = play(&corpus.protocol.with_map(&truth), seed, 2500);
    let mut samples = session.samples();

    // The right map passes: every entry seen fits, nothing moved.
    let clean = Check::new(corpus.defs.clone(), truth.clone()).run(&mut samples);
    assert!(clean.misfits.is_empty(), "{:#?}", clean.misfits);
    assert!(clean.moved.is_empty(), "{:#?}", clean.moved);
    assert!(clean.seen >= 70 && clean.fitting == clean.seen);

    // Swap three pairs of entries discovery is sure of, of one direction
    // each (a swap across directions would only be a misfit).
    let found = Discovery::new(corpus.defs.clone()).run(&mut samples);
    let mut sure: Vec<_> = found
        .entries
        .iter()
        .filter(|e| e.margin.is_finite() && truth.code(&e.name) == Some(e.opcode))
        .collect();
    sure.sort_by(|a, b| a.name.cmp(&b.name));
    let mut swapped = truth.clone();
    let mut pairs = Vec::new();
    for direction in [
        tera_sessions::Direction::ClientToServer,
        tera_sessions::Direction::ServerToClient,
    ] {
        let side: Vec<_> = sure.iter().filter(|e| e.direction == direction).collect();
        for pair in side.chunks(2).step_by(3).take(
            if direction == tera_sessions::Direction::ClientToServer {
                1
            } else {
                2
            },
        ) {
            let [a, b] = pair else { continue };
            swapped.insert(&a.name, b.opcode);
            swapped.insert(&b.name, a.opcode);
            pairs.push((a.name.clone(), b.name.clone()));
        }
    }
    assert_eq!(pairs.len(), 3);
    let report = Check::new(corpus.defs.clone(), swapped).run(&mut samples);
    let swaps: Vec<(String, String)> = report
        .swaps()
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
    for (a, b) in &pairs {
        let (x, y) = if a < b { (a, b) } else { (b, a) };
        assert!(
            swaps.contains(&(x.clone(), y.clone())),
            "swap {x} <-> {y} not found: {swaps:?}"
        );
    }
    assert_eq!(swaps.len(), 3, "{swaps:?}");
    assert!(!report.is_clean());
}
