//! The hostile side: packets that fit no def, and defs made to fit as
//! much as they can, must never give confident wrong entries.

mod common;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::{Score, patch_day, play};
use tera_opcodes::{DefSet, Discovery, FIXED, Samples};
use tera_sessions::{Direction, SessionId, Timestamp};

/// A few-line xorshift, for bytes no def was written for.
fn noise(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Packets of random bytes under random opcodes, both directions.
fn random_capture(packets: usize) -> Samples {
    let mut seed = 0x1234_5678_9abc_def1;
    let mut samples = Samples::new();
    for k in 0..packets {
        let len = 4 + (noise(&mut seed) % 60) as usize;
        let opcode = (noise(&mut seed) % 40) as u16 + 1000;
        let mut packet: Vec<u8> = (0..len).map(|_| noise(&mut seed) as u8).collect();
        packet[..2].copy_from_slice(&(len as u16).to_le_bytes());
        packet[2..4].copy_from_slice(&opcode.to_le_bytes());
        let direction = if opcode.is_multiple_of(2) {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        samples.push_packet(
            SessionId(0),
            Timestamp::from_unix_millis(k as i64),
            direction,
            &packet,
        );
    }
    samples
}

/// Defs that explain as much as a def can: one `bytes`, one string, one
/// array of bytes, nothing at all, one number of each common size.
const GREEDY: &[(&str, &str)] = &[
    ("bytes data\n", "BYTES"),
    ("string text\n", "STRING"),
    ("array<byte> items\n", "ARRAY"),
    ("", "EMPTY"),
    ("uint32 a\n", "U32"),
    ("uint64 a\n", "U64"),
    ("uint32 a\nuint32 b\nuint32 c\n", "U32X3"),
];

fn greedy_catalog(catalog: &mut Catalog) {
    for (source, name) in GREEDY {
        for side in ["C", "S"] {
            catalog
                .add_def(&format!("{side}_HOSTILE_{name}.1.def"), source)
                .expect("the greedy defs are valid");
        }
    }
}

#[test]
fn packets_that_fit_no_def_give_no_entry() {
    let mut catalog = Catalog::new();
    catalog
        .add_def("S_CHAT.4.def", "uint32 channel\nstring message\n")
        .unwrap();
    catalog
        .add_def(
            "C_PLAYER_LOCATION.1.def",
            "vec3 loc\nangle w\nvec3 dest\nint32 type\n",
        )
        .unwrap();
    catalog
        .add_def(
            "S_SPAWN_ME.1.def",
            "uint64 gameId\nvec3 loc\nangle w\nbool alive\n",
        )
        .unwrap();
    let mut samples = random_capture(4000);
    let report = Discovery::new(DefSet::from_catalog(&catalog)).run(&mut samples);
    let fixed: Vec<_> = FIXED.iter().map(|(n, _)| n.to_string()).collect();
    let names: Vec<_> = report.entries.iter().map(|e| e.name.clone()).collect();
    assert_eq!(names, fixed, "only the fixed opcodes");
    assert_eq!(report.unexplained.len(), samples.groups().len());
}

#[test]
fn greedy_defs_alone_name_no_random_packet() {
    let mut catalog = Catalog::new();
    greedy_catalog(&mut catalog);
    let mut samples = random_capture(4000);
    let report = Discovery::new(DefSet::from_catalog(&catalog)).run(&mut samples);
    assert!(
        report.entries.iter().all(|e| e.margin.is_infinite()),
        "{:#?}",
        report.entries
    );
}

#[test]
fn greedy_defs_beside_the_corpus_give_no_confident_wrong_entry() {
    let Some(mut corpus) = common::corpus("hostile") else {
        return;
    };
    greedy_catalog(&mut corpus.catalog);
    let defs = DefSet::from_catalog(&corpus.catalog);
    assert_eq!(defs.len(), corpus.defs.len() + 2 * GREEDY.len());
    for seed in [7, 8] {
        let truth = patch_day(&corpus.previous, seed);
        let session = play(&corpus.protocol.with_map(&truth), seed, 2500);
        let mut samples = session.samples();
        let report = Discovery::new(defs.clone()).run(&mut samples);
        let greedy: Vec<_> = report
            .entries
            .iter()
            .filter(|e| e.name.contains("_HOSTILE_"))
            .collect();
        assert!(greedy.is_empty(), "seed {seed}: {greedy:#?}");
        let score = Score::of(&report, &samples, &truth);
        assert!(score.wrong <= 2, "seed {seed}: {score:?}");
        assert_eq!(score.duplicates, 0);
    }
}
