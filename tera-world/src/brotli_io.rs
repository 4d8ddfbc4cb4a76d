//! Brotli with a size limit on the way in.

use std::io::Read;

use crate::WorldError;

/// Most bytes a file may decompress to (guards against Brotli bombs).
pub const MAX_DECOMPRESSED: usize = 1 << 30;

/// Decompresses a Brotli stream of at most [`MAX_DECOMPRESSED`] bytes.
pub fn decompress(bytes: &[u8]) -> Result<Vec<u8>, WorldError> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 1 << 16)
        .take(MAX_DECOMPRESSED as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| WorldError::Brotli(e.to_string()))?;
    if out.len() > MAX_DECOMPRESSED {
        return Err(WorldError::TooLarge(MAX_DECOMPRESSED));
    }
    Ok(out)
}

/// Compresses with Brotli at `quality` (0-11; the game's files use 11).
pub fn compress(bytes: &[u8], quality: u32) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: quality.min(11) as i32,
        lgwin: 22,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(bytes.len() / 4);
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)
        .expect("in-memory compression cannot fail");
    out
}

/// A little-endian reader with offsets in its errors.
pub(crate) struct Reader<'a> {
    pub b: &'a [u8],
    pub pos: usize,
}

impl Reader<'_> {
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], WorldError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or(WorldError::Truncated {
            what,
            offset: self.pos,
        })?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, WorldError> {
        Ok(self.take(1, what)?[0])
    }

    pub fn u16(&mut self, what: &'static str) -> Result<u16, WorldError> {
        let s = self.take(2, what)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, WorldError> {
        let s = self.take(4, what)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    pub fn end(&self) -> Result<(), WorldError> {
        match self.b.len() - self.pos {
            0 => Ok(()),
            n => Err(WorldError::TrailingBytes(n)),
        }
    }
}
