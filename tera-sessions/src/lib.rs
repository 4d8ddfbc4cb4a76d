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
//! ```no_run
//! use tera_sessions::capture::{Capture, CaptureError};
//! use tera_sessions::Event;
//!
//! fn summary(path: &str) -> Result<(), CaptureError> {
//!     let mut capture = Capture::open(path)?;
//!     for event in &mut capture {
//!         match event? {
//!             Event::Start(s) => println!("session {:?}: {:?} -> {:?}, keys {:?}",
//!                 s.session, s.client, s.server, s.keys),
//!             Event::Packet(p) => println!("{:?} {} opcode {} ({} bytes)",
//!                 p.session, p.direction.arrow(), p.opcode(), p.bytes.len()),
//!             Event::Gap(g) => println!("{:?} {} lost {} bytes at {}",
//!                 g.session, g.direction.arrow(), g.len, g.offset),
//!             Event::End(e) => println!("{:?} ended: {:?}", e.session, e.reason),
//!         }
//!     }
//!     eprintln!("{:?}", capture.stats());
//!     Ok(())
//! }
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
mod decrypt;
mod event;
mod tcp;

pub use event::{End, EndReason, Event, Gap, Packet, SessionId, Start, Timestamp};
pub use tera_net::{Direction, KeyGeneration};
