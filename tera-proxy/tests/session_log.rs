//! `ProxyConfig::log`: each connection's relayed packets, as the proxy
//! sends them on (a hook's change included, a blocked packet not), in a
//! file of each log format, read back with `tera-sessions`.

mod common;

use tera_proxy::harness::packet;
use tera_proxy::{Connection, Direction, Hook, ProxyConfig, SessionLog, SessionLogError, Verdict};
use tera_sessions::pkt::{PktOptions, Region};
use tera_sessions::{Event, Events, Format, SinkOptions};

use common::{CLIENT_DONE, SERVER_DONE, exchange};

fn logged(format: Format, options: SinkOptions) -> (Vec<Event>, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let log = SessionLog::new(dir.path(), format, options).unwrap();
    let connection = Connection::new(ProxyConfig {
        log: Some(log),
        ..ProxyConfig::default()
    });
    connection
        .add_hook(Hook::raw("*", |_, p| match p.opcode() {
            0x0102 => Verdict::Block,
            0x0101 => {
                p.bytes_mut().push(b'!');
                Verdict::Changed
            }
            _ => Verdict::Pass,
        }))
        .unwrap();
    let up = vec![
        packet(0x0101, b"up"),
        packet(0x0102, b"blocked"),
        packet(0x0103, b""),
    ];
    let down = vec![packet(0x0201, b"down")];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ex = runtime.block_on(exchange(connection, &up, &down));
    ex.result.unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(Format::from_extension(&files[0]), Some(format));
    let events: Vec<Event> = Events::open(&files[0])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    (events, ex.server_got, ex.client_got)
}

fn check(format: Format, options: SinkOptions) {
    let (events, server_got, client_got) = logged(format, options);
    let mut c2s = Vec::new();
    let mut s2c = Vec::new();
    for e in &events {
        if let Event::Packet(p) = e {
            match p.direction {
                Direction::ClientToServer => c2s.push(p.bytes.clone()),
                Direction::ServerToClient => s2c.push(p.bytes.clone()),
            }
        }
    }
    let marker = |code: u16| packet(code, &[]);
    assert!(c2s.contains(&marker(CLIENT_DONE)), "{format}");
    assert!(s2c.contains(&marker(SERVER_DONE)), "{format}");
    c2s.retain(|p| *p != marker(CLIENT_DONE));
    s2c.retain(|p| *p != marker(SERVER_DONE));
    // The log holds what was sent on: the changed packet, not the blocked
    // one.
    assert_eq!(c2s, server_got, "{format}");
    assert_eq!(s2c, client_got, "{format}");
    assert!(c2s[0].ends_with(b"up!"), "{format}");
    assert!(
        !c2s.iter().any(|p| p[2..4] == [2, 1]),
        "{format}: the blocked packet"
    );
    assert!(matches!(events.first(), Some(Event::Start(_))));
    assert!(matches!(events.last(), Some(Event::End(_))));
}

#[test]
fn every_format_logs_what_is_relayed() {
    check(Format::Jsonl, SinkOptions::default());
    check(Format::TeraLog, SinkOptions::default());
    check(
        Format::Pkt,
        SinkOptions {
            pkt: PktOptions {
                region: Some(Region::Uk),
                client_version: Some(1),
                uncompressed: false,
            },
            ..SinkOptions::default()
        },
    );
}

#[test]
fn a_log_that_cannot_be_written_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let e = SessionLog::new(dir.path(), Format::Pkt, SinkOptions::default()).unwrap_err();
    assert!(matches!(e, SessionLogError::PktNeedsHeader), "{e}");
    let e = SessionLog::new(dir.path(), Format::Pcap, SinkOptions::default()).unwrap_err();
    assert!(e.to_string().contains("not a log format"), "{e}");
    let e = SessionLog::new(
        dir.path().join("none"),
        Format::Jsonl,
        SinkOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a folder"), "{e}");
}
