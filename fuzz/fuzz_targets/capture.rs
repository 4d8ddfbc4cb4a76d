//! Captures read passively (tera-sessions) on hostile input, two ways by
//! the first byte:
//!
//! * even: the rest is a capture file (pcap or pcapng, any bytes): reading
//!   it yields events and at most one error, never a panic;
//! * odd: the rest chooses how a real TERA session (a fixed handshake and
//!   packets, encrypted with tera-net's cipher, today's or the old key
//!   generation by bit 1) reaches a tracker: which direction's bytes come
//!   next, from where in its stream and how many (in order, out of order,
//!   repeated, overlapping, skipped), plus forged segments (any sequence
//!   number, flags and bytes). Whatever comes, no panic; and when no byte
//!   was lost or forged, each direction's packets are the first packets
//!   that direction sent, byte for byte.
//!
//! Both run under small caps (`LIMITS`), so that the fuzzer reaches them:
//! the out-of-order bytes held are checked against their cap after every
//! segment, and memory stays within libFuzzer's RSS limit.
#![no_main]

use std::io::Cursor;
use std::net::SocketAddr;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tera_net::{Direction, HELLO, KeyGeneration, Session, SessionKeys};
use tera_sessions::capture::{Capture, Limits, Segment, Tracker};
use tera_sessions::{Event, Timestamp};

const LIMITS: Limits = Limits {
    max_connections: 16,
    max_out_of_order: 16 * 1024,
    max_out_of_order_total: 64 * 1024,
};

/// A session's two wire streams (handshake then encrypted packets) and
/// the packets each direction sent.
struct Played {
    wire: [Vec<u8>; 2],
    sent: [Vec<Vec<u8>>; 2],
}

fn packet(opcode: u16, body: &[u8]) -> Vec<u8> {
    let mut p = ((body.len() + 4) as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&opcode.to_le_bytes());
    p.extend_from_slice(body);
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
    let mut wire = [
        [&keys.client_key1[..], &keys.client_key2[..]].concat(),
        [&HELLO[..], &keys.server_key1[..], &keys.server_key2[..]].concat(),
    ];
    let mut sent: [Vec<Vec<u8>>; 2] = Default::default();
    let mut script = vec![(
        Direction::ClientToServer,
        packet(19900, &[2, 0, 8, 0, 1, 2, 3, 4]),
    )];
    for i in 0..24u16 {
        let dir = if i % 3 == 0 {
            Direction::ServerToClient
        } else {
            Direction::ClientToServer
        };
        let body: Vec<u8> = (0..(i * 37) % 300).map(|b| (b as u8) ^ (i as u8)).collect();
        script.push((dir, packet(20000 + i, &body)));
    }
    for (dir, p) in script {
        let i = usize::from(dir == Direction::ServerToClient);
        let mut w = p.clone();
        session.apply(dir, &mut w);
        wire[i].extend_from_slice(&w);
        sent[i].push(p);
    }
    Played { wire, sent }
}

fn played(generation: KeyGeneration) -> &'static Played {
    static CURRENT: OnceLock<Played> = OnceLock::new();
    static OLD: OnceLock<Played> = OnceLock::new();
    match generation {
        KeyGeneration::Current => CURRENT.get_or_init(|| play(KeyGeneration::Current)),
        KeyGeneration::Old => OLD.get_or_init(|| play(KeyGeneration::Old)),
    }
}

fn file(bytes: &[u8]) {
    let Ok(capture) = Capture::builder().limits(LIMITS).read(Cursor::new(bytes)) else {
        return;
    };
    let mut errors = 0;
    for event in capture {
        if event.is_err() {
            errors += 1;
        }
    }
    assert!(errors <= 1, "a capture yields at most one error");
}

