//! Clientbound message 0x02: another message, LZ4-compressed.
//!
//! `u32` decompressed length (little-endian), then an LZ4 block whose
//! content is the inner message (id byte included).

use tera_packets::{Error, ErrorKind, Result};

use crate::error::DiepErrorKind;

/// The default cap on a compressed message's declared length (1 MiB).
pub const DEFAULT_INFLATE_CAP: u32 = 1 << 20;

/// The most an LZ4 block can expand: each byte of a match copies at most
/// 255 more (a bound that lets a declared length be checked against the
/// bytes present before anything is allocated).
const LZ4_MAX_RATIO: usize = 255;

/// The id of a compressed message.
pub const COMPRESSED_ID: u8 = 0x02;

/// A compressed message as it came: its declared length and LZ4 block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compressed<'a> {
    declared: u32,
    block: &'a [u8],
    /// The block's offset in the message (for errors).
    block_at: usize,
}

impl<'a> Compressed<'a> {
    /// Reads the body at `at` of `msg` (after the id byte).
    pub(crate) fn read(msg: &'a [u8], at: usize) -> Result<Self> {
        let Some(len) = msg
            .get(at..at.wrapping_add(4))
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
        else {
            return Err(Error::new(ErrorKind::UnexpectedEnd, at));
        };
        let declared = u32::from_le_bytes(len);
        Ok(Compressed {
            declared,
            block: msg.get(at + 4..).unwrap_or_default(),
            block_at: at + 4,
        })
    }

    /// The declared length of the inner message.
    pub fn declared_len(&self) -> u32 {
        self.declared
    }

    /// The LZ4 block.
    pub fn block(&self) -> &'a [u8] {
        self.block
    }

    /// Decompresses the inner message. The declared length must be at
    /// most `cap` and at most what the block's bytes can expand to, both
    /// checked before the buffer is allocated; the block must inflate to
    /// exactly that length.
    pub fn inflate(&self, cap: u32) -> Result<Vec<u8>> {
        if self.declared > cap {
            return Err(DiepErrorKind::CompressedTooLarge {
                declared: self.declared,
                cap,
            }
            .at(self.block_at - 4));
        }
        let declared = self.declared as usize;
        if declared > self.block.len().saturating_mul(LZ4_MAX_RATIO) {
            return Err(DiepErrorKind::BadCompression.at(self.block_at - 4));
        }
        let mut out = vec![0; declared];
        match lz4_flex::block::decompress_into(self.block, &mut out) {
            Ok(n) if n == declared => Ok(out),
            _ => Err(DiepErrorKind::BadCompression.at(self.block_at)),
        }
    }
}

/// Compresses `inner` (a whole message, id byte included) into a message
/// 0x02, appended to `out`.
pub fn compress_into(inner: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let Ok(len) = u32::try_from(inner.len()) else {
        return Err(DiepErrorKind::CompressedTooLarge {
            declared: u32::MAX,
            cap: u32::MAX,
        }
        .at(0));
    };
    out.push(COMPRESSED_ID);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&lz4_flex::block::compress(inner));
    Ok(())
}
