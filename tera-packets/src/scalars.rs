//! The simple types: little-endian integers and floats, and `bool`.

use crate::codec::Codec;
use crate::error::Result;
use crate::reader::Reader;
use crate::wire::{Block, IntoOwned};
use crate::writer::Writer;

/// Implements [`Codec`] (and so `Wire`), [`Block`] and [`IntoOwned`] for a fixed-size type
/// from its `from_le_bytes`/`to_le_bytes` pair.
macro_rules! fixed_le {
    ($($ty:ty),*) => {$(
        impl<'a> Codec<'a> for $ty {
            const FIXED_SIZE: Option<usize> = Some(size_of::<$ty>());

            #[inline]
            fn read_at(r: &mut Reader<'a>) -> Result<Self> {
                Ok(<$ty>::from_le_bytes(r.array()?))
            }

            #[inline]
            fn byte_len(&self) -> usize {
                size_of::<$ty>()
            }

            #[inline]
            fn write_at(&self, w: &mut Writer<'_>) {
                w.put_array(self.to_le_bytes());
            }
        }

        impl<'a> Block<'a> for $ty {}

        impl IntoOwned for $ty {
            type Owned = $ty;
            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }
    )*};
}

fixed_le!(u8, i16, u16, i32, u32, i64, u64, f32, f64);

impl<'a> Codec<'a> for bool {
    const FIXED_SIZE: Option<usize> = Some(1);

    /// Any non-zero byte is `true`.
    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        let [b] = r.array()?;
        Ok(b != 0)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        1
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        w.put_array([u8::from(*self)]);
    }
}

impl<'a> Block<'a> for bool {}

impl IntoOwned for bool {
    type Owned = bool;
    #[inline]
    fn into_owned(self) -> Self {
        self
    }
}
