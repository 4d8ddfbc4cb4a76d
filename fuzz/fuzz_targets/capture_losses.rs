//! A real-shaped TERA session reaching a tracker as a real TCP stack sends
//! it, with segments lost: each run of packets one way is written at once
//! and cut into segments wherever the input says (1 to 1,460 bytes, so that
//! segments hold the end of one packet and the start of the next), and the
//! segments the input picks are lost. The session (a fixed handshake,
//! today's or the old key generation, 80 packets of both directions, a few
//! longer than a segment) is read with its opcodes as known opcodes or
//! without.
//!
//! Input: a flags byte (bit 0: old keys; bit 1: known opcodes; bit 2:
//! acknowledgements; bits 3-4: how many segments are lost, 0 to 3), a byte
//! per lost segment choosing it, then `u16` (LE) segment sizes (`1 + v %
//! 1460`; full segments once the input ends).
//!
//! Checks: no panic (built with debug assertions: no overflow); the gaps
//! are exactly the lost bytes (one gap a run of adjacent lost segments,
//! or pieces of it); every packet that ends before the first loss of its
//! direction as sent; without a loss, every packet as sent.
#![no_main]

use std::net::SocketAddr;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tera_net::{Direction, HELLO, KeyGeneration, Session, SessionKeys};
use tera_sessions::capture::{Limits, OpcodeSet, Segment, Tracker};
use tera_sessions::{Event, Timestamp};

const MSS: usize = 1460;

struct Played {
    /// Each direction's handshake bytes.
    handshake: [Vec<u8>; 2],
    /// The runs of packets one way, encrypted, in the order sent.
    runs: Vec<(usize, Vec<u8>)>,
    /// The packets each direction sent.
    sent: [Vec<Vec<u8>>; 2],
    opcodes: OpcodeSet,
}

fn packet(opcode: u16, body_len: usize, seed: u16) -> Vec<u8> {
    let mut p = ((body_len + 4) as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&opcode.to_le_bytes());
    p.extend((0..body_len).map(|b| ((b as u16).wrapping_mul(seed | 1) >> 3) as u8));
    p
}

fn play(generation: KeyGeneration) -> Played {
    let key = |seed: u8| std::array::from_fn(|i| (i as u8).wrapping_mul(seed).wrapping_add(seed));
    let keys = SessionKeys {
        client_key1: key(3),
        server_key1: key(5),
        client_key2: key(7),
        server_key2: key(11),
    };
    let mut session = Session::with_generation(&keys, generation);
    let handshake = [
        [&keys.client_key1[..], &keys.client_key2[..]].concat(),
        [&HELLO[..], &keys.server_key1[..], &keys.server_key2[..]].concat(),
    ];
    let mut script = vec![(0usize, packet(19900, 28, 1))];
    for i in 0..80u16 {
        // Runs of one to seven packets one way; the server's longer.
        let dir = usize::from(i % 9 >= 2);
        let len = match i % 13 {
            0 => 1500 + usize::from(i) * 19,
            5 => 0,
            _ => usize::from(i * 29 % 240),
        };
        script.push((dir, packet(20000 + i % 23 * 7, len, i)));
    }
    let mut runs: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut sent: [Vec<Vec<u8>>; 2] = Default::default();
    for (i, p) in script {
        let dir = [Direction::ClientToServer, Direction::ServerToClient][i];
        let mut wire = p.clone();
        session.apply(dir, &mut wire);
        match runs.last_mut() {
            Some((d, run)) if *d == i => run.extend_from_slice(&wire),
            _ => runs.push((i, wire)),
        }
        sent[i].push(p);
    }
    let opcodes = sent.iter().flatten().map(|p| u16::from_le_bytes([p[2], p[3]])).collect();
    Played {
        handshake,
        runs,
        sent,
        opcodes,
    }
}

fn played(generation: KeyGeneration) -> &'static Played {
    static CURRENT: OnceLock<Played> = OnceLock::new();
    static OLD: OnceLock<Played> = OnceLock::new();
    match generation {
        KeyGeneration::Current => CURRENT.get_or_init(|| play(KeyGeneration::Current)),
        KeyGeneration::Old => OLD.get_or_init(|| play(KeyGeneration::Old)),
    }
}

/// A data segment: who sends it, where it starts in its stream (after the
/// handshake), its bytes.
struct Piece {
    dir: usize,
    at: usize,
    bytes: Vec<u8>,
}

fn pieces(played: &Played, sizes: &[u8]) -> Vec<Piece> {
    let mut sizes = sizes.chunks_exact(2);
    let mut offset = [0usize; 2];
    let mut out = Vec::new();
    for (dir, run) in &played.runs {
        let mut rest = &run[..];
        while !rest.is_empty() {
            let size = sizes
                .next()
                .map_or(MSS, |s| 1 + usize::from(u16::from_le_bytes([s[0], s[1]])) % MSS);
            let (now, later) = rest.split_at(size.min(rest.len()));
            out.push(Piece {
                dir: *dir,
                at: offset[*dir],
                bytes: now.to_vec(),
            });
            offset[*dir] += now.len();
            rest = later;
        }
    }
    out
}

