//! The log formats read and written: round trips, conversions between
//! them, and malformed files (an error that says what and where, never a
//! panic).

use std::net::SocketAddr;

use tera_sessions::pkt::{PktHeader, PktOptions, PktReader, PktWriter, Region};
use tera_sessions::teralog::{TeraLogOptions, TeraLogReader, TeraLogWriter};
use tera_sessions::{
    Direction, End, EndReason, Event, Events, Format, Gap, KeyGeneration, Packet, ReadError,
    SessionId, Sink, SinkOptions, Start, Timestamp, WriteError,
};

const T0: i64 = 1_795_818_501_123; // 2026-11-27T22:28:21.123Z, in milliseconds

fn packet(session: u32, millis: i64, direction: Direction, opcode: u16, body: &[u8]) -> Event {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&u16::try_from(body.len() + 4).unwrap().to_le_bytes());
    bytes.extend_from_slice(&opcode.to_le_bytes());
    bytes.extend_from_slice(body);
    Event::Packet(Packet {
        session: SessionId(session),
        time: Timestamp::from_unix_millis(millis),
        direction,
        bytes,
    })
}

fn start(session: u32, millis: i64) -> Event {
    Event::Start(Start {
        session: SessionId(session),
        time: Timestamp::from_unix_millis(millis),
        client: Some("10.0.0.2:50000".parse().unwrap()),
        server: Some("203.0.113.7:7801".parse().unwrap()),
        keys: Some(KeyGeneration::Current),
        region: Some("NA".into()),
        client_version: Some(365_100),
    })
}

fn end(session: u32, millis: i64, reason: EndReason) -> Event {
    Event::End(End {
        session: SessionId(session),
        time: Timestamp::from_unix_millis(millis),
        reason,
    })
}

/// One session: C_CHECK_VERSION first, packets both ways (one as long as
/// a packet gets, one with a header only), two in the same millisecond,
/// a gap, the end.
fn session() -> Vec<Event> {
    let big: Vec<u8> = (0..65531u32).map(|i| (i * 7) as u8).collect();
    vec![
        start(0, T0),
        packet(
            0,
            T0,
            Direction::ClientToServer,
            19900,
            &[1, 0, 8, 0, 8, 0, 0, 0],
        ),
        packet(0, T0 + 5, Direction::ServerToClient, 0x4d2f, &[9; 20]),
        packet(0, T0 + 5, Direction::ServerToClient, 7, &[]),
        Event::Gap(Gap {
            session: SessionId(0),
            time: Timestamp::from_unix_millis(T0 + 6),
            direction: Direction::ServerToClient,
            offset: 100,
            len: 33,
        }),
        packet(0, T0 + 1000, Direction::ClientToServer, 65535, &big),
        packet(0, T0 + 86_400_000, Direction::ServerToClient, 1, &[0xff]),
        end(0, T0 + 86_400_001, EndReason::Closed),
    ]
}

/// Each packet's session, time, direction and bytes.
fn packets(events: &[Event]) -> Vec<(u32, i64, Direction, Vec<u8>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Packet(p) => Some((
                p.session.0,
                p.time.unix_millis(),
                p.direction,
                p.bytes.clone(),
            )),
            _ => None,
        })
        .collect()
}

fn read_all(events: impl Iterator<Item = Result<Event, ReadError>>) -> Vec<Event> {
    events.collect::<Result<_, _>>().unwrap()
}

fn write(format: Format, events: &[Event], options: &SinkOptions) -> Vec<u8> {
    let starts: Vec<Start> = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let mut sink = Sink::new(format, Vec::new(), options, &starts).unwrap();
    for event in events {
        sink.write(event, None).unwrap();
    }
    sink.finish().unwrap()
}

fn open(bytes: Vec<u8>) -> Events {
    Events::from_reader(std::io::Cursor::new(bytes)).unwrap()
}

