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
mod error;
mod event;
mod format;
mod json;
pub mod jsonl;
mod named;
mod naming;
mod packet_check;
mod packet_set;
pub mod pkt;
mod read_util;
mod sink;
mod source;
mod summary;
pub mod teralog;
mod time_text;
mod version;

pub use compiled::Compiled;
pub use def::{CodecError, Def, DefInfo, ResolveError};
pub use error::{At, ReadError, WriteError};
pub use event::{End, EndReason, Event, Gap, KeyGeneration, Packet, SessionId, Start, Timestamp};
pub use format::Format;
pub use named::Named;
pub use naming::{Namer, Protocol};
pub use packet_set::{PacketSet, split_spec};
pub use sink::{Sink, SinkOptions};
pub use source::Events;
pub use summary::{SessionSummary, Summary};
pub use tera_net::Direction;
pub use version::{C_CHECK_VERSION_OPCODE, announced_revision, check_version_packet};
