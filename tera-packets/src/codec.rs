//! The cursor-level encoding of a field, shared by every protocol.
//!
//! [`Codec`] is what a field type implements when its bytes sit at the
//! cursor and nowhere else: TERA's integers, floats and value types, and the
//! varints, NUL-terminated strings and entity ids of other protocols. A
//! blanket impl gives every `Codec` type a [`Wire`] impl with no metadata
//! words, so the derives (which call `Wire`) walk structs of `Codec` fields
//! without a second copy of their field-walking code. Types with metadata
//! (TERA's strings, bytes and arrays) implement [`Wire`] directly.

use crate::error::Result;
use crate::reader::Reader;
use crate::wire::Wire;
use crate::writer::Writer;

/// A field type read and written at the cursor, with no metadata.
///
/// The methods mirror [`Wire`]'s without the metadata offset; the blanket
/// `impl<T: Codec> Wire for T` forwards to them, so a `Codec` type is a
/// field of any derived struct.
pub trait Codec<'a>: Sized {
    /// The size in bytes when it never varies.
    const FIXED_SIZE: Option<usize>;
    /// A lower bound of [`Codec::byte_len`] (see [`Wire::MIN_WIRE_LEN`]).
    const MIN_WIRE_LEN: usize = match Self::FIXED_SIZE {
        Some(size) => size,
        None => 0,
    };

    /// Reads the value at the cursor and moves past it.
    fn read_at(r: &mut Reader<'a>) -> Result<Self>;

    /// Reads the value again from bytes a decode has validated (see
    /// [`Wire::read_validated`]).
    #[inline]
    fn read_validated_at(r: &mut Reader<'a>) -> Result<Self> {
        Self::read_at(r)
    }

    /// Checks the value exactly as [`Codec::read_at`] does (same errors,
    /// same cursor) without building it, and returns its
    /// [`Codec::byte_len`].
    #[inline]
    fn validate_at(r: &mut Reader<'a>) -> Result<usize> {
        Self::read_at(r).map(|v| v.byte_len())
    }

    /// The number of bytes [`Codec::write_at`] writes.
    fn byte_len(&self) -> usize;

    /// Writes the value at the cursor and moves past it.
    fn write_at(&self, w: &mut Writer<'_>);

    /// Copies the value from validated bytes at the cursor of `r` to the
    /// cursor of `w` (see [`Wire::copy_validated`]).
    #[inline]
    fn copy_validated_at(r: &mut Reader<'a>, w: &mut Writer<'_>) -> Result<()> {
        Self::read_validated_at(r)?.write_at(w);
        Ok(())
    }
}

/// Every [`Codec`] type is a field with no metadata words, read at the
/// cursor.
impl<'a, T: Codec<'a>> Wire<'a> for T {
    const META_WORDS: usize = 0;
    const FIXED_SIZE: Option<usize> = <T as Codec<'a>>::FIXED_SIZE;
    const MIN_WIRE_LEN: usize = <T as Codec<'a>>::MIN_WIRE_LEN;
    const READS_AT_CURSOR: bool = true;

    #[inline]
    fn read(r: &mut Reader<'a>, _meta: usize) -> Result<Self> {
        T::read_at(r)
    }

    #[inline]
    fn read_validated(r: &mut Reader<'a>, _meta: usize) -> Result<Self> {
        T::read_validated_at(r)
    }

    #[inline]
    fn read_validated_loose(r: &mut Reader<'a>, _meta: usize) -> Result<Self> {
        T::read_validated_at(r)
    }

    #[inline]
    fn skip_validated(r: &mut Reader<'a>, _meta: usize) -> Result<()> {
        T::read_validated_at(r).map(drop)
    }

    #[inline]
    fn wire_len(&self) -> usize {
        self.byte_len()
    }

    #[inline]
    fn validate(r: &mut Reader<'a>, _meta: usize) -> Result<usize> {
        T::validate_at(r)
    }

    #[inline]
    fn write(&self, w: &mut Writer<'_>, _meta: usize) {
        self.write_at(w);
    }

    #[inline]
    fn copy_validated(
        r: &mut Reader<'a>,
        _meta: usize,
        w: &mut Writer<'_>,
        _meta_out: usize,
    ) -> Result<()> {
        T::copy_validated_at(r, w)
    }
}
