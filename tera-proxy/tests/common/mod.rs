//! A short scripted exchange through a connection, for the hook tests.
#![allow(dead_code)]

use std::time::Duration;

use tera_data::{Packet, ProtocolMap};
use tera_proxy::harness::{Loopback, keys, loopback, packet};
use tera_proxy::{Connection, MapSource, ProxyConfig, ProxyError, RelayStats};

/// Every test's exchange fails after this long.
pub const LIMIT: Duration = Duration::from_secs(20);

/// Marks the end of the client's packets (an opcode no map names).
pub const CLIENT_DONE: u16 = 0x7ff0;
/// Marks the end of the server's packets.
pub const SERVER_DONE: u16 = 0x7ff1;

/// What each end received (end markers removed) and how the relay ended.
pub struct Exchanged {
    pub server_got: Vec<Vec<u8>>,
    pub client_got: Vec<Vec<u8>>,
    pub result: Result<RelayStats, ProxyError>,
}

/// The client sends `from_client`, the server `from_server`; each then
/// reads everything the other side's stream carries until its end. The
/// server answers only after the client's last packet has arrived, so
/// that whatever hooks inject towards the client on the client's packets
/// is queued before the server ends its stream.
pub async fn exchange(
    connection: Connection,
    from_client: &[Vec<u8>],
    from_server: &[Vec<u8>],
) -> Exchanged {
    tokio::time::timeout(LIMIT, async {
        let Loopback {
            mut client,
            mut server,
            relay,
            ..
        } = loopback(connection, &keys(7)).await.unwrap();
        let mut c: Vec<&[u8]> = from_client.iter().map(Vec::as_slice).collect();
        let client_done = packet(CLIENT_DONE, &[]);
        c.push(&client_done);
        client.writer.send(&c).await.unwrap();
        server
            .writer
            .send(&from_server.iter().map(Vec::as_slice).collect::<Vec<_>>())
            .await
            .unwrap();

        let mut server_got = Vec::new();
        loop {
            let p = server
                .reader
                .recv()
                .await
                .unwrap()
                .expect("the client's end marker");
            if p[2..4] == CLIENT_DONE.to_le_bytes() {
                break;
            }
            server_got.push(p.to_vec());
        }
        server
            .writer
            .send(&[&packet(SERVER_DONE, &[])])
            .await
            .unwrap();
        server.writer.shutdown().await.unwrap();

        let mut client_got = Vec::new();
        while let Some(p) = client.reader.recv().await.unwrap() {
            if p[2..4] != SERVER_DONE.to_le_bytes() {
                client_got.push(p.to_vec());
            }
        }
        client.writer.shutdown().await.unwrap();
        while let Some(p) = server.reader.recv().await.unwrap() {
            server_got.push(p.to_vec());
        }
        Exchanged {
            server_got,
            client_got,
            result: relay.await.unwrap(),
        }
    })
    .await
    .expect("the exchange finishes in time")
}

/// The opcode of a packet.
pub fn op(p: &[u8]) -> u16 {
    u16::from_le_bytes([p[2], p[3]])
}

/// The compiled-in protocol map.
pub fn map() -> ProtocolMap {
    tera_data::protocol_map().expect("a map is compiled in")
}

/// A connection with the compiled-in map.
pub fn connection() -> Connection {
    Connection::new(ProxyConfig {
        maps: MapSource::test_map(),
        ..ProxyConfig::default()
    })
}

/// `packet` with its opcode in the compiled-in map.
pub fn enc<'a, P: Packet<'a>>(packet: &P) -> Vec<u8> {
    let mut bytes = packet.encode().unwrap();
    tera_data::set_opcode(&mut bytes, map().code(P::NAME).unwrap());
    bytes
}
