//! The strict verifier: every check of the format, all problems reported.

use std::collections::HashSet;
use std::fmt;

use crate::hash::{bucket_of, string_hash, value_hash};
use crate::layout::{
    Arch, Layout, STRING_ENTRY_SIZE, TableLayout, Version, address_at, detect_layout, u16_at,
    u32_at,
};
use crate::{Address, DatKey, DcStr, Error, unpack_lenient};

/// Which string table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    /// The values table (1024 buckets).
    Values,
    /// The names table (512 buckets).
    Names,
}

/// Where a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The file as a whole.
    File,
    /// The header.
    Header,
    /// A key definition (zero-based index).
    Key(u32),
    /// A segment of a region (zero-based).
    Segment(&'static str, u32),
    /// A node.
    Node(Address),
    /// An attribute record.
    Attribute(Address),
    /// An entry of a string table bucket.
    Entry {
        /// The table.
        table: Table,
        /// Bucket index.
        bucket: u32,
        /// Position in the bucket.
        entry: u32,
    },
    /// An entry of a string table's addresses region (one-based index).
    TableAddress(Table, u32),
    /// A string table as a whole.
    Table(Table),
    /// The footer.
    Footer,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File => f.write_str("file"),
            Place::Header => f.write_str("header"),
            Place::Key(i) => write!(f, "key {i}"),
            Place::Segment(what, i) => write!(f, "{what} segment {i}"),
            Place::Node(a) => write!(f, "node {a}"),
            Place::Attribute(a) => write!(f, "attribute {a}"),
            Place::Entry {
                table,
                bucket,
                entry,
            } => write!(f, "{table:?} bucket {bucket} entry {entry}"),
            Place::TableAddress(t, i) => write!(f, "{t:?} address #{i}"),
            Place::Table(t) => write!(f, "{t:?} table"),
            Place::Footer => f.write_str("footer"),
        }
    }
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The region structure cannot be read: nothing else was checked.
    Structure(Error),
    /// The `.dat` size field differs from the inflated size.
    DeclaredSize {
        /// The `u32` before the zlib stream.
        declared: u32,
        /// Bytes inflated.
        actual: usize,
    },
    /// One of the five schema fields of the header is not zero.
    HeaderField {
        /// Which (0-4).
        field: u8,
        /// Its value.
        value: i32,
    },
    /// A segment holds more than 65535 elements.
    SegmentTooLarge(u32),
    /// More than 4096 key definitions.
    TooManyKeys(usize),
    /// Key 0 is missing or not all zero.
    NoEmptyKey,
    /// A key's name index is out of range.
    KeyName(u16),
    /// A key names `__value__`.
    KeyIsValue,
    /// There is no node at 0:0.
    NoRoot,
    /// The root is not named `__root__`.
    RootName,
    /// The root has attributes.
    RootAttributes,
    /// A name index is out of range.
    NameIndex(u16),
    /// A node's key index is out of range.
    KeyIndex(u16),
    /// A node has key flags other than 0 and 1.
    KeyFlags(u8),
    /// A count is 0 but the address is not 65535:65535, or the reverse.
    CountAddress {
        /// `"attributes"` or `"children"`.
        what: &'static str,
        /// The count.
        count: u16,
        /// The address.
        address: Address,
    },
    /// An address points outside the used part of its region.
    BadAddress {
        /// What it points to.
        what: &'static str,
        /// The address.
        address: Address,
        /// How many elements are read there.
        count: u16,
    },
    /// A node is reached twice from the root.
    ReachedTwice,
    /// The attributes of a node are not sorted by name index.
    AttributesUnsorted,
    /// Two attributes of a node have the same name.
    DuplicateAttribute(u16),
    /// The children of a node are not sorted by name index.
    ChildrenUnsorted,
    /// An attribute's type code is not 1, 2 or 3.
    TypeCode(u16),
    /// An integer's extended code is not 0 or 1.
    IntExtended(u16),
    /// A boolean's value is not 0 or 1.
    BadBoolean(u32),
    /// A float's extended code is not 0.
    FloatExtended(u16),
    /// A string attribute's extended code is not the value hash.
    ValueHash {
        /// The hash of the string.
        expected: u16,
        /// The stored code.
        found: u16,
    },
    /// A string attribute's address is not an entry of the values table.
    NotInValuesTable(Address),
    /// `__value__` is not a string.
    TextNotString,
    /// An entry is in the wrong bucket.
    WrongBucket {
        /// The bucket of its hash.
        expected: u32,
    },
    /// An entry's hash is lower than the previous one in its bucket.
    UnsortedBucket {
        /// The previous entry's hash.
        previous: u32,
        /// This entry's hash.
        hash: u32,
    },
    /// An entry's hash is not the hash of its string.
    WrongHash {
        /// The hash of the string.
        expected: u32,
        /// The stored hash.
        found: u32,
    },
    /// An entry's length is not the string's length plus one.
    WrongLength {
        /// Units + 1.
        expected: u32,
        /// The stored length.
        found: u32,
    },
    /// An entry's index is outside the addresses region.
    BadIndex(u32),
    /// The addresses region disagrees with the entry at this index.
    IndexAddress {
        /// The address in the addresses region.
        table: Address,
        /// The address in the entry.
        entry: Address,
    },
    /// Two entries have the same index.
    IndexUsedTwice(u32),
    /// The number of entries differs from the number of addresses.
    EntryCount {
        /// Entries in the buckets.
        entries: usize,
        /// Addresses (declared count - 1).
        addresses: usize,
    },
    /// `__root__` or `__value__` is missing from the names table.
    MissingName(&'static str),
    /// `__root__` or `__value__` does not have one of the last two indexes.
    SpecialNameNotLast(&'static str),
    /// The footer is not 0.
    Footer(i32),
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ProblemKind::*;
        match self {
            Structure(e) => write!(f, "unreadable structure: {e}"),
            DeclaredSize { declared, actual } => {
                write!(f, "declared size {declared}, inflated {actual}")
            }
            HeaderField { field, value } => write!(f, "schema field {field} is {value}, not 0"),
            SegmentTooLarge(n) => write!(f, "{n} used elements (at most 65535)"),
            TooManyKeys(n) => write!(f, "{n} keys (at most 4096)"),
            NoEmptyKey => f.write_str("key 0 must exist and be all zero"),
            KeyName(i) => write!(f, "key name index {i} out of range"),
            KeyIsValue => f.write_str("a key names __value__"),
            NoRoot => f.write_str("no root node at 0:0"),
            RootName => f.write_str("root is not named __root__"),
            RootAttributes => f.write_str("root has attributes"),
            NameIndex(i) => write!(f, "name index {i} out of range"),
            KeyIndex(i) => write!(f, "key index {i} out of range"),
            KeyFlags(v) => write!(f, "unknown key flags {v:#x}"),
            CountAddress {
                what,
                count,
                address,
            } => {
                write!(
                    f,
                    "{what} count {count} disagrees with address {address} (0 iff 65535:65535)"
                )
            }
            BadAddress {
                what,
                address,
                count,
            } => write!(f, "{what} address {address} (count {count}) out of range"),
            ReachedTwice => f.write_str("node reached twice (cycle or shared node)"),
            AttributesUnsorted => f.write_str("attributes not sorted by name index"),
            DuplicateAttribute(i) => write!(f, "two attributes with name index {i}"),
            ChildrenUnsorted => f.write_str("children not sorted by name index"),
            TypeCode(c) => write!(f, "type code {c} (expected 1, 2 or 3)"),
            IntExtended(e) => write!(f, "integer extended code {e} (expected 0 or 1)"),
            BadBoolean(v) => write!(f, "boolean value {v} (expected 0 or 1)"),
            FloatExtended(e) => write!(f, "float extended code {e} (expected 0)"),
            ValueHash { expected, found } => write!(
                f,
                "value hash {found:#06x}, string hashes to {expected:#06x}"
            ),
            NotInValuesTable(a) => {
                write!(f, "string address {a} is not an entry of the values table")
            }
            TextNotString => f.write_str("__value__ is not a string"),
            WrongBucket { expected } => write!(f, "entry belongs in bucket {expected}"),
            UnsortedBucket { previous, hash } => write!(
                f,
                "hash {hash:#010x} after {previous:#010x}: bucket not sorted"
            ),
            WrongHash { expected, found } => {
                write!(f, "hash {found:#010x}, string hashes to {expected:#010x}")
            }
            WrongLength { expected, found } => {
                write!(f, "length {found}, string has {expected} with its NUL")
            }
            BadIndex(i) => write!(f, "index {i} out of the addresses region"),
            IndexAddress { table, entry } => {
                write!(f, "addresses region says {table}, entry says {entry}")
            }
            IndexUsedTwice(i) => write!(f, "index {i} used by two entries"),
            EntryCount { entries, addresses } => {
                write!(f, "{entries} entries but {addresses} addresses")
            }
            MissingName(n) => write!(f, "name {n} missing"),
            SpecialNameNotLast(n) => write!(f, "{n} must have one of the last two name indexes"),
            Footer(v) => write!(f, "footer {v}, not 0"),
        }
    }
}

