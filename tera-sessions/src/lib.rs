//! Whole TERA sessions, from packet captures and packet logs.
//!
//! A session is what users of TERA traffic hold: a capture (pcap or
//! pcapng) read passively, since the handshake that seeds both ciphers
//! travels in clear text; a `.TeraLog`; an Alkahest `.pkt`; or this
//! project's own JSONL form. Each becomes one stream of [`Event`]s:
//! a session starts, its packets arrive in order (decrypted, whole, with
//! their time and direction), bytes that were lost are reported as a
//! [`Gap`] (never patched over), and the session ends.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod catalog;
mod compiled;
mod def;
mod event;
mod json;
mod packet_set;

pub use compiled::Compiled;
pub use def::{CodecError, Def, DefInfo, ResolveError};
pub use event::{End, EndReason, Event, Gap, KeyGeneration, Packet, SessionId, Start, Timestamp};
pub use packet_set::{PacketSet, split_spec};
pub use tera_net::Direction;
