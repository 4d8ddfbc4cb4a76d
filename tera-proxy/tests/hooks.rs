//! Each hook behaviour on a real relayed connection (127.0.0.1, real
//! handshake and cipher): pass, change, block, raw replacement, injection
//! both ways from hooks and from a handle, order, filters, adding and
//! removing hooks while the connection runs.
//!
//! The typed packets are the project's own defs (`S_CHAT.1`, `S_CHAT.2`,
//! ...), so these tests are compiled without `TERA_DATA_DIR`; the load and
//! fault tests run on any defs.
#![cfg(not(tera_corpus))]

mod common;

use std::sync::{Arc, Mutex};

use common::{connection, exchange};
use tera_data::packets::{c_join_private_channel, s_chat, s_ping};
use tera_data::{AnyPacket, Packet, Str};
use tera_proxy::harness::{keys, loopback, packet};
use tera_proxy::{Direction, Filter, Hook, HookError, HookFailure, ProxyError, Verdict, Version};

const S_CHAT: u16 = 19503;
const S_PING: u16 = 19508;
const C_JOIN: u16 = 19501;
const UNMAPPED: u16 = 0x1234;

fn with_opcode(mut p: Vec<u8>, opcode: u16) -> Vec<u8> {
    tera_data::set_opcode(&mut p, opcode);
    p
}

fn chat(message: &str) -> Vec<u8> {
    let value = s_chat::V2 {
        channel: 3,
        author_id: 0x1122_3344_5566,
        gm: true,
        author_name: Str::from("Elin"),
        message: Str::from(message),
        ..Default::default()
    };
    with_opcode(value.encode().unwrap(), S_CHAT)
}

fn ping() -> Vec<u8> {
    with_opcode(s_ping::V1 {}.encode().unwrap(), S_PING)
}

fn join(channel: &str) -> Vec<u8> {
    let value = c_join_private_channel::V1 {
        channel_name: Str::from(channel),
        password: 0,
    };
    with_opcode(value.encode().unwrap(), C_JOIN)
}

fn message_of(p: &[u8]) -> String {
    s_chat::V2::decode(p).unwrap().message.to_string()
}

/// A log that hooks append to.
type Log = Arc<Mutex<Vec<String>>>;

#[tokio::test]
async fn typed_hook_changes_raw_hook_blocks_the_rest_passes() {
    let conn = connection();
    conn.add_hook(
        Hook::typed("S_CHAT", Version::Exact(2), |_, packet| {
            let AnyPacket::SChatV2(chat) = packet else {
                panic!(
                    "S_CHAT.2 expected, got {}.{}",
                    packet.name(),
                    packet.version()
                );
            };
            if chat.message == "hello" {
                chat.message =
                    Str::from(format!("{} (and a longer tail)", chat.message).to_uppercase());
                Verdict::Changed
            } else {
                Verdict::Pass
            }
        })
        .unwrap(),
    )
    .unwrap();
    conn.add_hook(Hook::raw("S_PING", |_, _| Verdict::Block))
        .unwrap();
    let down = [
        chat("hello"),
        ping(),
        chat("unchanged"),
        packet(UNMAPPED, b"raw"),
    ];
    let up = [join("a")];
    let ex = exchange(conn, &up, &down).await;
    let stats = ex.result.unwrap();

    assert_eq!(ex.server_got, up, "client packets pass unchanged");
    assert_eq!(ex.client_got.len(), 3, "the ping is blocked");
    assert_eq!(message_of(&ex.client_got[0]), "HELLO (AND A LONGER TAIL)");
    assert_eq!(
        ex.client_got[0].len(),
        down[0].len() + 2 * 20,
        "re-encoded with its new length"
    );
    let changed = s_chat::V2::decode(&ex.client_got[0]).unwrap();
    assert_eq!(
        (changed.channel, changed.gm, changed.author_name.to_string()),
        (3, true, "Elin".into())
    );
    assert_eq!(ex.client_got[1], down[2], "a passed packet keeps its bytes");
    assert_eq!(
        ex.client_got[2], down[3],
        "an opcode the map lacks passes as raw"
    );
    assert_eq!(stats.server_to_client.changed, 1);
    assert_eq!(stats.server_to_client.blocked, 1);
}