/// One problem: where (byte offset in the decompressed file and place) and
/// what.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Byte offset of the structure concerned.
    pub offset: usize,
    /// Its logical place.
    pub place: Place,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}, {}: {}", self.offset, self.place, self.kind)
    }
}

/// What the verifier found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The element layout, when the structure could be read.
    pub arch: Option<Arch>,
    /// The version, when the structure could be read.
    pub version: Option<Version>,
    /// Nodes reached from the root.
    pub nodes: usize,
    /// Attributes of those nodes.
    pub attributes: usize,
    /// Every problem, in the order found.
    pub problems: Vec<Problem>,
}

impl Report {
    /// True when no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Verifies a `.dat`: decryption and inflation must work; a declared size
/// that differs is reported, and the inflated bytes are verified.
pub fn verify_dat(dat: &[u8], key: &DatKey, arch: Option<Arch>) -> Report {
    match unpack_lenient(dat, key) {
        Err(e) => Report {
            arch: None,
            version: None,
            nodes: 0,
            attributes: 0,
            problems: vec![Problem {
                offset: 0,
                place: Place::File,
                kind: ProblemKind::Structure(e),
            }],
        },
        Ok((dec, declared)) => {
            let mut report = verify(&dec, arch);
            if declared as usize != dec.len() {
                let kind = ProblemKind::DeclaredSize {
                    declared,
                    actual: dec.len(),
                };
                report.problems.insert(
                    0,
                    Problem {
                        offset: 0,
                        place: Place::File,
                        kind,
                    },
                );
            }
            report
        }
    }
}

/// Verifies decompressed bytes strictly (finding the element layout when
/// `arch` is `None`), returning every problem found.
pub fn verify(dec: &[u8], arch: Option<Arch>) -> Report {
    let mut v = Verifier {
        b: dec,
        problems: Vec::new(),
    };
    let layout = match detect_layout(dec, arch) {
        Ok(l) => l,
        Err(e) => {
            v.problems.push(Problem {
                offset: 0,
                place: Place::File,
                kind: ProblemKind::Structure(e),
            });
            return Report {
                arch: None,
                version: None,
                nodes: 0,
                attributes: 0,
                problems: v.problems,
            };
        }
    };
    let (nodes, attributes) = v.run(&layout);
    Report {
        arch: Some(layout.arch),
        version: Some(layout.header.version),
        nodes,
        attributes,
        problems: v.problems,
    }
}

struct Verifier<'a> {
    b: &'a [u8],
    problems: Vec<Problem>,
}

