//! `array`: a linked list of elements on the wire, a lazy view in Rust.

use core::fmt;
use core::ops::Deref;

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use crate::wire::{Block, IntoOwned, Wire};
use crate::writer::Writer;

/// An array field: after a decode, a lazy view over the packet's validated
/// list of elements; when built, a vector of elements.
///
/// On the wire each element is `u16 here, u16 next` and then its block; the
/// array's metadata is `u16 count, u16 offset` of the first element. Decoding
/// walks and validates the whole list once; [`Array::iter`] then decodes the
/// elements again as it goes, which cannot fail. [`Array::get`] walks the
/// list, so it costs `O(i)` on a view.
#[derive(Clone)]
pub struct Array<'a, T> {
    repr: Repr<'a, T>,
}

/// The `size` of a view read from a validated packet, which does not walk
/// the list: [`Array::wire_len`] counts it when asked.
const SIZE_NOT_COUNTED: usize = usize::MAX;

#[derive(Clone)]
enum Repr<'a, T> {
    /// `size` is the list's `wire_len`, summed while validating it, so that
    /// encoding a view does not decode its elements an extra time; or
    /// `SIZE_NOT_COUNTED`.
    View {
        buf: &'a [u8],
        first: u16,
        len: u16,
        size: usize,
    },
    Owned(Vec<T>),
}

impl<T> Default for Array<'_, T> {
    fn default() -> Self {
        Array {
            repr: Repr::Owned(Vec::new()),
        }
    }
}

impl<T> From<Vec<T>> for Array<'_, T> {
    fn from(items: Vec<T>) -> Self {
        Array {
            repr: Repr::Owned(items),
        }
    }
}

impl<T> FromIterator<T> for Array<'_, T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Array::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<'a, T: Block<'a>> Array<'a, T> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::View { len, .. } => usize::from(*len),
            Repr::Owned(items) => items.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements, in list order.
    pub fn iter(&self) -> Iter<'_, 'a, T> {
        Iter {
            repr: match &self.repr {
                Repr::View {
                    buf, first, len, ..
                } => IterRepr::View {
                    buf,
                    pos: usize::from(*first),
                    left: *len,
                },
                Repr::Owned(items) => IterRepr::Owned(items.iter()),
            },
        }
    }

    /// Calls `f` with each element, in list order: what [`Array::iter`]
    /// gives, without wrapping each element of a view in an [`Elem`] (the
    /// derives visit views with it).
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(&T)) {
        match &self.repr {
            Repr::View {
                buf, first, len, ..
            } => {
                let mut pos = usize::from(*first);
                for _ in 0..*len {
                    let mut r = Reader::validated(buf, pos + 4);
                    // Validated by the decode that made this view: these
                    // reads succeed; if they did not, the walk stops.
                    let Ok(next) = r.u16_at(pos + 2) else { return };
                    let Ok(item) = T::read_block_validated_loose(&mut r) else {
                        return;
                    };
                    f(&item);
                    pos = usize::from(next);
                }
            }
            Repr::Owned(items) => items.iter().for_each(f),
        }
    }

    /// Element `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<Elem<'_, T>> {
        self.iter().nth(index)
    }

    /// The elements, decoded into a vector.
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.iter().map(Elem::into_inner).collect()
    }

    /// The elements as a vector (a view is decoded into one).
    pub fn into_vec(self) -> Vec<T>
    where
        T: Clone,
    {
        match self.repr {
            Repr::Owned(items) => items,
            Repr::View { .. } => self.to_vec(),
        }
    }
}

/// An element of an [`Array`]: decoded from a view, or borrowed from an
/// owned array. Dereferences to the element.
pub enum Elem<'r, T> {
    /// Decoded from the packet.
    Decoded(T),
    /// Borrowed from an owned array.
    Borrowed(&'r T),
}

impl<T> Deref for Elem<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match self {
            Elem::Decoded(v) => v,
            Elem::Borrowed(v) => v,
        }
    }
}

