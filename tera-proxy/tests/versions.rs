//! The protocol map chosen from a folder of `protocol.REV.map` files by the
//! revision the client announces in `C_CHECK_VERSION`, its first packet.

mod common;

use std::sync::{Arc, Mutex};

use common::exchange;
use tera_proxy::harness::{check_version, packet};
use tera_proxy::{Connection, Hook, MapLoadError, MapSource, ProxyConfig, Verdict, Version};

/// A packet name compiled in (with any defs) whose newest def does not
/// decode an empty body, so that its typed hook skips the test's packets;
/// and two opcodes for it.
fn name() -> &'static str {
    tera_data::PACKETS
        .iter()
        .filter(|p| p.platform.is_none())
        .find(|p| {
            let latest = tera_data::latest_version(tera_data::PACKETS, p.name);
            latest.is_some_and(|v| tera_data::AnyPacket::decode(p.name, v, &[4, 0, 0, 0]).is_err())
        })
        .map(|p| p.name)
        .expect("some packet is compiled in")
}
const OLD: u16 = 40001;
const NEW: u16 = 40002;

fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let name = name();
    std::fs::write(
        dir.path().join("protocol.100.map"),
        format!("{name} = {OLD}\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("protocol.200.map"),
        format!("# newer client\n{name} = {NEW}\nC_CHECK_VERSION = 19900\n"),
    )
    .unwrap();
    dir
}

/// A connection whose hooks log the opcodes named `name()` (raw and typed,
/// both not expecting the packet to decode) and every opcode (`*`).
fn connection(dir: &std::path::Path) -> (Connection, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::folder(dir),
        ..ProxyConfig::default()
    });
    let l = Arc::clone(&log);
    conn.add_hook(Hook::raw(name(), move |e, _| {
        l.lock()
            .unwrap()
            .push(format!("raw {} rev {:?}", e.opcode(), e.revision()));
        Verdict::Pass
    }))
    .unwrap();
    let l = Arc::clone(&log);
    conn.add_hook(
        Hook::typed(name(), Version::Latest, move |e, _| {
            l.lock().unwrap().push(format!("typed {}", e.opcode()));
            Verdict::Pass
        })
        .unwrap(),
    )
    .unwrap();
    let l = Arc::clone(&log);
    conn.add_hook(Hook::raw("*", move |e, _| {
        if ![common::CLIENT_DONE, common::SERVER_DONE].contains(&e.opcode()) {
            l.lock()
                .unwrap()
                .push(format!("* {} {:?}", e.opcode(), e.name()));
        }
        Verdict::Pass
    }))
    .unwrap();
    (conn, log)
}

#[tokio::test]
async fn the_map_follows_the_revision_in_c_check_version() {
    let dir = folder();
    for (revision, hooked, other) in [(200u32, NEW, OLD), (100, OLD, NEW)] {
        let (conn, log) = connection(dir.path());
        let handle = conn.handle();
        let up = [
            check_version(revision),
            packet(hooked, &[]),
            packet(other, &[]),
        ];
        let ex = exchange(conn, &up, &[]).await;
        ex.result.unwrap();
        assert_eq!(ex.server_got, up, "everything passes unchanged");
        assert_eq!(handle.revision(), Some(revision));
        assert!(handle.map_error().is_none());
        let log = log.lock().unwrap().clone();
        let check = if revision == 200 {
            "Some(\"C_CHECK_VERSION\")"
        } else {
            "None"
        };
        assert_eq!(
            log,
            [
                format!("* 19900 {check}"),
                format!("raw {hooked} rev Some({revision})"),
                format!("* {hooked} Some({:?})", name()),
                format!("* {other} None"),
            ],
            "revision {revision}: only the announced map's opcode is {}",
            name()
        );
    }
}

#[tokio::test]
async fn without_a_map_packets_pass_raw_and_the_handle_says_why() {
    let dir = folder();
    type Expected = fn(&MapLoadError) -> bool;
    let cases: [(Vec<u8>, Expected); 3] = [
        (
            check_version(300),
            |e| matches!(e, MapLoadError::Read { path, .. } if path.ends_with("protocol.300.map")),
        ),
        (packet(OLD, &[]), |e| {
            matches!(e, MapLoadError::NoCheckVersion(OLD))
        }),
        (packet(19900, &[1, 2, 3]), |e| {
            matches!(e, MapLoadError::BadCheckVersion(_))
        }),
    ];
    for (first, expected) in cases {
        let (conn, log) = connection(dir.path());
        let handle = conn.handle();
        let up = [first, packet(OLD, &[]), packet(NEW, &[])];
        let ex = exchange(conn, &up, &[]).await;
        ex.result.unwrap();
        assert_eq!(ex.server_got, up);
        let err = handle.map_error().expect("a map error");
        assert!(expected(&err), "{err}");
        assert_eq!(handle.revision(), None);
        assert!(
            log.lock().unwrap().iter().all(|l| l.starts_with("* ")),
            "only * hooks ran"
        );
    }
    // A bad line is skipped (and logged), as tera-toolbox reads maps: real
    // maps hold typo'd alias lines; the other lines make the map.
    std::fs::write(
        dir.path().join("protocol.400.map"),
        "A = 1\nB\nA_ALIAS = 1\nC = 2\n",
    )
    .unwrap();
    let (conn, _) = connection(dir.path());
    let handle = conn.handle();
    exchange(conn, &[check_version(400)], &[])
        .await
        .result
        .unwrap();
    assert!(handle.map_error().is_none());
    let map = handle.protocol_map().unwrap();
    assert_eq!((map.code("A"), map.code("C")), (Some(1), Some(2)));
    assert_eq!((map.code("B"), map.code("A_ALIAS")), (None, None));
}

#[tokio::test]
async fn a_map_with_a_bad_line_and_an_alias_is_used_without_them() {
    let dir = folder();
    // As the public map of build 376012 has one: a typo'd second name on a
    // code. The first name keeps the code; the bad line is left out.
    std::fs::write(
        dir.path().join("protocol.400.map"),
        format!("{} = {NEW}\nB\n{}Y = {NEW}\n", name(), name()),
    )
    .unwrap();
    let (conn, log) = connection(dir.path());
    let handle = conn.handle();
    let up = [check_version(400), packet(NEW, &[])];
    let ex = exchange(conn, &up, &[]).await;
    ex.result.unwrap();
    assert!(handle.map_error().is_none(), "{:?}", handle.map_error());
    assert_eq!(handle.revision(), Some(400));
    let log = log.lock().unwrap().clone();
    assert!(
        log.contains(&format!("raw {NEW} rev Some(400)")),
        "the first name's hook ran: {log:?}"
    );
}