#[tokio::test]
async fn typed_hook_decodes_the_version_it_asked_for() {
    let seen: Log = Log::default();
    let conn = connection();
    for version in [Version::Exact(1), Version::Exact(2)] {
        let seen = Arc::clone(&seen);
        conn.add_hook(
            Hook::typed("S_CHAT", version, move |_, p| {
                seen.lock()
                    .unwrap()
                    .push(format!("{}.{}", p.name(), p.version()));
                Verdict::Pass
            })
            .unwrap(),
        )
        .unwrap();
    }
    let v1 = with_opcode(
        s_chat::V1 {
            message: Str::from("x"),
            ..Default::default()
        }
        .encode()
        .unwrap(),
        S_CHAT,
    );
    // A packet that decodes as neither: both hooks are skipped, it passes.
    let bad = packet(S_CHAT, &[0xff; 3]);
    let ex = exchange(conn, &[], &[v1.clone(), bad.clone()]).await;
    let stats = ex.result.unwrap();
    assert_eq!(ex.client_got, [v1, bad]);
    assert_eq!(*seen.lock().unwrap(), ["S_CHAT.1", "S_CHAT.2"]);
    assert_eq!(stats.server_to_client.decode_errors, 2);
    assert_eq!(
        Hook::typed("S_CHAT", Version::Exact(9), |_, _| Verdict::Pass).unwrap_err(),
        HookError::UnknownPacket {
            name: "S_CHAT".into(),
            version: 9
        }
    );
    assert!(Hook::typed("S_NOPE", Version::Latest, |_, _| Verdict::Pass).is_err());
}

#[tokio::test]
async fn raw_hook_replaces_bytes_and_the_length_follows() {
    let conn = connection();
    conn.add_hook(Hook::raw("*", |_, p| {
        if p.opcode() != UNMAPPED {
            return Verdict::Pass;
        }
        p.bytes_mut().extend_from_slice(b" world");
        Verdict::Changed
    }))
    .unwrap();
    // Bytes changed but Pass answered: the change is dropped.
    conn.add_hook(Hook::raw("*", |_, p| {
        p.bytes_mut().clear();
        Verdict::Pass
    }))
    .unwrap();
    let ex = exchange(conn, &[packet(UNMAPPED, b"hello")], &[]).await;
    ex.result.unwrap();
    assert_eq!(ex.server_got, [packet(UNMAPPED, b"hello world")]);
}

#[tokio::test]
async fn a_change_that_cannot_be_sent_ends_the_connection_clearly() {
    let conn = connection();
    conn.add_hook(Hook::raw("*", |_, p| {
        p.bytes_mut().truncate(3);
        Verdict::Changed
    }))
    .unwrap();
    let keys = keys(3);
    let mut lb = loopback(conn, &keys).await.unwrap();
    lb.client
        .writer
        .send(&[&packet(UNMAPPED, b"x")])
        .await
        .unwrap();
    let err = lb.relay.await.unwrap().unwrap_err();
    assert!(
        matches!(err, ProxyError::Hook(HookFailure::BadChange { .. })),
        "{err}"
    );
    let reason = std::error::Error::source(&err).map(ToString::to_string);
    assert_eq!(
        reason.as_deref(),
        Some("a packet of 3 bytes (must be 4 to 65535)")
    );
}