impl<T: Clone> Elem<'_, T> {
    /// The element by value.
    pub fn into_inner(self) -> T {
        match self {
            Elem::Decoded(v) => v,
            Elem::Borrowed(v) => v.clone(),
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Elem<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// The iterator of [`Array::iter`].
pub struct Iter<'r, 'a, T> {
    repr: IterRepr<'r, 'a, T>,
}

enum IterRepr<'r, 'a, T> {
    View {
        buf: &'a [u8],
        pos: usize,
        left: u16,
    },
    Owned(core::slice::Iter<'r, T>),
}

impl<'r, 'a, T: Block<'a>> Iterator for Iter<'r, 'a, T> {
    type Item = Elem<'r, T>;

    #[inline]
    fn next(&mut self) -> Option<Elem<'r, T>> {
        match &mut self.repr {
            IterRepr::View { buf, pos, left } => {
                *left = left.checked_sub(1)?;
                let mut r = Reader::validated(buf, *pos + 4);
                // The list was validated by the decode that made this view,
                // so these reads succeed; if they did not, iteration stops.
                let next = r.u16_at(*pos + 2).ok()?;
                let item = T::read_block_validated_loose(&mut r).ok()?;
                *pos = usize::from(next);
                Some(Elem::Decoded(item))
            }
            IterRepr::Owned(items) => items.next().map(Elem::Borrowed),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match &self.repr {
            IterRepr::View { left, .. } => usize::from(*left),
            IterRepr::Owned(items) => items.len(),
        };
        (n, Some(n))
    }
}

impl<'r, 'a, T: Block<'a>> IntoIterator for &'r Array<'a, T> {
    type Item = Elem<'r, T>;
    type IntoIter = Iter<'r, 'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Block<'a> + PartialEq> PartialEq for Array<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| *a == *b)
    }
}

impl<'a, T: Block<'a> + fmt::Debug> fmt::Debug for Array<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T> IntoOwned for Array<'a, T>
where
    T: Block<'a> + IntoOwned,
    T::Owned: 'static,
{
    type Owned = Array<'static, T::Owned>;
    fn into_owned(self) -> Self::Owned {
        match self.repr {
            Repr::Owned(items) => items.into_iter().map(IntoOwned::into_owned).collect(),
            Repr::View { .. } => self
                .iter()
                .filter_map(|e| match e {
                    Elem::Decoded(v) => Some(v.into_owned()),
                    Elem::Borrowed(_) => None,
                })
                .collect(),
        }
    }
}

impl<'a, T: Block<'a>> Wire<'a> for Array<'a, T> {
    /// `u16 count, u16 offset`.
    const META_WORDS: usize = 2;
    const FIXED_SIZE: Option<usize> = None;
    const READS_AT_CURSOR: bool = false;

    #[inline(always)]
    fn read(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        let (len, first, size) = walk::<T>(r, meta)?;
        Ok(Array {
            repr: Repr::View {
                buf: r.buf(),
                first,
                len,
                size,
            },
        })
    }

    #[inline]
    fn validate(r: &mut Reader<'a>, meta: usize) -> Result<usize> {
        walk::<T>(r, meta).map(|(_, _, size)| size)
    }

    #[inline(always)]
    fn read_validated(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        let (len, first) = skip_validated::<T>(r, meta)?;
        Ok(Array {
            repr: Repr::View {
                buf: r.buf(),
                first,
                len,
                size: SIZE_NOT_COUNTED,
            },
        })
    }

    #[inline(always)]
    fn read_validated_loose(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        Ok(Array {
            repr: Repr::View {
                buf: r.buf(),
                first: r.u16_at(meta + 2)?,
                len: r.u16_at(meta)?,
                size: SIZE_NOT_COUNTED,
            },
        })
    }

    #[inline]
    fn skip_validated(r: &mut Reader<'a>, meta: usize) -> Result<()> {
        skip_validated::<T>(r, meta).map(drop)
    }

    #[inline]
    fn wire_len(&self) -> usize {
        match (&self.repr, T::FIXED_SIZE) {
            (Repr::View { size, .. }, _) if *size != SIZE_NOT_COUNTED => *size,
            // Every element has the same size: no need to look at them.
            (_, Some(n)) => self.len() * (4 + 2 * T::META_WORDS + n),
            (Repr::Owned(items), None) => items.iter().map(|e| 4 + e.block_len()).sum(),
            (Repr::View { .. }, None) => self.iter().map(|e| 4 + e.block_len()).sum(),
        }
    }

