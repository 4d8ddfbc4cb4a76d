//! `DcStr`: a UTF-16LE string borrowed from the file.

use std::fmt;

/// A string of the data center: UTF-16LE code units borrowed from the file
/// bytes, without the terminating NUL. Nothing is decoded until asked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DcStr<'a> {
    bytes: &'a [u8],
}

impl<'a> DcStr<'a> {
    /// Wraps UTF-16LE bytes; a trailing odd byte is ignored.
    pub fn from_utf16le(bytes: &'a [u8]) -> Self {
        DcStr {
            bytes: &bytes[..bytes.len() & !1],
        }
    }

    /// The raw UTF-16LE bytes (no NUL).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Number of UTF-16 code units.
    pub fn len(&self) -> usize {
        self.bytes.len() / 2
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The UTF-16 code units.
    pub fn units(&self) -> impl ExactSizeIterator<Item = u16> + Clone + 'a {
        self.bytes
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
    }

    /// The characters, with U+FFFD for unpaired surrogates.
    pub fn chars(&self) -> impl Iterator<Item = char> + 'a {
        char::decode_utf16(self.units()).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// Decodes to a `String`, with U+FFFD for unpaired surrogates.
    pub fn to_string_lossy(&self) -> String {
        self.chars().collect()
    }

    /// Compares with a Rust string without decoding or allocating.
    pub fn eq_str(&self, s: &str) -> bool {
        self.units().eq(s.encode_utf16())
    }
}

impl PartialEq<str> for DcStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for DcStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

impl fmt::Display for DcStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        self.chars().try_for_each(|c| f.write_char(c))
    }
}

impl fmt::Debug for DcStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_compares() {
        let bytes: Vec<u8> = "Zoné😀".encode_utf16().flat_map(u16::to_le_bytes).collect();
        let s = DcStr::from_utf16le(&bytes);
        assert_eq!(s.len(), 6);
        assert_eq!(s.to_string(), "Zoné😀");
        assert!(s == "Zoné😀");
        assert!(s != "Zone");
    }

    #[test]
    fn lone_surrogate_is_replaced() {
        let s = DcStr::from_utf16le(&[0x00, 0xd8, 0x41, 0x00, 0x07]);
        assert_eq!(s.len(), 2);
        assert_eq!(s.to_string_lossy(), "\u{fffd}A");
    }
}