fn run(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let generation = if flags & 1 == 0 {
        KeyGeneration::Current
    } else {
        KeyGeneration::Old
    };
    let played = played(generation);
    let known = (flags & 2 != 0).then(|| played.opcodes.clone());
    let acks = flags & 4 != 0;
    let losses = usize::from(flags >> 3 & 3);
    let (picks, sizes) = rest.split_at(losses.min(rest.len()));
    let pieces = pieces(played, sizes);
    // Never a byte of the client's first header: without
    // C_CHECK_VERSION's header no key generation is chosen (the session is
    // refused, as `tests/edges.rs` checks).
    let mut lost: Vec<usize> = picks
        .iter()
        .map(|&p| usize::from(p) % pieces.len())
        .filter(|&i| pieces[i].dir == 1 || pieces[i].at >= 4)
        .collect();
    lost.sort_unstable();
    lost.dedup();

    let ends = [
        SocketAddr::from(([10, 0, 0, 2], 50000)),
        SocketAddr::from(([10, 0, 0, 1], 7801)),
    ];
    let isn = [0xffff_fe00u32, 0x7fff_fff0];
    let mut next = [isn[0].wrapping_add(1), isn[1].wrapping_add(1)];
    let mut tracker = Tracker::new(Limits::default(), known);
    let mut events = Vec::new();
    let mut send = |tracker: &mut Tracker, i: usize, payload: &[u8], syn: bool, fin: bool, skip: bool| {
        let seq = if syn { isn[i] } else { next[i] };
        let peer = next[1 - i];
        let seg = Segment {
            time: Timestamp(0),
            source: ends[i],
            destination: ends[1 - i],
            seq,
            ack: (acks || syn || payload.is_empty()).then_some(peer).filter(|_| !(syn && i == 0)),
            syn,
            fin,
            rst: false,
            payload,
        };
        if !syn {
            next[i] = next[i].wrapping_add(payload.len() as u32);
        }
        if !skip {
            tracker.push(&seg);
        }
    };
    send(&mut tracker, 0, &[], true, false, false);
    send(&mut tracker, 1, &[], true, false, false);
    let [client_hs, server_hs] = &played.handshake;
    send(&mut tracker, 1, &server_hs[..4], false, false, false);
    send(&mut tracker, 0, client_hs, false, false, false);
    send(&mut tracker, 1, &server_hs[4..], false, false, false);
    for (i, piece) in pieces.iter().enumerate() {
        send(&mut tracker, piece.dir, &piece.bytes, false, false, lost.contains(&i));
        while let Some(e) = tracker.pop() {
            events.push(e);
        }
    }
    send(&mut tracker, 0, &[], false, true, false);
    send(&mut tracker, 1, &[], false, true, false);
    tracker.finish();
    while let Some(e) = tracker.pop() {
        events.push(e);
    }
    check(played, &pieces, &lost, &events);
}

fn check(played: &Played, pieces: &[Piece], lost: &[usize], events: &[Event]) {
    let gaps = merged(events.iter().filter_map(|e| match e {
        Event::Gap(g) => Some((
            usize::from(g.direction == Direction::ServerToClient),
            g.offset,
            g.len,
        )),
        _ => None,
    }));
    let want = merged(
        lost.iter()
            .map(|&i| (pieces[i].dir, pieces[i].at as u64, pieces[i].bytes.len() as u64)),
    );
    assert_eq!(gaps, want, "the gaps are the lost bytes, exactly");
    for (i, dir) in [(0, Direction::ClientToServer), (1, Direction::ServerToClient)] {
        let got: Vec<&Vec<u8>> = events
            .iter()
            .filter_map(|e| match e {
                Event::Packet(p) if p.direction == dir => Some(&p.bytes),
                _ => None,
            })
            .collect();
        let first_loss = want.iter().filter(|w| w.0 == i).map(|w| w.1).min();
        let mut end = 0u64;
        for (n, p) in played.sent[i].iter().enumerate() {
            end += p.len() as u64;
            if first_loss.is_some_and(|f| end > f) {
                break;
            }
            assert_eq!(got.get(n).copied(), Some(p), "{dir}: packet {n} before any loss");
        }
        if first_loss.is_none() {
            assert_eq!(got.len(), played.sent[i].len(), "{dir}: every packet");
        }
    }
}

/// Ranges (direction, offset, length) sorted, adjacent ones of a direction
/// joined (a run of lost segments may be given up in one piece or several).
fn merged(ranges: impl Iterator<Item = (usize, u64, u64)>) -> Vec<(usize, u64, u64)> {
    let mut ranges: Vec<_> = ranges.collect();
    ranges.sort_unstable();
    let mut out: Vec<(usize, u64, u64)> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if last.0 == r.0 && last.1 + last.2 == r.1 => last.2 += r.2,
            _ => out.push(r),
        }
    }
    out
}

fuzz_target!(|data: &[u8]| run(data));
