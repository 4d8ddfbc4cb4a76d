//! The real client stream of `pike-vectors.json` (`session_real`: the keys
//! of a real handshake and the first 133 bytes the client sent) wrapped as
//! a capture: the reader finds the session, tells its key generation, and
//! gives the client's two packets exactly as they decrypt.
//!
//! Reads `$TERA_DATA_DIR/../net/pike-vectors.json`; skips with a notice
//! when `TERA_DATA_DIR` is unset.

use std::io::Cursor;
use std::path::PathBuf;

use tera_net::{Direction, HELLO, KeyGeneration};
use tera_sessions::capture::{Capture, LinkKind, PcapWriter, Segment};
use tera_sessions::{Event, Timestamp};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_real_client_stream_as_a_capture() {
    let Some(dir) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("real_session: TERA_DATA_DIR is not set; skipping the pike-vectors.json test");
        return;
    };
    let path = PathBuf::from(dir).join("../net/pike-vectors.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = &v["session_real"];
    let field = |name: &str| unhex(s[name].as_str().unwrap());

    let client = "192.168.1.20:51234".parse().unwrap();
    let server = "79.110.94.211:7801".parse().unwrap();
    let mut writer = PcapWriter::new(Vec::new(), LinkKind::Ethernet).unwrap();
    let (mut c_seq, mut s_seq) = (0x1000_0000u32, 0xfff0_0000u32);
    let mut t = 1_600_000_000_000_000_000i64;
    let mut send = |dir: Direction, payload: &[u8], syn: bool, fin: bool| {
        let (source, destination, seq, ack) = match dir {
            Direction::ClientToServer => (client, server, &mut c_seq, s_seq),
            Direction::ServerToClient => (server, client, &mut s_seq, c_seq),
        };
        let ack = (!(syn && dir == Direction::ClientToServer)).then_some(ack);
        writer
            .write_segment(&Segment {
                time: Timestamp(t),
                source,
                destination,
                seq: *seq,
                ack,
                syn,
                fin,
                rst: false,
                payload,
            })
            .unwrap();
        *seq = seq.wrapping_add(payload.len() as u32 + u32::from(syn || fin));
        t += 1_000_000;
    };
    send(Direction::ClientToServer, &[], true, false);
    send(Direction::ServerToClient, &[], true, false);
    send(Direction::ServerToClient, &HELLO, false, false);
    send(
        Direction::ClientToServer,
        &field("client_key1"),
        false,
        false,
    );
    send(
        Direction::ServerToClient,
        &field("server_key1"),
        false,
        false,
    );
    send(
        Direction::ClientToServer,
        &field("client_key2"),
        false,
        false,
    );
    send(
        Direction::ServerToClient,
        &field("server_key2"),
        false,
        false,
    );
    let encrypted = field("client_to_server_encrypted");
    let (first, second) = encrypted.split_at(50);
    send(Direction::ClientToServer, first, false, false);
    send(Direction::ClientToServer, second, false, false);
    send(Direction::ClientToServer, &[], false, true);
    send(Direction::ServerToClient, &[], false, true);
    let file = writer.into_inner().unwrap();

    let events: Vec<Event> = Capture::new(Cursor::new(file))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let Some(Event::Start(start)) = events.first() else {
        panic!("no session found");
    };
    assert_eq!(start.keys, Some(KeyGeneration::Current));
    let packets: Vec<&[u8]> = events
        .iter()
        .filter_map(|e| match e {
            Event::Packet(p) => Some(&p.bytes[..]),
            _ => None,
        })
        .collect();
    let plain = field("client_to_server_plain");
    assert_eq!(packets.len(), 2);
    assert_eq!(packets.concat(), plain);
    assert_eq!(
        &packets[0][..4],
        &[0x20, 0x00, 0xbc, 0x4d],
        "C_CHECK_VERSION first"
    );
    println!(
        "real session: 2/2 client packets, {} bytes, current keys",
        plain.len()
    );
}
