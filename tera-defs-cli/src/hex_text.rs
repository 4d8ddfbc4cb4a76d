//! Hex text as users paste it: the `hex` crate decodes and encodes; this
//! module lets whitespace sit between digits (`0c 00 ...`, the lines of
//! `xxd -p`) and says where a bad character is, counted in characters.

use std::fmt;

/// Why a hex string was rejected. Positions count characters from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// A character that is neither a hex digit nor whitespace.
    BadChar {
        /// 1-based character position.
        position: usize,
        /// The character.
        found: char,
    },
    /// An odd number of hex digits.
    OddLength {
        /// How many digits there were.
        digits: usize,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::BadChar { position, found } => write!(
                f,
                "bad hex: {found:?} at character {position} is not a hex digit"
            ),
            HexError::OddLength { digits } => write!(
                f,
                "bad hex: {digits} digits is an odd number; every byte takes two"
            ),
        }
    }
}

/// Decodes `text` into `out` (cleared first), whitespace between digits
/// skipped. A bad character is reported before an odd count of digits.
pub fn decode_into(text: &str, out: &mut Vec<u8>) -> Result<(), HexError> {
    // The text's bytes without whitespace, and where each one was.
    let (digits, at): (Vec<u8>, Vec<usize>) = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| !b.is_ascii_whitespace())
        .map(|(index, b)| (b, index))
        .unzip();
    // The first bad byte starts its character: every byte before it is an
    // ASCII digit or whitespace.
    let bad_char = |index: usize| {
        let start = at.get(index).copied().unwrap_or(text.len());
        HexError::BadChar {
            position: text.get(..start).map_or(0, |t| t.chars().count()) + 1,
            found: text
                .get(start..)
                .and_then(|t| t.chars().next())
                .unwrap_or('?'),
        }
    };
    let odd = HexError::OddLength {
        digits: digits.len(),
    };
    let even = digits.len() & !1;
    out.clear();
    out.resize(even / 2, 0);
    match hex::decode_to_slice(&digits[..even], out) {
        Err(hex::FromHexError::InvalidHexCharacter { index, .. }) => Err(bad_char(index)),
        Err(_) => Err(odd),
        Ok(()) => match digits.get(even) {
            None => Ok(()),
            Some(last) if last.is_ascii_hexdigit() => Err(odd),
            Some(_) => Err(bad_char(even)),
        },
    }
}

/// Decodes `text` into a new vector.
pub fn decode(text: &str) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::new();
    decode_into(text, &mut out)?;
    Ok(out)
}

/// Appends `bytes` as lower-case hex to `out`.
pub fn encode_into(bytes: &[u8], out: &mut String) {
    out.push_str(&hex::encode(bytes));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut text = String::new();
        encode_into(&bytes, &mut text);
        assert_eq!(&text[..8], "00010203");
        assert_eq!(decode(&text).unwrap(), bytes);
        assert_eq!(decode(&text.to_uppercase()).unwrap(), bytes);
    }

    #[test]
    fn whitespace_is_skipped() {
        assert_eq!(decode("0c 00\n0a\t0b\n").unwrap(), [12, 0, 10, 11]);
        assert_eq!(decode("").unwrap(), [0u8; 0]);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            decode("0c0z"),
            Err(HexError::BadChar {
                position: 4,
                found: 'z'
            })
        );
        assert_eq!(
            decode("éz").unwrap_err().to_string(),
            "bad hex: 'é' at character 1 is not a hex digit"
        );
        assert_eq!(
            decode("0c 0 é"),
            Err(HexError::BadChar {
                position: 6,
                found: 'é'
            })
        );
        assert_eq!(decode("0c0"), Err(HexError::OddLength { digits: 3 }));
        assert_eq!(
            decode("0c z"),
            Err(HexError::BadChar {
                position: 4,
                found: 'z'
            })
        );
    }
}
