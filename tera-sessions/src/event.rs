//! What a session source yields: a session starts, packets, gaps, the
//! session ends. Every source (capture, `.TeraLog`, `.pkt`, JSONL) gives
//! these same events, so that conversions and tools see one model.

use std::net::SocketAddr;

use tera_net::{Direction, KeyGeneration};

/// A session's number within one source, from 0 in the order sessions
/// start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SessionId(pub u32);

/// A point in time: nanoseconds since the Unix epoch (UTC). Every source's
/// clock fits (pcap's micro- and nanoseconds, pcapng's resolutions, the
/// milliseconds of `.TeraLog` and `.pkt`) until the year 2262.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// The time `millis` milliseconds after the Unix epoch.
    #[must_use]
    pub const fn from_unix_millis(millis: i64) -> Timestamp {
        Timestamp(millis.saturating_mul(1_000_000))
    }

    /// Milliseconds since the Unix epoch, rounded down.
    #[must_use]
    pub const fn unix_millis(self) -> i64 {
        self.0.div_euclid(1_000_000)
    }
}

/// One event of a session source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A session begins; its packets follow.
    Start(Start),
    /// A whole decrypted packet.
    Packet(Packet),
    /// Bytes of one direction that were not seen.
    Gap(Gap),
    /// A session is over.
    End(End),
}

impl Event {
    /// The session the event belongs to.
    #[must_use]
    pub fn session(&self) -> SessionId {
        match self {
            Event::Start(e) => e.session,
            Event::Packet(e) => e.session,
            Event::Gap(e) => e.session,
            Event::End(e) => e.session,
        }
    }

    /// When it happened.
    #[must_use]
    pub fn time(&self) -> Timestamp {
        match self {
            Event::Start(e) => e.time,
            Event::Packet(e) => e.time,
            Event::Gap(e) => e.time,
            Event::End(e) => e.time,
        }
    }
}

/// A session begins. Fields a source cannot know are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The session.
    pub session: SessionId,
    /// The time of its first byte (a capture) or record (a log).
    pub time: Timestamp,
    /// The game client's address and port.
    pub client: Option<SocketAddr>,
    /// The server's address and port.
    pub server: Option<SocketAddr>,
    /// The key constants that decrypted it (captures only).
    pub keys: Option<KeyGeneration>,
    /// The region a log names (`.TeraLog`'s region block, `.pkt`'s region
    /// byte as its name: "NA", "EU", ...).
    pub region: Option<String>,
    /// The client version a `.pkt` records.
    pub client_version: Option<u32>,
}

/// A whole decrypted packet: the `u16` length, the `u16` opcode and the
/// body, exactly as the peer sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The session.
    pub session: SessionId,
    /// When its last byte was seen (a capture) or the time a log gives.
    pub time: Timestamp,
    /// Who sent it.
    pub direction: Direction,
    /// The whole packet, header included.
    pub bytes: Vec<u8>,
}

impl Packet {
    /// The opcode (bytes 2 and 3), 0 when the packet is shorter than its
    /// header (which no source yields).
    #[must_use]
    pub fn opcode(&self) -> u16 {
        tera_net::framing::opcode(&self.bytes).unwrap_or(0)
    }
}

/// Bytes of one direction's stream that were not seen: the packet that
/// held them is dropped, and reading resumes at the next packet found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The session.
    pub session: SessionId,
    /// When the loss was noticed.
    pub time: Timestamp,
    /// The direction that lost bytes.
    pub direction: Direction,
    /// Where the missing bytes start, counted from the first byte after
    /// the handshake in that direction.
    pub offset: u64,
    /// How many bytes are missing.
    pub len: u64,
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The connection closed (FIN or RST seen), or the log said so.
    Closed,
    /// The source ended with the session still open.
    EndOfInput,
}

/// A session is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The session.
    pub session: SessionId,
    /// When.
    pub time: Timestamp,
    /// Why.
    pub reason: EndReason,
}
