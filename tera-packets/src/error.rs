//! The one error type of decoding and encoding.

use core::fmt;

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
    /// A varint goes on past its 5th byte (diep.io's `vu`/`vi`/`vf`).
    OverlongVarint,
    /// A varint's 5th byte is above `0x0f`: the value needs more than 32 bits.
    VarintOverflow {
        /// The 5th byte.
        byte: u8,
    },
    /// A UTF-8 string (diep.io's `stringNT`) is not valid UTF-8.
    InvalidUtf8,
    /// A string to be written holds a NUL, which would end it on the wire.
    NulInString,
    /// Bytes are left after the last field of a message.
    TrailingBytes {
        /// How many.
        count: u32,
    },
    /// A message id that the protocol does not define (or not on this side).
    UnknownId {
        /// The id byte.
        id: u8,
    },
    /// An index read off the wire (a field, a field group, an array
    /// element) is past the end of its table or array.
    IndexPastTable {
        /// The index.
        index: u32,
        /// The table's or array's length.
        len: u32,
    },
    /// An entity record of an update starts with neither a creation (`01`)
    /// nor an update (`00 01`) marker.
    BadUpcreateMarker {
        /// The byte found.
        byte: u8,
    },
    /// The values given for a field do not match the field table: the
    /// value's encoding, the array's elements, or (in a creation) the fields
    /// of its groups (building an update).
    FieldMismatch {
        /// The field's index in the field order.
        index: u32,
    },
    /// An update of an array field lists no element.
    EmptyArrayUpdate,
    /// A flag and the presence of the fields it announces disagree (an
    /// Input with the gamepad flag and no joystick, or the reverse).
    FlagMismatch,
    /// A compressed message is malformed, or inflates to a length other
    /// than the one it declares.
    BadCompression,
    /// A compressed message declares more bytes than the decoder's cap.
    CompressedTooLarge {
        /// The declared length.
        declared: u32,
        /// The cap.
        cap: u32,
    },
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
            ErrorKind::OverlongVarint => f.write_str("varint is longer than 5 bytes"),
            ErrorKind::VarintOverflow { byte } => write!(
                f,
                "varint's 5th byte is {byte:#04x}, above 0x0f (more than 32 bits)"
            ),
            ErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            ErrorKind::NulInString => f.write_str("string to write contains a NUL"),
            ErrorKind::TrailingBytes { count } => {
                write!(f, "{count} bytes left after the last field")
            }
            ErrorKind::UnknownId { id } => write!(f, "unknown message id {id:#04x}"),
            ErrorKind::IndexPastTable { index, len } => {
                write!(f, "index {index} is past the end of a table of {len}")
            }
            ErrorKind::BadUpcreateMarker { byte } => write!(
                f,
                "entity record starts with {byte:#04x}, neither a creation (01) nor an update (00 01)"
            ),
            ErrorKind::FieldMismatch { index } => write!(
                f,
                "the values of field {index} do not match the field table (encoding, elements, or the creation's groups)"
            ),
            ErrorKind::EmptyArrayUpdate => f.write_str("update of an array field lists no element"),
            ErrorKind::FlagMismatch => {
                f.write_str("a flag and the presence of the fields it announces disagree")
            }
            ErrorKind::BadCompression => f.write_str(
                "compressed message is malformed or does not inflate to its declared length",
            ),
            ErrorKind::CompressedTooLarge { declared, cap } => write!(
                f,
                "compressed message declares {declared} bytes, more than the cap of {cap}"
            ),
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