    #[inline(always)]
    fn write(&self, w: &mut Writer<'_>, meta: usize) {
        match &self.repr {
            // The elements are copied from the packet, not built and written.
            Repr::View {
                buf, first, len, ..
            } => {
                let mut r = Reader::validated(buf, 0);
                let _ = copy_list::<T>(&mut r, *len, *first, w, meta);
            }
            Repr::Owned(items) => {
                let mut chain = Chain::start(w, meta, items.len());
                for e in items {
                    chain.push(w, e);
                }
            }
        }
    }

    #[inline(always)]
    fn copy_validated(
        r: &mut Reader<'a>,
        meta: usize,
        w: &mut Writer<'_>,
        meta_out: usize,
    ) -> Result<()> {
        let len = r.u16_at(meta)?;
        let first = r.u16_at(meta + 2)?;
        copy_list::<T>(r, len, first, w, meta_out)
    }
}

impl<'a, T: Block<'a>> Block<'a> for Array<'a, T> {}

/// Walks and validates the list whose `count, offset` words are at `meta`,
/// leaving the cursor after its last element: its count, first offset and
/// `wire_len`.
#[inline]
fn walk<'a, T: Block<'a>>(r: &mut Reader<'a>, meta: usize) -> Result<(u16, u16, usize)> {
    let len = r.u16_at(meta)?;
    let first = r.u16_at(meta + 2)?;
    if len == 0 {
        // Empty: the offset is 0 and the cursor stays where it is.
        return Ok((0, first, 0));
    }
    let mut size = 0;
    let mut pos = usize::from(first);
    let mut link = meta + 2;
    for left in (0..len).rev() {
        r.check_offset(pos, link)?;
        r.spend(4, pos)?;
        let next = r.u16_at(pos + 2)?;
        r.set_pos(pos + 4);
        size += 4 + T::validate_block(r)?;
        link = pos + 2;
        match (left, next) {
            (0, 0) => {}
            (0, _) => return Err(Error::new(ErrorKind::ListTooLong, link)),
            (_, 0) => return Err(Error::new(ErrorKind::ListTooShort, link)),
            (_, next) => pos = usize::from(next),
        }
    }
    Ok((len, first, size))
}

/// Follows the links of a validated list whose `count, offset` words are at
/// `meta` and leaves the cursor after its last element, as [`walk`] does,
/// without checking or measuring the elements: only the last one is read,
/// to find where it ends. Its count and first offset.
#[inline]
fn skip_validated<'a, T: Block<'a>>(r: &mut Reader<'a>, meta: usize) -> Result<(u16, u16)> {
    let len = r.u16_at(meta)?;
    let first = r.u16_at(meta + 2)?;
    if len == 0 {
        return Ok((0, first));
    }
    let mut pos = usize::from(first);
    // `len - 1` hops: bounded whatever the bytes say.
    for _ in 1..len {
        pos = usize::from(r.u16_at(pos + 2)?);
    }
    r.set_pos(pos + 4);
    T::skip_block_validated(r)?;
    Ok((len, first))
}

/// Copies the validated list of `len` elements from offset `first` of the
/// reader's packet to `w`, its metadata words at `meta_out`, and leaves the
/// reader's cursor after the last element, as a read does. An error (only
/// from bytes that were not validated) stops the copy.
#[inline(always)]
fn copy_list<'a, T: Block<'a>>(
    r: &mut Reader<'a>,
    len: u16,
    first: u16,
    w: &mut Writer<'_>,
    meta_out: usize,
) -> Result<()> {
    let mut chain = Chain::start(w, meta_out, usize::from(len));
    let mut pos = usize::from(first);
    for _ in 0..len {
        let mut element = Reader::validated(r.buf(), pos + 4);
        let next = element.u16_at(pos + 2)?;
        chain.push_with(w, |w| T::copy_block_validated(&mut element, w))?;
        r.set_pos(element.pos());
        pos = usize::from(next);
    }
    Ok(())
}

/// Writes the linked list of one array: the `count, offset` metadata, then
/// each element's `here, next` header and block, linking each element from
/// the one before. The derive uses it directly to write `[interleaved]`
/// arrays, whose elements alternate.
#[derive(Debug)]
pub struct Chain {
    link: usize,
}

impl Chain {
    /// Starts a list of `len` elements whose metadata words are at `meta`.
    #[inline]
    pub fn start(w: &mut Writer<'_>, meta: usize, len: usize) -> Self {
        let [lo, hi] = u16::try_from(len).unwrap_or(u16::MAX).to_le_bytes();
        // `count`, and an offset of 0 until the first element is written.
        w.patch(meta, [lo, hi, 0, 0]);
        Chain { link: meta + 2 }
    }

