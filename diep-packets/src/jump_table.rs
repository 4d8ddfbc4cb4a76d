//! Jump tables: sparse, strictly ascending indexes, each with a value or
//! none, closed by `01`.
//!
//! The index starts at -1; each `vu` read is XOR-ed with 1: 0 closes the
//! table, anything else is added to the index (so indexes strictly ascend).

use tera_packets::{Codec, IntoOwned, Reader, Result, Visit, Visitor, Writer};

use crate::error::DiepErrorKind;
use crate::varint::{read_vu, vu_len, write_vu};

/// The `vu` that closes a table.
pub const CLOSE: u8 = 0x01;

/// Reads the next index of a jump table at the cursor after `prev` (`None`
/// before the first): `None` when the table is closed. An index must be
/// below `len` ([`DiepErrorKind::IndexPastTable`] at the jump's first byte).
#[inline]
pub fn next_index(r: &mut Reader<'_>, prev: Option<u32>, len: u32) -> Result<Option<u32>> {
    let at = r.pos();
    let jump = read_vu(r)? ^ 1;
    if jump == 0 {
        return Ok(None);
    }
    // -1 + jump for the first; both fit in u64.
    let index = prev.map_or(u64::from(jump) - 1, |p| u64::from(p) + u64::from(jump));
    match u32::try_from(index) {
        Ok(i) if i < len => Ok(Some(i)),
        _ => Err(DiepErrorKind::IndexPastTable {
            index: u32::try_from(index).unwrap_or(u32::MAX),
            len,
        }
        .at(at)),
    }
}

/// The `vu` written before `index` (after `prev`, `None` before the first).
/// The caller keeps indexes strictly ascending.
#[inline]
pub fn jump(prev: Option<u32>, index: u32) -> u32 {
    let diff = match prev {
        None => index.wrapping_add(1),
        Some(p) => index.wrapping_sub(p),
    };
    diff ^ 1
}

/// Writes the jump to `index`.
#[inline]
pub fn write_jump(w: &mut Writer<'_>, prev: Option<u32>, index: u32) {
    write_vu(w, jump(prev, index));
}

/// The bytes of the jump to `index`.
#[inline]
pub fn jump_len(prev: Option<u32>, index: u32) -> usize {
    vu_len(jump(prev, index))
}

/// A value of a jump table that carries none: an index only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NoValue;

impl<'a> Codec<'a> for NoValue {
    const FIXED_SIZE: Option<usize> = Some(0);

    #[inline]
    fn read_at(_r: &mut Reader<'a>) -> Result<Self> {
        Ok(NoValue)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        0
    }

    #[inline]
    fn write_at(&self, _w: &mut Writer<'_>) {}
}

impl Visit for NoValue {
    fn visit<V: Visitor>(&self, _v: &mut V) {}
}

crate::owned_is_self!(NoValue);

/// A jump table as a field type: strictly ascending indexes below
/// `u32::MAX`, each followed by a `T` ([`NoValue`] for a table of indexes
/// only; another `JumpTable` for nested tables).
///
/// Reading one allocates as it goes (one entry per byte read at least), never
/// from a count; the Update message walks its tables without allocating.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JumpTable<T> {
    entries: Vec<(u32, T)>,
}

impl<T> Default for JumpTable<T> {
    fn default() -> Self {
        JumpTable {
            entries: Vec::new(),
        }
    }
}

impl<T> JumpTable<T> {
    /// A table of `entries`; [`DiepErrorKind::IndexPastTable`] (with the entry's
    /// position as offset) when an index does not ascend or is `u32::MAX`.
    pub fn new(entries: Vec<(u32, T)>) -> Result<Self> {
        let mut prev: Option<u32> = None;
        for (k, (index, _)) in entries.iter().enumerate() {
            if *index == u32::MAX || prev.is_some_and(|p| p >= *index) {
                return Err(DiepErrorKind::IndexPastTable {
                    index: *index,
                    len: u32::MAX,
                }
                .at(k));
            }
            prev = Some(*index);
        }
        Ok(JumpTable { entries })
    }

    /// The entries, indexes ascending.
    pub fn entries(&self) -> &[(u32, T)] {
        &self.entries
    }

    /// The indexes, ascending.
    pub fn indexes(&self) -> impl Iterator<Item = u32> + '_ {
        self.entries.iter().map(|(i, _)| *i)
    }
}

impl<'a, T: Codec<'a>> Codec<'a> for JumpTable<T> {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        let mut entries = Vec::new();
        let mut prev = None;
        while let Some(index) = next_index(r, prev, u32::MAX)? {
            entries.push((index, T::read_at(r)?));
            prev = Some(index);
        }
        Ok(JumpTable { entries })
    }

    fn byte_len(&self) -> usize {
        let mut prev = None;
        let mut len = 1;
        for (index, value) in &self.entries {
            len += jump_len(prev, *index) + value.byte_len();
            prev = Some(*index);
        }
        len
    }

    fn write_at(&self, w: &mut Writer<'_>) {
        let mut prev = None;
        for (index, value) in &self.entries {
            write_jump(w, prev, *index);
            value.write_at(w);
            prev = Some(*index);
        }
        w.put_array([CLOSE]);
    }
}

impl<T: Visit> Visit for JumpTable<T> {
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.array(self.entries.len());
        for (index, value) in &self.entries {
            v.element(*index as usize, value);
        }
    }
}

impl<T: IntoOwned> IntoOwned for JumpTable<T> {
    type Owned = JumpTable<T::Owned>;
    fn into_owned(self) -> Self::Owned {
        JumpTable {
            entries: self
                .entries
                .into_iter()
                .map(|(i, v)| (i, v.into_owned()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_example() {
        let bytes = [0x00, 0x02, 0x00, 0x05, 0x03, 0x00, 0x03, 0x01];
        let mut r = Reader::at(&bytes, 0);
        let table = JumpTable::<NoValue>::read_at(&mut r).unwrap();
        assert_eq!(r.remaining(), 0);
        let indexes: Vec<u32> = table.indexes().collect();
        assert_eq!(indexes, [0, 3, 4, 8, 10, 11, 13]);
        let mut out = vec![0; table.byte_len()];
        table.write_at(&mut Writer::new(&mut out, 0));
        assert_eq!(out, bytes);
    }

    #[test]
    fn indexes_must_ascend() {
        assert!(JumpTable::new(vec![(3, NoValue), (3, NoValue)]).is_err());
        assert!(JumpTable::new(vec![(u32::MAX, NoValue)]).is_err());
        assert!(JumpTable::new(vec![(0, NoValue), (u32::MAX - 1, NoValue)]).is_ok());
    }
}
