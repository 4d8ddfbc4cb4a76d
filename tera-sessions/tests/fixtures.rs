//! Captures made by real capture tools (`tests/fixtures/make.sh`: tcpdump
//! and dumpcap recording a scripted client and server over loopback, one
//! pair with a 1,460-byte MSS and Nagle's algorithm on, whose runs of
//! packets leave coalesced, packets split anywhere; loopback hands tcpdump
//! the kernel's segmentation-offload segments, several MSS long): every
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
const FIXTURES: [(&str, u64, KeyGeneration, &str); 5] = [
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
    (
        "nagle-lo.pcap",
        5,
        KeyGeneration::Current,
        "Ethernet, pcap, 1,460-byte MSS and Nagle",
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

/// The Nagle fixture with one server segment of a full MSS or more lost
/// past half way (its frame left out): one gap of exactly its bytes, and every packet that did not
/// touch them, with the script's opcodes as known opcodes; without them,
/// no packet that was not sent and at most 3 more dropped.
#[test]
fn the_nagle_fixture_loses_a_segment() {
    use pcap_parser::traits::PcapReaderIterator;
    use pcap_parser::{LegacyPcapReader, PcapBlockOwned, PcapError};
    use tera_sessions::Timestamp;
    use tera_sessions::capture::{LinkKind, OpcodeSet, PcapWriter};

    let file = std::fs::read(path("nagle-lo.pcap")).unwrap();
    let mut reader = LegacyPcapReader::new(1 << 16, &file[..]).unwrap();
    // Every frame: its time, bytes, and (for the server's data) where its
    // payload starts in the server's stream and how long it is.
    let mut frames = Vec::new();
    loop {
        match reader.next() {
            Ok((n, PcapBlockOwned::Legacy(b))) => {
                let time = i64::from(b.ts_sec) * 1_000_000_000 + i64::from(b.ts_usec) * 1000;
                frames.push((Timestamp(time), b.data.to_vec()));
                reader.consume(n);
            }
            Ok((n, _)) => reader.consume(n),
            Err(PcapError::Eof) => break,
            Err(PcapError::Incomplete(_)) => reader.refill().unwrap(),
            Err(e) => panic!("{e:?}"),
        }
    }
    let server_data = |data: &[u8]| {
        let p = etherparse::SlicedPacket::from_ethernet(data).ok()?;
        let Some(etherparse::TransportSlice::Tcp(tcp)) = p.transport else {
            return None;
        };
        (tcp.source_port() == 17805 && !tcp.payload().is_empty())
            .then(|| (tcp.sequence_number(), tcp.payload().len()))
    };
    let server: Vec<usize> = (0..frames.len())
        .filter(|&i| server_data(&frames[i].1).is_some())
        .collect();
    // A segment of a full MSS or more, past half way.
    let lost = server
        .iter()
        .skip(server.len() / 2)
        .copied()
        .find(|&i| server_data(&frames[i].1).is_some_and(|(_, len)| len >= 1460))
        .unwrap();
    let first_seq = server_data(&frames[server[0]].1).unwrap().0;
    let (seq, len) = server_data(&frames[lost].1).unwrap();
    // The server's stream after its 260 handshake bytes.
    let from = u64::from(seq.wrapping_sub(first_seq)) - 260;
    let to = from + len as u64;
    let mut writer = PcapWriter::new(Vec::new(), LinkKind::Ethernet).unwrap();
    for (i, (time, data)) in frames.iter().enumerate() {
        if i != lost {
            writer.write_frame(*time, data).unwrap();
        }
    }
    let kept = writer.into_inner().unwrap();

    let sent = script(5, KeyGeneration::Current, COUNT);
    let opcodes: OpcodeSet = sent
        .packets
        .iter()
        .map(|(_, p)| u16::from_le_bytes([p[2], p[3]]))
        .collect();
    let mut at = 0u64;
    let untouched: Vec<Vec<u8>> = sent
        .sent(Direction::ServerToClient)
        .into_iter()
        .filter(|p| {
            let (start, end) = (at, at + p.len() as u64);
            at = end;
            end <= from || start >= to
        })
        .collect();
    for known in [Some(opcodes), None] {
        let mut builder = Capture::builder();
        if let Some(k) = &known {
            builder = builder.known_opcodes(k.clone());
        }
        let events: Vec<Event> = builder
            .read(&kept[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let gaps: Vec<(u64, u64)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Gap(g) => Some((g.offset, g.len)),
                _ => None,
            })
            .collect();
        assert_eq!(gaps, [(from, to - from)]);
        assert_eq!(
            packets_of(&events, Direction::ClientToServer),
            sent.sent(Direction::ClientToServer)
        );
        let got = packets_of(&events, Direction::ServerToClient);
        let mut next = 0;
        for p in &got {
            let i = untouched[next..].iter().position(|u| u == p);
            next += i.expect("a packet that was sent") + 1;
        }
        let extra = untouched.len() - got.len();
        println!(
            "nagle-lo.pcap, {len}-byte server segment lost ({}): {}/{} untouched server packets out",
            if known.is_some() {
                "opcodes known"
            } else {
                "no map"
            },
            got.len(),
            untouched.len()
        );
        assert!(extra <= if known.is_some() { 0 } else { 3 });
    }
}