#[tokio::test]
async fn hooks_inject_both_ways_in_stream_order() {
    let conn = connection();
    conn.add_hook(
        Hook::typed("C_JOIN_PRIVATE_CHANNEL", Version::Latest, |event, p| {
            let AnyPacket::CJoinPrivateChannelV1(join) = p else {
                unreachable!()
            };
            let notice = AnyPacket::SChatV2(s_chat::V2 {
                message: Str::from(format!("joining {}", join.channel_name)),
                ..Default::default()
            });
            event.send_any(&notice).unwrap();
            event
                .send_raw(Direction::ClientToServer, packet(UNMAPPED, b"before"))
                .unwrap();
            Verdict::Pass
        })
        .unwrap(),
    )
    .unwrap();
    let up = [join("one"), join("two")];
    let ex = exchange(conn, &up, &[]).await;
    let stats = ex.result.unwrap();
    let before = packet(UNMAPPED, b"before");
    assert_eq!(
        ex.server_got,
        [before.clone(), up[0].clone(), before, up[1].clone()]
    );
    let notices: Vec<_> = ex.client_got.iter().map(|p| message_of(p)).collect();
    assert_eq!(notices, ["joining one", "joining two"]);
    assert_eq!(stats.client_to_server.injected, 2);
    assert_eq!(stats.server_to_client.injected, 2);
}

#[tokio::test]
async fn a_handle_injects_both_ways_and_fake_filters_choose_who_sees_it() {
    let seen: Log = Log::default();
    let conn = connection();
    for (label, fake) in [("real", Some(false)), ("fake", Some(true)), ("both", None)] {
        let seen = Arc::clone(&seen);
        conn.add_hook(
            Hook::raw("*", move |e, p| {
                if ![common::CLIENT_DONE, common::SERVER_DONE].contains(&p.opcode()) {
                    seen.lock().unwrap().push(format!(
                        "{label} {} {}",
                        e.direction().arrow(),
                        e.is_fake()
                    ));
                }
                Verdict::Pass
            })
            .filter(Filter {
                fake,
                ..Filter::default()
            }),
        )
        .unwrap();
    }
    let handle = conn.handle();
    let keys = keys(11);
    let mut lb = loopback(conn, &keys).await.unwrap();
    handle
        .send_any(&AnyPacket::SChatV2(s_chat::V2 {
            message: Str::from("from the handle"),
            ..Default::default()
        }))
        .await
        .unwrap();
    handle
        .send_raw(
            Direction::ClientToServer,
            packet(UNMAPPED, b"to the server"),
        )
        .await
        .unwrap();
    lb.client
        .writer
        .send(&[&packet(UNMAPPED, b"real")])
        .await
        .unwrap();
    let got = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(message_of(&got), "from the handle");
    assert_eq!(
        &lb.server.reader.recv().await.unwrap().unwrap()[..],
        packet(UNMAPPED, b"to the server")
    );
    assert_eq!(
        &lb.server.reader.recv().await.unwrap().unwrap()[..],
        packet(UNMAPPED, b"real")
    );
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "fake S->C true",
            "both S->C true",
            "fake C->S true",
            "both C->S true",
            "real C->S false",
            "both C->S false"
        ]
    );
    let stats = handle.stats();
    assert_eq!(
        (
            stats.server_to_client.injected,
            stats.client_to_server.injected
        ),
        (1, 1)
    );
    assert!(
        handle
            .send_raw(Direction::ClientToServer, vec![1, 2])
            .await
            .is_err(),
        "too short"
    );
}

#[tokio::test]
async fn hooks_run_by_order_then_registration() {
    let seen: Log = Log::default();
    let conn = connection();
    for (label, order) in [("a", 5), ("b", -1), ("c", 5), ("d", 0), ("e", -1)] {
        let seen = Arc::clone(&seen);
        conn.add_hook(
            Hook::raw("S_PING", move |_, _| {
                seen.lock().unwrap().push(label.to_owned());
                Verdict::Pass
            })
            .order(order),
        )
        .unwrap();
    }
    exchange(conn, &[], &[ping()]).await.result.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["b", "e", "d", "a", "c"]);
}