/// What the checks of a string table leave for the rest.
struct TableInfo<'a> {
    /// The string of each one-based index (None when its address is bad).
    strings: Vec<Option<DcStr<'a>>>,
    /// Addresses of the entries.
    entry_addresses: HashSet<Address>,
}

impl<'a> Verifier<'a> {
    fn report(&mut self, offset: usize, place: Place, kind: ProblemKind) {
        self.problems.push(Problem {
            offset,
            place,
            kind,
        });
    }

    fn run(&mut self, l: &Layout) -> (usize, usize) {
        let b = self.b;
        for (i, &value) in l.header.unknown.iter().enumerate() {
            if value != 0 {
                let offset = if l.header.version == Version::V6 {
                    16
                } else {
                    12
                };
                self.report(
                    offset,
                    Place::Header,
                    ProblemKind::HeaderField {
                        field: i as u8,
                        value,
                    },
                );
            }
        }
        let regions = [
            ("attributes", &l.attributes),
            ("nodes", &l.nodes),
            ("values data", &l.values.data),
            ("names data", &l.names.data),
        ];
        for (what, segments) in regions {
            for (i, s) in segments.iter().enumerate() {
                if s.used > 65535 {
                    self.report(
                        s.header,
                        Place::Segment(what, i as u32),
                        ProblemKind::SegmentTooLarge(s.used),
                    );
                }
            }
        }
        let values = self.table(&l.values, Table::Values);
        let names = self.table(&l.names, Table::Names);
        self.special_names(l, &names);
        let value_index = names
            .strings
            .iter()
            .position(|s| s.is_some_and(|s| s.eq_str("__value__")));
        let value_index = value_index.map(|i| i as u16 + 1);
        self.keys(l, names.strings.len(), value_index);
        let counts = self.nodes(l, &names, &values, value_index);
        self.every_record(l, names.strings.len());
        let footer = u32_at(b, l.footer) as i32;
        if footer != 0 {
            self.report(l.footer, Place::Footer, ProblemKind::Footer(footer));
        }
        counts
    }

