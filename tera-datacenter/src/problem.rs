//! What is wrong with a data center, in one vocabulary for the reader (the
//! error of [`DataCenter::parse`](crate::DataCenter::parse)), the verifier
//! (every problem of a [`Report`](crate::Report)) and export (a cycle): a
//! problem's kind, place and byte offset.

use std::fmt;

use crate::address::Address;

/// Which string table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    /// The values table (1024 buckets).
    Values,
    /// The names table (512 buckets).
    Names,
}

impl Table {
    /// `"values"` or `"names"`.
    pub fn name(self) -> &'static str {
        match self {
            Table::Values => "values",
            Table::Names => "names",
        }
    }
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
    /// The file ends inside a structure (the region structure cannot be
    /// read: nothing else was checked).
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// The header's version is not 3 or 6.
    UnknownVersion(i32),
    /// A region declares more used elements than it holds.
    UsedExceedsCapacity {
        /// Its used count.
        used: u32,
        /// Its capacity.
        capacity: u32,
    },
    /// A string table's address region has count 0: it must be entries + 1.
    ZeroAddressCount,
    /// Bytes remain after the footer.
    TrailingBytes {
        /// How many.
        len: usize,
    },
    /// Neither element layout reads the file to its end.
    NoLayoutFits {
        /// The problem of the 64-bit layout.
        x64: Box<Problem>,
        /// The problem of the 32-bit layout.
        x86: Box<Problem>,
    },
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
    /// A node is reached twice from the root, through runs of children
    /// that overlap without being the same run.
    ReachedTwice,
    /// A node's children are a run that holds the node or one of its
    /// ancestors: the tree would be infinite.
    Cycle(Address),
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
            Truncated { what } => write!(f, "truncated {what}"),
            UnknownVersion(v) => write!(f, "unknown data center version {v} (expected 3 or 6)"),
            UsedExceedsCapacity { used, capacity } => {
                write!(f, "used count {used} exceeds capacity {capacity}")
            }
            ZeroAddressCount => f.write_str("addresses region has count 0 (must be entries + 1)"),
            TrailingBytes { len } => write!(f, "{len} trailing bytes after the footer"),
            NoLayoutFits { x64, x86 } => write!(
                f,
                "neither the 64-bit nor the 32-bit layout fits: {x64} / {x86}"
            ),
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
            ReachedTwice => f.write_str("node reached twice through runs of children that overlap"),
            Cycle(a) => write!(f, "children {a} hold this node or an ancestor (a cycle)"),
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

impl ProblemKind {
    /// True for the problems that stop the region structure from being read
    /// (nothing else is checked then).
    pub fn is_structural(&self) -> bool {
        use ProblemKind::*;
        matches!(
            self,
            Truncated { .. }
                | UnknownVersion(_)
                | UsedExceedsCapacity { .. }
                | ZeroAddressCount
                | TrailingBytes { .. }
                | NoLayoutFits { .. }
        )
    }
}

/// One problem: where (byte offset in the decompressed file and place) and
/// what. It is the error of opening a file ([`DataCenter::parse`]: the
/// first problem found), of copying or exporting a tree with a cycle, and
/// each entry of the verifier's [`Report`](crate::Report).
///
/// [`DataCenter::parse`]: crate::DataCenter::parse
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct Problem {
    /// Byte offset of the structure concerned.
    pub offset: usize,
    /// Its logical place.
    pub place: Place,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl Problem {
    pub(crate) fn new(offset: usize, place: Place, kind: ProblemKind) -> Self {
        Problem {
            offset,
            place,
            kind,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}, {}: {}", self.offset, self.place, self.kind)
    }
}