    /// Writes the next element at the cursor.
    #[inline]
    pub fn push<'a, T: Block<'a>>(&mut self, w: &mut Writer<'_>, element: &T) {
        self.push_with(w, |w| element.write_block(w));
    }

    /// Writes the next element's header at the cursor, then calls
    /// `write_block` to write its block after it.
    #[inline(always)]
    pub fn push_with<R>(
        &mut self,
        w: &mut Writer<'_>,
        write_block: impl FnOnce(&mut Writer<'_>) -> R,
    ) -> R {
        let here = w.offset();
        w.patch_u16(self.link, here);
        // The element's `here` and a `next` of 0 (patched by the element
        // after it), in one write.
        let [lo, hi] = here.to_le_bytes();
        w.put_array([lo, hi, 0, 0]);
        self.link = usize::from(here) + 2;
        write_block(w)
    }

    /// Writes a whole list whose metadata words are at `meta` and whose
    /// blocks all have `size` bytes (fixed fields only): the bytes of every
    /// element taken at once, each `here, next` header known from the
    /// element's place, then `write_block` called for each item with a
    /// writer over those bytes, positioned after the item's header. The
    /// same bytes as [`start`](Chain::start) and a
    /// [`push_with`](Chain::push_with) per item, without linking each
    /// element from the one before.
    #[inline(always)]
    pub fn write_fixed<T, E>(
        w: &mut Writer<'_>,
        meta: usize,
        items: &[T],
        size: usize,
        mut write_block: impl FnMut(&T, &mut Writer<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let stride = 4 + size;
        let first = w.pos();
        // Where the elements fit, in a writer's buffer of at most 65535
        // bytes, their count and offsets fit in a `u16`; where they do not,
        // `take` below poisons the writer.
        let offset = |at: usize| (at as u16).to_le_bytes();
        let [count_lo, count_hi] = offset(items.len());
        let [first_lo, first_hi] = if items.is_empty() {
            [0; 2]
        } else {
            offset(first)
        };
        w.patch(meta, [count_lo, count_hi, first_lo, first_hi]);
        let Some(bytes) = w.take(items.len().saturating_mul(stride)) else {
            return Ok(());
        };
        let mut out = Writer::new(bytes, 0);
        let mut here = first;
        for (n, item) in items.iter().enumerate() {
            let next = if n + 1 < items.len() {
                here + stride
            } else {
                0
            };
            let ([here_lo, here_hi], [next_lo, next_hi]) = (offset(here), offset(next));
            out.put_array([here_lo, here_hi, next_lo, next_hi]);
            write_block(item, &mut out)?;
            here += stride;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Chain;
    use crate::writer::Writer;

    /// `write_fixed` writes what `start` and `push_with` write, for no, one
    /// and three elements, after other bytes.
    #[test]
    fn a_fixed_list_is_the_linked_one() {
        for items in [&[][..], &[7u16][..], &[1u16, 2, 3][..]] {
            let (mut linked, mut fixed) = ([0xAAu8; 32], [0xAAu8; 32]);
            let mut w = Writer::new(&mut linked, 6);
            let mut chain = Chain::start(&mut w, 2, items.len());
            for x in items {
                chain.push_with(&mut w, |w| w.put_array(x.to_le_bytes()));
            }
            let end = w.pos();
            let mut w = Writer::new(&mut fixed, 6);
            let written: Result<(), ()> = Chain::write_fixed(&mut w, 2, items, 2, |x, w| {
                w.put_array(x.to_le_bytes());
                Ok(())
            });
            assert_eq!(written, Ok(()));
            assert_eq!((w.pos(), w.overflowed()), (end, false));
            assert_eq!(fixed, linked, "{items:?}");
        }
    }

    /// Elements that do not fit poison the writer, as a push would.
    #[test]
    fn a_fixed_list_too_long_overflows() {
        let mut buf = [0u8; 16];
        let mut w = Writer::new(&mut buf, 4);
        let written: Result<(), ()> = Chain::write_fixed(&mut w, 0, &[1u32, 2], 4, |x, w| {
            w.put_array(x.to_le_bytes());
            Ok(())
        });
        assert_eq!(written, Ok(()));
        assert!(w.overflowed());
    }
}
