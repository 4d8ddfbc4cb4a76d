//! TCP edges of the tracker, on scripted sessions sent as real peers send
//! them: a RST is honoured only in the window; a SYN on tracked ends after
//! a FIN or with another initial sequence number starts another
//! connection; retransmitted bytes that differ from the first copy are
//! counted per session (the first copy kept); the search after a lost
//! header costs a bounded amount a byte received, even in 1-byte segments.

mod support;

use support::{Ends, Owned, packets_of, script, segments, segments_cut};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::capture::{CaptureStats, Limits, Tracker};
use tera_sessions::{EndReason, Event, SessionId, Summary};

fn run(segs: &[Owned]) -> (Vec<Event>, CaptureStats) {
    let mut tracker = Tracker::new(Limits::default(), None);
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
    (events, tracker.stats().clone())
}

fn starts(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Start(_)))
        .count()
}

fn of_session(events: &[Event], session: u32) -> Vec<Event> {
    events
        .iter()
        .filter(|e| e.session() == SessionId(session))
        .cloned()
        .collect()
}

/// A RST from the sender of `after`, right after it, at `seq` counted from
/// the byte that follows it.
fn reset(after: &Owned, delta: i64) -> Owned {
    let mut rst = after.clone();
    rst.seq = after
        .seq
        .wrapping_add(after.payload.len() as u32)
        .wrapping_add(delta as u32);
    rst.payload.clear();
    rst.rst = true;
    rst
}

/// The index of a server data segment about half way.
fn middle_server_segment(segs: &[Owned]) -> usize {
    let server: Vec<usize> = (7..segs.len() - 2)
        .filter(|&i| segs[i].dir == Direction::ServerToClient && !segs[i].payload.is_empty())
        .collect();
    server[server.len() / 2]
}

#[test]
fn a_reset_outside_the_window_is_ignored() {
    let s = script(21, KeyGeneration::Current, 200);
    let mut segs = segments(&s, Ends::new(1, 10, 20), 1460, true, 0);
    let i = middle_server_segment(&segs);
    // Far ahead, and before bytes already delivered.
    let ahead = reset(&segs[i], 1 << 24);
    let behind = reset(&segs[i], -100);
    segs.insert(i + 1, ahead);
    segs.insert(i + 2, behind);
    let (events, stats) = run(&segs);
    assert_eq!(stats.ignored_resets, 2);
    assert_eq!(starts(&events), 1);
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(packets_of(&events, dir), s.sent(dir), "{dir}");
    }
    assert!(matches!(
        events.last(),
        Some(Event::End(e)) if e.reason == EndReason::Closed
    ));
}

#[test]
fn a_reset_in_the_window_ends_the_session() {
    let s = script(22, KeyGeneration::Current, 200);
    let mut segs = segments(&s, Ends::new(2, 10, 20), 1460, true, 0);
    let i = middle_server_segment(&segs);
    let rst = reset(&segs[i], 0);
    segs.insert(i + 1, rst);
    let (events, stats) = run(&segs);
    assert_eq!(stats.ignored_resets, 0);
    let end = events
        .iter()
        .position(|e| matches!(e, Event::End(_)))
        .expect("an end");
    let got = packets_of(&events, Direction::ServerToClient);
    assert!(got.len() < s.sent(Direction::ServerToClient).len());
    assert_eq!(got[..], s.sent(Direction::ServerToClient)[..got.len()]);
    assert!(events[end + 1..].is_empty(), "nothing read after the reset");
}

#[test]
fn a_syn_with_another_initial_sequence_number_starts_another_session() {
    let a = script(23, KeyGeneration::Current, 60);
    let b = script(24, KeyGeneration::Old, 60);
    // The same ends; the first connection never closes.
    let mut segs = segments(&a, Ends::new(3, 1000, 2000), 1460, true, 0);
    segs.truncate(segs.len() - 2);
    segs.extend(segments(
        &b,
        Ends::new(3, 9_000_000, 7_000_000),
        1460,
        true,
        0,
    ));
    let (events, stats) = run(&segs);
    assert_eq!(starts(&events), 2);
    assert_eq!(stats.reused_connections, 1);
    let first = of_session(&events, 0);
    let second = of_session(&events, 1);
    assert!(matches!(first.last(), Some(Event::End(_))));
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(packets_of(&first, dir), a.sent(dir), "{dir}");
        assert_eq!(packets_of(&second, dir), b.sent(dir), "{dir}");
    }
}

