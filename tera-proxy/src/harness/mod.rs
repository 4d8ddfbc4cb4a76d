//! Scripted TERA peers on 127.0.0.1, for tests, benches and examples
//! (feature `harness`).
//!
//! A [`Peer`] is a game client or server that does the real handshake and
//! speaks the PIKE-encrypted packet stream; [`loopback`] wires a client and
//! a server through a [`Connection`]; [`load`] runs many connections with
//! scripted traffic and checks every packet that arrives.
// Test support: it writes headers into buffers it made long enough, and a
// panic in it is a failed check.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use std::io;
use std::net::{Ipv4Addr, SocketAddr};

use bytes::BytesMut;
use tera_net::codec::{CodecError, PacketCodec};
use tera_net::{Direction, HandshakeStep, KEY_LEN, Pike, Session, SessionKeys};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::JoinHandle;

use crate::{Connection, ConnectionHandle, ProxyError, RelayStats};

pub mod load;
mod packet;
mod peers;
mod script;

pub use packet::packet;
pub use peers::{Arrived, TestPeers};
pub use script::{Action, Script, ScriptKind, typed_packets};

/// A `C_CHECK_VERSION` packet announcing protocol `revision` (entry 0) and
/// a second entry, as game clients send it first.
#[must_use]
pub fn check_version(revision: u32) -> Vec<u8> {
    crate::version::check_version_packet(&[(0, revision as i32), (1, 0x0102_0304)])
}

/// Session keys from a seed (splitmix64 bytes).
#[must_use]
pub fn keys(seed: u64) -> SessionKeys {
    let mut rng = script::SplitMix(seed);
    let mut key = || -> [u8; KEY_LEN] { std::array::from_fn(|_| rng.next() as u8) };
    SessionKeys {
        client_key1: key(),
        server_key1: key(),
        client_key2: key(),
        server_key2: key(),
    }
}

/// The receiving half of a peer: decrypts and frames what arrives.
#[derive(Debug)]
pub struct PeerReader {
    stream: OwnedReadHalf,
    codec: PacketCodec,
    buf: BytesMut,
}

impl PeerReader {
    /// The next whole packet; `None` at a clean end of stream.
    ///
    /// # Errors
    /// I/O errors, a bad length, or a stream that ends inside a packet.
    pub async fn recv(&mut self) -> io::Result<Option<BytesMut>> {
        loop {
            match self.codec.decode_packet(&mut self.buf) {
                Ok(Some(p)) => return Ok(Some(p)),
                Ok(None) => {}
                Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e)),
            }
            self.buf.reserve(16 * 1024);
            if self.stream.read_buf(&mut self.buf).await? == 0 {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("stream ended inside a packet ({} bytes)", self.buf.len()),
                    ))
                };
            }
        }
    }
}

/// Decoding with [`PacketCodec`] without importing the trait everywhere.
trait DecodePacket {
    fn decode_packet(&mut self, buf: &mut BytesMut) -> Result<Option<BytesMut>, CodecError>;
}

impl DecodePacket for PacketCodec {
    fn decode_packet(&mut self, buf: &mut BytesMut) -> Result<Option<BytesMut>, CodecError> {
        tokio_util::codec::Decoder::decode(self, buf)
    }
}

/// The sending half of a peer: encrypts what it writes.
#[derive(Debug)]
pub struct PeerWriter {
    stream: OwnedWriteHalf,
    cipher: Pike,
}

impl PeerWriter {
    /// Encrypts and writes whole packets, as one write.
    ///
    /// # Errors
    /// I/O errors.
    pub async fn send(&mut self, packets: &[&[u8]]) -> io::Result<()> {
        self.send_wire(&packets.concat()).await
    }

    /// Encrypts and writes any bytes (a piece of a packet, a bad length).
    ///
    /// # Errors
    /// I/O errors.
    pub async fn send_wire(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut wire = bytes.to_vec();
        self.cipher.apply(&mut wire);
        self.stream.write_all(&wire).await
    }

    /// Encrypts `plain` in place and writes it (no copy).
    ///
    /// # Errors
    /// I/O errors.
    pub async fn send_in_place(&mut self, plain: &mut [u8]) -> io::Result<()> {
        self.cipher.apply(plain);
        self.stream.write_all(plain).await
    }

    /// Ends the stream (TCP half-close).
    ///
    /// # Errors
    /// I/O errors.
    pub async fn shutdown(&mut self) -> io::Result<()> {
        self.stream.shutdown().await
    }
}

/// A scripted game client or server after the handshake.
#[derive(Debug)]
pub struct Peer {
    /// What it receives.
    pub reader: PeerReader,
    /// What it sends.
    pub writer: PeerWriter,
}

