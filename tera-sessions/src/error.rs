//! The errors of reading and writing session files: what is wrong, and
//! where.

use std::fmt;

use crate::event::SessionId;
use crate::format::Format;

/// Where in a file a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// A byte offset from the file's start.
    Byte(u64),
    /// A byte offset in the inflated entries of a compressed `.pkt`
    /// (after its header).
    InflatedByte(u64),
    /// A line (from 1).
    Line(u64),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Byte(n) => write!(f, "byte {n}"),
            At::InflatedByte(n) => write!(f, "byte {n} of the inflated entries"),
            At::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Why a session file does not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes break the format.
    #[error("{format}: at {at}: {message}")]
    Malformed {
        /// The file's format.
        format: Format,
        /// Where.
        at: At,
        /// What is wrong.
        message: String,
    },
    /// The first bytes are no format this crate reads.
    #[error(
        "not a session file: the first bytes are not a pcap, pcapng, .TeraLog, .pkt or JSONL \
         magic"
    )]
    UnknownFormat,
    /// A capture does not read further.
    #[error(transparent)]
    Capture(#[from] crate::capture::CaptureError),
    /// Reading failed.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

impl ReadError {
    pub(crate) fn malformed(format: Format, at: At, message: impl Into<String>) -> ReadError {
        ReadError::Malformed {
            format,
            at,
            message: message.into(),
        }
    }
}

/// Why events do not write to a session file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The format holds one session and a second one started.
    #[error(
        "{format} holds one session, and session {} starts after session {}: \
         pick one (`--session N`)",
        second.0, first.0
    )]
    OneSession {
        /// The format.
        format: Format,
        /// The session written.
        first: SessionId,
        /// The session that does not fit.
        second: SessionId,
    },
    /// An event of a session that has not started (or has ended).
    #[error("an event of session {} outside its start and end", .0.0)]
    NotStarted(SessionId),
    /// A packet whose bytes are not a whole packet.
    #[error(
        "session {}: a packet of {len} bytes whose header says {header}: not a whole packet",
        session.0
    )]
    NotAPacket {
        /// The session.
        session: SessionId,
        /// The bytes held.
        len: usize,
        /// The length its header gives (0 when shorter than a header).
        header: usize,
    },
    /// The format needs a field no event gave and no option set.
    #[error("{format} needs {what}: {how}")]
    Missing {
        /// The format.
        format: Format,
        /// The field.
        what: &'static str,
        /// How to set it.
        how: &'static str,
    },
    /// The format cannot hold a value.
    #[error("{format} cannot hold {what}")]
    Unrepresentable {
        /// The format.
        format: Format,
        /// What it cannot hold.
        what: String,
    },
    /// This build cannot write the format.
    #[error("{0} files cannot be written")]
    Unsupported(Format),
    /// Writing failed.
    #[error("cannot write: {0}")]
    Io(#[from] std::io::Error),
}