#[test]
fn a_syn_after_a_fin_starts_another_session() {
    let a = script(25, KeyGeneration::Current, 60);
    let b = script(26, KeyGeneration::Current, 60);
    // The client closes, the server does not; the client's port is used
    // again, with the same initial sequence numbers (a SYN after a FIN is
    // another connection whatever its numbers).
    let ends = Ends::new(4, 1000, 2000);
    let mut segs = segments(&a, ends, 1460, true, 0);
    segs.truncate(segs.len() - 1);
    segs.extend(segments(&b, ends, 1460, true, 0));
    let (events, _) = run(&segs);
    assert_eq!(starts(&events), 2);
    let second = of_session(&events, 1);
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(packets_of(&second, dir), b.sent(dir), "{dir}");
    }
}

#[test]
fn retransmitted_bytes_that_differ_are_counted_and_the_first_copy_kept() {
    let s = script(27, KeyGeneration::Current, 200);
    let mut segs = segments(&s, Ends::new(5, 10, 20), 1460, false, 0);
    let i = middle_server_segment(&segs);
    // A copy of segment i, after it, with 3 bytes changed: compared with
    // what was delivered.
    let mut again = segs[i].clone();
    for b in &mut again.payload[10..13] {
        *b ^= 0xff;
    }
    // The next server segment held back: the one after it comes first,
    // then a copy of that one with 2 bytes changed (compared with what is
    // held out of order), then the held-back one.
    let next = (i + 1..segs.len())
        .find(|&j| segs[j].dir == Direction::ServerToClient && !segs[j].payload.is_empty())
        .unwrap();
    let after = (next + 1..segs.len())
        .find(|&j| segs[j].dir == Direction::ServerToClient && !segs[j].payload.is_empty())
        .unwrap();
    let mut changed = segs[after].clone();
    changed.payload[0] ^= 1;
    changed.payload[5] ^= 1;
    let held = segs.remove(next);
    let after = after - 1;
    segs.insert(after + 1, changed);
    segs.insert(after + 2, held);
    segs.insert(i + 1, again);
    let (events, stats) = run(&segs);
    assert_eq!(stats.conflicting_bytes, 5);
    assert_eq!(stats.conflicts, [(SessionId(0), 5)]);
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        assert_eq!(packets_of(&events, dir), s.sent(dir), "{dir}: first copies");
    }
    let mut summary = Summary::new();
    for e in &events {
        summary.add(e, None);
    }
    summary.set_conflicting(SessionId(0), stats.conflicting_bytes);
    let text = summary.to_string();
    assert!(
        text.contains("5 retransmitted bytes differ from the first copy"),
        "{text}"
    );
}

#[test]
fn the_search_after_a_lost_header_is_linear_in_one_byte_segments() {
    let s = script(28, KeyGeneration::Current, 300);
    let ends = Ends::new(6, 10, 20);
    // Every data segment one byte: a search per segment would go over the
    // window again for each byte.
    let mut segs = segments_cut(&s, ends, true, 0, &mut |_| 1);
    let first_server = (7..segs.len())
        .find(|&i| segs[i].dir == Direction::ServerToClient && !segs[i].payload.is_empty())
        .unwrap();
    // Four header bytes of the server's first packet lost.
    segs.drain(first_server..first_server + 4);
    let (events, stats) = run(&segs);
    let server_bytes: u64 = s
        .sent(Direction::ServerToClient)
        .iter()
        .map(|p| p.len() as u64)
        .sum();
    assert_eq!(stats.resyncs, 1);
    assert!(
        stats.resync_searched_bytes <= 4 * server_bytes,
        "{} bytes searched for {server_bytes} received",
        stats.resync_searched_bytes
    );
    assert!(starts(&events) == 1);
    println!(
        "1-byte segments: {} bytes searched, {server_bytes} received after the loss",
        stats.resync_searched_bytes
    );
}
