//! The string tables, the special names and the key definitions.

use std::collections::HashSet;

use super::Verifier;
use crate::address::Address;
use crate::hash::{bucket_of, string_hash};
use crate::layout::{Layout, TableLayout};
use crate::problem::{Place, ProblemKind, Table};
use crate::records::{
    ADDRESS_SIZE, EntryField, KEY_DEFINITIONS_MAX, KEY_SIZE, STRING_ENTRY_SIZE, StringEntry,
    key_slot_at, read_address, read_key,
};
use crate::string::DcStr;

/// What the checks of a string table leave for the rest.
pub(super) struct TableInfo<'a> {
    /// The string of each one-based index (None when its address is bad).
    pub(super) strings: Vec<Option<DcStr<'a>>>,
    /// Addresses of the entries.
    pub(super) entry_addresses: HashSet<Address>,
}

/// The addresses region of a table, read as the entries are checked.
struct Indexes {
    /// The address of each one-based index.
    addresses: Vec<Address>,
    /// Whether an entry has claimed each index.
    used: Vec<bool>,
}

impl<'a> Verifier<'a> {
    pub(super) fn table(&mut self, t: &TableLayout, table: Table) -> TableInfo<'a> {
        let (strings, addresses) = self.table_strings(t, table);
        let mut indexes = Indexes {
            used: vec![false; addresses.len()],
            addresses,
        };
        let mut entry_addresses = HashSet::new();
        let mut entries = 0;
        for (bucket, &(offset, count)) in t.buckets.iter().enumerate() {
            let mut previous = None;
            for entry in 0..count {
                entries += 1;
                let o = offset + entry * STRING_ENTRY_SIZE;
                let place = Place::Entry {
                    table,
                    bucket: bucket as u32,
                    entry: entry as u32,
                };
                let e = StringEntry::read(self.b, o);
                entry_addresses.insert(e.address);
                let expected = bucket_of(e.hash, t.buckets.len()) as u32;
                if expected != bucket as u32 {
                    self.report(o, place, ProblemKind::WrongBucket { expected });
                }
                if let Some(previous) = previous.filter(|&p| e.hash < p) {
                    let kind = ProblemKind::UnsortedBucket {
                        previous,
                        hash: e.hash,
                    };
                    self.report(o, place, kind);
                }
                previous = Some(e.hash);
                self.entry_string(t, &e, o, place);
                self.entry_index(&mut indexes, &e, o, place);
            }
        }
        if entries != t.address_count {
            let kind = ProblemKind::EntryCount {
                entries,
                addresses: t.address_count,
            };
            self.report(t.addresses, Place::Table(table), kind);
        }
        TableInfo {
            strings,
            entry_addresses,
        }
    }

    /// The string and the address of each index of the addresses region.
    fn table_strings(
        &mut self,
        t: &TableLayout,
        table: Table,
    ) -> (Vec<Option<DcStr<'a>>>, Vec<Address>) {
        let b = self.b;
        let mut strings = Vec::with_capacity(t.address_count);
        let mut addresses = Vec::with_capacity(t.address_count);
        for i in 0..t.address_count {
            let o = t.addresses + i * ADDRESS_SIZE;
            let address = read_address(b, o);
            addresses.push(address);
            let s = Layout::string_at(b, &t.data, address).map(DcStr::from_utf16le);
            if s.is_none() {
                let kind = ProblemKind::BadAddress {
                    what: "string",
                    address,
                    count: 1,
                };
                self.report(o, Place::TableAddress(table, i as u32 + 1), kind);
            }
            strings.push(s);
        }
        (strings, addresses)
    }

    /// The entry's hash and length against its string.
    fn entry_string(&mut self, t: &TableLayout, e: &StringEntry, o: usize, place: Place) {
        let Some(s) = Layout::string_at(self.b, &t.data, e.address).map(DcStr::from_utf16le) else {
            let kind = ProblemKind::BadAddress {
                what: "string",
                address: e.address,
                count: 1,
            };
            self.report(EntryField::Address.at(o), place, kind);
            return;
        };
        let expected = string_hash(s.units());
        if expected != e.hash {
            let kind = ProblemKind::WrongHash {
                expected,
                found: e.hash,
            };
            self.report(EntryField::Hash.at(o), place, kind);
        }
        let expected = s.len() as u32 + 1;
        if expected != e.length {
            let kind = ProblemKind::WrongLength {
                expected,
                found: e.length,
            };
            self.report(EntryField::Length.at(o), place, kind);
        }
    }

    /// The entry's index: in the addresses region, agreeing with it, and
    /// claimed by no other entry.
    fn entry_index(&mut self, indexes: &mut Indexes, e: &StringEntry, o: usize, place: Place) {
        let index_at = EntryField::Index.at(o);
        let Some(i) = (e.index as usize)
            .checked_sub(1)
            .filter(|&i| i < indexes.addresses.len())
        else {
            self.report(index_at, place, ProblemKind::BadIndex(e.index));
            return;
        };
        if indexes.addresses[i] != e.address {
            let kind = ProblemKind::IndexAddress {
                table: indexes.addresses[i],
                entry: e.address,
            };
            self.report(EntryField::Address.at(o), place, kind);
        }
        if std::mem::replace(&mut indexes.used[i], true) {
            self.report(index_at, place, ProblemKind::IndexUsedTwice(e.index));
        }
    }

    pub(super) fn special_names(&mut self, l: &Layout, names: &TableInfo<'_>) {
        let n = names.strings.len();
        for special in ["__root__", "__value__"] {
            match names
                .strings
                .iter()
                .position(|s| s.is_some_and(|s| s.eq_str(special)))
            {
                None => self.report(
                    l.names.addresses,
                    Place::Table(Table::Names),
                    ProblemKind::MissingName(special),
                ),
                Some(i) if i + 2 < n => {
                    let o = l.names.addresses + i * ADDRESS_SIZE;
                    self.report(
                        o,
                        Place::TableAddress(Table::Names, i as u32 + 1),
                        ProblemKind::SpecialNameNotLast(special),
                    );
                }
                Some(_) => {}
            }
        }
    }

    pub(super) fn keys(&mut self, l: &Layout, name_count: usize, value_index: Option<u16>) {
        if l.key_count > KEY_DEFINITIONS_MAX {
            self.report(l.keys, Place::Key(0), ProblemKind::TooManyKeys(l.key_count));
        }
        let empty = l.key_count > 0 && read_key(self.b, l.keys) == [0; 4];
        if !empty {
            self.report(l.keys, Place::Key(0), ProblemKind::NoEmptyKey);
        }
        for k in 0..l.key_count {
            let key = read_key(self.b, l.keys + k * KEY_SIZE);
            for (slot, index) in key.into_iter().enumerate() {
                let o = key_slot_at(l.keys + k * KEY_SIZE, slot);
                if index as usize > name_count {
                    self.report(o, Place::Key(k as u32), ProblemKind::KeyName(index));
                } else if index != 0 && Some(index) == value_index {
                    self.report(o, Place::Key(k as u32), ProblemKind::KeyIsValue);
                }
            }
        }
    }
}
