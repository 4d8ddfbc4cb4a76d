//! diep.io's own failures, carried through `tera_packets::Error` (with
//! their byte and field) as [`tera_packets::ErrorKind::Protocol`].

use core::fmt;

use tera_packets::{Error, ProtocolErrorKind};

/// What went wrong in diep.io's encodings and messages, beyond the failures
/// every protocol shares (a message ending inside a field is
/// [`tera_packets::ErrorKind::UnexpectedEnd`], a string without NUL
/// [`tera_packets::ErrorKind::UnterminatedString`]).
///
/// Raise one with [`DiepErrorKind::at`]; get it back from an error with
/// [`DiepErrorKind::of`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiepErrorKind {
    /// A varint goes on past its 5th byte (`vu`/`vi`/`vf`).
    OverlongVarint,
    /// A varint's 5th byte is above `0x0f`: the value needs more than 32 bits.
    VarintOverflow {
        /// The 5th byte.
        byte: u8,
    },
    /// A `stringNT` is not valid UTF-8.
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

impl DiepErrorKind {
    /// An error of this kind at byte `offset` of the message.
    #[cold]
    pub fn at(self, offset: usize) -> Error {
        Error::protocol(self, offset)
    }

    /// The kind of `error`, when it is one of diep.io's own.
    pub fn of(error: &Error) -> Option<Self> {
        error.protocol_kind()
    }
}

impl fmt::Display for DiepErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DiepErrorKind::OverlongVarint => f.write_str("varint is longer than 5 bytes"),
            DiepErrorKind::VarintOverflow { byte } => write!(
                f,
                "varint's 5th byte is {byte:#04x}, above 0x0f (more than 32 bits)"
            ),
            DiepErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            DiepErrorKind::NulInString => f.write_str("string to write contains a NUL"),
            DiepErrorKind::TrailingBytes { count } => {
                write!(f, "{count} bytes left after the last field")
            }
            DiepErrorKind::UnknownId { id } => write!(f, "unknown message id {id:#04x}"),
            DiepErrorKind::IndexPastTable { index, len } => {
                write!(f, "index {index} is past the end of a table of {len}")
            }
            DiepErrorKind::BadUpcreateMarker { byte } => write!(
                f,
                "entity record starts with {byte:#04x}, neither a creation (01) nor an update (00 01)"
            ),
            DiepErrorKind::FieldMismatch { index } => write!(
                f,
                "the values of field {index} do not match the field table (encoding, elements, or the creation's groups)"
            ),
            DiepErrorKind::EmptyArrayUpdate => {
                f.write_str("update of an array field lists no element")
            }
            DiepErrorKind::FlagMismatch => {
                f.write_str("a flag and the presence of the fields it announces disagree")
            }
            DiepErrorKind::BadCompression => f.write_str(
                "compressed message is malformed or does not inflate to its declared length",
            ),
            DiepErrorKind::CompressedTooLarge { declared, cap } => write!(
                f,
                "compressed message declares {declared} bytes, more than the cap of {cap}"
            ),
        }
    }
}

/// Each kind is its code (the first word) and up to two numbers.
impl ProtocolErrorKind for DiepErrorKind {
    fn to_words(self) -> [u32; 3] {
        match self {
            DiepErrorKind::OverlongVarint => [0, 0, 0],
            DiepErrorKind::VarintOverflow { byte } => [1, u32::from(byte), 0],
            DiepErrorKind::InvalidUtf8 => [2, 0, 0],
            DiepErrorKind::NulInString => [3, 0, 0],
            DiepErrorKind::TrailingBytes { count } => [4, count, 0],
            DiepErrorKind::UnknownId { id } => [5, u32::from(id), 0],
            DiepErrorKind::IndexPastTable { index, len } => [6, index, len],
            DiepErrorKind::BadUpcreateMarker { byte } => [7, u32::from(byte), 0],
            DiepErrorKind::FieldMismatch { index } => [8, index, 0],
            DiepErrorKind::EmptyArrayUpdate => [9, 0, 0],
            DiepErrorKind::FlagMismatch => [10, 0, 0],
            DiepErrorKind::BadCompression => [11, 0, 0],
            DiepErrorKind::CompressedTooLarge { declared, cap } => [12, declared, cap],
        }
    }

    fn from_words([code, a, b]: [u32; 3]) -> Option<Self> {
        let byte = || u8::try_from(a).ok();
        Some(match code {
            0 => DiepErrorKind::OverlongVarint,
            1 => DiepErrorKind::VarintOverflow { byte: byte()? },
            2 => DiepErrorKind::InvalidUtf8,
            3 => DiepErrorKind::NulInString,
            4 => DiepErrorKind::TrailingBytes { count: a },
            5 => DiepErrorKind::UnknownId { id: byte()? },
            6 => DiepErrorKind::IndexPastTable { index: a, len: b },
            7 => DiepErrorKind::BadUpcreateMarker { byte: byte()? },
            8 => DiepErrorKind::FieldMismatch { index: a },
            9 => DiepErrorKind::EmptyArrayUpdate,
            10 => DiepErrorKind::FlagMismatch,
            11 => DiepErrorKind::BadCompression,
            12 => DiepErrorKind::CompressedTooLarge {
                declared: a,
                cap: b,
            },
            _ => return None,
        })
    }
}

/// Fails unless the cursor is at the end of the message (`TrailingBytes`).
#[inline]
pub(crate) fn check_end(r: &tera_packets::Reader<'_>) -> tera_packets::Result<()> {
    match r.remaining() {
        0 => Ok(()),
        n => Err(DiepErrorKind::TrailingBytes {
            count: u32::try_from(n).unwrap_or(u32::MAX),
        }
        .at(r.pos())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_survives_its_words_and_says_what_and_where() {
        let kinds = [
            DiepErrorKind::OverlongVarint,
            DiepErrorKind::VarintOverflow { byte: 0x10 },
            DiepErrorKind::InvalidUtf8,
            DiepErrorKind::NulInString,
            DiepErrorKind::TrailingBytes { count: 3 },
            DiepErrorKind::UnknownId { id: 6 },
            DiepErrorKind::IndexPastTable { index: 9, len: 4 },
            DiepErrorKind::BadUpcreateMarker { byte: 2 },
            DiepErrorKind::FieldMismatch { index: 2 },
            DiepErrorKind::EmptyArrayUpdate,
            DiepErrorKind::FlagMismatch,
            DiepErrorKind::BadCompression,
            DiepErrorKind::CompressedTooLarge {
                declared: 5,
                cap: 4,
            },
        ];
        for kind in kinds {
            let e = kind.at(7).in_field("x");
            assert_eq!(DiepErrorKind::of(&e), Some(kind));
            assert_eq!(e.kind(), tera_packets::ErrorKind::from(kind));
            assert_eq!(e.to_string(), format!("{kind} at byte 7 (field `x`)"));
            assert_eq!(format!("{:?}", e.kind()), format!("Protocol({kind:?})"));
        }
        let wire = tera_packets::Error::new(tera_packets::ErrorKind::UnexpectedEnd, 1);
        assert_eq!(DiepErrorKind::of(&wire), None);
    }
}
