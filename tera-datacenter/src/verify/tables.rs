//! The string tables, the special names and the key definitions.

use std::collections::HashSet;

use super::{Place, ProblemKind, Table, Verifier};
use crate::hash::{bucket_of, string_hash};
use crate::layout::{Layout, STRING_ENTRY_SIZE, TableLayout, address_at, u16_at, u32_at};
use crate::{Address, DcStr};

/// What the checks of a string table leave for the rest.
pub(super) struct TableInfo<'a> {
    /// The string of each one-based index (None when its address is bad).
    pub(super) strings: Vec<Option<DcStr<'a>>>,
    /// Addresses of the entries.
    pub(super) entry_addresses: HashSet<Address>,
}

impl<'a> Verifier<'a> {
    pub(super) fn table(&mut self, t: &TableLayout, table: Table) -> TableInfo<'a> {
        let b = self.b;
        let mut strings = Vec::with_capacity(t.address_count);
        let mut table_addresses = Vec::with_capacity(t.address_count);
        for i in 0..t.address_count {
            let o = t.addresses + i * 4;
            let a = address_at(b, o);
            table_addresses.push(a);
            let s = Layout::string_at(b, &t.data, a).map(DcStr::from_utf16le);
            if s.is_none() {
                let kind = ProblemKind::BadAddress {
                    what: "string",
                    address: a,
                    count: 1,
                };
                self.report(o, Place::TableAddress(table, i as u32 + 1), kind);
            }
            strings.push(s);
        }
        let mut used = vec![false; t.address_count];
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
                let (hash, len, index) = (u32_at(b, o), u32_at(b, o + 4), u32_at(b, o + 8));
                let address = address_at(b, o + 12);
                entry_addresses.insert(address);
                let expected = bucket_of(hash, t.buckets.len()) as u32;
                if expected != bucket as u32 {
                    self.report(o, place, ProblemKind::WrongBucket { expected });
                }
                if let Some(previous) = previous.filter(|&p| hash < p) {
                    self.report(o, place, ProblemKind::UnsortedBucket { previous, hash });
                }
                previous = Some(hash);
                match Layout::string_at(b, &t.data, address).map(DcStr::from_utf16le) {
                    None => {
                        let kind = ProblemKind::BadAddress {
                            what: "string",
                            address,
                            count: 1,
                        };
                        self.report(o + 12, place, kind);
                    }
                    Some(s) => {
                        let expected = string_hash(s.units());
                        if expected != hash {
                            self.report(
                                o,
                                place,
                                ProblemKind::WrongHash {
                                    expected,
                                    found: hash,
                                },
                            );
                        }
                        let expected = s.len() as u32 + 1;
                        if expected != len {
                            self.report(
                                o + 4,
                                place,
                                ProblemKind::WrongLength {
                                    expected,
                                    found: len,
                                },
                            );
                        }
                    }
                }
                match index
                    .checked_sub(1)
                    .map(|i| i as usize)
                    .filter(|&i| i < t.address_count)
                {
                    None => self.report(o + 8, place, ProblemKind::BadIndex(index)),
                    Some(i) => {
                        if table_addresses[i] != address {
                            let kind = ProblemKind::IndexAddress {
                                table: table_addresses[i],
                                entry: address,
                            };
                            self.report(o + 12, place, kind);
                        }
                        if std::mem::replace(&mut used[i], true) {
                            self.report(o + 8, place, ProblemKind::IndexUsedTwice(index));
                        }
                    }
                }
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
                    let o = l.names.addresses + i * 4;
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
        let b = self.b;
        if l.key_count > 4096 {
            self.report(l.keys, Place::Key(0), ProblemKind::TooManyKeys(l.key_count));
        }
        if l.key_count == 0 || b[l.keys..l.keys + 8] != [0; 8] {
            self.report(l.keys, Place::Key(0), ProblemKind::NoEmptyKey);
        }
        for k in 0..l.key_count {
            for f in 0..4 {
                let o = l.keys + k * 8 + f * 2;
                let index = u16_at(b, o);
                if index as usize > name_count {
                    self.report(o, Place::Key(k as u32), ProblemKind::KeyName(index));
                } else if index != 0 && Some(index) == value_index {
                    self.report(o, Place::Key(k as u32), ProblemKind::KeyIsValue);
                }
            }
        }
    }
}
