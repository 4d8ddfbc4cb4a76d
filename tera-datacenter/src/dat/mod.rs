//! `.dat` packing: AES-128-CFB over a `u32` size and a zlib stream.

mod key;
mod zlib;

use std::io::{self, Read};

use aes::Aes128;
use cfb_mode::cipher::KeyIvInit;
use flate2::read::ZlibDecoder;

pub use key::{DatKey, KeyError};
pub use zlib::Compression;

/// Why a `.dat` could not be unpacked: errors of the encrypted, compressed
/// layer, apart from the problems of the format inside it (a
/// [`Problem`](crate::Problem)). A bad key or IV given as text is a
/// [`KeyError`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatError {
    /// The file is shorter than its size field and zlib header.
    #[error("encrypted file of {0} bytes is too short")]
    TooShort(usize),
    /// The decrypted bytes are not a zlib stream, or it is damaged (a wrong
    /// key or IV gives this too).
    #[error("the zlib stream does not inflate (is the key or IV wrong?)")]
    Inflate(#[source] io::Error),
    /// The inflated size differs from the declared one.
    #[error("declared size {declared} differs from the inflated size {actual}")]
    SizeMismatch {
        /// The `u32` before the zlib stream.
        declared: u32,
        /// Bytes actually inflated.
        actual: usize,
    },
}

type Encryptor = cfb_mode::BufEncryptor<Aes128>;
type Decryptor = cfb_mode::BufDecryptor<Aes128>;

/// Decrypts and inflates a `.dat`: the declared size must match.
pub fn unpack(dat: &[u8], key: &DatKey) -> Result<Vec<u8>, DatError> {
    let (dec, declared) = inflate(dat, key, true)?;
    if dec.len() != declared as usize {
        return Err(DatError::SizeMismatch {
            declared,
            actual: dec.len(),
        });
    }
    Ok(dec)
}

/// Decrypts and inflates a `.dat` whatever its declared size, returning the
/// bytes and the declared size (for the verifier to report).
pub fn unpack_lenient(dat: &[u8], key: &DatKey) -> Result<(Vec<u8>, u32), DatError> {
    inflate(dat, key, false)
}

/// A reader of the plain bytes of a `.dat`, decrypting a block at a time
/// into its own small buffer (the file is never copied whole).
struct Decrypting<'a> {
    rest: &'a [u8],
    cipher: Decryptor,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
}

impl<'a> Decrypting<'a> {
    fn new(dat: &'a [u8], key: &DatKey) -> Self {
        Decrypting {
            rest: dat,
            cipher: Decryptor::new(&key.key.into(), &key.iv.into()),
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            start: 0,
            end: 0,
        }
    }
}

impl Read for Decrypting<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end {
            let n = self.rest.len().min(self.buf.len());
            self.buf[..n].copy_from_slice(&self.rest[..n]);
            self.cipher.decrypt(&mut self.buf[..n]);
            self.rest = &self.rest[n..];
            (self.start, self.end) = (0, n);
        }
        let n = out.len().min(self.end - self.start);
        out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        Ok(n)
    }
}

fn inflate(dat: &[u8], key: &DatKey, bounded: bool) -> Result<(Vec<u8>, u32), DatError> {
    if dat.len() < 6 {
        return Err(DatError::TooShort(dat.len()));
    }
    let mut plain = Decrypting::new(dat, key);
    let mut size = [0; 4];
    plain
        .read_exact(&mut size)
        .expect("the file has more than 4 bytes");
    let declared = u32::from_le_bytes(size);
    // A hostile size must not make us reserve or inflate gigabytes.
    let mut out = Vec::with_capacity((declared as usize).min(dat.len().saturating_mul(16)));
    let mut z = ZlibDecoder::new(plain);
    let r = if bounded {
        z.take(declared as u64 + 1).read_to_end(&mut out)
    } else {
        z.read_to_end(&mut out)
    };
    r.map_err(DatError::Inflate)?;
    Ok((out, declared))
}

/// Compresses (zlib, default level: header 0x78 0x9c) and encrypts
/// decompressed bytes into a `.dat`. Deterministic.
pub fn pack(dec: &[u8], key: &DatKey) -> Vec<u8> {
    pack_with(dec, key, Compression::Default)
}

/// Compresses decompressed bytes into one standard zlib stream, on every
/// core, and encrypts them in place into a `.dat`. The same bytes, key and
/// compression always give the same file, whatever the number of cores.
pub fn pack_with(dec: &[u8], key: &DatKey, compression: Compression) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(dec.len() as u32).to_le_bytes());
    zlib::compress(dec, compression, &mut out);
    Encryptor::new(&key.key.into(), &key.iv.into()).encrypt(&mut out);
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

    fn decrypt(dat: &[u8], key: &DatKey) -> Vec<u8> {
        let mut plain = Vec::new();
        Decrypting::new(dat, key).read_to_end(&mut plain).unwrap();
        plain
    }

    #[test]
    fn pack_unpack_round_trip_with_partial_block() {
        for len in [0usize, 1, 15, 16, 17, 1000, 70_001, 200_003] {
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
    fn decryption_in_blocks_is_decryption_of_the_whole() {
        use cfb_mode::cipher::AsyncStreamCipher;
        let data: Vec<u8> = (0..200_001u32).map(|i| (i % 253) as u8).collect();
        let mut whole = data.clone();
        cfb_mode::Decryptor::<Aes128>::new(&key().key.into(), &key().iv.into()).decrypt(&mut whole);
        assert!(decrypt(&data, &key()) == whole);
    }

    #[test]
    fn wrong_key_is_an_error_not_a_panic() {
        let dat = pack(b"hello data center", &key());
        let other = DatKey {
            key: [1; 16],
            iv: [2; 16],
        };
        let e = unpack(&dat, &other).unwrap_err();
        assert!(matches!(e, DatError::Inflate(_)), "{e:?}");
        // The inflater's own message is kept as the source.
        assert!(std::error::Error::source(&e).is_some());
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
