//! Properties of reassembly and loss, on scripted sessions fed to the
//! tracker segment by segment, each run of packets one way cut into
//! segments at any byte (as a sender that writes bursts at once and a TCP
//! stack that coalesces them do: a segment holds the end of one packet and
//! the start of the next):
//!
//! * any reordering, duplication or overlap of a connection's data
//!   segments gives the same packets, both ways, and no gap;
//! * dropping one data segment gives exactly one gap (its direction, its
//!   offset in the stream, its length) and every packet that did not touch
//!   the lost bytes, intact and in order, with the script's opcodes as a
//!   map; without a map, nearly always no packet that was not sent and
//!   every packet from the boundary found on, at most 3 dropped beyond the
//!   ones that touched the lost bytes.
//!
//! The data segments are reordered without the peer's acknowledgements
//! between them: an acknowledgement is proof that bytes were received,
//! which a reordering of the segments around it would fake. The loss
//! property runs both with acknowledgements (losses found as soon as later
//! bytes arrive) and without (found when the connection ends). The tracker
//! is given the script's opcodes, as a user gives a protocol map's; a third
//! property runs the loss without them, on sessions that use a few dozen
//! opcodes over and over, as real ones do.

mod support;

use proptest::prelude::*;
use support::{Ends, Owned, Rng, Script, packets_of, script, script_of, segments_cut};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::capture::{Limits, OpcodeSet, Tracker};
use tera_sessions::{Event, Gap};

fn generation(old: bool) -> KeyGeneration {
    if old {
        KeyGeneration::Old
    } else {
        KeyGeneration::Current
    }
}

fn run(segs: &[Owned], known: Option<OpcodeSet>) -> Vec<Event> {
    let mut tracker = Tracker::new(Limits::default(), known);
    let mut events = Vec::new();
    for s in segs {
        tracker.push(&s.segment());
        while let Some(e) = tracker.pop() {
            events.push(e);
        }
    }
    tracker.finish();
    while let Some(e) = tracker.pop() {
        events.push(e);
    }
    events
}

fn opcodes(s: &Script) -> OpcodeSet {
    s.packets
        .iter()
        .map(|(_, p)| u16::from_le_bytes([p[2], p[3]]))
        .collect()
}

/// The handshake bytes before a direction's encrypted stream.
fn handshake_len(dir: Direction) -> u64 {
    match dir {
        Direction::ClientToServer => 256,
        Direction::ServerToClient => 260,
    }
}

