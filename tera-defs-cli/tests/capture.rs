//! `tera-defs capture` as a process, over logs the library writes.

mod common;

use std::path::Path;

use serde_json::Value;
use tera_data::{PACKETS, protocol_map};
use tera_sessions::{
    Direction, End, EndReason, Event, Events, Format, Gap, KeyGeneration, Packet, SessionId, Sink,
    SinkOptions, Start, Timestamp, check_version_packet,
};

use common::{run, scratch};

const T0: i64 = 1_795_818_501_123; // 2026-11-27T22:28:21.123Z

fn packet(session: u32, millis: i64, direction: Direction, bytes: Vec<u8>) -> Event {
    Event::Packet(Packet {
        session: SessionId(session),
        time: Timestamp::from_unix_millis(millis),
        direction,
        bytes,
    })
}

fn start(session: u32) -> Event {
    Event::Start(Start {
        session: SessionId(session),
        time: Timestamp::from_unix_millis(T0),
        client: Some("127.0.0.1:50000".parse().unwrap()),
        server: Some("127.0.0.1:7801".parse().unwrap()),
        keys: Some(KeyGeneration::Current),
        region: None,
        client_version: None,
    })
}

/// A compiled-in packet without fields (S_PING in the project's defs) and
/// its opcode in the compiled-in map, and an opcode the map lacks.
fn empty_packet_and_unknown_opcode() -> ((&'static str, Vec<u8>), u16) {
    let map = protocol_map().expect("a compiled-in map");
    let info = PACKETS
        .iter()
        .find(|p| p.fixed_len == Some(4) && map.code(p.name).is_some())
        .expect("a packet without fields in the map");
    let code = map.code(info.name).unwrap();
    let unknown = (1..=u16::MAX)
        .rev()
        .find(|c| map.name(*c).is_none())
        .unwrap();
    let mut bytes = vec![4, 0];
    bytes.extend_from_slice(&code.to_le_bytes());
    ((info.name, bytes), unknown)
}

/// One session: C_CHECK_VERSION of the compiled-in map's revision, a
/// packet the map names, one it does not, a gap, the end.
fn session(session: u32) -> Vec<Event> {
    let revision = protocol_map().unwrap().revision().unwrap();
    let ((_, empty), unknown) = empty_packet_and_unknown_opcode();
    let mut unknown_packet = vec![6, 0];
    unknown_packet.extend_from_slice(&unknown.to_le_bytes());
    unknown_packet.extend_from_slice(&[1, 2]);
    vec![
        start(session),
        packet(
            session,
            T0 + 1,
            Direction::ClientToServer,
            check_version_packet(revision),
        ),
        packet(session, T0 + 2, Direction::ServerToClient, empty),
        packet(session, T0 + 3, Direction::ServerToClient, unknown_packet),
        Event::Gap(Gap {
            session: SessionId(session),
            time: Timestamp::from_unix_millis(T0 + 4),
            direction: Direction::ServerToClient,
            offset: 50,
            len: 7,
        }),
        Event::End(End {
            session: SessionId(session),
            time: Timestamp::from_unix_millis(T0 + 5),
            reason: EndReason::Closed,
        }),
    ]
}

fn write_log(path: &Path, events: &[Event]) {
    let format = Format::from_extension(path).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut sink = Sink::new(format, file, &SinkOptions::default(), &[]).unwrap();
    for e in events {
        sink.write(e, None).unwrap();
    }
    sink.finish().unwrap();
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

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

fn read(path: &Path) -> Vec<Event> {
    Events::open(path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn prints_one_line_per_event_with_names_and_data() {
    let dir = scratch("capture-lines");
    let log = dir.join("one.TeraLog");
    let events = session(0);
    write_log(&log, &events);
    let out = run(&["capture", log.to_str().unwrap()], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got = lines(&out.stdout);
    // A .TeraLog holds no gap: start, three packets, end.
    assert_eq!(got.len(), 5, "{}", out.stdout);
    assert_eq!(got[0]["session"], 0);
    // A .TeraLog's session starts at its first time: the first packet's.
    assert_eq!(got[0]["time"], "2026-11-27T22:28:21.124Z");
    assert!(got[0]["start"].is_object());
    let check = &got[1];
    assert_eq!(
        (check["dir"].as_str(), check["opcode"].as_u64()),
        (Some("c2s"), Some(19900))
    );
    assert_eq!(check["time"], "2026-11-27T22:28:21.124Z");
    let ((name, _), unknown) = empty_packet_and_unknown_opcode();
    let named = &got[2];
    assert_eq!(named["dir"], "s2c");
    assert_eq!(named["name"], name);
    assert!(named["version"].is_u64());
    assert_eq!(named["data"], serde_json::json!({}));
    assert!(named.get("hex").is_none());
    let unnamed = &got[3];
    assert_eq!(unnamed["opcode"], unknown);
    assert!(unnamed.get("name").is_none());
    assert!(
        unnamed["error"]
            .as_str()
            .unwrap()
            .contains("is not in the protocol map"),
        "{unnamed}"
    );
    assert_eq!(got[4]["end"], "end_of_input");
    let revision = protocol_map().unwrap().revision().unwrap();
    for expected in [
        "sessions: 1\n".to_string(),
        format!("revision {revision} (map protocol.{revision})"),
        "packets: 1 c2s (32 bytes), 2 s2c (10 bytes)".to_string(),
        "gaps: 0".to_string(),
        "did not decode: ".to_string(),
        "by name: ".to_string(),
    ] {
        assert!(out.stderr.contains(&expected), "{expected}\n{}", out.stderr);
    }
}

#[test]
fn hex_lines_read_back_as_the_same_events() {
    let dir = scratch("capture-hex");
    let log = dir.join("in.jsonl");
    let mut events = session(0);
    events.extend(session(1));
    write_log(&log, &events);
    let out = run(&["capture", "--hex", log.to_str().unwrap()], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("gaps: 2 (14 bytes lost)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("sessions: 2 (keys: current 2)"),
        "{}",
        out.stderr
    );
    let back = dir.join("back.jsonl");
    std::fs::write(&back, &out.stdout).unwrap();
    assert_eq!(read(&back), events);
}

#[test]
fn session_and_filter_pick_lines() {
    let dir = scratch("capture-pick");
    let log = dir.join("two.jsonl");
    let mut events = session(0);
    events.extend(session(1));
    write_log(&log, &events);
    let path = log.to_str().unwrap();
    let out = run(&["capture", "--session", "1", path], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 6);
    assert!(got.iter().all(|l| l["session"] == 1));
    let ((name, _), _) = empty_packet_and_unknown_opcode();
    let out = run(&["capture", "--filter", name, path], None);
    let got = lines(&out.stdout);
    let packet_lines: Vec<&Value> = got.iter().filter(|l| l.get("opcode").is_some()).collect();
    assert_eq!(packet_lines.len(), 2, "{}", out.stdout);
    assert!(packet_lines.iter().all(|l| l["name"] == name));
    // Starts, gaps and ends stay.
    assert_eq!(got.len(), 2 + 3 * 2);
    let typo = format!("{}X", name);
    let out = run(&["capture", "--filter", &typo, path], None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--filter: unknown packet"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&format!("did you mean {name}")),
        "{}",
        out.stderr
    );
}

#[test]
fn write_converts_teralog_to_pkt_to_jsonl() {
    let dir = scratch("capture-write");
    let log = dir.join("one.TeraLog");
    let events = session(0);
    write_log(&log, &events);
    let pkt = dir.join("one.pkt");
    let (log_s, pkt_s) = (log.to_str().unwrap(), pkt.to_str().unwrap());
    let out = run(&["capture", log_s, "--write", pkt_s], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("needs a region: set it with --region"),
        "{}",
        out.stderr
    );
    let out = run(
        &[
            "capture",
            log_s,
            "--write",
            pkt_s,
            "--region",
            "NA",
            "--client-version",
            "365100",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    let jsonl = dir.join("one.jsonl");
    let out = run(
        &["capture", pkt_s, "--write", jsonl.to_str().unwrap()],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let back = read(&jsonl);
    assert_eq!(packets(&back), packets(&events));
    let Event::Start(s) = &back[0] else { panic!() };
    assert_eq!(
        (s.region.as_deref(), s.client_version),
        (Some("NA"), Some(365_100))
    );
    // The JSONL written carries names too.
    let text = std::fs::read_to_string(&jsonl).unwrap();
    assert!(text.contains("\"name\":"), "{text}");

    // Two sessions do not fit a .TeraLog, one does.
    let two = dir.join("two.jsonl");
    let mut events = session(0);
    events.extend(session(1));
    write_log(&two, &events);
    let out_log = dir.join("out.TeraLog");
    let (two_s, out_s) = (two.to_str().unwrap(), out_log.to_str().unwrap());
    let out = run(&["capture", two_s, "--write", out_s], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("holds one session"), "{}", out.stderr);
    let out = run(
        &["capture", two_s, "--session", "1", "--write", out_s],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("1 gaps are not written"),
        "{}",
        out.stderr
    );
    let from_one: Vec<_> = packets(&read(&out_log));
    let expected: Vec<_> = packets(&session(1))
        .into_iter()
        .map(|(_, t, d, b)| (0, t, d, b))
        .collect();
    assert_eq!(from_one, expected);

    let out = run(&["capture", two_s, "--write", "x.pcap"], None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("pcap files are not written"),
        "{}",
        out.stderr
    );
}

#[test]
fn malformed_files_are_data_errors_after_what_read() {
    let dir = scratch("capture-bad");
    let log = dir.join("cut.TeraLog");
    write_log(&log, &session(0));
    let bytes = std::fs::read(&log).unwrap();
    std::fs::write(&log, &bytes[..bytes.len() - 3]).unwrap();
    let out = run(&["capture", log.to_str().unwrap()], None);
    assert_eq!(out.code, 1);
    assert_eq!(lines(&out.stdout).len(), 3, "{}", out.stdout);
    assert!(out.stderr.contains(".TeraLog: at byte"), "{}", out.stderr);
    assert!(out.stderr.contains("the file ends after"), "{}", out.stderr);

    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"GIF89a....").unwrap();
    let out = run(&["capture", junk.to_str().unwrap()], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not a session file"), "{}", out.stderr);

    let out = run(
        &["capture", dir.join("missing.pcap").to_str().unwrap()],
        None,
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot read"), "{}", out.stderr);
}

#[test]
fn defs_loaded_at_run_time_name_sessions_of_their_map_revision() {
    let dir = scratch("capture-defs");
    let defs = dir.join("defs");
    std::fs::create_dir_all(defs.join("maps")).unwrap();
    std::fs::write(defs.join("S_GOOD.1.def"), "uint16 a\n").unwrap();
    std::fs::write(
        defs.join("C_CHECK_VERSION.1.def"),
        "array version\n- int32 index\n- int32 value\n",
    )
    .unwrap();
    std::fs::write(
        defs.join("maps/protocol.7.map"),
        "S_GOOD = 4660\nC_CHECK_VERSION = 19900\n",
    )
    .unwrap();
    let log = dir.join("in.jsonl");
    let good = vec![6, 0, 0x34, 0x12, 9, 0];
    write_log(
        &log,
        &[
            start(0),
            packet(0, T0, Direction::ClientToServer, check_version_packet(7)),
            packet(0, T0 + 1, Direction::ServerToClient, good.clone()),
            start(1),
            packet(
                1,
                T0 + 2,
                Direction::ClientToServer,
                check_version_packet(8),
            ),
            packet(1, T0 + 3, Direction::ServerToClient, good),
        ],
    );
    let out = run(
        &[
            "capture",
            "--defs",
            defs.to_str().unwrap(),
            log.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got = lines(&out.stdout);
    let packets: Vec<&Value> = got.iter().filter(|l| l.get("opcode").is_some()).collect();
    assert_eq!(packets[0]["name"], "C_CHECK_VERSION");
    assert_eq!(
        packets[0]["data"],
        serde_json::json!({"version": [{"index": 0, "value": 7}, {"index": 1, "value": 0}]})
    );
    assert_eq!(
        (&packets[1]["name"], &packets[1]["data"]),
        (&"S_GOOD".into(), &serde_json::json!({"a": 9}))
    );
    // Session 1 announces revision 8: no map names its packets.
    assert!(packets[3].get("name").is_none());
    assert!(
        packets[3]["error"]
            .as_str()
            .unwrap()
            .contains("no protocol map of revision 8"),
        "{}",
        packets[3]
    );
    assert!(
        out.stderr.contains("revision 7 (map protocol.7)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("revision 8 (no map of this revision)"),
        "{}",
        out.stderr
    );
    // --map names every session with one map.
    let map = dir.join("protocol.99.map");
    std::fs::write(&map, "S_GOOD = 4660\n").unwrap();
    let out = run(
        &[
            "capture",
            "--defs",
            defs.to_str().unwrap(),
            "--map",
            map.to_str().unwrap(),
            "--filter",
            "S_GOOD",
            log.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let named = lines(&out.stdout)
        .iter()
        .filter(|l| l["name"] == "S_GOOD")
        .count();
    assert_eq!(named, 2, "{}", out.stdout);
}

/// A def folder with every version a packet had, and a session of an
/// older build: each packet is read with the version that fits the
/// session's packets of its name, and the summary says which and why.
#[test]
fn a_multi_version_def_folder_reads_each_name_with_the_version_that_fits() {
    let dir = scratch("capture-versions");
    let defs = dir.join("defs");
    std::fs::create_dir_all(defs.join("maps")).unwrap();
    // Version 1 of the old build: id and kind. Version 2 dropped the kind
    // and decodes the old packets with two bytes to spare; version 3 added
    // a string and does not decode them at all.
    std::fs::write(defs.join("S_SPAWN.1.def"), "int32 id\nint16 kind\n").unwrap();
    std::fs::write(defs.join("S_SPAWN.2.def"), "int32 id\n").unwrap();
    std::fs::write(
        defs.join("S_SPAWN.3.def"),
        "int32 id\nint16 kind\nstring name\n",
    )
    .unwrap();
    std::fs::write(
        defs.join("C_CHECK_VERSION.1.def"),
        "array version\n- int32 index\n- int32 value\n",
    )
    .unwrap();
    std::fs::write(defs.join("maps/protocol.7.map"), "S_SPAWN = 4660\n").unwrap();
    let log = dir.join("old.jsonl");
    let spawn = |id: u8| vec![10, 0, 0x34, 0x12, id, 0, 0, 0, 3, 0];
    let mut events = vec![
        start(0),
        packet(0, T0, Direction::ClientToServer, check_version_packet(7)),
    ];
    for id in 1..=3 {
        events.push(packet(
            0,
            T0 + i64::from(id),
            Direction::ServerToClient,
            spawn(id),
        ));
    }
    write_log(&log, &events);
    let capture = |rule: &str| {
        let out = run(
            &[
                "capture",
                "--defs",
                defs.to_str().unwrap(),
                "--versions",
                rule,
                log.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        out
    };
    let fit = capture("fit");
    let got = lines(&fit.stdout);
    let spawns: Vec<&Value> = got.iter().filter(|l| l["name"] == "S_SPAWN").collect();
    assert_eq!(spawns.len(), 3);
    for (k, line) in spawns.iter().enumerate() {
        assert_eq!(line["version"], 1, "{line}");
        assert_eq!(line["data"], serde_json::json!({"id": k + 1, "kind": 3}));
    }
    assert!(
        fit.stderr.contains(
            "versions chosen by fit (1 of 1 names with a version that fits every packet):"
        ),
        "{}",
        fit.stderr
    );
    assert!(
        fit.stderr.contains(
            "S_SPAWN.1 (3 packets; rivals: .3 misfits 3: does not decode: field runs past the end \
             of the packet at byte 10 (field `kind`), .2 misfits 3: 2 of its 10 bytes are left \
             after the def's fields)"
        ),
        "{}",
        fit.stderr
    );
    // The latest version fails on every packet.
    let latest = capture("latest");
    let got = lines(&latest.stdout);
    let spawns: Vec<&Value> = got.iter().filter(|l| l["name"] == "S_SPAWN").collect();
    assert!(
        spawns
            .iter()
            .all(|l| l["version"] == 3 && l.get("error").is_some())
    );
    assert!(
        latest.stderr.contains("did not decode: 3 (S_SPAWN.3 3)"),
        "{}",
        latest.stderr
    );
}
