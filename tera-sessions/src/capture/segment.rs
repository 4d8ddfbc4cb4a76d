//! A TCP segment as the tracker takes it.

use std::net::SocketAddr;

use crate::Timestamp;

/// One TCP segment of a capture: what reassembly needs of it.
///
/// [`Capture`](super::Capture) makes these from a file's frames; a
/// [`Tracker`](super::Tracker) takes them from anywhere (a live capture, a
/// test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    /// When it was captured.
    pub time: Timestamp,
    /// Who sent it.
    pub source: SocketAddr,
    /// Who it was sent to.
    pub destination: SocketAddr,
    /// Its sequence number.
    pub seq: u32,
    /// Its acknowledgement number, when the ACK flag is set.
    pub ack: Option<u32>,
    /// The SYN flag.
    pub syn: bool,
    /// The FIN flag.
    pub fin: bool,
    /// The RST flag.
    pub rst: bool,
    /// Its payload.
    pub payload: &'a [u8],
}
