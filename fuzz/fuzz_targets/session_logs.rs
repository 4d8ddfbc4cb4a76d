//! Any bytes as a session log (`.TeraLog`, `.pkt`, JSONL, or whatever the
//! first bytes say): the reader yields events, then at most one error, and
//! stops; never a panic. What it read writes as JSONL and reads back as
//! the same events (JSONL holds every field of every event).

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use tera_sessions::{Event, Events, Format, Sink, SinkOptions};

/// Events read before the target stops looking (a long valid log is not
/// more interesting than a short one).
const MAX_EVENTS: usize = 10_000;

fuzz_target!(|data: &[u8]| {
    let Ok(events) = Events::from_reader(Cursor::new(data.to_vec())) else {
        return;
    };
    let mut read = Vec::new();
    let mut failed = false;
    for result in events.take(MAX_EVENTS) {
        assert!(!failed, "an event after an error");
        match result {
            Ok(event) => read.push(event),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                failed = true;
            }
        }
    }
    let mut sink = Sink::new(Format::Jsonl, Vec::new(), &SinkOptions::default(), &[])
        .expect("JSONL needs no header");
    for event in &read {
        sink.write(event, None).expect("a JSONL line writes");
    }
    let jsonl = sink.finish().expect("a vector writes");
    if read.is_empty() {
        return;
    }
    let again: Vec<Event> = Events::from_reader(Cursor::new(jsonl))
        .expect("JSONL is detected")
        .collect::<Result<_, _>>()
        .expect("what was read reads back");
    // A JSONL source ends the sessions it leaves open: compare what both
    // hold up to the events read.
    assert_eq!(&again[..read.len().min(again.len())], &read[..read.len().min(again.len())]);
    assert!(again.len() >= read.len());
});
