//! The plain-text handshake that precedes the encrypted streams.
//!
//! 1. the server sends the 4-byte hello [`HELLO`];
//! 2. client key 1, server key 1, client key 2, server key 2 follow, 128 bytes
//!    each, in that order.
//!
//! [`Handshake`] is a small sans-IO state machine: ask it for the
//! [`next_step`](Handshake::next_step), read that many bytes from the
//! [`sender`](HandshakeStep::sender), pass them to
//! [`accept`](Handshake::accept). After the last step it yields the
//! [`SessionKeys`].

use crate::Direction;
use crate::pike::KEY_LEN;
use crate::session::SessionKeys;

/// The 4 bytes the server sends first.
pub const HELLO: [u8; 4] = [0x01, 0x00, 0x00, 0x00];

/// One message of the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandshakeStep {
    /// Server hello, [`HELLO`].
    Hello,
    /// Client key 1 (128 bytes).
    ClientKey1,
    /// Server key 1 (128 bytes).
    ServerKey1,
    /// Client key 2 (128 bytes).
    ClientKey2,
    /// Server key 2 (128 bytes).
    ServerKey2,
}

impl HandshakeStep {
    /// All steps in wire order.
    pub const ALL: [HandshakeStep; 5] = [
        HandshakeStep::Hello,
        HandshakeStep::ClientKey1,
        HandshakeStep::ServerKey1,
        HandshakeStep::ClientKey2,
        HandshakeStep::ServerKey2,
    ];

    /// Who sends this message (and so which way it travels).
    #[must_use]
    pub fn sender(self) -> Direction {
        match self {
            HandshakeStep::ClientKey1 | HandshakeStep::ClientKey2 => Direction::ClientToServer,
            HandshakeStep::Hello | HandshakeStep::ServerKey1 | HandshakeStep::ServerKey2 => {
                Direction::ServerToClient
            }
        }
    }

    /// Length of this message in bytes.
    #[must_use]
    pub fn message_len(self) -> usize {
        match self {
            HandshakeStep::Hello => HELLO.len(),
            _ => KEY_LEN,
        }
    }

    /// The bytes of this step in a handshake that exchanges `keys`: the
    /// hello, or the key the step carries.
    #[must_use]
    pub fn message(self, keys: &SessionKeys) -> &[u8] {
        match self {
            HandshakeStep::Hello => &HELLO,
            HandshakeStep::ClientKey1 => &keys.client_key1,
            HandshakeStep::ServerKey1 => &keys.server_key1,
            HandshakeStep::ClientKey2 => &keys.client_key2,
            HandshakeStep::ServerKey2 => &keys.server_key2,
        }
    }

    /// The step after this one, `None` after server key 2.
    #[must_use]
    pub fn next(self) -> Option<HandshakeStep> {
        match self {
            HandshakeStep::Hello => Some(HandshakeStep::ClientKey1),
            HandshakeStep::ClientKey1 => Some(HandshakeStep::ServerKey1),
            HandshakeStep::ServerKey1 => Some(HandshakeStep::ClientKey2),
            HandshakeStep::ClientKey2 => Some(HandshakeStep::ServerKey2),
            HandshakeStep::ServerKey2 => None,
        }
    }
}

/// Why a handshake message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandshakeError {
    /// The server's first 4 bytes were not `01 00 00 00`.
    #[error("unexpected server hello {0:02x?}, expected [01, 00, 00, 00]")]
    BadHello([u8; 4]),
    /// A message had the wrong size for its step.
    #[error("handshake message {step:?} has {got} bytes, expected {expected}")]
    WrongLength {
        /// The step being fed.
        step: HandshakeStep,
        /// Bytes given.
        got: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// [`Handshake::accept`] was called after the last step.
    #[error("handshake is already complete")]
    AlreadyComplete,
}

/// Sans-IO handshake state machine (see the module docs).
#[derive(Clone, Debug)]
pub struct Handshake {
    next: Option<HandshakeStep>,
    keys: SessionKeys,
}

impl Default for Handshake {
    fn default() -> Self {
        Self::new()
    }
}

impl Handshake {
    /// A handshake waiting for the server hello.
    #[must_use]
    pub fn new() -> Self {
        Self {
            next: Some(HandshakeStep::Hello),
            keys: SessionKeys {
                client_key1: [0; KEY_LEN],
                server_key1: [0; KEY_LEN],
                client_key2: [0; KEY_LEN],
                server_key2: [0; KEY_LEN],
            },
        }
    }

