//! `bytes`: raw bytes with an offset and a count.

use core::fmt;
use core::ops::Deref;
use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use crate::wire::{Block, IntoOwned, Wire};
use crate::writer::Writer;

/// A `bytes` field, borrowed from the packet after a decode or owned when
/// built. Dereferences to `[u8]`.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Bytes<'a>(pub Cow<'a, [u8]>);

impl Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl<'a> From<&'a [u8]> for Bytes<'a> {
    fn from(b: &'a [u8]) -> Self {
        Bytes(Cow::Borrowed(b))
    }
}

impl From<Vec<u8>> for Bytes<'_> {
    fn from(b: Vec<u8>) -> Self {
        Bytes(Cow::Owned(b))
    }
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0.iter() {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl IntoOwned for Bytes<'_> {
    type Owned = Bytes<'static>;
    fn into_owned(self) -> Bytes<'static> {
        Bytes(Cow::Owned(self.0.into_owned()))
    }
}

impl<'a> Wire<'a> for Bytes<'a> {
    /// `u16 offset, u16 count`.
    const META_WORDS: usize = 2;
    const FIXED_SIZE: Option<usize> = None;
    const READS_AT_CURSOR: bool = false;

    #[inline]
    fn read(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        let start = usize::from(r.u16_at(meta)?);
        let count = usize::from(r.u16_at(meta + 2)?);
        r.check_offset(start, meta)?;
        let Some(data) = r.buf().get(start..start + count) else {
            return Err(Error::new(ErrorKind::BytesOutOfBounds, start));
        };
        r.spend(count, start)?;
        r.set_pos(start + count);
        Ok(Bytes(Cow::Borrowed(data)))
    }

    #[inline]
    fn validate(r: &mut Reader<'a>, meta: usize) -> Result<usize> {
        let start = usize::from(r.u16_at(meta)?);
        let count = usize::from(r.u16_at(meta + 2)?);
        r.check_offset(start, meta)?;
        if start + count > r.buf().len() {
            return Err(Error::new(ErrorKind::BytesOutOfBounds, start));
        }
        r.spend(count, start)?;
        r.set_pos(start + count);
        Ok(count)
    }

    #[inline]
    fn wire_len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn write(&self, w: &mut Writer<'_>, meta: usize) {
        let [offset_lo, offset_hi] = w.offset().to_le_bytes();
        // The count fits: the packet's whole size was checked against 65535.
        let [count_lo, count_hi] = u16::try_from(self.0.len())
            .unwrap_or(u16::MAX)
            .to_le_bytes();
        w.patch(meta, [offset_lo, offset_hi, count_lo, count_hi]);
        w.put(&self.0);
    }
}

impl<'a> Block<'a> for Bytes<'a> {}
