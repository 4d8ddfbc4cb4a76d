//! Packet captures (pcap, pcapng) read passively as TERA sessions.
//!
//! The layers, each in its own module:
//!
//! 1. the file: pcap or pcapng blocks, read in bounded memory with
//!    `pcap-parser`, any number of interfaces and link types;
//! 2. the frame: link, IP and TCP headers with `etherparse` (Ethernet,
//!    Linux cooked capture v1 and v2, raw IP, BSD loopback; IPv4 and IPv6)
//!    into a [`Segment`];
//! 3. the connection: a [`Tracker`] puts each direction back in order
//!    (out of order, retransmitted, overlapping, wrapping sequence
//!    numbers) and reports what was never seen as lost, within [`Limits`];
//! 4. the session: the handshake read in clear, the key generation chosen
//!    by the first client packet (`C_CHECK_VERSION`), both directions
//!    decrypted and split into packets; lost bytes are skipped by the
//!    cipher and reported as a [`Gap`](crate::Gap), the packet that held
//!    them dropped, and framing found again after them.
//!
//! [`Capture`] runs them all over a file and yields [`Event`](crate::Event)s.

mod error;
mod file;
mod limits;
mod link;
mod reader;
mod segment;
mod stats;
mod tracker;
mod write;

pub use crate::decrypt::OpcodeSet;
pub use error::CaptureError;
pub(crate) use file::{Frame, Frames};
pub use limits::Limits;
pub use reader::{Capture, CaptureBuilder};
pub use segment::Segment;
pub use stats::{CaptureStats, MAX_CONFLICTS, UNSTARTED_EXAMPLES};
pub use tracker::Tracker;
pub use write::{LinkKind, PcapWriter};
