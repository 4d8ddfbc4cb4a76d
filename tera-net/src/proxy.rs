//! A relaying man-in-the-middle for one TERA connection.
//!
//! [`relay`] forwards the handshake both ways, derives the ciphers, then for
//! each direction decrypts the stream, frames it, shows every whole packet to
//! a hook, re-encrypts and forwards it. The bytes that reach each end are
//! exactly the bytes its peer sent.

use std::future::Future;
use std::pin::pin;
use std::sync::{Mutex, MutexGuard};
use std::task::Poll;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::Direction;
use crate::framing::{FrameError, Reassembler};
use crate::handshake::{Handshake, HandshakeError};
use crate::pike::Pike;
use crate::session::Session;

/// Why a relay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// Reading from or writing to one side failed.
    #[error("{dir} relay I/O: {source}")]
    Io {
        /// The direction being relayed (during the handshake: the sender).
        dir: Direction,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A handshake message was invalid.
    #[error("handshake: {0}")]
    Handshake(#[from] HandshakeError),
    /// A decrypted stream had a bad packet header.
    #[error("{dir} stream: {source}")]
    Frame {
        /// The direction of the bad stream.
        dir: Direction,
        /// The framing error.
        #[source]
        source: FrameError,
    },
    /// A side closed its stream in the middle of a packet.
    #[error("{dir} stream ended inside a packet ({buffered} bytes pending)")]
    Truncated {
        /// The direction that was cut.
        dir: Direction,
        /// Bytes of the incomplete packet.
        buffered: usize,
    },
}

/// Counters for one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionStats {
    /// Whole packets relayed.
    pub packets: u64,
    /// Bytes relayed after the handshake.
    pub bytes: u64,
}

/// Counters of a finished relay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelayStats {
    /// Client to server traffic.
    pub client_to_server: DirectionStats,
    /// Server to client traffic.
    pub server_to_client: DirectionStats,
}

const READ_CHUNK: usize = 16 * 1024;

/// Relays one connection between `client` (the game client, already
/// accepted) and `server` (already connected) until both directions reach
/// end of stream.
///
/// `hook` sees every whole decrypted packet (header included) with its
/// direction, in stream order per direction, before it is forwarded.
///
/// # Errors
/// [`ProxyError`] on I/O failure, a bad hello, a bad packet length or a
/// stream cut inside a packet. The connections are dropped on return.
pub async fn relay<C, S, F>(mut client: C, mut server: S, hook: F) -> Result<RelayStats, ProxyError>
where
    C: AsyncRead + AsyncWrite + Unpin,
    S: AsyncRead + AsyncWrite + Unpin,
    F: FnMut(Direction, &[u8]) + Send,
{
    let keys = relay_handshake(&mut client, &mut server).await?;
    let (c2s, s2c) = Session::new(&keys).into_ciphers();

    let (client_r, client_w) = tokio::io::split(client);
    let (server_r, server_w) = tokio::io::split(server);
    let hook = Mutex::new(hook);
    let up = pump(Direction::ClientToServer, client_r, server_w, c2s, &hook);
    let down = pump(Direction::ServerToClient, server_r, client_w, s2c, &hook);
    let (client_to_server, server_to_client) = try_join(up, down).await?;
    Ok(RelayStats {
        client_to_server,
        server_to_client,
    })
}

/// Forwards the hello and the four keys, returning the keys.
async fn relay_handshake<C, S>(
    client: &mut C,
    server: &mut S,
) -> Result<crate::session::SessionKeys, ProxyError>
where
    C: AsyncRead + AsyncWrite + Unpin,
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut handshake = Handshake::new();
    let mut buf = [0u8; crate::pike::KEY_LEN];
    while let Some(step) = handshake.next_step() {
        let dir = step.sender();
        let io = |source| ProxyError::Io { dir, source };
        let msg = buf.get_mut(..step.message_len()).unwrap_or_default();
        match dir {
            Direction::ServerToClient => {
                server.read_exact(msg).await.map_err(io)?;
            }
            Direction::ClientToServer => {
                client.read_exact(msg).await.map_err(io)?;
            }
        }
        let keys = handshake.accept(msg)?;
        match dir {
            Direction::ServerToClient => client.write_all(msg).await.map_err(io)?,
            Direction::ClientToServer => server.write_all(msg).await.map_err(io)?,
        }
        if let Some(keys) = keys {
            return Ok(keys);
        }
    }
    // Unreachable: the last step returns the keys.
    Err(HandshakeError::AlreadyComplete.into())
}

fn lock<F>(hook: &Mutex<F>) -> MutexGuard<'_, F> {
    match hook.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// One direction: read, decrypt, frame, hook, re-encrypt, write.
async fn pump<R, W, F>(
    dir: Direction,
    mut from: R,
    mut to: W,
    cipher: Pike,
    hook: &Mutex<F>,
) -> Result<DirectionStats, ProxyError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: FnMut(Direction, &[u8]) + Send,
{
    let io = |source| ProxyError::Io { dir, source };
    // Same key stream position for both: decrypting what arrives and
    // encrypting what leaves.
    let mut decrypt = cipher.clone();
    let mut encrypt = cipher;
    let mut stream = Reassembler::new();
    let mut input = vec![0u8; READ_CHUNK];
    let mut output = Vec::with_capacity(READ_CHUNK);
    let mut stats = DirectionStats::default();
    loop {
        let n = from.read(&mut input).await.map_err(io)?;
        if n == 0 {
            break;
        }
        decrypt.apply(stream.push(input.get(..n).unwrap_or_default()));
        output.clear();
        {
            let mut hook = lock(hook);
            while let Some(packet) = stream
                .next_packet()
                .map_err(|source| ProxyError::Frame { dir, source })?
            {
                hook(dir, packet);
                output.extend_from_slice(packet);
                stats.packets += 1;
            }
        }
        if !output.is_empty() {
            encrypt.apply(&mut output);
            to.write_all(&output).await.map_err(io)?;
            stats.bytes += output.len() as u64;
        }
    }
    to.shutdown().await.map_err(io)?;
    match stream.buffered() {
        0 => Ok(stats),
        buffered => Err(ProxyError::Truncated { dir, buffered }),
    }
}

/// Runs two fallible futures concurrently on the current task; returns the
/// first error or both results.
async fn try_join<A, B, T, U, E>(a: A, b: B) -> Result<(T, U), E>
where
    A: Future<Output = Result<T, E>>,
    B: Future<Output = Result<U, E>>,
{
    let mut a = pin!(a);
    let mut b = pin!(b);
    let mut ra = None;
    let mut rb = None;
    std::future::poll_fn(|cx| {
        if ra.is_none()
            && let Poll::Ready(r) = a.as_mut().poll(cx)
        {
            ra = Some(r?);
        }
        if rb.is_none()
            && let Poll::Ready(r) = b.as_mut().poll(cx)
        {
            rb = Some(r?);
        }
        match (ra.take(), rb.take()) {
            (Some(x), Some(y)) => Poll::Ready(Ok((x, y))),
            (x, y) => {
                ra = x;
                rb = y;
                Poll::Pending
            }
        }
    })
    .await
}
