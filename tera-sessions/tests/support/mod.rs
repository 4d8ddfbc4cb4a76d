//! Helpers shared by the integration tests: scripted sessions and the TCP
//! segments that carry them.
#![allow(dead_code)]

pub mod script;

use std::collections::VecDeque;
use std::net::SocketAddr;

use tera_net::Direction;
use tera_sessions::capture::{Segment, Tracker};
use tera_sessions::{Event, Timestamp};

#[allow(unused_imports)]
pub use script::{Rng, Script, packet, script, script_of};

/// A segment that owns its payload.
#[derive(Clone, Debug)]
pub struct Owned {
    pub time: Timestamp,
    pub source: SocketAddr,
    pub destination: SocketAddr,
    pub seq: u32,
    pub ack: Option<u32>,
    pub syn: bool,
    pub fin: bool,
    pub rst: bool,
    pub payload: Vec<u8>,
    /// Who sent it (for tests that pick one direction's segments).
    pub dir: Direction,
}

impl Owned {
    pub fn segment(&self) -> Segment<'_> {
        Segment {
            time: self.time,
            source: self.source,
            destination: self.destination,
            seq: self.seq,
            ack: self.ack,
            syn: self.syn,
            fin: self.fin,
            rst: self.rst,
            payload: &self.payload,
        }
    }
}

/// A connection's ends and initial sequence numbers.
#[derive(Clone, Copy, Debug)]
pub struct Ends {
    pub client: SocketAddr,
    pub server: SocketAddr,
    pub client_isn: u32,
    pub server_isn: u32,
}

impl Ends {
    pub fn new(n: u16, client_isn: u32, server_isn: u32) -> Ends {
        Ends {
            client: format!("10.0.0.2:{}", 50000 + n).parse().unwrap(),
            server: format!("10.1.0.1:{}", 7801 + n).parse().unwrap(),
            client_isn,
            server_isn,
        }
    }
}

/// The segments of a whole connection playing `script` as real peers send
/// it: the TCP handshake, the TERA handshake, then each run of packets one
/// way written at once and sent in full segments of `mss` bytes (Nagle:
/// packets straddle segments, a segment holds several), with
/// acknowledgements of the peer's bytes when `acks`, then FIN both ways.
/// Times go up by a millisecond a segment from `t0`.
pub fn segments(script: &Script, ends: Ends, mss: usize, acks: bool, t0: i64) -> Vec<Owned> {
    let mss = mss.max(1);
    segments_cut(script, ends, acks, t0, &mut |rest| rest.min(mss))
}

/// [`segments`] with each run of packets one way cut where `cut` says: given
/// the bytes of the run left, it returns the next segment's size (at least
/// 1; more than is left takes the rest).
pub fn segments_cut(
    script: &Script,
    ends: Ends,
    acks: bool,
    t0: i64,
    cut: &mut dyn FnMut(usize) -> usize,
) -> Vec<Owned> {
    let mut out = Vec::new();
    let mut sent = [0u32; 2]; // bytes after the SYN, client then server
    let isn = [ends.client_isn, ends.server_isn];
    let mut t = t0;
    let mut push = |out: &mut Vec<Owned>,
                    dir: Direction,
                    payload: &[u8],
                    syn: bool,
                    fin: bool,
                    sent: &mut [u32; 2]| {
        let (i, source, destination) = match dir {
            Direction::ClientToServer => (0, ends.client, ends.server),
            Direction::ServerToClient => (1, ends.server, ends.client),
        };
        let seq = if syn {
            isn[i]
        } else {
            isn[i].wrapping_add(1).wrapping_add(sent[i])
        };
        let peer_started = !(syn && i == 0);
        let ack = (acks || syn || payload.is_empty()) && peer_started;
        let ack = ack.then(|| isn[1 - i].wrapping_add(1).wrapping_add(sent[1 - i]));
        out.push(Owned {
            time: Timestamp(t),
            source,
            destination,
            seq,
            ack,
            syn,
            fin,
            rst: false,
            payload: payload.to_vec(),
            dir,
        });
        t += 1_000_000;
        sent[i] = sent[i].wrapping_add(payload.len() as u32);
    };
    push(
        &mut out,
        Direction::ClientToServer,
        &[],
        true,
        false,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ServerToClient,
        &[],
        true,
        false,
        &mut sent,
    );
    let (client_hs, server_hs) = script.handshake();
    push(
        &mut out,
        Direction::ServerToClient,
        &server_hs[..4],
        false,
        false,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ClientToServer,
        &client_hs[..128],
        false,
        false,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ServerToClient,
        &server_hs[4..132],
        false,
        false,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ClientToServer,
        &client_hs[128..],
        false,
        false,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ServerToClient,
        &server_hs[132..],
        false,
        false,
        &mut sent,
    );
    for (dir, run) in runs(script.encrypted()) {
        let mut rest = &run[..];
        while !rest.is_empty() {
            let n = cut(rest.len()).clamp(1, rest.len());
            let (piece, after) = rest.split_at(n);
            push(&mut out, dir, piece, false, false, &mut sent);
            rest = after;
        }
    }
    push(
        &mut out,
        Direction::ClientToServer,
        &[],
        false,
        true,
        &mut sent,
    );
    push(
        &mut out,
        Direction::ServerToClient,
        &[],
        false,
        true,
        &mut sent,
    );
    out
}

/// Consecutive packets one way joined: what a sender writes at once.
pub fn runs(packets: Vec<(Direction, Vec<u8>)>) -> Vec<(Direction, Vec<u8>)> {
    let mut runs: Vec<(Direction, Vec<u8>)> = Vec::new();
    for (dir, wire) in packets {
        match runs.last_mut() {
            Some((last, run)) if *last == dir => run.extend_from_slice(&wire),
            _ => runs.push((dir, wire)),
        }
    }
    runs
}

/// Feeds segments to a tracker and returns every event.
pub fn track<'a>(segments: impl IntoIterator<Item = &'a Owned>) -> Vec<Event> {
    let mut tracker = Tracker::default();
    let mut events = Vec::new();
    for s in segments {
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

/// The packets of `events` in one direction.
pub fn packets_of(events: &[Event], dir: Direction) -> Vec<Vec<u8>> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Packet(p) if p.direction == dir => Some(p.bytes.clone()),
            _ => None,
        })
        .collect()
}

/// Events in a queue, for tests that pop them one by one.
pub fn queue(events: Vec<Event>) -> VecDeque<Event> {
    events.into()
}
