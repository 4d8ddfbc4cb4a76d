//! A real session as a capture with its real keys, one segment lost.
//!
//! `real-sessions/classic-plus-376012-server.jsonl` (the live server's side
//! of a login into the world, build 376012) and its plaintext handshake
//! make the capture: the session's packets encrypted with tera-net's
//! cipher under the handshake's keys, each run of packets one way written
//! at once and sent in full 1,460-byte segments (packets split at any
//! byte). Written as a pcap and read back through [`Capture`], with the
//! build's protocol map as known opcodes and without a map:
//!
//! * one server segment lost mid-stream gives one gap and every packet but
//!   the ones that touched the lost bytes (at most 3 more dropped);
//! * every server segment lost in turn: the packets dropped beyond the ones
//!   that touched the lost bytes, their most and their distribution.
//!
//! The shared data: `TERA_SHARED_DIR`, default `../shared` beside the
//! project (skipped with a notice when absent).

mod support;

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::PathBuf;

use support::{Ends, Owned, Script, segments};
use tera_net::{Direction, KeyGeneration, SessionKeys};
use tera_sessions::capture::{Capture, LinkKind, OpcodeSet, PcapWriter};
use tera_sessions::{Event, Events};

/// The most packets a loss may cost beyond the ones that held lost bytes.
const MAX_EXTRA: usize = 3;

const MSS: usize = 1460;

/// The handshake bytes before each direction's encrypted stream.
fn handshake_len(dir: Direction) -> u64 {
    match dir {
        Direction::ClientToServer => 256,
        Direction::ServerToClient => 260,
    }
}

fn real_sessions() -> Option<PathBuf> {
    let shared = std::env::var_os("TERA_SHARED_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
        PathBuf::from,
    );
    let dir = shared.join("real-sessions");
    if dir.join("classic-plus-376012-server.jsonl").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "real_loss: no real session at {} (set TERA_SHARED_DIR); skipping",
            dir.display()
        );
        None
    }
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

