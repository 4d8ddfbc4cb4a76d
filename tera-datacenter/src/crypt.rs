//! `.dat` packing: AES-128-CFB over a `u32` size and a zlib stream.

use std::io::{Read, Write};

use aes::Aes128;
use cfb_mode::cipher::{AsyncStreamCipher, KeyIvInit};
use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;

use crate::Error;

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

fn decrypt(dat: &[u8], key: &DatKey) -> Vec<u8> {
    let mut buf = dat.to_vec();
    cfb_mode::Decryptor::<Aes128>::new(&key.key.into(), &key.iv.into()).decrypt(&mut buf);
    buf
}

/// Decrypts and inflates a `.dat`: the declared size must match.
pub fn unpack(dat: &[u8], key: &DatKey) -> Result<Vec<u8>, Error> {
    let (dec, declared) = inflate(dat, key, true)?;
    if dec.len() != declared as usize {
        return Err(Error::SizeMismatch {
            declared,
            actual: dec.len(),
        });
    }
    Ok(dec)
}

/// Decrypts and inflates a `.dat` whatever its declared size, returning the
/// bytes and the declared size (for the verifier to report).
pub fn unpack_lenient(dat: &[u8], key: &DatKey) -> Result<(Vec<u8>, u32), Error> {
    inflate(dat, key, false)
}

fn inflate(dat: &[u8], key: &DatKey, bounded: bool) -> Result<(Vec<u8>, u32), Error> {
    if dat.len() < 6 {
        return Err(Error::DatTooShort(dat.len()));
    }
    let plain = decrypt(dat, key);
    let declared = u32::from_le_bytes(plain[..4].try_into().expect("4 bytes"));
    // A hostile size must not make us reserve or inflate gigabytes.
    let mut out = Vec::with_capacity((declared as usize).min(dat.len().saturating_mul(16)));
    let mut z = ZlibDecoder::new(&plain[4..]);
    let r = if bounded {
        z.take(declared as u64 + 1).read_to_end(&mut out)
    } else {
        z.read_to_end(&mut out)
    };
    r.map_err(|e| Error::Inflate(e.to_string()))?;
    Ok((out, declared))
}

/// Compresses (zlib, default level: header 0x78 0x9c) and encrypts
/// decompressed bytes into a `.dat`. Deterministic.
pub fn pack(dec: &[u8], key: &DatKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(dec.len() / 4 + 64);
    out.extend_from_slice(&(dec.len() as u32).to_le_bytes());
    let mut z = ZlibEncoder::new(out, Compression::default());
    z.write_all(dec).expect("writing to a Vec cannot fail");
    let mut out = z.finish().expect("writing to a Vec cannot fail");
    cfb_mode::Encryptor::<Aes128>::new(&key.key.into(), &key.iv.into()).encrypt(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> DatKey {
        DatKey::from_hex(
            "3347a174f9040d4768a0b05558dc866b",
            "e490562821af3e1176c98d3cb9ec4601",
        )
        .unwrap()
    }

    #[test]
    fn pack_unpack_round_trip_with_partial_block() {
        for len in [0usize, 1, 15, 16, 17, 1000, 70_001] {
            let dec: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let dat = pack(&dec, &key());
            assert_eq!(unpack(&dat, &key()).unwrap(), dec, "len {len}");
            let plain = decrypt(&dat, &key());
            assert_eq!(&plain[4..6], &[0x78, 0x9c]);
            assert_eq!(
                u32::from_le_bytes(plain[..4].try_into().unwrap()) as usize,
                len
            );
        }
    }

    #[test]
    fn wrong_key_is_an_error_not_a_panic() {
        let dat = pack(b"hello data center", &key());
        let other = DatKey {
            key: [1; 16],
            iv: [2; 16],
        };
        assert!(unpack(&dat, &other).is_err());
    }

    #[test]
    fn bad_hex_is_rejected() {
        assert!(DatKey::from_hex("00", "00").is_err());
        assert!(DatKey::from_hex(&"g".repeat(32), &"0".repeat(32)).is_err());
        assert_eq!(
            DatKey::from_hex(&"0f".repeat(16), &"A0".repeat(16))
                .unwrap()
                .iv,
            [0xa0; 16]
        );
    }
}
