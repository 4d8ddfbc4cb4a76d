//! Faults: a receiver that stops reading (bounded memory, then resumes), a
//! sender that closes mid-packet, bad length fields, garbage before the
//! handshake ends, a hook that panics. All on 127.0.0.1, bounded in time.

mod common;

use std::time::Duration;

use common::{LIMIT, exchange};
use tera_net::framing::MAX_PACKET_LEN;
use tera_net::handshake::HandshakeStep;
use tera_net::{Direction, FrameError, HELLO};
use tera_proxy::harness::{keys, loopback, loopback_with_buffers, packet};
use tera_proxy::{
    Connection, Fault, FaultPolicy, Filter, Hook, HookFailure, ProxyConfig, ProxyError, SendError,
    Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

async fn relay_error(conn: Connection, server_sends: &[u8]) -> ProxyError {
    tokio::time::timeout(LIMIT, async {
        let mut lb = loopback(conn, &keys(1)).await.unwrap();
        lb.server.writer.send_wire(server_sends).await.unwrap();
        lb.server.writer.shutdown().await.unwrap();
        lb.relay.await.unwrap().unwrap_err()
    })
    .await
    .expect("the relay ends in time")
}

#[tokio::test]
async fn a_stream_cut_inside_a_packet_is_an_error() {
    let whole = packet(0x1111, &[7; 20]);
    // Closed after part of the header, part of the body, or with a length
    // field past what follows.
    for cut in [1, 3, 10] {
        let mut sent = whole.clone();
        sent.extend_from_slice(&whole[..cut]);
        let err = relay_error(Connection::new(ProxyConfig::default()), &sent).await;
        assert!(
            matches!(err, ProxyError::Truncated { dir: Direction::ServerToClient, buffered } if buffered == cut),
            "{err}"
        );
        assert!(err.to_string().contains("ended inside a packet"), "{err}");
    }
    let mut past = vec![0xe8, 0x03, 0x11, 0x11];
    past.extend_from_slice(&[0; 50]);
    let err = relay_error(Connection::new(ProxyConfig::default()), &past).await;
    assert!(
        matches!(err, ProxyError::Truncated { buffered: 54, .. }),
        "{err}"
    );
}

#[tokio::test]
async fn length_fields_below_the_header_are_errors_with_their_offset() {
    for len in 0..4u16 {
        let mut sent = packet(0x2222, &[1, 2]);
        sent.extend_from_slice(&len.to_le_bytes());
        sent.extend_from_slice(&[0x33; 8]);
        let err = relay_error(Connection::new(ProxyConfig::default()), &sent).await;
        match err {
            ProxyError::Frame {
                dir: Direction::ServerToClient,
                source: FrameError::LengthTooShort { len: got, .. },
            } => assert_eq!(got, len),
            other => panic!("length {len}: {other}"),
        }
    }
}

/// Runs a relay between a raw client and a raw server; returns its result.
async fn raw_handshake<S, SF, C, CF>(
    config: ProxyConfig,
    server_script: S,
    client_script: C,
) -> Result<tera_proxy::RelayStats, ProxyError>
where
    S: FnOnce(TcpStream) -> SF + Send + 'static,
    SF: Future<Output = ()> + Send,
    C: FnOnce(TcpStream) -> CF + Send + 'static,
    CF: Future<Output = ()> + Send,
{
    tokio::time::timeout(LIMIT, async {
        let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server_addr = server_listener.local_addr().unwrap();
        let proxy_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy_addr = proxy_listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (s, _) = server_listener.accept().await.unwrap();
            server_script(s).await;
        });
        let client = tokio::spawn(async move {
            client_script(TcpStream::connect(proxy_addr).await.unwrap()).await;
        });
        let (c, _) = proxy_listener.accept().await.unwrap();
        let s = TcpStream::connect(server_addr).await.unwrap();
        let result = Connection::new(config).run(c, s).await;
        drop((server.await, client.await));
        result
    })
    .await
    .expect("the relay ends in time")
}

