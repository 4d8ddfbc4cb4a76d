//! A bounds-checked cursor over a whole packet.

use crate::error::{Error, ErrorKind, Result};

/// The size of the packet header: `u16 length`, `u16 opcode`.
pub const HEADER_LEN: usize = 4;

/// A cursor over the bytes of one whole packet (header included).
///
/// Fixed fields are read at the cursor; variable fields are read where their
/// offsets point, after which the cursor moves to the end of their data, which
/// is where the writer puts whatever follows. Every read is checked. A budget
/// of bytes bounds the total work to the packet's size, so that looping or
/// aliased offsets end in [`ErrorKind::Overlap`] instead of taking time
/// quadratic in the packet's length.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    budget: usize,
}

impl<'a> Reader<'a> {
    /// A reader over the whole packet `buf`, positioned after the header.
    pub fn new(buf: &'a [u8]) -> Self {
        Reader {
            buf,
            pos: HEADER_LEN,
            budget: buf.len(),
        }
    }

    /// A reader over `buf` positioned at `pos`: for messages without
    /// TERA's header (another protocol's frame, whose cursor starts after
    /// its id byte, say). Offsets in errors stay absolute in `buf`.
    pub fn at(buf: &'a [u8], pos: usize) -> Self {
        Reader {
            buf,
            pos,
            budget: buf.len(),
        }
    }

    /// The bytes after the cursor.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    /// A reader over data that was validated before (it has no budget).
    pub(crate) fn validated(buf: &'a [u8], pos: usize) -> Self {
        Reader {
            buf,
            pos,
            budget: usize::MAX,
        }
    }

    /// The whole packet.
    #[inline]
    pub fn buf(&self) -> &'a [u8] {
        self.buf
    }

    /// The cursor: an absolute offset in the packet.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor.
    #[inline]
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Reads `N` bytes at the cursor and moves past them.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self
            .buf
            .get(self.pos..self.pos.wrapping_add(N))
            .and_then(|s| <[u8; N]>::try_from(s).ok())
        {
            Some(bytes) => {
                self.pos += N;
                Ok(bytes)
            }
            None => Err(Error::new(ErrorKind::UnexpectedEnd, self.pos)),
        }
    }

    /// The `n` bytes at the cursor, moving past them; `None` (the cursor
    /// unmoved) if the packet is shorter. One check for a whole run of
    /// fixed fields.
    #[inline]
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let run = self.buf.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(run)
    }

    /// Skips `n` bytes at the cursor (metadata slots), checking they exist.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        let end = self.pos.wrapping_add(n);
        if end <= self.buf.len() && end >= self.pos {
            self.pos = end;
            Ok(())
        } else {
            Err(Error::new(ErrorKind::UnexpectedEnd, self.pos))
        }
    }

    /// The `u16` at absolute offset `at` (a metadata word).
    #[inline]
    pub fn u16_at(&self, at: usize) -> Result<u16> {
        match self.buf.get(at..at.wrapping_add(2)) {
            Some(&[lo, hi]) => Ok(u16::from_le_bytes([lo, hi])),
            _ => Err(Error::new(ErrorKind::UnexpectedEnd, at)),
        }
    }

    /// Checks that an offset read from the packet points at data: past the
    /// header and not past the end.
    #[inline]
    pub fn check_offset(&self, offset: usize, slot: usize) -> Result<()> {
        if offset < HEADER_LEN {
            Err(Error::new(ErrorKind::OffsetInHeader, slot))
        } else if offset > self.buf.len() {
            Err(Error::new(ErrorKind::OffsetOutOfBounds, slot))
        } else {
            Ok(())
        }
    }

    /// Spends `n` bytes of the work budget; `at` names where, for the error.
    #[inline]
    pub fn spend(&mut self, n: usize, at: usize) -> Result<()> {
        match self.budget.checked_sub(n) {
            Some(rest) => {
                self.budget = rest;
                Ok(())
            }
            None => Err(Error::new(ErrorKind::Overlap, at)),
        }
    }
}
