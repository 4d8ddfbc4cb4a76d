//! Captures made by real capture tools (`tests/fixtures/make.sh`: tcpdump
//! and dumpcap recording a scripted client and server over loopback): every
//! packet the peers sent is found, byte for byte, in order, in each
//! direction, for both key generations. The fixtures are committed, so
//! this needs no capture tool.

mod support;

use std::path::PathBuf;

use support::{packets_of, script};
use tera_net::{Direction, KeyGeneration};
use tera_sessions::Event;
use tera_sessions::capture::Capture;

/// The table of `make.sh`: file, seed, key generation, packets after
/// `C_CHECK_VERSION`, and the link type the tool wrote.
const FIXTURES: [(&str, u64, KeyGeneration, &str); 4] = [
    (
        "current-lo.pcap",
        1,
        KeyGeneration::Current,
        "Ethernet, pcap",
    ),
    ("old-lo.pcapng", 2, KeyGeneration::Old, "Ethernet, pcapng"),
    (
        "old-any-ipv6.pcap",
        3,
        KeyGeneration::Old,
        "Linux cooked v2, IPv6, pcap ns",
    ),
    (
        "current-any-sll.pcap",
        4,
        KeyGeneration::Current,
        "Linux cooked v1, pcap",
    ),
];

const COUNT: usize = 120;

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(file)
}

#[test]
fn every_packet_of_every_fixture() {
    for (file, seed, generation, what) in FIXTURES {
        let sent = script(seed, generation, COUNT);
        let mut capture = Capture::open(path(file)).unwrap();
        let events: Vec<Event> = capture.by_ref().collect::<Result<_, _>>().unwrap();
        let starts: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Start(s) => Some(s),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 1, "{file}: one session");
        assert_eq!(starts[0].keys, Some(generation), "{file}");
        assert!(
            !events.iter().any(|e| matches!(e, Event::Gap(_))),
            "{file}: no gap"
        );
        let mut line = format!("fixture {file} ({what}, {generation:?} keys):");
        for dir in [Direction::ClientToServer, Direction::ServerToClient] {
            let want = sent.sent(dir);
            let got = packets_of(&events, dir);
            let same = got.iter().zip(&want).take_while(|(g, w)| g == w).count();
            line += &format!(" {} {same}/{}", dir.arrow(), want.len());
            assert_eq!(got.len(), want.len(), "{file} {dir}: packet count");
            assert_eq!(
                same,
                want.len(),
                "{file} {dir}: first differing packet {same}"
            );
        }
        assert_eq!(capture.stats().bad_frames, 0, "{file}");
        println!("{line}");
    }
}
