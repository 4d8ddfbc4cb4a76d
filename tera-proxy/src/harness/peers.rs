//! A mod's test: a scripted game client and server relayed through a
//! connection with the mod, one step at a time. Each step sends packets
//! from one end and returns what reached each end (the packets, changed or
//! not, and what hooks injected) until everything they caused has arrived.

use std::sync::Arc;
use std::time::Duration;

use tera_data::{Packet, ProtocolMap};
use tera_net::Direction;
use tokio::task::JoinHandle;

use super::{Loopback, Peer, keys, loopback, packet};
use crate::commands::CHANNEL_ID;
use crate::{Connection, ConnectionHandle, ProxyError, RelayStats};

/// Every step fails after this long.
const LIMIT: Duration = Duration::from_secs(20);
/// Marks the end of what the client sent (an opcode no map names).
const CLIENT_MARK: u16 = 0x7ff0;
/// Marks the end of what the server sent.
const SERVER_MARK: u16 = 0x7ff1;

/// The opcode of a whole packet.
fn opcode(p: &[u8]) -> u16 {
    tera_net::framing::opcode(p).unwrap_or_default()
}

/// What reached each end during a step, with the connection's map to read
/// it by name.
#[derive(Debug, Default)]
pub struct Arrived {
    /// Packets the client received, in order.
    pub client: Vec<Vec<u8>>,
    /// Packets the server received, in order.
    pub server: Vec<Vec<u8>>,
    map: Option<Arc<ProtocolMap>>,
}

impl Arrived {
    fn name_of(&self, p: &[u8]) -> String {
        let op = opcode(p);
        self.map
            .as_ref()
            .and_then(|m| m.name(op))
            .map_or_else(|| format!("opcode {op}"), str::to_owned)
    }

    /// The packets named `name` that reached either end (the client's
    /// first).
    #[must_use]
    pub fn named(&self, name: &str) -> Vec<&[u8]> {
        let code = self.map.as_ref().and_then(|m| m.code(name));
        self.client
            .iter()
            .chain(&self.server)
            .filter(|p| code == Some(opcode(p)))
            .map(Vec::as_slice)
            .collect()
    }

    /// The names of what reached the client, then the server, in order
    /// (`opcode N` for an opcode the map does not name).
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.client
            .iter()
            .chain(&self.server)
            .map(|p| self.name_of(p))
            .collect()
    }

    /// Whether nothing arrived.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.client.is_empty() && self.server.is_empty()
    }

    /// The packets of type `P` that reached either end, decoded.
    ///
    /// # Panics
    /// If one does not decode as `P`.
    #[must_use]
    pub fn of<'a, P: Packet<'a>>(&'a self) -> Vec<P> {
        self.named(P::NAME)
            .into_iter()
            .map(|p| {
                P::decode(p).unwrap_or_else(|e| {
                    panic!("{} did not decode as version {}: {e}", P::NAME, P::VERSION)
                })
            })
            .collect()
    }

    /// The one packet of type `P` that arrived.
    ///
    /// # Panics
    /// Unless exactly one arrived (the message lists what did).
    #[must_use]
    pub fn expect<'a, P: Packet<'a>>(&'a self) -> P {
        let mut all = self.of::<P>();
        match all.len() {
            1 => all.remove(0),
            n => panic!(
                "expected one {}, {n} arrived; everything that arrived: {:?}",
                P::NAME,
                self.names()
            ),
        }
    }

    /// The lines the proxy's channel said to the client (command replies,
    /// [`Event::message`](crate::Event::message)).
    #[must_use]
    pub fn messages(&self) -> Vec<String> {
        use tera_data::packets::s_private_chat;
        self.of::<s_private_chat::V1>()
            .into_iter()
            .filter(|line| line.channel == CHANNEL_ID as u32)
            .map(|line| line.message.to_string())
            .collect()
    }
}

/// A scripted game client and server relayed through a connection, for a
/// mod's tests: send packets by type (from the end their name says) and
/// read what arrived by name or type.
///
/// ```
/// use tera_data::packets::{s_chat, s_private_chat};
/// use tera_proxy::harness::TestPeers;
/// use tera_proxy::{Connection, HookError, MapSource, Mod, ProxyConfig, Setup, Verdict};
///
/// /// Answers `!hi` and shouts every chat line.
/// struct Hi;
///
/// impl Mod for Hi {
///     const NAME: &'static str = "hi";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
///         setup.hook(Self::command("hi", |_, cmd| cmd.reply("hello")));
///         setup.hook(Self::on::<s_chat::V4>(|_, _, chat| {
///             chat.message = chat.message.to_string().to_uppercase().into();
///             Verdict::Changed
///         }));
///         Ok(())
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let connection = Connection::new(ProxyConfig { maps: MapSource::test_map(), ..ProxyConfig::default() });
/// connection.add_mod(Hi)?;
/// let mut peers = TestPeers::start(connection).await;
/// assert_eq!(peers.command("hi").await.messages(), ["hello"]);
/// let line = s_chat::V4 { message: "gg".into(), ..Default::default() };
/// let arrived = peers.send(&line).await;
/// assert_eq!(arrived.expect::<s_chat::V4>().message.to_string(), "GG");
/// peers.finish().await;
/// # Ok::<(), HookError>(())
/// # })?;
/// # Ok::<(), HookError>(())
/// ```
#[derive(Debug)]
pub struct TestPeers {
    client: Peer,
    server: Peer,
    /// The connection's handle.
    pub handle: ConnectionHandle,
    relay: JoinHandle<Result<RelayStats, ProxyError>>,
}

