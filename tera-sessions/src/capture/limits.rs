//! How much a capture reader may hold.

/// Caps on what a capture reader holds, so that a hostile or huge capture
/// cannot exhaust memory. When a cap is reached nothing fails: the oldest
/// hole in a stream is given up (reported as lost) or a connection is not
/// tracked, and [`CaptureStats`](super::CaptureStats) counts it.
///
/// What a reader holds at most, with these caps: `max_out_of_order_total`
/// bytes of out-of-order segments; per tracked connection a few hundred
/// bytes and, while it starts, its 516 handshake bytes and up to 64 KiB per
/// direction of what follows until the key generation is chosen (in a real
/// capture, the client's first packet: a few dozen bytes); per session two
/// ciphers' key streams (a few tens of KiB for real keys, 710 KiB each at
/// most), a packet being read per direction (64 KiB at most, the
/// protocol's largest) and, after a lost header, 128 KiB per direction
/// searched for the next packet (a search, one at a time, takes 24 bytes
/// a byte searched for as long as it runs). With the defaults, every
/// connection a session mid-packet, about 430 KiB a session on top of the
/// 32 MiB: well under 100 MB for captures of tens of sessions at once,
/// about 250 MB for 512 at once (the hostile worst).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections tracked at once (any kind, TERA or not). A connection
    /// seen while this many are tracked is not tracked (counted as
    /// `untracked`); connections already refused are evicted first.
    /// Default 512.
    pub max_connections: usize,
    /// Out-of-order bytes one direction of a connection holds; past it, the
    /// direction's earliest hole is given up as lost. Default 256 KiB.
    pub max_out_of_order: usize,
    /// Out-of-order bytes all connections hold together; past it, the
    /// direction receiving a segment gives up its earliest hole. Default
    /// 32 MiB.
    pub max_out_of_order_total: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 512,
            max_out_of_order: 256 * 1024,
            max_out_of_order_total: 32 * 1024 * 1024,
        }
    }
}
