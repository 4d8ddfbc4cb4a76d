//! The one error type of decoding and encoding.

use core::fmt;

use crate::protocol_error::{ProtocolError, ProtocolErrorKind};

/// What went wrong while decoding or encoding a packet.
///
/// Every variant is small and `Copy`; the byte offset and the field live in
/// [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The slice is shorter than the 4-byte header.
    MissingHeader,
    /// The header's length field does not match the length of the slice.
    LengthMismatch {
        /// The length the header declares.
        declared: u16,
        /// The length of the slice that was given.
        actual: u32,
    },
    /// A fixed-size field or a metadata slot runs past the end of the packet.
    UnexpectedEnd,
    /// An offset points into the 4-byte header.
    OffsetInHeader,
    /// An offset points past the end of the packet.
    OffsetOutOfBounds,
    /// A string has no NUL terminator before the end of the packet.
    UnterminatedString,
    /// A string runs to the end of the packet with an odd number of bytes.
    OddStringLength,
    /// A byte field's count runs past the end of the packet.
    BytesOutOfBounds,
    /// An array's list of elements ends (`next` = 0) before `count` elements.
    ListTooShort,
    /// An array's list of elements goes on (`next` != 0) after `count` elements.
    ListTooLong,
    /// Data is read more often than the packet's size allows: offsets loop
    /// back or several fields share the same bytes.
    Overlap,
    /// The encoded packet would be larger than 65535 bytes.
    TooLarge {
        /// The size the packet would have.
        size: u32,
    },
    /// The buffer given to `encode_into` is smaller than the packet.
    BufferTooSmall {
        /// The size the packet needs.
        needed: u32,
    },
    /// A failure that a protocol crate defines for its own encodings (see
    /// [`ProtocolErrorKind`]): carried through the derives' code like the
    /// kinds above, with its byte and field.
    Protocol(ProtocolError),
}

// Here rather than beside `ProtocolError`: this module uses that one, so the
// conversion into `ErrorKind` lives with `ErrorKind` (no import circle).
impl<K: ProtocolErrorKind> From<K> for ErrorKind {
    fn from(kind: K) -> Self {
        ErrorKind::Protocol(ProtocolError::new(kind))
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::MissingHeader => f.write_str("packet is shorter than its 4-byte header"),
            ErrorKind::LengthMismatch { declared, actual } => write!(
                f,
                "header declares {declared} bytes but the packet has {actual}"
            ),
            ErrorKind::UnexpectedEnd => f.write_str("field runs past the end of the packet"),
            ErrorKind::OffsetInHeader => f.write_str("offset points into the packet header"),
            ErrorKind::OffsetOutOfBounds => f.write_str("offset points past the end of the packet"),
            ErrorKind::UnterminatedString => {
                f.write_str("string has no NUL terminator before the end of the packet")
            }
            ErrorKind::OddStringLength => {
                f.write_str("string runs to the end of the packet with an odd number of bytes")
            }
            ErrorKind::BytesOutOfBounds => f.write_str("bytes run past the end of the packet"),
            ErrorKind::ListTooShort => f.write_str("array list ends before `count` elements"),
            ErrorKind::ListTooLong => f.write_str("array list goes on after `count` elements"),
            ErrorKind::Overlap => {
                f.write_str("data overlaps other data or loops (more reads than the packet holds)")
            }
            ErrorKind::TooLarge { size } => {
                write!(f, "packet would be {size} bytes, more than 65535")
            }
            ErrorKind::BufferTooSmall { needed } => {
                write!(f, "buffer is too small: the packet needs {needed} bytes")
            }
            ErrorKind::Protocol(kind) => fmt::Display::fmt(&kind, f),
        }
    }
}

/// A decode or encode error: what went wrong, at which byte offset of the
/// packet, and in which field (the innermost one that is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub struct Error {
    kind: ErrorKind,
    offset: u32,
    field: Option<&'static str>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)?;
        if let Some(field) = self.field {
            write!(f, " (field `{field}`)")?;
        }
        Ok(())
    }
}

impl Error {
    /// An error of `kind` at byte `offset` of the packet.
    #[cold]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Error {
            kind,
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            field: None,
        }
    }

    /// An error of a protocol crate's own `kind` (see
    /// [`ProtocolErrorKind`]) at byte `offset`.
    #[cold]
    pub fn protocol<K: ProtocolErrorKind>(kind: K, offset: usize) -> Self {
        Error::new(ErrorKind::Protocol(ProtocolError::new(kind)), offset)
    }

    /// The protocol crate's kind, when the error is one of `K`.
    pub fn protocol_kind<K: ProtocolErrorKind>(&self) -> Option<K> {
        match self.kind {
            ErrorKind::Protocol(kind) => kind.get(),
            _ => None,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the packet (header included) where it went wrong.
    pub fn offset(&self) -> usize {
        self.offset as usize
    }

    /// The field being read, as named in the definition, when known.
    pub fn field(&self) -> Option<&'static str> {
        self.field
    }

    /// Names the field, unless an inner field was named already.
    #[cold]
    pub fn in_field(mut self, name: &'static str) -> Self {
        if self.field.is_none() {
            self.field = Some(name);
        }
        self
    }
}

/// The result of decoding or encoding.
pub type Result<T, E = Error> = core::result::Result<T, E>;