/// The session's packets and keys, as a script the support code plays.
fn real_script(dir: &std::path::Path) -> Script {
    let text = std::fs::read_to_string(dir.join("classic-plus-376012-handshake.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let steps: Vec<Vec<u8>> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| unhex(s["hex"].as_str().unwrap()))
        .collect();
    let key = |i: usize| -> [u8; 128] { steps[i].as_slice().try_into().unwrap() };
    let keys = SessionKeys {
        client_key1: key(1),
        server_key1: key(2),
        client_key2: key(3),
        server_key2: key(4),
    };
    let packets = Events::open(dir.join("classic-plus-376012-server.jsonl"))
        .unwrap()
        .filter_map(|e| match e.unwrap() {
            Event::Packet(p) => Some((p.direction, p.bytes)),
            _ => None,
        })
        .collect();
    Script {
        keys,
        generation: KeyGeneration::Current,
        packets,
    }
}

/// The build's map as known opcodes. The published file holds a
/// duplicate-code alias line (`C_CANCEL_SKILL_STRICTLYY`): the loader
/// leaves it out and reports it (printed here), the rest read as the file
/// says.
fn real_map(dir: &std::path::Path) -> OpcodeSet {
    let loaded = tera_dynamic::load_protocol_map(dir.join("protocol.376012.map"))
        .unwrap_or_else(|report| panic!("{}", report.render(false)));
    if !loaded.is_whole() {
        eprint!("real_loss: {}", loaded.report.render(false));
    }
    loaded.map.iter().map(|(_, code)| code).collect()
}

/// The segments as a pcap, read back as events.
fn read_back(segs: &[&Owned], known: Option<&OpcodeSet>) -> Vec<Event> {
    let mut writer = PcapWriter::new(Vec::new(), LinkKind::Ethernet).unwrap();
    for s in segs {
        writer.write_segment(&s.segment()).unwrap();
    }
    let file = writer.into_inner().unwrap();
    let mut builder = Capture::builder();
    if let Some(known) = known {
        builder = builder.known_opcodes(known.clone());
    }
    builder
        .read(Cursor::new(file))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// What one loss cost in its direction.
#[derive(Debug, PartialEq, Eq)]
struct Cost {
    gaps: usize,
    /// Packets that held lost bytes.
    touched: usize,
    /// Packets that did not, and came out.
    out: usize,
    /// Packets that did not, and did not come out.
    extra: usize,
    /// Packets that came out but were never sent.
    false_packets: usize,
    /// Whether the other direction came out whole.
    other_whole: bool,
}

fn cost(script: &Script, events: &[Event], lost: &Owned, ends: Ends) -> Cost {
    let isn = match lost.dir {
        Direction::ClientToServer => ends.client_isn,
        Direction::ServerToClient => ends.server_isn,
    };
    let from = u64::from(lost.seq.wrapping_sub(isn.wrapping_add(1))) - handshake_len(lost.dir);
    let to = from + lost.payload.len() as u64;
    let mut at = 0u64;
    let mut touched = 0;
    let untouched: Vec<Vec<u8>> = script
        .sent(lost.dir)
        .into_iter()
        .filter(|p| {
            let (start, end) = (at, at + p.len() as u64);
            at = end;
            let keep = end <= from || start >= to;
            touched += usize::from(!keep);
            keep
        })
        .collect();
    let got = support::packets_of(events, lost.dir);
    // Matched in order: what came out is the untouched packets less some.
    let mut next = 0;
    let mut false_packets = 0;
    for p in &got {
        match untouched.iter().skip(next).position(|u| u == p) {
            Some(i) => next += i + 1,
            None => false_packets += 1,
        }
    }
    let out = got.len() - false_packets;
    let other = match lost.dir {
        Direction::ClientToServer => Direction::ServerToClient,
        Direction::ServerToClient => Direction::ClientToServer,
    };
    Cost {
        gaps: events.iter().filter(|e| matches!(e, Event::Gap(_))).count(),
        touched,
        out,
        extra: untouched.len() - out,
        false_packets,
        other_whole: support::packets_of(events, other) == script.sent(other),
    }
}

fn capture(script: &Script) -> (Vec<Owned>, Ends, Vec<usize>) {
    let ends = Ends::new(7, 0x8000_0000, 0xffff_f000);
    let segs = segments(script, ends, MSS, true, 1_704_067_200_000_000_000);
    // The server's data segments after the TCP and TERA handshakes.
    let server: Vec<usize> = (7..segs.len())
        .filter(|&i| segs[i].dir == Direction::ServerToClient && !segs[i].payload.is_empty())
        .collect();
    (segs, ends, server)
}

fn without(segs: &[Owned], lost: usize) -> Vec<&Owned> {
    segs.iter()
        .enumerate()
        .filter(|(i, _)| *i != lost)
        .map(|(_, s)| s)
        .collect()
}

#[test]
fn a_real_session_loses_one_segment_mid_stream() {
    let Some(dir) = real_sessions() else {
        return;
    };
    let script = real_script(&dir);
    let map = real_map(&dir);
    let (segs, ends, server) = capture(&script);
    let whole = read_back(&segs.iter().collect::<Vec<_>>(), Some(&map));
    for d in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(support::packets_of(&whole, d), script.sent(d), "{d}");
    }
    let lost = server[server.len() / 2];
    let kept = without(&segs, lost);
    let sent = script.sent(Direction::ServerToClient).len();
    for (name, known) in [("map", Some(&map)), ("no map", None)] {
        let c = cost(&script, &read_back(&kept, known), &segs[lost], ends);
        println!(
            "real 376012 capture, {name}: server segment {} of {} lost ({} bytes): \
             {}/{sent} server packets out, {} touched the lost bytes, {} more dropped, \
             {} not sent, {} gap(s); client packets whole: {}",
            server.len() / 2 + 1,
            server.len(),
            segs[lost].payload.len(),
            c.out,
            c.touched,
            c.extra,
            c.false_packets,
            c.gaps,
            c.other_whole
        );
        assert_eq!(c.gaps, 1, "{name}");
        assert_eq!(c.false_packets, 0, "{name}");
        assert!(c.extra <= MAX_EXTRA, "{name}: {c:?}");
        assert!(c.other_whole, "{name}");
    }
}

#[test]
fn every_server_segment_of_a_real_session_lost_in_turn() {
    let Some(dir) = real_sessions() else {
        return;
    };
    let script = real_script(&dir);
    let map = real_map(&dir);
    let (segs, ends, server) = capture(&script);
    for (name, known) in [("map", Some(&map)), ("no map", None)] {
        let mut extra: BTreeMap<usize, usize> = BTreeMap::new();
        let mut worst = Vec::new();
        for &lost in &server {
            let c = cost(
                &script,
                &read_back(&without(&segs, lost), known),
                &segs[lost],
                ends,
            );
            assert_eq!(c.gaps, 1, "{name}, segment {lost}: {c:?}");
            assert_eq!(c.false_packets, 0, "{name}, segment {lost}: {c:?}");
            assert!(c.other_whole, "{name}, segment {lost}");
            *extra.entry(c.extra).or_default() += 1;
            if c.extra > MAX_EXTRA {
                worst.push((lost, c));
            }
        }
        println!(
            "real 376012 capture, {name}: each of {} server segments lost in turn; \
             packets dropped beyond the ones that touched lost bytes (count: losses): {extra:?}",
            server.len()
        );
        assert!(worst.is_empty(), "{name}: {worst:?}");
    }
}
