//! Transport layer for TERA game network traffic.
//!
//! A TERA connection starts with a plain-text [handshake] (a 4-byte hello
//! from the server, then four 128-byte keys); from then on each direction is
//! a continuous byte stream encrypted with the [PIKE](pike) stream cipher,
//! which decrypts to a sequence of packets: `u16` length (header included),
//! `u16` opcode, body.
//!
//! * [`sha0`]: SHA-0, used by the PIKE key schedule;
//! * [`pike`]: the stream cipher;
//! * [`session`]: key derivation for both [key generations](KeyGeneration),
//!   [`Session`] holding both directions;
//! * [`handshake`]: a sans-IO handshake state machine;
//! * [`framing`]: zero-copy packet splitting and stream reassembly;
//! * `codec` (feature `tokio`): `tokio_util::codec` decoder/encoder.
//!
//! The proxy (hooks, injection, protocol versions) is the `tera-proxy` crate,
//! built on this one.
//!
//! # Example
//!
//! Decrypt a client stream and split it into packets:
//!
//! ```
//! use tera_net::{Direction, Session, SessionKeys};
//! use tera_net::framing::{opcode, packets};
//!
//! let keys = SessionKeys {
//!     client_key1: [0x12; 128],
//!     server_key1: [0x56; 128],
//!     client_key2: [0x34; 128],
//!     server_key2: [0x78; 128],
//! };
//! // The client encrypts two packets...
//! let mut client = Session::new(&keys);
//! let mut wire = vec![6, 0, 0x34, 0x12, 0xaa, 0xbb, 4, 0, 0x01, 0x00];
//! client.apply(Direction::ClientToServer, &mut wire);
//!
//! // ...and whoever holds the same keys decrypts them, in any pieces.
//! let mut observer = Session::new(&keys);
//! let (first, second) = wire.split_at_mut(3);
//! observer.apply(Direction::ClientToServer, first);
//! observer.apply(Direction::ClientToServer, second);
//!
//! let found: Vec<_> = packets(&wire)
//!     .map(|p| p.map(|p| (p.len(), opcode(p))))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(found, [(6, Some(0x1234)), (4, Some(0x0001))]);
//! # Ok::<(), tera_net::framing::FrameError>(())
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
pub mod framing;
pub mod handshake;
pub mod pike;
pub mod session;
pub mod sha0;

pub use framing::{FrameError, Reassembler};
pub use handshake::{HELLO, Handshake, HandshakeError, HandshakeStep};
pub use pike::{KEY_LEN, Pike};
pub use session::{KeyGeneration, ServerSeed, Session, SessionKeys};

/// Which way bytes travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the game client to the server (cipher A).
    ClientToServer,
    /// From the server to the game client (cipher B).
    ServerToClient,
}

impl Direction {
    /// The opposite direction.
    #[must_use]
    pub fn reverse(self) -> Direction {
        match self {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        }
    }

    /// Short arrow form: `C->S` or `S->C`.
    #[must_use]
    pub fn arrow(self) -> &'static str {
        match self {
            Direction::ClientToServer => "C->S",
            Direction::ServerToClient => "S->C",
        }
    }
}

impl core::fmt::Display for Direction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Direction::ClientToServer => "client->server",
            Direction::ServerToClient => "server->client",
        })
    }
}