impl TestPeers {
    /// Relays a new client and server through `connection` on
    /// 127.0.0.1.
    ///
    /// # Panics
    /// If binding or a handshake fails.
    pub async fn start(connection: Connection) -> TestPeers {
        let Loopback {
            client,
            server,
            handle,
            relay,
        } = loopback(connection, &keys(11))
            .await
            .unwrap_or_else(|e| panic!("the loopback: {e}"));
        TestPeers {
            client,
            server,
            handle,
            relay,
        }
    }

    /// The connection's protocol map.
    ///
    /// # Panics
    /// If the connection has none yet (a map chosen from
    /// `C_CHECK_VERSION` is known once the client has sent it: see
    /// [`check_version`](super::check_version)).
    #[must_use]
    pub fn map(&self) -> Arc<ProtocolMap> {
        self.handle
            .protocol_map()
            .unwrap_or_else(|| panic!("the connection has no protocol map yet"))
    }

    /// `packet` with its opcode in the connection's map.
    ///
    /// # Panics
    /// If the map does not name it, or it does not encode.
    #[must_use]
    pub fn encode<'a, P: Packet<'a>>(&self, packet: &P) -> Vec<u8> {
        let mut bytes = packet
            .encode()
            .unwrap_or_else(|e| panic!("{} does not encode: {e}", P::NAME));
        self.set_opcode(P::NAME, &mut bytes);
        bytes
    }

    fn set_opcode(&self, name: &str, bytes: &mut [u8]) {
        let code = self
            .map()
            .code(name)
            .unwrap_or_else(|| panic!("the connection's map has no {name}"));
        tera_data::set_opcode(bytes, code);
    }

    /// Sends `packet` from the end its name says (`C_` from the client,
    /// the others from the server) and returns what arrived.
    pub async fn send<'a, P: Packet<'a>>(&mut self, packet: &P) -> Arrived {
        let bytes = self.encode(packet);
        self.send_from(from_end(P::NAME), &[&bytes]).await
    }

    /// Sends whole packet `bytes` as packet `name` (its opcode set from
    /// the map), from the end the name says.
    pub async fn send_named(&mut self, name: &str, mut bytes: Vec<u8>) -> Arrived {
        self.set_opcode(name, &mut bytes);
        self.send_from(from_end(name), &[&bytes]).await
    }

    /// Types `line` in the client's chat as `!line`: runs a command.
    pub async fn command(&mut self, line: &str) -> Arrived {
        use tera_data::packets::c_chat;
        let chat = c_chat::V1 {
            channel: 0,
            message: format!("!{line}").into(),
        };
        self.send(&chat).await
    }

    /// Sends whole `packets` from the client or the server, then an end
    /// mark each way, and returns what arrived meanwhile.
    ///
    /// # Panics
    /// If an end closes, or the step takes over 20 s.
    pub async fn send_from(&mut self, from: Direction, packets: &[&[u8]]) -> Arrived {
        let (client, server) = tokio::time::timeout(LIMIT, self.step(from, packets))
            .await
            .unwrap_or_else(|_| panic!("the step did not finish in {LIMIT:?}"));
        Arrived {
            client,
            server,
            map: self.handle.protocol_map(),
        }
    }

    async fn step(&mut self, from: Direction, packets: &[&[u8]]) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        let (sender, receiver, mark, second) = match from {
            Direction::ClientToServer => {
                (&mut self.client, &mut self.server, CLIENT_MARK, SERVER_MARK)
            }
            Direction::ServerToClient => {
                (&mut self.server, &mut self.client, SERVER_MARK, CLIENT_MARK)
            }
        };
        let mark_packet = packet(mark, &[]);
        let mut all = packets.to_vec();
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
            Direction::ClientToServer => (at_sender, at_receiver),
            Direction::ServerToClient => (at_receiver, at_sender),
        }
    }

    /// Waits `time` (for timers), then returns what reached each end.
    pub async fn wait(&mut self, time: Duration) -> Arrived {
        tokio::time::sleep(time).await;
        let mut arrived = self.send_from(Direction::ClientToServer, &[]).await;
        let more = self.send_from(Direction::ServerToClient, &[]).await;
        arrived.client.extend(more.client);
        arrived.server.extend(more.server);
        arrived
    }

    /// Ends both streams and returns how the relay ended.
    ///
    /// # Panics
    /// If an end cannot be shut down or read to its end.
    pub async fn end(mut self) -> Result<RelayStats, ProxyError> {
        self.client.writer.shutdown().await.expect("shut down");
        self.server.writer.shutdown().await.expect("shut down");
        while self.client.reader.recv().await.expect("read").is_some() {}
        while self.server.reader.recv().await.expect("read").is_some() {}
        self.relay.await.expect("the relay's task")
    }

    /// Ends the connection and checks it ended well: no hook panicked and
    /// the relay returned no error.
    ///
    /// # Panics
    /// If a hook panicked or the relay failed.
    pub async fn finish(self) -> RelayStats {
        let faults = self.handle.faults();
        assert!(faults.is_empty(), "hooks panicked: {faults:?}");
        self.end()
            .await
            .unwrap_or_else(|e| panic!("the relay failed: {e}"))
    }
}

/// The end a packet of `name` is sent from.
fn from_end(name: &str) -> Direction {
    if name.starts_with("C_") {
        Direction::ClientToServer
    } else {
        Direction::ServerToClient
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
        if opcode(&p) == mark {
            return got;
        }
        got.push(p.to_vec());
    }
}
