//! Errors of opening, unpacking and writing files.

use crate::Address;

/// Why a data center could not be opened or unpacked. Every variant names the
/// byte offset (in the decompressed file) or the address where it went wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file ends inside a structure.
    #[error("truncated {what} at byte {offset}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where it starts.
        offset: usize,
    },
    /// The header's version is not 3 or 6.
    #[error("unknown data center version {0} (expected 3 or 6)")]
    UnknownVersion(i32),
    /// A region declares more used elements than it holds.
    #[error("{what} region at byte {offset}: used count {used} exceeds capacity {capacity}")]
    UsedExceedsCapacity {
        /// Which region.
        what: &'static str,
        /// Where its header is.
        offset: usize,
        /// Its used count.
        used: u32,
        /// Its capacity.
        capacity: u32,
    },
    /// A string table's address region has count 0: it must be entries + 1.
    #[error("{table} addresses region at byte {offset} has count 0 (must be entries + 1)")]
    ZeroAddressCount {
        /// `"names"` or `"values"`.
        table: &'static str,
        /// Where the count is.
        offset: usize,
    },
    /// Bytes remain after the footer.
    #[error("{len} trailing bytes after the footer at byte {offset}")]
    TrailingBytes {
        /// Offset of the first extra byte.
        offset: usize,
        /// How many.
        len: usize,
    },
    /// Neither element layout reads the file to its end.
    #[error("neither the 64-bit nor the 32-bit layout fits: {x64} / {x86}")]
    NoLayoutFits {
        /// The error of the 64-bit layout.
        x64: Box<Error>,
        /// The error of the 32-bit layout.
        x86: Box<Error>,
    },
    /// There is no root node at 0:0.
    #[error("no root node at 0:0")]
    NoRoot,
    /// A name index or name address is out of range.
    #[error("name index {index} at byte {offset} is out of range (1..={count})")]
    BadNameIndex {
        /// The index.
        index: u32,
        /// Where it was read.
        offset: usize,
        /// How many names there are.
        count: usize,
    },
    /// An address points outside the used part of its region.
    #[error("{what} address {address} (count {count}) at byte {offset} is out of range")]
    BadAddress {
        /// What it points to.
        what: &'static str,
        /// The address.
        address: Address,
        /// How many elements are read there.
        count: u32,
        /// Where it was read.
        offset: usize,
    },
    /// An attribute's type code is not 1, 2 or 3.
    #[error("attribute at byte {offset} has type code {code} (expected 1, 2 or 3)")]
    BadTypeCode {
        /// The code.
        code: u16,
        /// Where the attribute is.
        offset: usize,
    },
    /// A `.dat` is shorter than its size field and zlib header.
    #[error("encrypted file of {0} bytes is too short")]
    DatTooShort(usize),
    /// The zlib stream is invalid.
    #[error("zlib stream: {0}")]
    Inflate(String),
    /// The inflated size differs from the declared one.
    #[error("declared size {declared} differs from the inflated size {actual}")]
    SizeMismatch {
        /// The `u32` before the zlib stream.
        declared: u32,
        /// Bytes actually inflated.
        actual: usize,
    },
    /// A node is below itself: the tree would be infinite.
    #[error("node {0} is below itself (a cycle)")]
    Cycle(Address),
}

/// Why a tree could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The root is not named `__root__`.
    #[error("the root element must be named __root__, not {0:?}")]
    RootName(String),
    /// The root has attributes.
    #[error("the root element cannot have attributes")]
    RootAttributes,
    /// More than 65535 distinct names.
    #[error("{0} distinct names: at most 65535 fit in a name index")]
    TooManyNames(usize),
    /// An element has more than 65535 children or attributes.
    #[error("element {name:?} has {count} {what}: at most 65535")]
    TooMany {
        /// The element's name.
        name: String,
        /// `"children"` or `"attributes"`.
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// A string does not fit in one 65535-unit segment with its NUL.
    #[error("string of {0} UTF-16 units is too long (at most 65534)")]
    StringTooLong(usize),
    /// A string contains a NUL, which would end it early.
    #[error("string {0:?} contains a NUL character")]
    NulInString(String),
    /// Two attributes of one element share a name.
    #[error("element {element:?} has two attributes named {name:?}")]
    DuplicateAttribute {
        /// The element's name.
        element: String,
        /// The attribute's name.
        name: String,
    },
    /// `__value__` must be a string.
    #[error("attribute __value__ of element {0:?} is not a string")]
    ValueNotString(String),
    /// The tree needs more than 65535 segments in a region.
    #[error("the {0} region needs more than 65535 segments")]
    TooManySegments(&'static str),
    /// More than 4096 distinct key definitions.
    #[error("{0} key definitions: at most 4096")]
    TooManyKeys(usize),
}