#[test]
fn teralog_round_trip() {
    let events = session();
    let mut writer = TeraLogWriter::new(Vec::new(), TeraLogOptions::default());
    for e in &events {
        writer.write(e).unwrap();
    }
    assert_eq!(writer.gaps_dropped(), 1);
    let bytes = writer.finish().unwrap();
    assert!(bytes.starts_with(b"\x01\x13\x00TeraConnectionLog\x06\x04\x00NA\x02\x02\x00"));
    assert_eq!(Format::detect(&bytes), Some(Format::TeraLog));
    let read = read_all(TeraLogReader::new(bytes.as_slice()));
    assert_eq!(packets(&read), packets(&events));
    let Event::Start(s) = &read[0] else {
        panic!("{:?}", read[0])
    };
    assert_eq!(
        (s.region.as_deref(), s.server, s.time),
        (Some("NA"), None, Timestamp::from_unix_millis(T0))
    );
    assert!(matches!(read.last(), Some(Event::End(e)) if e.reason == EndReason::EndOfInput));
    assert_eq!(read.len(), events.len() - 1, "every event but the gap");
}

#[test]
fn teralog_holds_one_session_and_its_region_can_be_set() {
    let mut writer = TeraLogWriter::new(
        Vec::new(),
        TeraLogOptions {
            region: Some("EU".into()),
        },
    );
    writer.write(&start(0, T0)).unwrap();
    writer
        .write(&packet(0, T0, Direction::ClientToServer, 1, &[]))
        .unwrap();
    let e = writer.write(&start(1, T0)).unwrap_err();
    assert!(matches!(e, WriteError::OneSession { .. }), "{e}");
    assert!(e.to_string().contains("--session N"), "{e}");
    let e = writer
        .write(&packet(1, T0, Direction::ClientToServer, 1, &[]))
        .unwrap_err();
    assert!(matches!(e, WriteError::NotStarted(SessionId(1))), "{e}");
    let bytes = writer.finish().unwrap();
    let read = read_all(TeraLogReader::new(bytes.as_slice()));
    let Event::Start(s) = &read[0] else { panic!() };
    assert_eq!(s.region.as_deref(), Some("EU"));
}