    fn table(&mut self, t: &TableLayout, table: Table) -> TableInfo<'a> {
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

    fn special_names(&mut self, l: &Layout, names: &TableInfo<'_>) {
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

    fn keys(&mut self, l: &Layout, name_count: usize, value_index: Option<u16>) {
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

    fn nodes(
        &mut self,
        l: &Layout,
        names: &TableInfo<'_>,
        values: &TableInfo<'_>,
        text: Option<u16>,
    ) -> (usize, usize) {
        let b = self.b;
        let ns = l.arch.node_size();
        let root = Address {
            segment: 0,
            element: 0,
        };
        let Some(root_at) = Layout::locate(&l.nodes, root, 1, ns) else {
            self.report(0, Place::File, ProblemKind::NoRoot);
            return (0, 0);
        };
        let name_ok = |i: u16| i != 0 && (i as usize) <= names.strings.len();
        let name_is = |i: u16, s: &str| {
            name_ok(i) && names.strings[i as usize - 1].is_some_and(|n| n.eq_str(s))
        };
        if !name_is(u16_at(b, root_at), "__root__") {
            self.report(root_at, Place::Node(root), ProblemKind::RootName);
        }
        if u16_at(b, root_at + 4) != 0 {
            self.report(root_at, Place::Node(root), ProblemKind::RootAttributes);
        }
        let mut base = Vec::with_capacity(l.nodes.len());
        let mut total = 0usize;
        for s in &l.nodes {
            base.push(total);
            total += s.used as usize;
        }
        let mut seen = vec![false; total];
        seen[0] = true;
        let (mut node_count, mut attribute_count) = (0, 0);
        let mut stack = vec![(root, root_at)];
        while let Some((at, o)) = stack.pop() {
            node_count += 1;
            let place = Place::Node(at);
            let name = u16_at(b, o);
            if !name_ok(name) {
                self.report(o, place, ProblemKind::NameIndex(name));
            }
            let keys_info = u16_at(b, o + 2);
            if (keys_info >> 4) as usize >= l.key_count {
                self.report(o + 2, place, ProblemKind::KeyIndex(keys_info >> 4));
            }
            if keys_info & 0xe != 0 {
                self.report(o + 2, place, ProblemKind::KeyFlags((keys_info & 0xf) as u8));
            }
            let (ac, cc) = (u16_at(b, o + 4), u16_at(b, o + 6));
            let (aa, ca) = (address_at(b, o + 8), address_at(b, o + ns / 2 + 4));
            for (what, count, address, ao) in [
                ("attributes", ac, aa, o + 8),
                ("children", cc, ca, o + ns / 2 + 4),
            ] {
                if (count == 0) != (address == Address::NONE) {
                    self.report(
                        ao,
                        place,
                        ProblemKind::CountAddress {
                            what,
                            count,
                            address,
                        },
                    );
                }
            }
            if ac > 0 {
                match Layout::locate(&l.attributes, aa, ac as u32, l.arch.attribute_size()) {
                    None => {
                        let kind = ProblemKind::BadAddress {
                            what: "attributes",
                            address: aa,
                            count: ac,
                        };
                        self.report(o + 8, place, kind);
                    }
                    Some(first) => {
                        attribute_count += ac as usize;
                        self.attributes(l, first, aa, ac, place, &name_ok, values, text);
                    }
                }
            }
            if cc > 0 {
                let Some(first) = Layout::locate(&l.nodes, ca, cc as u32, ns) else {
                    let kind = ProblemKind::BadAddress {
                        what: "children",
                        address: ca,
                        count: cc,
                    };
                    self.report(o + ns / 2 + 4, place, kind);
                    continue;
                };
                let mut previous = 0u16;
                let mut unsorted = false;
                // Pushed in reverse so that children are checked in order.
                for i in (0..cc).rev() {
                    let child = Address {
                        segment: ca.segment,
                        element: ca.element + i,
                    };
                    let co = first + i as usize * ns;
                    let child_name = u16_at(b, co);
                    if child_name == 0 {
                        continue;
                    }
                    if i + 1 < cc && child_name > previous && previous != 0 {
                        unsorted = true;
                    }
                    previous = child_name;
                    let ord = base[child.segment as usize] + child.element as usize;
                    if std::mem::replace(&mut seen[ord], true) {
                        self.report(co, Place::Node(child), ProblemKind::ReachedTwice);
                        continue;
                    }
                    stack.push((child, co));
                }
                if unsorted {
                    self.report(first, place, ProblemKind::ChildrenUnsorted);
                }
            }
        }
        (node_count, attribute_count)
    }

    /// The checks that opening a file makes on every record of the node and
    /// attribute tables, reached from the root or not, so that a file the
    /// verifier passes always opens. Offsets already reported by the walk
    /// from the root are not reported again.
    fn every_record(&mut self, l: &Layout, name_count: usize) {
        let b = self.b;
        let reported: HashSet<usize> = self.problems.iter().map(|p| p.offset).collect();
        let name_ok = |i: u16| i != 0 && (i as usize) <= name_count;
        let (ns, asz) = (l.arch.node_size(), l.arch.attribute_size());
        let mut found = Vec::new();
        for (si, seg) in l.nodes.iter().enumerate() {
            for i in 0..seg.used as usize {
                let o = seg.offset + i * ns;
                let place = Place::Node(Address {
                    segment: si as u16,
                    element: i as u16,
                });
                let name = u16_at(b, o);
                // Nameless records other than the root are never read.
                if name == 0 && (si, i) != (0, 0) {
                    continue;
                }
                if !name_ok(name) {
                    found.push((o, place, ProblemKind::NameIndex(name)));
                }
                let (ac, cc) = (u16_at(b, o + 4), u16_at(b, o + 6));
                let (aa, ca) = (address_at(b, o + 8), address_at(b, o + ns / 2 + 4));
                if ac > 0 && Layout::locate(&l.attributes, aa, ac as u32, asz).is_none() {
                    let kind = ProblemKind::BadAddress {
                        what: "attributes",
                        address: aa,
                        count: ac,
                    };
                    found.push((o + 8, place, kind));
                }
                if cc > 0 && Layout::locate(&l.nodes, ca, cc as u32, ns).is_none() {
                    let kind = ProblemKind::BadAddress {
                        what: "children",
                        address: ca,
                        count: cc,
                    };
                    found.push((o + ns / 2 + 4, place, kind));
                }
            }
        }
        for (si, seg) in l.attributes.iter().enumerate() {
            for i in 0..seg.used as usize {
                let o = seg.offset + i * asz;
                let place = Place::Attribute(Address {
                    segment: si as u16,
                    element: i as u16,
                });
                let name = u16_at(b, o);
                if !name_ok(name) {
                    found.push((o, place, ProblemKind::NameIndex(name)));
                }
                let code = u16_at(b, o + 2) & 3;
                if code == 0 {
                    found.push((o + 2, place, ProblemKind::TypeCode(code)));
                }
                if code == 3 {
                    let a = address_at(b, o + 4);
                    if Layout::string_at(b, &l.values.data, a).is_none() {
                        let kind = ProblemKind::BadAddress {
                            what: "string value",
                            address: a,
                            count: 1,
                        };
                        found.push((o + 4, place, kind));
                    }
                }
            }
        }
        for (offset, place, kind) in found {
            if !reported.contains(&offset) {
                self.report(offset, place, kind);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn attributes(
        &mut self,
        l: &Layout,
        first: usize,
        aa: Address,
        count: u16,
        node: Place,
        name_ok: &dyn Fn(u16) -> bool,
        values: &TableInfo<'_>,
        text: Option<u16>,
    ) {
        let b = self.b;
        let mut previous = 0u16;
        for i in 0..count {
            let o = first + i as usize * l.arch.attribute_size();
            let place = Place::Attribute(Address {
                segment: aa.segment,
                element: aa.element + i,
            });
            let name = u16_at(b, o);
            if !name_ok(name) {
                self.report(o, place, ProblemKind::NameIndex(name));
            }
            if i > 0 && name == previous {
                self.report(o, node, ProblemKind::DuplicateAttribute(name));
            } else if i > 0 && name < previous {
                self.report(o, node, ProblemKind::AttributesUnsorted);
            }
            previous = name;
            let info = u16_at(b, o + 2);
            let (code, ext) = (info & 3, info >> 2);
            let raw = u32_at(b, o + 4);
            if Some(name) == text && code != 3 {
                self.report(o, place, ProblemKind::TextNotString);
            }
            match code {
                1 if ext > 1 => self.report(o + 2, place, ProblemKind::IntExtended(ext)),
                1 if ext == 1 && raw > 1 => self.report(o + 4, place, ProblemKind::BadBoolean(raw)),
                1 => {}
                2 if ext != 0 => self.report(o + 2, place, ProblemKind::FloatExtended(ext)),
                2 => {}
                3 => {
                    let a = address_at(b, o + 4);
                    match Layout::string_at(b, &l.values.data, a).map(DcStr::from_utf16le) {
                        None => {
                            let kind = ProblemKind::BadAddress {
                                what: "string value",
                                address: a,
                                count: 1,
                            };
                            self.report(o + 4, place, kind);
                        }
                        Some(s) => {
                            let expected = value_hash(s.units());
                            if expected != ext {
                                self.report(
                                    o + 2,
                                    place,
                                    ProblemKind::ValueHash {
                                        expected,
                                        found: ext,
                                    },
                                );
                            }
                            if !values.entry_addresses.contains(&a) {
                                self.report(o + 4, place, ProblemKind::NotInValuesTable(a));
                            }
                        }
                    }
                }
                _ => self.report(o + 2, place, ProblemKind::TypeCode(code)),
            }
        }
    }
}