    /// The message expected next, `None` once complete.
    #[must_use]
    pub fn next_step(&self) -> Option<HandshakeStep> {
        self.next
    }

    /// Accepts the whole message of the current step. Returns the keys when
    /// this was the last step.
    ///
    /// # Errors
    /// [`HandshakeError`] on a bad hello, a wrong length, or a call after
    /// completion. The state does not advance on error.
    pub fn accept(&mut self, message: &[u8]) -> Result<Option<SessionKeys>, HandshakeError> {
        let step = self.next.ok_or(HandshakeError::AlreadyComplete)?;
        if message.len() != step.message_len() {
            return Err(HandshakeError::WrongLength {
                step,
                got: message.len(),
                expected: step.message_len(),
            });
        }
        let slot = match step {
            HandshakeStep::Hello => {
                let hello = <[u8; 4]>::try_from(message).unwrap_or_default();
                if hello != HELLO {
                    return Err(HandshakeError::BadHello(hello));
                }
                None
            }
            HandshakeStep::ClientKey1 => Some(&mut self.keys.client_key1),
            HandshakeStep::ServerKey1 => Some(&mut self.keys.server_key1),
            HandshakeStep::ClientKey2 => Some(&mut self.keys.client_key2),
            HandshakeStep::ServerKey2 => Some(&mut self.keys.server_key2),
        };
        if let Some(slot) = slot {
            slot.copy_from_slice(message);
        }
        self.next = step.next();
        Ok(if self.next.is_none() {
            Some(self.keys.clone())
        } else {
            None
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_handshake() {
        let mut hs = Handshake::new();
        let mut steps = Vec::new();
        let mut result = None;
        let mut fill = 1u8;
        while let Some(step) = hs.next_step() {
            steps.push(step);
            let msg = if step == HandshakeStep::Hello {
                HELLO.to_vec()
            } else {
                vec![fill; step.message_len()]
            };
            fill += 1;
            result = hs.accept(&msg).unwrap();
        }
        assert_eq!(steps, HandshakeStep::ALL);
        let keys = result.unwrap();
        assert_eq!(keys.client_key1, [2; KEY_LEN]);
        assert_eq!(keys.server_key1, [3; KEY_LEN]);
        assert_eq!(keys.client_key2, [4; KEY_LEN]);
        assert_eq!(keys.server_key2, [5; KEY_LEN]);
        assert_eq!(hs.accept(&[]), Err(HandshakeError::AlreadyComplete));
    }

    #[test]
    fn messages_of_keys_are_what_the_handshake_accepts() {
        let keys = SessionKeys {
            client_key1: [1; KEY_LEN],
            server_key1: [2; KEY_LEN],
            client_key2: [3; KEY_LEN],
            server_key2: [4; KEY_LEN],
        };
        let mut hs = Handshake::new();
        let mut result = None;
        for step in HandshakeStep::ALL {
            assert_eq!(step.message(&keys).len(), step.message_len());
            result = hs.accept(step.message(&keys)).unwrap();
        }
        assert_eq!(result, Some(keys));
    }

    #[test]
    fn errors() {
        let mut hs = Handshake::new();
        assert_eq!(
            hs.accept(&[1, 0, 0, 0, 0]),
            Err(HandshakeError::WrongLength {
                step: HandshakeStep::Hello,
                got: 5,
                expected: 4
            })
        );
        assert_eq!(
            hs.accept(&[2, 0, 0, 0]),
            Err(HandshakeError::BadHello([2, 0, 0, 0]))
        );
        assert_eq!(hs.next_step(), Some(HandshakeStep::Hello));
        assert_eq!(hs.accept(&HELLO), Ok(None));
        assert_eq!(hs.next_step(), Some(HandshakeStep::ClientKey1));
        assert!(hs.accept(&[0; 127]).is_err());
    }

    #[test]
    fn senders() {
        use Direction::*;
        let senders: Vec<_> = HandshakeStep::ALL.iter().map(|s| s.sender()).collect();
        assert_eq!(
            senders,
            [
                ServerToClient,
                ClientToServer,
                ServerToClient,
                ClientToServer,
                ServerToClient
            ]
        );
    }
}
