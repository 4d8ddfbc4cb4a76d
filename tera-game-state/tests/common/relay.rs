//! A scripted client and server through a proxy connection, one packet at
//! a time: after each packet, what reached each end (the packet, what
//! hooks injected) is collected before the next is sent.

use std::sync::Arc;
use std::time::Duration;

use tera_data::{Packet, ProtocolMap};
use tera_proxy::harness::{Loopback, Peer, keys, loopback, packet};
use tera_proxy::{
    Connection, ConnectionHandle, Direction, MapSource, ProxyConfig, ProxyError, RelayStats,
};

/// Every step fails after this long.
const LIMIT: Duration = Duration::from_secs(20);
/// Marks the end of what the client sent (an opcode no map names).
const CLIENT_MARK: u16 = 0x7ff0;
/// Marks the end of what the server sent.
const SERVER_MARK: u16 = 0x7ff1;

/// The compiled-in protocol map.
pub fn map() -> Arc<ProtocolMap> {
    Arc::new(tera_data::protocol_map().expect("a map is compiled in"))
}

/// A connection with the compiled-in map and settings in `settings_dir`.
pub fn connection(settings_dir: Option<&std::path::Path>) -> Connection {
    Connection::new(ProxyConfig {
        maps: MapSource::compiled_in(),
        settings_dir: settings_dir.map(ToOwned::to_owned),
        ..ProxyConfig::default()
    })
}

/// `packet` with its opcode in the compiled-in map.
pub fn enc<'a, P: Packet<'a>>(packet: &P) -> Vec<u8> {
    let mut bytes = packet.encode().expect("the packet encodes");
    tera_data::set_opcode(&mut bytes, map().code(P::NAME).expect("the map names it"));
    bytes
}

/// The opcode of a packet.
pub fn op(p: &[u8]) -> u16 {
    u16::from_le_bytes([p[2], p[3]])
}

/// The name of a packet in the compiled-in map.
pub fn name(p: &[u8]) -> Option<String> {
    map().name(op(p)).map(str::to_owned)
}

/// What reached each end during a step.
#[derive(Debug, Default)]
pub struct Got {
    /// Packets the client received.
    pub client: Vec<Vec<u8>>,
    /// Packets the server received.
    pub server: Vec<Vec<u8>>,
}

impl Got {
    /// The packets of type `P` the client or the server received, decoded.
    pub fn of<'a, P: Packet<'a>>(&'a self) -> Vec<P> {
        let code = map().code(P::NAME);
        self.client
            .iter()
            .chain(&self.server)
            .filter(|p| Some(op(p)) == code)
            .map(|p| P::decode(p).expect("a packet of its def"))
            .collect()
    }
}

/// A client and a server relayed through a connection.
pub struct Play {
    client: Peer,
    server: Peer,
    /// The connection's handle.
    pub handle: ConnectionHandle,
    relay: tokio::task::JoinHandle<Result<RelayStats, ProxyError>>,
}

impl Play {
    /// Starts relaying through `connection`.
    pub async fn start(connection: Connection) -> Play {
        let Loopback {
            client,
            server,
            handle,
            relay,
        } = loopback(connection, &keys(11)).await.expect("the loopback");
        Play {
            client,
            server,
            handle,
            relay,
        }
    }

    /// Sends `p` from its end (`C_` names from the client, the others,
    /// `TTB_S_` ones included, from the server) and returns what reached
    /// each end until the packets it caused have arrived.
    pub async fn send(&mut self, p: &[u8]) -> Got {
        let name = name(p).expect("a packet the map names");
        let from = if name.starts_with("C_") {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        self.send_from(from, &[p]).await
    }

    /// Sends `packets` from the client or the server, then an end mark
    /// each way, collecting what arrives meanwhile.
    pub async fn send_from(&mut self, from: Direction, packets: &[&[u8]]) -> Got {
        tokio::time::timeout(LIMIT, async {
            let mut got = Got::default();
            let (first, second) = match from {
                Direction::ClientToServer => (
                    (&mut self.client, &mut self.server, CLIENT_MARK),
                    SERVER_MARK,
                ),
                Direction::ServerToClient => (
                    (&mut self.server, &mut self.client, SERVER_MARK),
                    CLIENT_MARK,
                ),
            };
            let (sender, receiver, mark) = first;
            let mark_packet = packet(mark, &[]);
            let mut all: Vec<&[u8]> = packets.to_vec();
            all.push(&mark_packet);
            sender.writer.send(&all).await.expect("sent");
            let at_receiver = read_until(receiver, mark).await;
            receiver
                .writer
                .send(&[&packet(second, &[])])
                .await
                .expect("sent");
            let at_sender = read_until(sender, second).await;
            match from {
                Direction::ClientToServer => {
                    got.server = at_receiver;
                    got.client = at_sender;
                }
                Direction::ServerToClient => {
                    got.client = at_receiver;
                    got.server = at_sender;
                }
            }
            got
        })
        .await
        .expect("the step finishes in time")
    }

    /// Waits `time` (for timers), then collects what reached each end.
    pub async fn wait(&mut self, time: Duration) -> Got {
        tokio::time::sleep(time).await;
        let mut got = self.send_from(Direction::ClientToServer, &[]).await;
        let more = self.send_from(Direction::ServerToClient, &[]).await;
        got.client.extend(more.client);
        got.server.extend(more.server);
        got
    }

    /// Ends both streams and returns how the relay ended.
    pub async fn end(mut self) -> Result<RelayStats, ProxyError> {
        self.client.writer.shutdown().await.expect("shut down");
        self.server.writer.shutdown().await.expect("shut down");
        while self.client.reader.recv().await.expect("read").is_some() {}
        while self.server.reader.recv().await.expect("read").is_some() {}
        self.relay.await.expect("the relay's task")
    }
}

async fn read_until(peer: &mut Peer, mark: u16) -> Vec<Vec<u8>> {
    let mut got = Vec::new();
    loop {
        let p = peer
            .reader
            .recv()
            .await
            .expect("read")
            .expect("the end mark before the end");
        if op(&p) == mark {
            return got;
        }
        got.push(p.to_vec());
    }
}
