//! Relaying the plain-text handshake and learning the session keys.

use std::io::ErrorKind;

use tera_net::{Direction, Handshake, HandshakeError, KEY_LEN, SessionKeys};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::error::ProxyError;

/// Forwards the hello and the four keys, returning the keys.
pub(crate) async fn relay_handshake<C, S>(
    client: &mut C,
    server: &mut S,
) -> Result<SessionKeys, ProxyError>
where
    C: AsyncRead + AsyncWrite + Unpin,
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut handshake = Handshake::new();
    let mut buf = [0u8; KEY_LEN];
    while let Some(step) = handshake.next_step() {
        let sender = step.sender();
        let io = |source: std::io::Error| match source.kind() {
            ErrorKind::UnexpectedEof => ProxyError::HandshakeClosed { step, sender },
            _ => ProxyError::Io {
                dir: sender,
                source,
            },
        };
        let msg = buf.get_mut(..step.message_len()).unwrap_or_default();
        match sender {
            Direction::ServerToClient => server.read_exact(msg).await.map(drop).map_err(io)?,
            Direction::ClientToServer => client.read_exact(msg).await.map(drop).map_err(io)?,
        }
        let keys = handshake.accept(msg)?;
        match sender {
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