/// A segment's range in its direction's stream after the handshake.
fn range(seg: &Owned, ends: Ends) -> (u64, u64) {
    let isn = match seg.dir {
        Direction::ClientToServer => ends.client_isn,
        Direction::ServerToClient => ends.server_isn,
    };
    let at = u64::from(seg.seq.wrapping_sub(isn.wrapping_add(1))) - handshake_len(seg.dir);
    (at, at + seg.payload.len() as u64)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn reordered_duplicated_overlapping_segments_give_the_same_packets(
        seed in any::<u64>(),
        order in any::<u64>(),
        mss in 1usize..1500,
        cuts in any::<u64>(),
        extra in 0usize..30,
        old in any::<bool>(),
        isn in any::<(u32, u32)>(),
    ) {
        let s = script(seed, generation(old), 30);
        let ends = Ends::new(1, isn.0, isn.1);
        let segs = cut_anywhere(&s, ends, false, mss, cuts);
        // The TCP and TERA handshakes stay first: a capture shows no byte
        // before the handshake that lets a peer send it.
        let (syns, rest) = segs.split_at(7);
        let (data, fins) = rest.split_at(rest.len() - 2);
        let mut rng = Rng(order);
        let mut data = data.to_vec();
        // Duplicates and overlapping pieces: a copy of a segment, cut to a
        // random part of it, or joined with the next one of its direction.
        for _ in 0..extra {
            let i = rng.below(data.len() as u64) as usize;
            let mut copy = data[i].clone();
            let joins = |n: &&Owned| n.dir == copy.dir && n.seq == copy.seq.wrapping_add(copy.payload.len() as u32);
            if let Some(next) = data[i + 1..].iter().find(joins)
                && rng.below(2) == 0
            {
                copy.payload.extend_from_slice(&next.payload);
            }
            let from = rng.below(copy.payload.len() as u64 + 1) as usize;
            let to = from + rng.below((copy.payload.len() - from) as u64 + 1) as usize;
            copy.seq = copy.seq.wrapping_add(from as u32);
            copy.payload = copy.payload[from..to].to_vec();
            data.push(copy);
        }
        for i in (1..data.len()).rev() {
            data.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let all: Vec<Owned> = syns.iter().chain(&data).chain(fins).cloned().collect();
        let events = run(&all, Some(opcodes(&s)));
        for dir in [Direction::ClientToServer, Direction::ServerToClient] {
            prop_assert_eq!(packets_of(&events, dir), s.sent(dir));
        }
        prop_assert!(!events.iter().any(|e| matches!(e, Event::Gap(_))));
    }

    #[test]
    fn a_lost_segment_is_one_gap_and_every_other_packet_intact(
        seed in any::<u64>(),
        lose in any::<u64>(),
        mss in 200usize..1500,
        cuts in any::<u64>(),
        acks in any::<bool>(),
        old in any::<bool>(),
        isn in any::<(u32, u32)>(),
    ) {
        let s = script(seed, generation(old), 30);
        let shape = Shape { mss, cuts, isn, acks };
        lost_segment(&s, Some(opcodes(&s)), lose, shape, 0)?;
    }
}

/// How a connection's segments are cut: runs of packets in full segments
/// of `mss` bytes when `cuts` is even (Nagle), else in segments of 1 to
/// `mss` bytes cut at random by `cuts`.
#[derive(Clone, Copy, Debug)]
struct Shape {
    mss: usize,
    cuts: u64,
    isn: (u32, u32),
    acks: bool,
}

fn cut_anywhere(s: &Script, ends: Ends, acks: bool, mss: usize, cuts: u64) -> Vec<Owned> {
    let mut rng = Rng(cuts);
    let nagle = cuts.is_multiple_of(2);
    segments_cut(s, ends, acks, 0, &mut |rest| {
        if nagle {
            mss
        } else {
            1 + rng.below(rest.min(mss) as u64) as usize
        }
    })
}

/// The most packets a loss may cost without a map beyond the ones that
/// held lost bytes (see `decrypt/resync.rs`).
const MAX_EXTRA: usize = 3;

/// Without a map, the search for the next packet after a lost header
/// trusts only the opcodes the direction already used, and noise whose
/// length lands exactly on a true boundary can pass for a packet (see
/// `decrypt/resync.rs`): on 400 fixed cases (sessions of 40 opcodes used
/// over and over, random bodies, one segment lost, segments cut anywhere),
/// all but 1 in 100 give one gap, no packet that was not sent, every packet
/// from the boundary found on, and at most [`MAX_EXTRA`] dropped beyond
/// the ones that held lost bytes; how many, printed. When this was
/// written: 398 of 400, the two others one packet of noise handed out and
/// a second gap at the end.
#[test]
fn without_a_map_a_lost_segment_costs_at_most_a_few_packets_more() {
    let mut rng = Rng(0x10_57);
    let mut extra = std::collections::BTreeMap::<usize, usize>::new();
    let mut failed = Vec::new();
    for case in 0..400 {
        let s = script_of(rng.next(), KeyGeneration::Current, 60, 20000, 40);
        let mss = 200 + rng.below(1300) as usize;
        let (lose, acks, cuts) = (rng.next(), rng.below(2) == 0, rng.next());
        let isn = (rng.next() as u32, rng.next() as u32);
        let shape = Shape {
            mss,
            cuts,
            isn,
            acks,
        };
        match lost_segment(&s, None, lose, shape, MAX_EXTRA) {
            Ok(n) => *extra.entry(n).or_default() += 1,
            Err(e) => failed.push((case, e)),
        }
    }
    println!(
        "without a map, 400 lost segments: {} as stated; packets dropped beyond the ones that held lost bytes (count: cases) {extra:?}",
        400 - failed.len()
    );
    assert!(failed.len() <= 4, "{failed:?}");
}

/// Drops the data segment `lose` picks and checks the gap and packets:
/// every packet that did not touch the lost bytes comes out but at most
/// `max_extra` right after them; returns how many did not.
fn lost_segment(
    s: &Script,
    known: Option<OpcodeSet>,
    lose: u64,
    shape: Shape,
    max_extra: usize,
) -> Result<usize, TestCaseError> {
    let ends = Ends::new(2, shape.isn.0, shape.isn.1);
    let mut segs = cut_anywhere(s, ends, shape.acks, shape.mss, shape.cuts);
    // A data segment after the handshake (the first seven segments are
    // the TCP and TERA handshakes; the last two the FINs) that holds no
    // byte of the client's first packet, without which no key generation
    // is chosen (the session is refused, `CaptureStats::handshake_lost`).
    // Cut anywhere, that packet may span several segments.
    let first_packet = s.sent(Direction::ClientToServer)[0].len() as u64;
    let candidates: Vec<usize> = (7..segs.len() - 2)
        .filter(|&i| !segs[i].payload.is_empty())
        .filter(|&i| {
            segs[i].dir == Direction::ServerToClient || range(&segs[i], ends).0 >= first_packet
        })
        .collect();
    let lost = segs.remove(candidates[lose as usize % candidates.len()]);
    let (from, to) = range(&lost, ends);
    let events = run(&segs, known);

    let gaps: Vec<&Gap> = events
        .iter()
        .filter_map(|e| match e {
            Event::Gap(g) => Some(g),
            _ => None,
        })
        .collect();
    prop_assert_eq!(gaps.len(), 1, "{:?}", gaps);
    prop_assert_eq!(gaps[0].direction, lost.dir);
    prop_assert_eq!((gaps[0].offset, gaps[0].len), (from, to - from));

    let mut extra = 0;
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        let mut at = 0u64;
        let mut before = 0;
        let untouched: Vec<Vec<u8>> = s
            .sent(dir)
            .into_iter()
            .filter(|p| {
                let (start, end) = (at, at + p.len() as u64);
                at = end;
                before += usize::from(dir == lost.dir && end <= from);
                dir != lost.dir || end <= from || start >= to
            })
            .collect();
        let got = packets_of(&events, dir);
        let dropped = untouched.len().saturating_sub(got.len());
        let want: Vec<&Vec<u8>> = untouched
            .iter()
            .take(before)
            .chain(untouched.iter().skip(before + dropped))
            .collect();
        let same = got.iter().zip(&want).take_while(|(g, w)| g == *w).count();
        prop_assert!(
            got.iter().eq(want.iter().copied()) && dropped <= max_extra,
            "{}: {} packets, {} untouched, the first {} as expected",
            dir,
            got.len(),
            untouched.len(),
            same
        );
        extra += dropped;
    }
    Ok(extra)
}

/// A case the property found (CI, 2026-11-29): segments cut at random
/// split the client's first packet, and the case lost its second piece
/// (the session refused, no gap), which the property now leaves alone:
/// another segment is lost instead.
#[test]
fn a_lost_segment_found_by_the_property_is_one_gap() {
    let s = script(3887091140115556931, generation(false), 30);
    let shape = Shape {
        mss: 1288,
        cuts: 5295201209951104655,
        isn: (2049732696, 1566148042),
        acks: false,
    };
    lost_segment(&s, Some(opcodes(&s)), 10186530143114565360, shape, 0).unwrap();
}