#[tokio::test]
async fn modified_and_silenced_filters() {
    let seen: Log = Log::default();
    let conn = connection();
    let record = |label: &'static str, seen: &Log| {
        let seen = Arc::clone(seen);
        move |e: &mut tera_proxy::Event<'_>, _: &mut tera_proxy::RawPacket<'_>| {
            seen.lock().unwrap().push(format!(
                "{label} m={} s={}",
                e.is_modified(),
                e.is_silenced()
            ));
            Verdict::Pass
        }
    };
    // Order 0 changes, 1 blocks, 2.. observe; 9 lets it through again.
    conn.add_hook(Hook::raw("S_PING", |_, p| {
        p.bytes_mut().push(0);
        Verdict::Changed
    }))
    .unwrap();
    conn.add_hook(
        Hook::raw("S_PING", record("unmodified-only", &seen))
            .order(1)
            .filter(Filter {
                modified: Some(false),
                ..Filter::default()
            }),
    )
    .unwrap();
    conn.add_hook(Hook::raw("S_PING", |_, _| Verdict::Block).order(2))
        .unwrap();
    conn.add_hook(Hook::raw("S_PING", record("default", &seen)).order(3))
        .unwrap();
    conn.add_hook(
        Hook::raw("S_PING", record("silenced-too", &seen))
            .order(3)
            .filter(Filter {
                silenced: None,
                ..Filter::default()
            }),
    )
    .unwrap();
    conn.add_hook(
        Hook::raw("S_PING", record("silenced-only", &seen))
            .order(3)
            .filter(Filter {
                silenced: Some(true),
                modified: Some(true),
                ..Filter::default()
            }),
    )
    .unwrap();
    let unblock_second = {
        let mut n = 0;
        move |_: &mut tera_proxy::Event<'_>, _: &mut tera_proxy::RawPacket<'_>| {
            n += 1;
            if n == 2 {
                Verdict::Changed
            } else {
                Verdict::Pass
            }
        }
    };
    conn.add_hook(
        Hook::raw("S_PING", unblock_second)
            .order(9)
            .filter(Filter::ALL),
    )
    .unwrap();
    let ex = exchange(conn, &[], &[ping(), ping()]).await;
    let stats = ex.result.unwrap();
    let mut twice = vec!["silenced-too m=true s=true", "silenced-only m=true s=true"];
    twice.extend(twice.clone());
    assert_eq!(*seen.lock().unwrap(), twice);
    let mut changed_ping = ping();
    changed_ping.push(0);
    changed_ping[0] += 1;
    assert_eq!(
        ex.client_got,
        [changed_ping],
        "the second ping was let through again"
    );
    assert_eq!(
        (
            stats.server_to_client.blocked,
            stats.server_to_client.changed
        ),
        (1, 1)
    );
}

#[tokio::test]
async fn hooks_are_added_and_removed_while_the_connection_runs() {
    let seen: Log = Log::default();
    let conn = connection();
    let handle = conn.handle();
    let once = {
        let seen = Arc::clone(&seen);
        Hook::raw("S_PING", move |e, _| {
            seen.lock().unwrap().push("once".into());
            e.unhook();
            Verdict::Pass
        })
    };
    conn.add_hook(once).unwrap();
    let keys = keys(5);
    let mut lb = loopback(conn, &keys).await.unwrap();
    let mut round = async |label: &str| {
        lb.server.writer.send(&[&ping()]).await.unwrap();
        assert_eq!(
            &lb.client.reader.recv().await.unwrap().unwrap()[..],
            ping(),
            "{label}"
        );
    };
    round("1").await;
    let added = {
        let seen = Arc::clone(&seen);
        handle
            .add_hook(Hook::raw("S_PING", move |_, _| {
                seen.lock().unwrap().push("added".into());
                Verdict::Pass
            }))
            .unwrap()
    };
    round("2").await;
    round("3").await;
    handle.remove_hook(added);
    round("4").await;
    assert_eq!(*seen.lock().unwrap(), ["once", "added", "added"]);
}