#[tokio::test]
async fn garbage_before_the_handshake_ends() {
    // A bad hello.
    let r = raw_handshake(
        ProxyConfig::default(),
        |mut s| async move { s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap() },
        |_| async {},
    )
    .await;
    let err = r.unwrap_err();
    assert!(matches!(err, ProxyError::Handshake(_)), "{err}");
    assert!(
        err.to_string()
            .contains("unexpected server hello [47, 45, 54, 20]"),
        "{err}"
    );

    // A client that sends part of its first key and leaves.
    let r = raw_handshake(
        ProxyConfig::default(),
        |mut s| async move {
            s.write_all(&HELLO).await.unwrap();
            let _ = s.read(&mut [0; 16]).await;
        },
        |mut c| async move {
            c.read_exact(&mut [0; 4]).await.unwrap();
            c.write_all(&[0xab; 50]).await.unwrap();
        },
    )
    .await;
    let err = r.unwrap_err();
    assert!(
        matches!(
            err,
            ProxyError::HandshakeClosed {
                step: HandshakeStep::ClientKey1,
                sender: Direction::ClientToServer
            }
        ),
        "{err}"
    );

    // A client that says nothing.
    let r = raw_handshake(
        ProxyConfig {
            handshake_timeout: Duration::from_millis(200),
            ..ProxyConfig::default()
        },
        |mut s| async move {
            s.write_all(&HELLO).await.unwrap();
            let _ = s.read(&mut [0; 16]).await;
        },
        |mut c| async move {
            let _ = c.read_to_end(&mut Vec::new()).await;
        },
    )
    .await;
    assert!(matches!(r, Err(ProxyError::HandshakeTimeout(_))), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_hook_ends_its_connection_and_the_others_go_on() {
    let mut tasks = Vec::new();
    for i in 0..4u16 {
        let conn = Connection::new(ProxyConfig {
            fault_policy: FaultPolicy::CloseConnection,
            ..ProxyConfig::default()
        });
        if i == 2 {
            conn.add_hook(Hook::raw("*", |_, p| {
                assert_ne!(p.opcode(), 0x0bad, "this hook fails on 0x0bad");
                Verdict::Pass
            }))
            .unwrap();
        }
        tasks.push(tokio::spawn(async move {
            let up: Vec<_> = (0..50u16)
                .map(|n| packet(if n == 25 { 0x0bad } else { n }, &[i as u8; 30]))
                .collect();
            let down = vec![packet(0x0bad, &[1; 9]); 20];
            if i == 2 {
                let mut lb = loopback(conn, &keys(9)).await.unwrap();
                lb.client
                    .writer
                    .send(&up.iter().map(Vec::as_slice).collect::<Vec<_>>())
                    .await
                    .unwrap();
                Err(lb.relay.await.unwrap().unwrap_err())
            } else {
                let ex = exchange(conn, &up, &down).await;
                assert_eq!(ex.server_got, up);
                assert_eq!(ex.client_got, down);
                ex.result
            }
        }));
    }
    for (i, task) in tasks.into_iter().enumerate() {
        let result = task.await.unwrap();
        if i == 2 {
            let err = result.unwrap_err();
            assert!(
                matches!(
                    &err,
                    ProxyError::Hook(HookFailure::Panicked(Fault {
                        dir: Direction::ClientToServer,
                        ..
                    }))
                ),
                "{err}"
            );
            let text = err.to_string();
            assert!(
                text.contains("hook #0 (*) panicked") && text.contains("this hook fails on 0x0bad"),
                "{text}"
            );
        } else {
            assert_eq!(result.unwrap().client_to_server.packets_read, 51);
        }
    }
}

#[tokio::test]
async fn a_hook_failing_on_a_handle_injection_ends_the_connection() {
    let conn = Connection::new(ProxyConfig {
        fault_policy: FaultPolicy::CloseConnection,
        ..ProxyConfig::default()
    });
    conn.add_hook(
        Hook::raw("*", |e, _| {
            assert!(!e.is_fake(), "no fakes here");
            Verdict::Pass
        })
        .filter(Filter::ALL),
    )
    .unwrap();
    let handle = conn.handle();
    let lb = loopback(conn, &keys(4)).await.unwrap();
    let err = handle
        .send_raw(Direction::ServerToClient, packet(1, &[]))
        .await
        .unwrap_err();
    assert!(
        matches!(err, SendError::Hook(HookFailure::Panicked(_))),
        "{err}"
    );
    let relay = tokio::time::timeout(LIMIT, lb.relay)
        .await
        .unwrap()
        .unwrap();
    let err = relay.unwrap_err();
    assert!(matches!(err, ProxyError::InjectedPacketHook(_)), "{err}");
    let cause = std::error::Error::source(&err).map(ToString::to_string);
    assert!(
        cause
            .as_deref()
            .is_some_and(|c| c.contains("no fakes here")),
        "{cause:?}"
    );
    drop(lb.client);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_that_stops_reading_stops_the_relay_reading_and_it_resumes() {
    const QUEUE: usize = 64 * 1024;
    const CHUNK: usize = 16 * 1024;
    const PACKETS: usize = 200;
    const SIZE: usize = 16 * 1024;
    let conn = Connection::new(ProxyConfig {
        queue_bytes: QUEUE,
        read_chunk: CHUNK,
        ..ProxyConfig::default()
    });
    let handle = conn.handle();
    // Small kernel buffers, so that what the kernel holds is small next to
    // what the server has to send.
    let lb = loopback_with_buffers(conn, &keys(2), Some(16 * 1024))
        .await
        .unwrap();
    let (mut client, mut server) = (lb.client, lb.server);
    let body = vec![0x5a; SIZE - 4];
    let sender = tokio::spawn(async move {
        for n in 0..PACKETS {
            server
                .writer
                .send(&[&packet(n as u16, &body)])
                .await
                .unwrap();
        }
        server.writer.shutdown().await.unwrap();
        server
    });

    // The client reads nothing; wait until the relay stops reading.
    let total = (PACKETS * SIZE) as u64;
    let mut last = u64::MAX;
    let stalled = tokio::time::timeout(LIMIT, async {
        loop {
            tokio::time::sleep(Duration::from_millis(150)).await;
            let read = handle.stats().server_to_client.bytes_read;
            if read == last {
                return read;
            }
            last = read;
        }
    })
    .await
    .expect("the relay stops reading");
    let stats = handle.stats().server_to_client;
    let queued = handle.queued_bytes(Direction::ServerToClient);
    // What the relay holds: read but not yet written to the client: the
    // queue, the batch its pump waits to queue and the bytes it has read
    // of the next.
    let held = stats.bytes_read - stats.bytes_written;
    let bound = (QUEUE + 2 * (CHUNK + MAX_PACKET_LEN)) as u64;
    eprintln!(
        "stalled client: queue {queued} of {QUEUE} bytes, relay holds {held} bytes (bound {bound}), read {stalled} of {total}"
    );
    assert!(
        queued <= QUEUE,
        "the queue holds {queued} bytes, over {QUEUE}"
    );
    assert!(queued > 0, "the queue is in use");
    assert!(
        held <= bound,
        "the relay holds {held} bytes, more than {bound}"
    );
    assert!(
        stalled < total / 2,
        "the relay stopped reading after {stalled} of {total} bytes"
    );
    assert!(!sender.is_finished(), "the server is blocked too");

    // The client reads again: everything arrives, in order.
    let got = tokio::time::timeout(LIMIT, async {
        let mut n = 0;
        while let Some(p) = client.reader.recv().await.unwrap() {
            assert_eq!(p.len(), SIZE);
            assert_eq!(u16::from_le_bytes([p[2], p[3]]), n as u16, "in order");
            n += 1;
        }
        n
    })
    .await
    .expect("the rest arrives in time");
    assert_eq!(got, PACKETS);
    let _server = sender.await.unwrap();
    client.writer.shutdown().await.unwrap();
    let stats = tokio::time::timeout(LIMIT, lb.relay)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(stats.server_to_client.bytes_read, total);
}

#[tokio::test]
async fn scripted_peers_refuse_keys_other_than_expected() {
    use tera_proxy::harness::Peer;

    // The server expects other keys: it refuses the client's first key.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (s, _) = listener.accept().await.unwrap();
        Peer::server(s, &keys(1)).await.map(drop)
    });
    let client = Peer::client(addr, &keys(2)).await;
    let err = server.await.unwrap().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(err.to_string(), "handshake: unexpected ClientKey1");
    assert!(client.is_err(), "the server hung up during the handshake");

    // The client expects another server key 1.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (s, _) = listener.accept().await.unwrap();
        Peer::server(s, &keys(1)).await.map(drop)
    });
    let expected = tera_net::SessionKeys {
        server_key1: [0; tera_net::KEY_LEN],
        ..keys(1)
    };
    let err = Peer::client(addr, &expected).await.unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(err.to_string(), "handshake: unexpected ServerKey1");
    assert!(server.await.unwrap().is_err(), "the client hung up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injections_towards_a_stalled_receiver_stay_under_the_byte_bound() {
    const QUEUE: usize = 32 * 1024;
    const PACKETS: usize = 400;
    const COPIES: usize = 8;
    let conn = Connection::new(ProxyConfig {
        queue_bytes: QUEUE,
        ..ProxyConfig::default()
    });
    // Every packet from the server comes with 8 injected copies: a batch
    // is 9 times what was read.
    conn.add_hook(Hook::raw("*", |event, packet| {
        for _ in 0..COPIES {
            event
                .send_raw(Direction::ServerToClient, packet.bytes().to_vec())
                .unwrap();
        }
        Verdict::Pass
    }))
    .unwrap();
    let handle = conn.handle();
    let lb = loopback_with_buffers(conn, &keys(6), Some(16 * 1024))
        .await
        .unwrap();
    let (mut client, mut server) = (lb.client, lb.server);
    let sender = tokio::spawn(async move {
        for n in 0..PACKETS {
            server
                .writer
                .send(&[&packet(n as u16, &[7; 1020])])
                .await
                .unwrap();
        }
        server.writer.shutdown().await.unwrap();
        server
    });
    let mut most = 0;
    let mut last = u64::MAX;
    tokio::time::timeout(LIMIT, async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            most = most.max(handle.queued_bytes(Direction::ServerToClient));
            let read = handle.stats().server_to_client.bytes_read;
            if read == last {
                break;
            }
            last = read;
        }
    })
    .await
    .expect("the relay stops reading");
    eprintln!("stalled client, 8 injections per packet: queue at most {most} of {QUEUE} bytes");
    assert!(most <= QUEUE, "{most} bytes queued, over {QUEUE}");
    assert!(most > QUEUE / 2, "the queue filled ({most})");
    let got = tokio::time::timeout(LIMIT, async {
        let mut n = 0;
        while let Some(p) = client.reader.recv().await.unwrap() {
            assert_eq!(p.len(), 1024);
            n += 1;
        }
        n
    })
    .await
    .expect("the rest arrives in time");
    assert_eq!(got, PACKETS * (COPIES + 1));
    let _server = sender.await.unwrap();
    client.writer.shutdown().await.unwrap();
}
