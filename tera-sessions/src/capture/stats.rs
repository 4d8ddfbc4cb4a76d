//! What a capture reader saw, counted.

use std::net::SocketAddr;

use crate::SessionId;

/// How many unstarted connections [`CaptureStats::unstarted_examples`]
/// names.
pub const UNSTARTED_EXAMPLES: usize = 16;

/// How many sessions [`CaptureStats::conflicts`] lists.
pub const MAX_CONFLICTS: usize = 1024;

/// Counters of a capture read (see [`Capture::stats`](super::Capture::stats)).
/// Arrays by direction hold client to server first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CaptureStats {
    /// Frames (captured packets) read.
    pub frames: u64,
    /// Frames of a link type this reader does not read.
    pub unsupported_link: u64,
    /// Frames that are not TCP over IPv4 or IPv6 (ARP, UDP, ...).
    pub not_tcp: u64,
    /// Frames whose headers could not be read (cut short, malformed).
    pub bad_frames: u64,
    /// IP fragments, not reassembled (TCP segments are not fragmented in
    /// practice).
    pub fragments: u64,
    /// TCP segments read.
    pub segments: u64,
    /// Connections whose start (SYN or SYN-ACK) was seen.
    pub connections: u64,
    /// Connections whose start was not captured: skipped (nothing can be
    /// decrypted without the handshake).
    pub unstarted: u64,
    /// The first [`UNSTARTED_EXAMPLES`] unstarted connections, as (sender,
    /// receiver) of the first segment seen.
    pub unstarted_examples: Vec<(SocketAddr, SocketAddr)>,
    /// Connections not tracked because
    /// [`Limits::max_connections`](super::Limits::max_connections) were
    /// (counted by their SYN).
    pub untracked: u64,
    /// Connections that are not TERA sessions (the server's stream does not
    /// start with `01 00 00 00`).
    pub not_tera: u64,
    /// TERA handshakes that could not be read: bytes of the handshake or of
    /// the client's first header were lost.
    pub handshake_lost: u64,
    /// TERA handshakes after which neither key generation gives
    /// `C_CHECK_VERSION` first.
    pub no_check_version: u64,
    /// TERA handshakes after which a direction sent more than 64 KiB (or
    /// 1024 segments) before the key generation could be chosen (the
    /// server sends nothing before the client's first packet).
    pub early_bytes: u64,
    /// Sessions read (`Start` events).
    pub sessions: u64,
    /// Packets yielded, by direction.
    pub packets: [u64; 2],
    /// Bytes of the packets yielded, by direction.
    pub packet_bytes: [u64; 2],
    /// Gaps reported.
    pub gaps: u64,
    /// Bytes the gaps cover.
    pub lost_bytes: u64,
    /// Packets dropped because they held lost bytes.
    pub dropped_packets: u64,
    /// Times framing was found again after a lost header.
    pub resyncs: u64,
    /// Bytes seen but dropped while framing was searched for.
    pub resync_dropped_bytes: u64,
    /// Bytes the searches after lost headers went over, all together
    /// (linear in the bytes received while searching).
    pub resync_searched_bytes: u64,
    /// Segments ignored because their sequence number was more than 2^30
    /// away from the stream's position.
    pub out_of_window: u64,
    /// RSTs ignored because their sequence number was not in the window
    /// (from the next byte expected to 1 MiB past it).
    pub ignored_resets: u64,
    /// Connections ended by a SYN on the same ends that starts another
    /// (after a FIN, or with another initial sequence number).
    pub reused_connections: u64,
    /// Bytes seen again (retransmitted, overlapping) whose value differs
    /// from the first copy, which is kept; compared while the first copy
    /// is held (out of order, or among the last 4 KiB delivered).
    pub conflicting_bytes: u64,
    /// The sessions with conflicting bytes and how many (the first
    /// [`MAX_CONFLICTS`]).
    pub conflicts: Vec<(SessionId, u64)>,
    /// The most out-of-order bytes held at once.
    pub peak_out_of_order: usize,
}