impl Peer {
    fn new(stream: TcpStream, keys: &SessionKeys, sends: Direction) -> Peer {
        let (c2s, s2c) = Session::new(keys).into_ciphers();
        let (send, receive) = match sends {
            Direction::ClientToServer => (c2s, s2c),
            Direction::ServerToClient => (s2c, c2s),
        };
        let (read, write) = stream.into_split();
        Peer {
            reader: PeerReader {
                stream: read,
                codec: PacketCodec::with_ciphers(Some(receive), None),
                buf: BytesMut::new(),
            },
            writer: PeerWriter {
                stream: write,
                cipher: send,
            },
        }
    }

    /// Connects to `addr` as a game client and does the handshake with
    /// `keys` (checking that the server's keys are the expected ones).
    ///
    /// # Errors
    /// I/O errors, or keys other than expected.
    pub async fn client(addr: SocketAddr, keys: &SessionKeys) -> io::Result<Peer> {
        Peer::client_on(TcpStream::connect(addr).await?, keys).await
    }

    /// Does the handshake with `keys` as the game client on a connected
    /// stream.
    ///
    /// # Errors
    /// I/O errors, or keys other than expected.
    pub async fn client_on(s: TcpStream, keys: &SessionKeys) -> io::Result<Peer> {
        Peer::handshake(s, keys, Direction::ClientToServer).await
    }

    /// Does the handshake with `keys` as the game server on an accepted
    /// stream.
    ///
    /// # Errors
    /// I/O errors, or keys other than expected.
    pub async fn server(s: TcpStream, keys: &SessionKeys) -> io::Result<Peer> {
        Peer::handshake(s, keys, Direction::ServerToClient).await
    }

    /// Walks the handshake's steps in wire order as the side that `sends`:
    /// writes the messages of its own steps, and checks that the other
    /// side's are the ones `keys` holds.
    async fn handshake(mut s: TcpStream, keys: &SessionKeys, sends: Direction) -> io::Result<Peer> {
        s.set_nodelay(true)?;
        let mut received = [0u8; KEY_LEN];
        for step in HandshakeStep::ALL {
            let expected = step.message(keys);
            if step.sender() == sends {
                s.write_all(expected).await?;
            } else {
                let received = &mut received[..expected.len()];
                s.read_exact(received).await?;
                if received != expected {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("handshake: unexpected {step:?}"),
                    ));
                }
            }
        }
        Ok(Peer::new(s, keys, sends))
    }
}

/// A scripted client and server relayed through a connection.
#[derive(Debug)]
pub struct Loopback {
    /// The game client.
    pub client: Peer,
    /// The game server.
    pub server: Peer,
    /// The connection's handle.
    pub handle: ConnectionHandle,
    /// The relay's task.
    pub relay: JoinHandle<Result<RelayStats, ProxyError>>,
}

/// Binds a server and a proxy on 127.0.0.1, relays a client through
/// `connection` (on a task of its own) and does both handshakes with
/// `keys`.
///
/// # Errors
/// I/O errors of binding, connecting or the handshakes.
pub async fn loopback(connection: Connection, keys: &SessionKeys) -> io::Result<Loopback> {
    loopback_with_buffers(connection, keys, None).await
}

fn socket(buffer: Option<u32>) -> io::Result<TcpSocket> {
    let socket = TcpSocket::new_v4()?;
    if let Some(size) = buffer {
        socket.set_recv_buffer_size(size)?;
        socket.set_send_buffer_size(size)?;
    }
    Ok(socket)
}

fn listener(buffer: Option<u32>) -> io::Result<TcpListener> {
    let socket = socket(buffer)?;
    socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
    socket.listen(1024)
}

/// [`loopback`] with every socket's kernel buffers set to `buffer` bytes
/// (which turns the kernel's buffer growth off), so that a test can tell
/// the relay's buffering from the kernel's.
///
/// # Errors
/// As [`loopback`].
pub async fn loopback_with_buffers(
    connection: Connection,
    keys: &SessionKeys,
    buffer: Option<u32>,
) -> io::Result<Loopback> {
    let server_listener = listener(buffer)?;
    let server_addr = server_listener.local_addr()?;
    let proxy_listener = listener(buffer)?;
    let proxy_addr = proxy_listener.local_addr()?;
    let handle = connection.handle();
    let relay = tokio::spawn(async move {
        let (client, _) = proxy_listener
            .accept()
            .await
            .map_err(|source| ProxyError::Io {
                dir: Direction::ClientToServer,
                source,
            })?;
        let server = async { socket(buffer)?.connect(server_addr).await }
            .await
            .map_err(|source| ProxyError::Io {
                dir: Direction::ServerToClient,
                source,
            })?;
        client.set_nodelay(true).ok();
        server.set_nodelay(true).ok();
        connection.run(client, server).await
    });
    let server = async {
        let (s, _) = server_listener.accept().await?;
        Peer::server(s, keys).await
    };
    let client = async {
        let stream = socket(buffer)?.connect(proxy_addr).await?;
        Peer::client_on(stream, keys).await
    };
    let (client, server) = tokio::try_join!(client, server)?;
    Ok(Loopback {
        client,
        server,
        handle,
        relay,
    })
}