fn segments(flags: u8, ops: &[u8]) {
    let generation = if flags & 2 == 0 {
        KeyGeneration::Current
    } else {
        KeyGeneration::Old
    };
    let played = played(generation);
    let client = SocketAddr::from(([10, 0, 0, 2], 50000));
    let server = SocketAddr::from(([10, 0, 0, 1], 7801));
    let isn = [0xffff_ff00u32, 0x7fff_fff0];
    let ends = |i: usize| {
        if i == 0 {
            (client, server)
        } else {
            (server, client)
        }
    };
    let mut tracker = Tracker::new(LIMITS, None);
    let mut events = Vec::new();
    let time = Timestamp(0);
    for (i, syn_ack) in [(0, None), (1, Some(isn[0].wrapping_add(1)))] {
        let (source, destination) = ends(i);
        let seg = Segment {
            time,
            source,
            destination,
            seq: isn[i],
            ack: syn_ack,
            syn: true,
            fin: false,
            rst: false,
            payload: &[],
        };
        push(&mut tracker, &mut events, seg);
    }
    let mut cursor = [0usize; 2];
    let mut clean = true;
    let mut ops = ops;
    while let [op, a, b, rest @ ..] = ops {
        ops = rest;
        let i = usize::from(op & 1);
        let wire = &played.wire[i];
        let (source, destination) = ends(i);
        let len = usize::from(*a) * 4 + usize::from(*b & 3);
        let from = match op >> 1 & 3 {
            // The next bytes, in order.
            0 => cursor[i],
            // Bytes from anywhere before the cursor or just after it.
            1 | 2 => (usize::from(*b) * 31 + usize::from(*a) * 977) % (wire.len() + 1),
            // A forged segment: any sequence number, flags, these bytes.
            _ => {
                clean = false;
                let n = rest.len().min(usize::from(*a));
                let (payload, after) = rest.split_at(n);
                ops = after;
                let seq = u32::from_le_bytes([*a, *b, *op, n as u8]);
                let seg = Segment {
                    time,
                    source,
                    destination,
                    seq,
                    ack: Some(seq ^ 0x5555),
                    syn: b & 1 != 0,
                    fin: b & 2 != 0,
                    rst: b & 4 != 0,
                    payload,
                };
                push(&mut tracker, &mut events, seg);
                continue;
            }
        };
        let to = (from + len).min(wire.len());
        let from = from.min(to);
        let seq = isn[i].wrapping_add(1).wrapping_add(from as u32);
        let seg = Segment {
            time,
            source,
            destination,
            seq,
            ack: None,
            syn: false,
            fin: false,
            rst: false,
            payload: &wire[from..to],
        };
        push(&mut tracker, &mut events, seg);
        if from <= cursor[i] {
            cursor[i] = cursor[i].max(to);
        }
    }
    tracker.finish();
    while let Some(e) = tracker.pop() {
        events.push(e);
    }
    if clean && !events.iter().any(|e| matches!(e, Event::Gap(_))) {
        assert_as_sent(&events, &played);
    }
}

/// Gives `tracker` one segment and takes the events it yields.
fn push(tracker: &mut Tracker, events: &mut Vec<Event>, s: Segment<'_>) {
    tracker.push(&s);
    assert!(
        tracker.buffered() <= LIMITS.max_out_of_order_total,
        "the out-of-order cap holds"
    );
    while let Some(e) = tracker.pop() {
        events.push(e);
    }
}

/// Each direction's packets are the first packets it sent, byte for byte.
fn assert_as_sent(events: &[Event], played: &Played) {
    for (i, dir) in [
        (0, Direction::ClientToServer),
        (1, Direction::ServerToClient),
    ] {
        let got: Vec<&Vec<u8>> = events
            .iter()
            .filter_map(|e| match e {
                Event::Packet(p) if p.direction == dir => Some(&p.bytes),
                _ => None,
            })
            .collect();
        assert!(got.len() <= played.sent[i].len());
        for (g, s) in got.iter().zip(&played.sent[i]) {
            assert_eq!(*g, s, "{dir}: a packet not as sent");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        file(rest);
    } else {
        segments(mode, rest);
    }
});
