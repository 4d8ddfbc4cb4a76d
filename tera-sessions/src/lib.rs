//! Whole TERA sessions, from packet captures and packet logs.
//!
//! A session is what users of TERA traffic hold: a capture (pcap or
//! pcapng) read passively, since the handshake that seeds both ciphers
//! travels in clear text; a `.TeraLog`; an Alkahest `.pkt`; or this
//! project's own JSONL form. Each becomes one stream of [`Event`]s:
//! a session starts, its packets arrive in order (decrypted, whole, with
//! their time and direction), bytes that were lost are reported as a
//! [`Gap`] (never patched over), and the session ends.
//!
//! # Captures
//!
//! [`capture::Capture`] reads a pcap or pcapng file in bounded memory and
//! yields the events of every TERA session in it, found by content (the
//! server's `01 00 00 00` and the four keys, on any port), decrypted with
//! whichever key generation the client uses:
//!
//! ```
//! use tera_sessions::capture::Capture;
//! use tera_sessions::{Direction, Event, KeyGeneration};
//!
//! // A capture tcpdump made of a scripted client and server (the crate's
//! // test fixture); `Capture::open(path)` reads a file.
//! let file: &[u8] = include_bytes!("../tests/fixtures/current-lo.pcap");
//! let mut capture = Capture::new(file)?;
//! let mut packets = [0, 0];
//! for event in &mut capture {
//!     match event? {
//!         Event::Start(s) => {
//!             assert_eq!(s.keys, Some(KeyGeneration::Current));
//!             println!("{:?}: {:?} -> {:?}", s.session, s.client, s.server);
//!         }
//!         Event::Packet(p) => {
//!             // The whole decrypted packet: length, opcode, body.
//!             assert_eq!(p.bytes.len(), usize::from(u16::from_le_bytes([p.bytes[0], p.bytes[1]])));
//!             packets[usize::from(p.direction == Direction::ServerToClient)] += 1;
//!         }
//!         Event::Gap(g) => println!("{} lost {} bytes at {}", g.direction, g.len, g.offset),
//!         Event::End(e) => println!("{:?} ended: {:?}", e.session, e.reason),
//!     }
//! }
//! assert_eq!(packets, [66, 55]);
//! assert_eq!(capture.stats().sessions, 1);
//! # Ok::<(), tera_sessions::capture::CaptureError>(())
//! ```
//!
//! [`capture::Tracker`] is the same without the file: TCP segments in, from
//! a live capture or anywhere, events out.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod capture;
mod catalog;
mod compiled;
mod decrypt;
mod def;
mod direction;
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
mod tcp;
pub mod teralog;
mod time_text;
mod version;
mod versions;

pub use compiled::Compiled;
pub use def::{CodecError, Def, DefInfo, ResolveError};
pub use direction::direction_of;
pub use error::{At, ReadError, WriteError};
pub use event::{End, EndReason, Event, Gap, Packet, SessionId, Start, Timestamp};
pub use format::Format;
pub use named::{Named, PacketValue};
pub use naming::{Namer, Protocol};
pub use packet_set::{PacketSet, split_spec};
pub use sink::{Sink, SinkOptions};
pub use source::Events;
pub use summary::{SessionSummary, Summary};
pub use tera_net::{Direction, KeyGeneration};
pub use version::{
    C_CHECK_VERSION_OPCODE, RevisionError, announced_revision, check_version_packet,
    check_version_packet_of,
};
pub use versions::{VersionChoice, VersionRule, VersionTrial};

/// The README's examples, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
