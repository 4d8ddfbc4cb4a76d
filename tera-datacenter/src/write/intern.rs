//! A string table being built, each string added once.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::error::WriteError;
use super::regions::{SEGMENT_MAX, Strings};
use crate::address::Address;
use crate::hash::{string_hash, value_hash};

/// A string table being built, each string added once.
pub(crate) struct Interner<'t> {
    pub(crate) strings: Strings,
    /// Address, one-based index and value hash of each string.
    map: HashMap<&'t str, (Address, u32, u16), FixedState>,
}

impl<'t> Interner<'t> {
    pub(crate) fn new(buckets: usize) -> Self {
        Interner {
            strings: Strings::new(buckets),
            map: HashMap::with_hasher(FixedState::with_seed(0)),
        }
    }

    /// The address, one-based index and value hash of `s`, added if new.
    pub(crate) fn intern(&mut self, s: &'t str) -> Result<(Address, u32, u16), WriteError> {
        if let Some(&found) = self.map.get(s) {
            return Ok(found);
        }
        let units: Vec<u16> = s.encode_utf16().collect();
        if units.len() >= SEGMENT_MAX {
            return Err(WriteError::StringTooLong(units.len()));
        }
        if units.contains(&0) {
            return Err(WriteError::NulInString(s.into()));
        }
        let table = &mut self.strings;
        if table.data.last().map_or(0, Vec::len) + units.len() + 1 > SEGMENT_MAX {
            if table.data.len() >= u16::MAX as usize {
                return Err(WriteError::TooManySegments("string data"));
            }
            table.data.push(Vec::new());
        }
        let segment = (table.data.len() - 1) as u16;
        let seg = table.data.last_mut().expect("one segment at least");
        let address = Address {
            segment,
            element: seg.len() as u16,
        };
        seg.extend_from_slice(&units);
        seg.push(0);
        table.entries.push((
            string_hash(units.iter().copied()),
            units.len() as u32 + 1,
            address,
        ));
        let index = table.entries.len() as u32;
        let found = (address, index, value_hash(units.iter().copied()));
        self.map.insert(s, found);
        Ok(found)
    }
}
