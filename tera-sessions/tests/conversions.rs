//! Conversions from a capture made by a real capture tool:
//! pcap -> .TeraLog -> .pkt -> JSONL -> .TeraLog keeps every packet's
//! bytes, direction and time to the millisecond, for every fixture (both
//! key generations, pcap and pcapng).

use std::io::Cursor;
use std::path::PathBuf;

use tera_sessions::pkt::{PktOptions, Region};
use tera_sessions::{Direction, Event, Events, Format, Sink, SinkOptions, Start};

const FIXTURES: [&str; 4] = [
    "current-lo.pcap",
    "old-lo.pcapng",
    "old-any-ipv6.pcap",
    "current-any-sll.pcap",
];

fn packets(events: &[Event]) -> Vec<(i64, Direction, Vec<u8>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Packet(p) => Some((p.time.unix_millis(), p.direction, p.bytes.clone())),
            _ => None,
        })
        .collect()
}

fn read(bytes: Vec<u8>) -> Vec<Event> {
    Events::from_reader(Cursor::new(bytes))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn write(format: Format, events: &[Event]) -> Vec<u8> {
    let options = SinkOptions {
        pkt: PktOptions {
            region: Some(Region::Na),
            client_version: Some(366_931),
            uncompressed: false,
        },
        ..SinkOptions::default()
    };
    let starts: Vec<Start> = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let mut sink = Sink::new(format, Vec::new(), &options, &starts).unwrap();
    for event in events {
        sink.write(event, None).unwrap();
    }
    sink.finish().unwrap()
}

#[test]
fn pcap_teralog_pkt_jsonl_teralog_keeps_every_packet() {
    for file in FIXTURES {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(file);
        let captured: Vec<Event> = Events::open(&path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expected = packets(&captured);
        assert!(expected.len() > 100, "{file}: {} packets", expected.len());
        let teralog = read(write(Format::TeraLog, &captured));
        let pkt = read(write(Format::Pkt, &teralog));
        let jsonl = read(write(Format::Jsonl, &pkt));
        let last = read(write(Format::TeraLog, &jsonl));
        for (stage, events) in [
            (".TeraLog", &teralog),
            (".pkt", &pkt),
            ("JSONL", &jsonl),
            (".TeraLog again", &last),
        ] {
            let got = packets(events);
            assert_eq!(got.len(), expected.len(), "{file} after {stage}");
            assert_eq!(got, expected, "{file} after {stage}");
        }
        let c2s = expected
            .iter()
            .filter(|p| p.1 == Direction::ClientToServer)
            .count();
        println!(
            "{file}: {} packets ({c2s} c2s, {} s2c) kept through .TeraLog -> .pkt -> JSONL -> \
             .TeraLog, bytes, direction and millisecond",
            expected.len(),
            expected.len() - c2s
        );
    }
}
