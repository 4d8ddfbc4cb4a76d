//! Hex text <-> bytes, with errors that say where.

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

fn digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `text` into `out` (cleared first). Whitespace between digits is
/// skipped, so that `0c 00 ...` and the output of `xxd -p` work.
pub fn decode_into(text: &str, out: &mut Vec<u8>) -> Result<(), HexError> {
    out.clear();
    out.reserve(text.len() / 2);
    let mut high: Option<u8> = None;
    let mut digits = 0;
    for (index, b) in text.bytes().enumerate() {
        if let Some(d) = digit(b) {
            digits += 1;
            match high.take() {
                Some(h) => out.push(h << 4 | d),
                None => high = Some(d),
            }
        } else if !b.is_ascii_whitespace() {
            // Report the character, not the byte, for non-ASCII input.
            let position = text[..index].chars().count() + 1;
            let found = text[index..].chars().next().unwrap_or('?');
            return Err(HexError::BadChar { position, found });
        }
    }
    if high.is_some() {
        return Err(HexError::OddLength { digits });
    }
    Ok(())
}

/// Decodes `text` into a new vector.
pub fn decode(text: &str) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::new();
    decode_into(text, &mut out)?;
    Ok(out)
}

/// Appends `bytes` as lower-case hex to `out`.
pub fn encode_into(bytes: &[u8], out: &mut String) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
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
        assert_eq!(decode("0c0"), Err(HexError::OddLength { digits: 3 }));
    }
}
