//! The proxy with typed decoding: a fake server and a fake client on
//! 127.0.0.1 exchange packets of the compiled-in defs (`tera-data`: the
//! project's own defs, or the corpus when built with `TERA_DATA_DIR`) through
//! `proxy::relay`, whose hook decodes every packet with `AnyPacket` through
//! the compiled-in protocol map. Both ends must receive exactly what was sent
//! and the proxy must have decoded each packet to a value that encodes back
//! to the same bytes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tera_data::{AnyPacket, PACKETS, ProtocolMap};
use tera_net::proxy::relay;
use tera_net::{Direction, HELLO, Session, SessionKeys};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

mod stream;
use stream::{receive, send};

const LIMIT: Duration = Duration::from_secs(10);

/// What the proxy's hook saw: direction, packet name, and whether the
/// decoded value re-encodes to the same bytes.
type Decoded = Vec<(Direction, String, bool)>;

/// Fixed-size packets of the compiled-in defs that have an opcode in the
/// map, filled with varied bytes (any bytes are a valid fixed packet), then
/// decoded and encoded once so that they are canonical (a `bool` byte of 7
/// encodes back as 1).
fn typed_packets(map: &ProtocolMap, count: usize, seed: u8) -> Vec<Vec<u8>> {
    let fixed: Vec<(u16, usize)> = PACKETS
        .iter()
        .filter_map(|p| Some((map.code(p.name)?, p.fixed_len?)))
        .collect();
    assert!(!fixed.is_empty(), "no fixed-size packet has an opcode");
    (0..count)
        .map(|i| {
            let (code, len) = fixed[i % fixed.len()];
            let mut p = vec![0u8; len];
            p[..2].copy_from_slice(&(len as u16).to_le_bytes());
            p[2..4].copy_from_slice(&code.to_le_bytes());
            for (j, b) in p.iter_mut().enumerate().skip(4) {
                *b = (j as u8)
                    .wrapping_mul(31)
                    .wrapping_add(seed)
                    .wrapping_add(i as u8);
            }
            let value = AnyPacket::decode_opcode(map, None, &p).unwrap();
            let mut canonical = vec![0u8; len];
            value.encode_into_with_opcode(code, &mut canonical).unwrap();
            canonical
        })
        .collect()
}

async fn handshake_as_server(s: &mut TcpStream, keys: &SessionKeys) {
    let mut key = [0u8; 128];
    s.write_all(&HELLO).await.unwrap();
    s.read_exact(&mut key).await.unwrap();
    assert_eq!(key, keys.client_key1);
    s.write_all(&keys.server_key1).await.unwrap();
    s.read_exact(&mut key).await.unwrap();
    assert_eq!(key, keys.client_key2);
    s.write_all(&keys.server_key2).await.unwrap();
}

async fn handshake_as_client(c: &mut TcpStream, keys: &SessionKeys) {
    let mut hello = [0u8; 4];
    let mut key = [0u8; 128];
    c.read_exact(&mut hello).await.unwrap();
    assert_eq!(hello, HELLO);
    c.write_all(&keys.client_key1).await.unwrap();
    c.read_exact(&mut key).await.unwrap();
    assert_eq!(key, keys.server_key1);
    c.write_all(&keys.client_key2).await.unwrap();
    c.read_exact(&mut key).await.unwrap();
    assert_eq!(key, keys.server_key2);
}

#[tokio::test]
async fn proxy_decodes_every_packet_of_the_compiled_in_defs() {
    let map = tera_data::protocol_map().expect("a protocol map is compiled in");
    let keys = SessionKeys {
        client_key1: [0x11; 128],
        server_key1: std::array::from_fn(|i| i as u8),
        client_key2: std::array::from_fn(|i| (i * 7) as u8),
        server_key2: std::array::from_fn(|i| 255 - i as u8),
    };
    let up = typed_packets(&map, 5, 1);
    let down = typed_packets(&map, 4, 2);

    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_addr = server_listener.local_addr().unwrap();
    let proxy_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy_listener.local_addr().unwrap();

    let decoded: Arc<Mutex<Decoded>> = Arc::default();
    let proxy = {
        let decoded = Arc::clone(&decoded);
        let map = map.clone();
        tokio::spawn(async move {
            let (client, _) = proxy_listener.accept().await.unwrap();
            let server = TcpStream::connect(server_addr).await.unwrap();
            relay(client, server, move |dir, p: &[u8]| {
                let any = AnyPacket::decode_opcode(&map, None, p).expect("proxy decodes");
                let mut again = vec![0u8; any.encoded_len()];
                let opcode = u16::from_le_bytes([p[2], p[3]]);
                any.encode_into_with_opcode(opcode, &mut again).unwrap();
                decoded
                    .lock()
                    .unwrap()
                    .push((dir, any.name().to_owned(), again == p));
            })
            .await
        })
    };

    let server = {
        let (keys, up, down) = (keys.clone(), up.clone(), down.clone());
        tokio::spawn(async move {
            let (mut s, _) = server_listener.accept().await.unwrap();
            handshake_as_server(&mut s, &keys).await;
            let mut session = Session::new(&keys);
            send(&mut s, &mut session, Direction::ServerToClient, &down, 7).await;
            let got = receive(&mut s, &mut session, Direction::ClientToServer, up.len()).await;
            s.shutdown().await.unwrap();
            got
        })
    };

    let client = {
        let (keys, up, down) = (keys.clone(), up.clone(), down.clone());
        tokio::spawn(async move {
            let mut c = TcpStream::connect(proxy_addr).await.unwrap();
            handshake_as_client(&mut c, &keys).await;
            let mut session = Session::new(&keys);
            send(&mut c, &mut session, Direction::ClientToServer, &up, 7).await;
            let got = receive(&mut c, &mut session, Direction::ServerToClient, down.len()).await;
            c.shutdown().await.unwrap();
            got
        })
    };

    let (server_got, client_got) = tokio::time::timeout(LIMIT, async {
        (server.await.unwrap(), client.await.unwrap())
    })
    .await
    .expect("the exchange finishes in time");
    assert_eq!(
        server_got, up,
        "the server receives exactly what the client sent"
    );
    assert_eq!(
        client_got, down,
        "the client receives exactly what the server sent"
    );
    let _ = tokio::time::timeout(LIMIT, proxy).await;

    let decoded = decoded.lock().unwrap();
    assert_eq!(
        decoded.len(),
        up.len() + down.len(),
        "every packet was decoded"
    );
    assert!(decoded.iter().all(|(_, _, same)| *same), "{decoded:?}");
    let up_names: Vec<&str> = decoded
        .iter()
        .filter(|(d, _, _)| *d == Direction::ClientToServer)
        .map(|(_, n, _)| n.as_str())
        .collect();
    let expected: Vec<&str> = up
        .iter()
        .map(|p| map.name(u16::from_le_bytes([p[2], p[3]])).unwrap())
        .collect();
    assert_eq!(up_names, expected);
}