#[test]
fn pkt_round_trip_compressed_and_not_with_sessions_kept_apart() {
    let mut events = session();
    // A second session interleaved with the first.
    events.insert(2, start(1, T0 + 1));
    events.insert(
        3,
        packet(1, T0 + 2, Direction::ServerToClient, 5, b"second"),
    );
    events.push(end(1, T0 + 3, EndReason::Closed));
    for uncompressed in [false, true] {
        let options = SinkOptions {
            pkt: PktOptions {
                uncompressed,
                ..PktOptions::default()
            },
            ..SinkOptions::default()
        };
        let bytes = write(Format::Pkt, &events, &options);
        assert_eq!(Format::detect(&bytes), Some(Format::Pkt));
        let reader = PktReader::new(bytes.as_slice()).unwrap();
        let header = reader.header().clone();
        assert_eq!(
            (header.region, header.client_version),
            (Region::Na, 365_100)
        );
        assert_eq!(header.servers.len(), 2);
        assert_eq!(header.compression, if uncompressed { 0 } else { 6 });
        let read = read_all(reader);
        assert_eq!(packets(&read), packets(&events));
        let starts: Vec<&Start> = read
            .iter()
            .filter_map(|e| match e {
                Event::Start(s) => Some(s),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 2);
        assert_eq!(
            starts[0].server,
            Some("203.0.113.7:7801".parse::<SocketAddr>().unwrap())
        );
        assert_eq!(starts[1].region.as_deref(), Some("NA"));
        let ends = read.iter().filter(|e| matches!(e, Event::End(_))).count();
        assert_eq!(ends, 2);
    }
}

#[test]
fn pkt_needs_a_region_and_a_client_version() {
    let Event::Start(mut s) = start(0, T0) else {
        unreachable!()
    };
    s.region = None;
    s.client_version = None;
    let e = PktWriter::<Vec<u8>>::header_for(&PktOptions::default(), &[s.clone()]).unwrap_err();
    assert!(
        e.to_string()
            .contains("needs a region: set it with --region"),
        "{e}"
    );
    let e = PktWriter::<Vec<u8>>::header_for(
        &PktOptions {
            region: Some("kr".parse().unwrap()),
            ..PktOptions::default()
        },
        &[s.clone()],
    )
    .unwrap_err();
    assert!(e.to_string().contains("--client-version"), "{e}");
    let header = PktWriter::<Vec<u8>>::header_for(
        &PktOptions {
            region: Some(Region::Kr),
            client_version: Some(7),
            uncompressed: false,
        },
        &[s],
    )
    .unwrap();
    assert_eq!((header.region, header.client_version), (Region::Kr, 7));
    assert!(
        "EU".parse::<Region>()
            .unwrap_err()
            .contains("not a .pkt region")
    );
}

#[test]
fn pkt_header_with_ipv6_servers() {
    let header = PktHeader {
        region: Region::Uk,
        client_version: 1,
        servers: vec![tera_sessions::pkt::PktServer {
            id: -4,
            name: "Velika ✓".into(),
            real: "[2001:db8::1]:7801".parse().unwrap(),
            proxy: "127.0.0.1:9250".parse().unwrap(),
        }],
        compression: 0,
    };
    let mut writer = PktWriter::new(Vec::new(), &header).unwrap();
    let e = writer.write(&start(0, T0)).unwrap_err();
    assert!(e.to_string().contains("lists no server 0"), "{e}");
    let bytes = writer.finish().unwrap();
    let reader = PktReader::new(bytes.as_slice()).unwrap();
    assert_eq!(reader.header(), &header);
    assert_eq!(read_all(reader), []);
}

#[test]
fn jsonl_round_trip_keeps_every_event_exactly() {
    let mut events = session();
    // Times finer than a millisecond, and a start with nothing known.
    if let Event::Packet(p) = &mut events[2] {
        p.time = Timestamp(p.time.0 + 123_456);
    }
    events.insert(
        1,
        Event::Start(Start {
            session: SessionId(9),
            time: Timestamp(0),
            client: None,
            server: None,
            keys: Some(KeyGeneration::Old),
            region: None,
            client_version: None,
        }),
    );
    events.push(end(9, T0, EndReason::EndOfInput));
    let bytes = write(Format::Jsonl, &events, &SinkOptions::default());
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert_eq!(text.lines().count(), events.len());
    assert!(
        text.lines().nth(2).unwrap().starts_with(
            r#"{"session":0,"time":"2026-11-27T22:28:21.123Z","dir":"c2s","opcode":19900,"hex":"0c00bc4d"#
        ),
        "{text}"
    );
    assert_eq!(Format::detect(&bytes), Some(Format::Jsonl));
    let mut read = open(bytes);
    assert_eq!(read.format(), Format::Jsonl);
    assert_eq!(read_all(&mut read), events);
}

#[test]
fn jsonl_reads_capture_lines_and_ends_open_sessions() {
    let text = r#"
{"session":3,"time":"2026-11-27T22:28:21Z","start":{"server":"[::1]:7801"}}
{"session":3,"time":"2026-11-27T22:28:22.5+01:00","dir":"s2c","opcode":7,"name":"S_X","version":1,"data":{"a":[1,2,{"b":null}]},"hex":"04000700"}
{"session":3,"time":"2026-11-27T22:28:23Z","dir":"c2s","gap":12}
"#;
    let read = read_all(open(text.as_bytes().to_vec()));
    assert_eq!(read.len(), 4);
    assert_eq!(
        packets(&read),
        [(
            3,
            1_795_814_902_500,
            Direction::ServerToClient,
            vec![4, 0, 7, 0]
        )]
    );
    assert!(matches!(&read[2], Event::Gap(g) if g.len == 12 && g.offset == 0));
    assert!(
        matches!(&read[3], Event::End(e) if e.reason == EndReason::EndOfInput && e.session == SessionId(3))
    );
}

fn jsonl_error(text: &str) -> String {
    let results: Vec<_> = open(text.as_bytes().to_vec()).collect();
    let last = results.last().unwrap();
    assert!(results[..results.len() - 1].iter().all(Result::is_ok));
    match last {
        Ok(event) => format!("no error; last event {event:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_jsonl_says_what_and_which_line() {
    let start = r#"{"session":0,"time":"2026-11-27T22:28:21Z","start":{}}"#;
    let cases = [
        (
            format!("{start}\n{{\"session\":0}}"),
            "JSONL: at line 2: missing field `time`",
        ),
        (
            format!("{start}\n{{\"session\":0,\"time\":\"noon\"}}"),
            "JSONL: at line 2: `noon` is not an RFC 3339 time",
        ),
        (
            format!(
                "{start}\n\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"c2s\",\"opcode\":1}}"
            ),
            "JSONL: at line 3: a packet line without `hex` cannot be read back",
        ),
        (
            format!(
                "{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"c2s\",\"hex\":\"020001\"}}"
            ),
            "JSONL: at line 2: `hex` holds 3 bytes, fewer than a packet's 4-byte header",
        ),
        (
            format!(
                "{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"c2s\",\"hex\":\"0600010000\"}}"
            ),
            "JSONL: at line 2: `hex` holds 5 bytes and its header says 6: not a whole packet",
        ),
        (
            format!(
                "{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"c2s\",\"opcode\":2,\"hex\":\"04000100\"}}"
            ),
            "JSONL: at line 2: `opcode` is 2 but the packet's header says 1",
        ),
        (
            format!(
                "{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"up\",\"hex\":\"04000100\"}}"
            ),
            "JSONL: at line 2: unknown variant `up`",
        ),
        (
            format!(
                "{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\",\"dir\":\"c2s\",\"hex\":\"0400010g\"}}"
            ),
            "JSONL: at line 2: `hex`: Invalid character 'g'",
        ),
        (
            r#"{"session":1,"time":"2026-11-27T22:28:21Z","end":"closed"}"#.to_string(),
            "JSONL: at line 1: an event of session 1 outside its start and end",
        ),
        (
            format!("{start}\n{start}"),
            "JSONL: at line 2: session 0 starts twice",
        ),
        (
            format!("{start}\n{{\"session\":0,\"time\":\"2026-11-27T22:28:21Z\"}}"),
            "JSONL: at line 2: not an event",
        ),
        (
            format!("{start}\n{{\"session\":0,"),
            "JSONL: at line 2: EOF while parsing",
        ),
    ];
    for (text, expected) in cases {
        let message = jsonl_error(&text);
        assert!(
            message.starts_with(expected),
            "{message}\n  expected {expected}"
        );
    }
}

fn teralog_error(bytes: &[u8]) -> String {
    let results: Vec<_> = TeraLogReader::new(bytes).collect();
    results.last().unwrap().as_ref().unwrap_err().to_string()
}

#[test]
fn malformed_teralog_says_what_and_which_byte() {
    let magic = b"\x01\x13\x00TeraConnectionLog".to_vec();
    let with = |rest: &[u8]| [magic.as_slice(), rest].concat();
    assert_eq!(
        teralog_error(b"\x01\x05\x00abc"),
        ".TeraLog: at byte 0: no TeraConnectionLog magic block"
    );
    assert_eq!(
        teralog_error(&with(b"")),
        ".TeraLog: at byte 20: the file ends before its start block"
    );
    assert_eq!(
        teralog_error(&with(b"\x06\x01\x00")),
        ".TeraLog: at byte 20: block of type 6 has size 1, less than its own 2 bytes"
    );
    assert_eq!(
        teralog_error(&with(b"\x02\x02\x00\x04\x10\x00\x01\x02")),
        ".TeraLog: at byte 23: block of type 4 needs 14 bytes, the file ends after 2"
    );
    assert_eq!(
        teralog_error(&with(b"\x02\x02\x00\x04\x03\x00\x01")),
        ".TeraLog: at byte 23: a message of 3 bytes is shorter than a packet header"
    );
    assert_eq!(
        teralog_error(&with(
            b"\x02\x02\x00\x03\x0b\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"
        )),
        ".TeraLog: at byte 23: a timestamp of 9 bytes (1 to 8 expected)"
    );
    assert_eq!(
        teralog_error(&with(b"\x02\x02\x00\x05")),
        ".TeraLog: at byte 23: the file ends inside a block header"
    );
    // Unknown blocks are skipped, short timestamps are read.
    let ok = with(b"\x09\x03\x00z\x02\x02\x00\x03\x03\x00\x01\x05\x06\x00\x01\x02\x03\x04");
    let read = read_all(TeraLogReader::new(ok.as_slice()));
    assert_eq!(
        packets(&read),
        [(
            0,
            1_420_070_400_001,
            Direction::ServerToClient,
            vec![6, 0, 1, 2, 3, 4]
        )]
    );
}

fn pkt_error(bytes: &[u8]) -> String {
    match PktReader::new(bytes) {
        Err(e) => e.to_string(),
        Ok(reader) => {
            let results: Vec<_> = reader.collect();
            results.last().unwrap().as_ref().unwrap_err().to_string()
        }
    }
}

#[test]
fn malformed_pkt_says_what_and_which_byte() {
    // Header: magic, version 1, region NA, client version 1, one server.
    let mut header = b"TPPL\x01\x00\x00\x00\x04\x01\x00\x00\x00\x01\x00\x00\x00".to_vec();
    header.extend_from_slice(&[
        5, 0, 0, 0, b'a', 0, 0, 0, 0, 1, 2, 3, 4, 0x8d, 0x1e, 0, 0, 0, 0, 0, 0,
    ]);
    let with = |compression: u8, rest: &[u8]| [header.as_slice(), &[compression], rest].concat();
    let entry = |server: i32, dir: u8, len: u16, payload: &[u8]| {
        [
            &T0.to_le_bytes()[..],
            &server.to_le_bytes(),
            &[dir, 7, 0],
            &len.to_le_bytes(),
            payload,
        ]
        .concat()
    };
    assert_eq!(pkt_error(b"TPPX"), ".pkt: at byte 0: no TPPL magic");
    assert_eq!(
        pkt_error(b"TPPL\x02\x00\x00\x00"),
        ".pkt: at byte 4: format version 2 (only 1 is known)"
    );
    assert_eq!(
        pkt_error(b"TPPL\x01\x00\x00\x00\x0a"),
        ".pkt: at byte 8: region byte 10"
    );
    assert_eq!(
        pkt_error(b"TPPL\x01\x00\x00"),
        ".pkt: at byte 4: the file ends inside the format version"
    );
    assert_eq!(
        pkt_error(b"TPPL\x01\x00\x00\x00\x04\x01\x00\x00\x00\xff\xff\xff\xff"),
        ".pkt: at byte 13: 4294967295 servers (at most 4096 read)"
    );
    assert_eq!(
        pkt_error(&with(10, b"")),
        ".pkt: at byte 38: compression 10 (0 to 9 expected)"
    );
    assert_eq!(
        pkt_error(&with(0, &entry(6, 0, 0, b""))),
        ".pkt: at byte 47: server id 6, which the header does not list"
    );
    assert_eq!(
        pkt_error(&with(0, &entry(5, 2, 0, b""))),
        ".pkt: at byte 51: direction 2 (0 or 1 expected)"
    );
    assert_eq!(
        pkt_error(&with(0, &entry(5, 0, 65532, b""))),
        ".pkt: at byte 54: a payload of 65532 bytes: no packet is that long"
    );
    assert_eq!(
        pkt_error(&with(0, &entry(5, 0, 3, b"ab"))),
        ".pkt: at byte 39: an entry of 3 bytes ends after 2"
    );
    assert_eq!(
        pkt_error(&with(0, &[1, 2, 3])),
        ".pkt: at byte 39: the file ends inside an entry"
    );
    // Compressed: offsets count the inflated entries.
    let mut deflated = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
    std::io::Write::write_all(&mut deflated, &entry(5, 1, 2, b"ok")).unwrap();
    std::io::Write::write_all(&mut deflated, &entry(5, 3, 0, b"")).unwrap();
    let deflated = deflated.finish().unwrap();
    assert_eq!(
        pkt_error(&with(6, &deflated)),
        ".pkt: at byte 31 of the inflated entries: direction 3 (0 or 1 expected)"
    );
    let message = pkt_error(&with(6, &deflated[..deflated.len() / 2]));
    assert!(message.starts_with(".pkt: at byte"), "{message}");
    let message = pkt_error(&with(6, b"\xff\xff\xff\xff"));
    assert!(
        message.contains("the deflate stream is broken"),
        "{message}"
    );
}

#[test]
fn every_cut_of_every_format_is_an_error_or_a_prefix() {
    let events = session();
    let options = SinkOptions::default();
    for format in [Format::TeraLog, Format::Pkt, Format::Jsonl] {
        let bytes = write(format, &events, &options);
        let whole = packets(&read_all(open(bytes.clone())));
        assert_eq!(whole, packets(&events), "{format}");
        let step = (bytes.len() / 500).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            let Ok(source) = Events::from_reader(std::io::Cursor::new(bytes[..cut].to_vec()))
            else {
                continue;
            };
            let mut read = Vec::new();
            for result in source {
                match result {
                    Ok(event) => read.push(event),
                    Err(e) => {
                        assert!(!e.to_string().is_empty());
                        break;
                    }
                }
            }
            let got = packets(&read);
            assert!(whole.starts_with(&got), "{format} cut at {cut}");
        }
    }
}

#[test]
fn unknown_bytes_are_no_format() {
    let e = Events::from_reader(std::io::Cursor::new(b"GIF89a".to_vec()))
        .err()
        .unwrap();
    assert!(matches!(e, ReadError::UnknownFormat), "{e}");
    let e = Events::from_reader(std::io::Cursor::new(Vec::new()))
        .err()
        .unwrap();
    assert!(matches!(e, ReadError::UnknownFormat), "{e}");
    assert_eq!(Format::detect(b"\xd4\xc3\xb2\xa1"), Some(Format::Pcap));
    assert_eq!(Format::detect(b"\x0a\x0d\x0d\x0a"), Some(Format::Pcapng));
    assert_eq!(Format::detect(b"  \n{\"session\""), Some(Format::Jsonl));
    assert_eq!(
        Format::from_extension("a/b.TeraLog".as_ref()),
        Some(Format::TeraLog)
    );
    assert_eq!(Format::from_extension("b.PKT".as_ref()), Some(Format::Pkt));
    assert_eq!(Format::from_extension("b.txt".as_ref()), None);
}

/// The conversion chain .TeraLog -> .pkt -> JSONL -> .TeraLog keeps every
/// packet's bytes, direction and time to the millisecond.
#[test]
fn conversions_keep_every_packet_direction_and_millisecond() {
    let mut events = session();
    // No region or client version in the source: the .pkt gets them from
    // the options.
    if let Event::Start(s) = &mut events[0] {
        s.region = None;
        s.client_version = None;
    }
    let options = SinkOptions {
        pkt: PktOptions {
            region: Some(Region::Na),
            client_version: Some(365_100),
            uncompressed: false,
        },
        ..SinkOptions::default()
    };
    let expected = packets(&events);
    let teralog = write(Format::TeraLog, &events, &options);
    let from_teralog = read_all(open(teralog));
    let pkt = write(Format::Pkt, &from_teralog, &options);
    let from_pkt = read_all(open(pkt));
    let jsonl = write(Format::Jsonl, &from_pkt, &options);
    let from_jsonl = read_all(open(jsonl));
    let teralog = write(Format::TeraLog, &from_jsonl, &options);
    let last = read_all(open(teralog));
    for (stage, read) in [
        (".TeraLog", &from_teralog),
        (".pkt", &from_pkt),
        ("JSONL", &from_jsonl),
        (".TeraLog again", &last),
    ] {
        assert_eq!(packets(read), expected, "after {stage}");
    }
    let Event::Start(s) = &last[0] else { panic!() };
    assert_eq!(
        s.region.as_deref(),
        Some("NA"),
        "the .pkt's region travels on"
    );
    println!(
        "conversions: {} packets kept through .TeraLog -> .pkt -> JSONL -> .TeraLog",
        expected.len()
    );
}
