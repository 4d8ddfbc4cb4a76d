//! What the tracker does with connections it cannot read, and within its
//! caps: a connection whose start was not captured is counted and skipped;
//! one that is not TERA is left alone; a lost handshake byte leaves the
//! session unread; past `max_connections` a connection is not tracked;
//! past the out-of-order caps the oldest hole is given up, as a gap.

mod support;

use support::{Ends, Owned, packets_of, script, segments};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::Event;
use tera_sessions::capture::{Limits, Tracker};

fn run(tracker: &mut Tracker, segs: &[Owned]) -> Vec<Event> {
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

#[test]
fn a_connection_whose_start_was_not_captured_is_counted_and_skipped() {
    let s = script(1, KeyGeneration::Current, 20);
    let ends = Ends::new(1, 10, 20);
    let segs = segments(&s, ends, 1000, true, 0);
    let mut tracker = Tracker::default();
    // From the middle: no SYN, no handshake.
    let events = run(&mut tracker, &segs[12..]);
    assert!(events.is_empty());
    let stats = tracker.stats();
    assert_eq!(stats.unstarted, 1, "counted once");
    assert_eq!(stats.connections, 0);
    assert_eq!(stats.unstarted_examples.len(), 1);
    let (a, b) = stats.unstarted_examples[0];
    assert!([a, b].contains(&ends.client) && [a, b].contains(&ends.server));
}

#[test]
fn a_connection_that_is_not_tera_is_left_alone() {
    let s = script(2, KeyGeneration::Current, 5);
    let mut segs = segments(&s, Ends::new(2, 10, 20), 1000, true, 0);
    // The server's first bytes are not the hello.
    segs[2].payload = b"HTTP".to_vec();
    let mut tracker = Tracker::default();
    assert!(run(&mut tracker, &segs).is_empty());
    assert_eq!(tracker.stats().not_tera, 1);
    assert_eq!(tracker.stats().sessions, 0);
}

#[test]
fn a_lost_handshake_byte_leaves_the_session_unread() {
    let s = script(3, KeyGeneration::Old, 5);
    let mut segs = segments(&s, Ends::new(3, 10, 20), 1000, true, 0);
    // Client key 2 is lost; the server's acknowledgement proves it.
    segs.remove(5);
    let mut tracker = Tracker::default();
    assert!(run(&mut tracker, &segs).is_empty());
    assert_eq!(tracker.stats().handshake_lost, 1);
}

#[test]
fn a_first_client_packet_that_is_not_check_version_is_no_session() {
    let mut s = script(4, KeyGeneration::Current, 5);
    s.packets[0].1[2] = 0x00;
    let segs = segments(&s, Ends::new(4, 10, 20), 1000, true, 0);
    let mut tracker = Tracker::default();
    assert!(run(&mut tracker, &segs).is_empty());
    assert_eq!(tracker.stats().no_check_version, 1);
}

#[test]
fn past_max_connections_a_connection_is_not_tracked() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let mut tracker = Tracker::new(limits, None);
    let mut all = Vec::new();
    for n in 0..3 {
        let s = script(10 + u64::from(n), KeyGeneration::Current, 5);
        // Three connections open at once: their SYNs first.
        all.push(segments(&s, Ends::new(10 + n, 100, 200), 1000, true, 0));
    }
    let mut interleaved = Vec::new();
    for i in 0..all.iter().map(Vec::len).max().unwrap() {
        for conn in &all {
            if let Some(s) = conn.get(i) {
                interleaved.push(s.clone());
            }
        }
    }
    let events = run(&mut tracker, &interleaved);
    let starts = events
        .iter()
        .filter(|e| matches!(e, Event::Start(_)))
        .count();
    assert_eq!(starts, 2);
    assert_eq!(tracker.stats().untracked, 1);
}

#[test]
fn past_the_out_of_order_cap_the_oldest_hole_is_a_gap() {
    let s = script(5, KeyGeneration::Current, 200);
    let ends = Ends::new(5, 10, 20);
    // No acknowledgements: only the cap can give the hole up.
    let mut segs = segments(&s, ends, 500, false, 0);
    let lost = (8..segs.len())
        .find(|&i| segs[i].dir == Direction::ServerToClient && segs[i].payload.len() == 500)
        .unwrap();
    segs.remove(lost);
    let limits = Limits {
        max_out_of_order: 4096,
        ..Limits::default()
    };
    let mut tracker = Tracker::new(limits, None);
    let mut peak = 0;
    let mut events = Vec::new();
    let mut gap_at = None;
    for (i, seg) in segs.iter().enumerate() {
        tracker.push(&seg.segment());
        peak = peak.max(tracker.buffered());
        while let Some(e) = tracker.pop() {
            if matches!(e, Event::Gap(_)) {
                gap_at = Some(i);
            }
            events.push(e);
        }
    }
    assert!(peak <= 4096, "held {peak} bytes");
    let gap_at = gap_at.expect("a gap before the end");
    assert!(
        gap_at < segs.len() - 2,
        "given up at the cap, not at the end"
    );
    assert_eq!(
        events.iter().filter(|e| matches!(e, Event::Gap(_))).count(),
        1
    );
    assert_eq!(
        packets_of(&events, Direction::ClientToServer),
        s.sent(Direction::ClientToServer)
    );
}
