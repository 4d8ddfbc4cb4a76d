//! A simulated session written as a capture (the TCP connection, the
//! handshake, every packet encrypted) and read back by the capture reader
//! of `tera-sessions`: every packet comes back byte for byte, and
//! discovery over the capture finds what it finds over the session.

mod common;

use std::io::Cursor;

use tera_opcodes::Discovery;
use tera_opcodes::simulate::{Score, patch_day, play, write_capture};
use tera_sessions::Event;
use tera_sessions::capture::Capture;

#[test]
fn a_session_written_as_a_capture_reads_back_whole() {
    let Some(corpus) = common::corpus("capture") else {
        return;
    };
    let seed = 505;
    let truth = patch_day(&corpus.previous, seed);
    let session = play(&corpus.protocol.with_map(&truth), seed, 2000);
    let pcap = write_capture(&session, seed, Vec::new()).expect("written to memory");
    let events: Vec<Event> = Capture::new(Cursor::new(pcap))
        .expect("a pcap header")
        .collect::<Result<_, _>>()
        .expect("the capture reads");

    let sent: Vec<_> = packets(&session.events);
    let read: Vec<_> = packets(&events);
    assert_eq!(read.len(), sent.len(), "every packet found");
    assert!(
        read == sent,
        "every packet byte for byte, in order, in its direction"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Gap(_))));

    let mut from_session = session.samples();
    let mut from_capture = tera_opcodes::Samples::new();
    for e in &events {
        from_capture.push(e);
    }
    let a = Discovery::new(corpus.defs.clone()).run(&mut from_session);
    let b = Discovery::new(corpus.defs.clone()).run(&mut from_capture);
    assert_eq!(a.map(), b.map());
    let score = Score::of(&b, &from_capture, &truth);
    // 39 right of 90 on 2026-11-29, none wrong (48 before an entry's odds
    // against a def the set lacks kept only what its field names make
    // rare: `discover/lacking.rs`).
    assert!(score.right >= 35 && score.wrong == 0, "{score:?}");
}

fn packets(events: &[Event]) -> Vec<(tera_sessions::Direction, &[u8])> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Packet(p) => Some((p.direction, p.bytes.as_slice())),
            _ => None,
        })
        .collect()
}
