//! The AES-128 key and IV of `.dat` files, as users give them.

/// The per-build AES-128 key and IV of `.dat` files.
#[derive(Clone, PartialEq, Eq)]
pub struct DatKey {
    /// AES-128 key.
    pub key: [u8; 16],
    /// CFB initialization vector.
    pub iv: [u8; 16],
}

impl std::fmt::Debug for DatKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatKey(..)")
    }
}

/// A key or IV that is not 32 hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} must be 32 hexadecimal digits (16 bytes), got {got:?}")]
pub struct KeyError {
    /// `"key"` or `"iv"`.
    pub what: &'static str,
    /// The text given.
    pub got: String,
}

fn parse_hex16(what: &'static str, s: &str) -> Result<[u8; 16], KeyError> {
    let err = || KeyError {
        what,
        got: s.into(),
    };
    let s = s.trim();
    if s.len() != 32 || !s.is_ascii() {
        return Err(err());
    }
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[i * 2..i * 2 + 2], 16).map_err(|_| err())?;
    }
    Ok(out)
}

impl DatKey {
    /// Parses a key and an IV given in hexadecimal.
    pub fn from_hex(key: &str, iv: &str) -> Result<Self, KeyError> {
        Ok(DatKey {
            key: parse_hex16("key", key)?,
            iv: parse_hex16("iv", iv)?,
        })
    }
}
