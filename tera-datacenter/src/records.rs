//! The records of a data center, defined once: node and attribute records,
//! whose layout depends on the architecture, the entries of the string
//! tables, key definitions and addresses. Each is a typed struct, read from
//! bytes and written to bytes here and nowhere else: the reader, the record
//! checker, the verifier and the writer know fields, never offsets or bits.
//!
//! | record | 64-bit clients ([`Arch::X64`]) | 32-bit clients ([`Arch::X86`]) |
//! |---|---|---|
//! | node | name `u16`, keys `u16`, attribute count `u16`, child count `u16`, attributes address, `u32` padding, children address, `u32` padding: 24 bytes | the same without padding: 16 bytes |
//! | attribute | name `u16`, type `u16`, value `u32`, `u32` padding: 12 bytes | without padding: 8 bytes |
//! | string table entry | hash `u32`, length `u32` (with the NUL), one-based index `u32`, address: 16 bytes | the same |
//! | key definition | four one-based name indexes `u16` (0: unused): 8 bytes | the same |
//! | address | segment `u16`, element `u16`: 4 bytes | the same |
//!
//! A node's keys field is `key_index << 4 | flags`; an attribute's type
//! field is `extended << 2 | type_code` (1: int, 2: float, 3: string), where
//! an int's extended code 1 makes it a boolean and a string's is the value
//! hash of its text; a string's value is its address in the values table.
//! Padding is written as zero and never read.

use crate::address::Address;
use crate::bytes::{put16, put32, u16_at, u32_at};

/// The element layout: 64-bit clients pad nodes and attributes with a `u32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// 24-byte nodes, 12-byte attributes.
    X64,
    /// 16-byte nodes, 8-byte attributes.
    X86,
}

/// What differs between the architectures: record sizes, and where a node's
/// children address is (after the attributes address and its padding).
struct Format {
    node_size: usize,
    node_children: usize,
    attribute_size: usize,
}

const X64: Format = Format {
    node_size: 24,
    node_children: 16,
    attribute_size: 12,
};

const X86: Format = Format {
    node_size: 16,
    node_children: 12,
    attribute_size: 8,
};

/// The largest node record of any architecture.
pub(crate) const NODE_SIZE_MAX: usize = 24;

impl Arch {
    const fn format(self) -> &'static Format {
        match self {
            Arch::X64 => &X64,
            Arch::X86 => &X86,
        }
    }

    /// Size of a node record.
    pub const fn node_size(self) -> usize {
        self.format().node_size
    }

    /// Size of an attribute record.
    pub const fn attribute_size(self) -> usize {
        self.format().attribute_size
    }
}

/// Size of an address.
pub(crate) const ADDRESS_SIZE: usize = 4;

/// The address at byte `o`.
pub(crate) fn read_address(b: &[u8], o: usize) -> Address {
    Address {
        segment: u16_at(b, o),
        element: u16_at(b, o + 2),
    }
}

/// The bytes of an address.
pub(crate) fn address_bytes(a: Address) -> [u8; ADDRESS_SIZE] {
    let [s0, s1] = a.segment.to_le_bytes();
    let [e0, e1] = a.element.to_le_bytes();
    [s0, s1, e0, e1]
}

/// Appends an address.
pub(crate) fn put_address(out: &mut Vec<u8>, a: Address) {
    out.extend_from_slice(&address_bytes(a));
}

/// Where a node's name is, in both architectures.
const NODE_NAME: usize = 0;

/// A field of a node record, for saying where a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeField {
    Name,
    Keys,
    AttributeCount,
    ChildCount,
    Attributes,
    Children,
}

impl NodeField {
    /// The field's offset in a record of `arch`.
    pub(crate) const fn offset(self, arch: Arch) -> usize {
        match self {
            NodeField::Name => NODE_NAME,
            NodeField::Keys => 2,
            NodeField::AttributeCount => 4,
            NodeField::ChildCount => 6,
            NodeField::Attributes => 8,
            NodeField::Children => arch.format().node_children,
        }
    }

    /// The byte offset of the field of the record at `record`.
    pub(crate) const fn at(self, record: usize, arch: Arch) -> usize {
        record + self.offset(arch)
    }
}

/// Key definitions index with 12 bits: at most this many.
pub(crate) const KEY_DEFINITIONS_MAX: usize = 1 << 12;
const KEY_SHIFT: u16 = 4;
const FLAGS_MASK: u16 = (1 << KEY_SHIFT) - 1;
/// The one known key flag: the element's keys are not cached.
const FLAG_UNCACHED: u8 = 1;

/// A node (element) record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NodeRecord {
    /// One-based name index (0: a nameless record, which readers skip).
    pub name: u16,
    /// Index of the key definition.
    pub key: u16,
    /// Key flags (1: uncached).
    pub flags: u8,
    pub attribute_count: u16,
    pub child_count: u16,
    /// The first attribute (`65535:65535` when there is none).
    pub attributes: Address,
    /// The first child (`65535:65535` when there is none).
    pub children: Address,
}

impl NodeRecord {
    /// The record at byte `o`.
    #[inline]
    pub(crate) fn read(b: &[u8], o: usize, arch: Arch) -> Self {
        let keys = u16_at(b, NodeField::Keys.at(o, arch));
        NodeRecord {
            name: Self::read_name(b, o),
            key: keys >> KEY_SHIFT,
            flags: (keys & FLAGS_MASK) as u8,
            attribute_count: u16_at(b, NodeField::AttributeCount.at(o, arch)),
            child_count: u16_at(b, NodeField::ChildCount.at(o, arch)),
            attributes: read_address(b, NodeField::Attributes.at(o, arch)),
            children: read_address(b, NodeField::Children.at(o, arch)),
        }
    }

    /// The name index alone of the record at byte `o` (the same in both
    /// architectures).
    #[inline]
    pub(crate) fn read_name(b: &[u8], o: usize) -> u16 {
        u16_at(b, o + NODE_NAME)
    }

    /// The record's bytes: the first [`Arch::node_size`] of the array.
    pub(crate) fn to_bytes(self, arch: Arch) -> [u8; NODE_SIZE_MAX] {
        let mut r = [0; NODE_SIZE_MAX];
        let keys = self.key << KEY_SHIFT | u16::from(self.flags) & FLAGS_MASK;
        let mut put = |field: NodeField, bytes: &[u8]| {
            let o = field.offset(arch);
            r[o..o + bytes.len()].copy_from_slice(bytes);
        };
        put(NodeField::Name, &self.name.to_le_bytes());
        put(NodeField::Keys, &keys.to_le_bytes());
        put(
            NodeField::AttributeCount,
            &self.attribute_count.to_le_bytes(),
        );
        put(NodeField::ChildCount, &self.child_count.to_le_bytes());
        put(NodeField::Attributes, &address_bytes(self.attributes));
        put(NodeField::Children, &address_bytes(self.children));
        r
    }

    /// Flags other than the known ones.
    pub(crate) fn has_unknown_flags(&self) -> bool {
        self.flags & !FLAG_UNCACHED != 0
    }
}

/// A field of an attribute record, for saying where a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttributeField {
    Name,
    Type,
    Value,
}

impl AttributeField {
    /// The byte offset of the field of the record at `record` (the same in
    /// both architectures).
    pub(crate) const fn at(self, record: usize) -> usize {
        record
            + match self {
                AttributeField::Name => 0,
                AttributeField::Type => 2,
                AttributeField::Value => 4,
            }
    }
}

const TYPE_BITS: u16 = 2;
const TYPE_MASK: u16 = (1 << TYPE_BITS) - 1;
const TYPE_INT: u16 = 1;
const TYPE_FLOAT: u16 = 2;
const TYPE_STRING: u16 = 3;
/// The extended code of an int that is a boolean.
const EXTENDED_BOOL: u16 = 1;
/// The largest extended code (14 bits), and so the mask of a value hash.
pub(crate) const EXTENDED_MAX: u16 = u16::MAX >> TYPE_BITS;

/// The bytes of an attribute record before its padding.
const ATTRIBUTE_FIELDS_SIZE: usize = 8;

/// An attribute record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AttributeRecord {
    /// One-based name index.
    pub name: u16,
    /// The type code (1 int, 2 float, 3 string; 0 is invalid).
    pub type_code: u16,
    /// The extended code: the boolean flag of an int, the value hash of a
    /// string.
    pub extended: u16,
    /// The value's bits: an int, a float, or a string's address.
    pub raw: u32,
}

/// An attribute record's value as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RawValue {
    Int(i32),
    /// An int with the boolean flag: its stored value.
    Bool(u32),
    Float(f32),
    /// The address of the string in the values table.
    Str(Address),
    /// Type code 0.
    Untyped(u16),
}

impl AttributeRecord {
    /// The record at byte `o` (the same fields in both architectures).
    #[inline]
    pub(crate) fn read(b: &[u8], o: usize) -> Self {
        let info = u16_at(b, AttributeField::Type.at(o));
        AttributeRecord {
            name: u16_at(b, AttributeField::Name.at(o)),
            type_code: info & TYPE_MASK,
            extended: info >> TYPE_BITS,
            raw: u32_at(b, AttributeField::Value.at(o)),
        }
    }

    /// The name index alone of the record at byte `o`.
    #[inline]
    pub(crate) fn read_name(b: &[u8], o: usize) -> u16 {
        u16_at(b, AttributeField::Name.at(o))
    }

    /// The raw type field, `extended << 2 | type_code`.
    pub(crate) fn type_info(&self) -> u16 {
        self.extended << TYPE_BITS | self.type_code
    }

    /// An int.
    pub(crate) fn int(name: u16, v: i32) -> Self {
        Self::new(name, TYPE_INT, 0, v as u32)
    }

    /// A boolean: an int with the boolean flag.
    pub(crate) fn bool(name: u16, v: bool) -> Self {
        Self::new(name, TYPE_INT, EXTENDED_BOOL, u32::from(v))
    }

    /// A float.
    pub(crate) fn float(name: u16, v: f32) -> Self {
        Self::new(name, TYPE_FLOAT, 0, v.to_bits())
    }

    /// A string at `address` of the values table, whose value hash is
    /// `hash`.
    pub(crate) fn string(name: u16, address: Address, hash: u16) -> Self {
        let raw = u32::from_le_bytes(address_bytes(address));
        Self::new(name, TYPE_STRING, hash & EXTENDED_MAX, raw)
    }

    fn new(name: u16, type_code: u16, extended: u16, raw: u32) -> Self {
        AttributeRecord {
            name,
            type_code,
            extended,
            raw,
        }
    }

    /// The value as stored.
    #[inline]
    pub(crate) fn value(&self) -> RawValue {
        match self.type_code {
            TYPE_INT if self.extended & EXTENDED_BOOL != 0 => RawValue::Bool(self.raw),
            TYPE_INT => RawValue::Int(self.raw as i32),
            TYPE_FLOAT => RawValue::Float(f32::from_bits(self.raw)),
            TYPE_STRING => RawValue::Str(self.string_address()),
            code => RawValue::Untyped(code),
        }
    }

    /// The address a string's value holds.
    fn string_address(&self) -> Address {
        read_address(&self.raw.to_le_bytes(), 0)
    }

    /// The address of the text, when this is a string.
    #[inline]
    pub(crate) fn text_address(&self) -> Option<Address> {
        (self.type_code == TYPE_STRING).then(|| self.string_address())
    }

    /// An extended code that an int (0, or the boolean flag) or a float (0)
    /// may not have. A string's is its value hash, checked against its text.
    pub(crate) fn unexpected_extended(&self) -> Option<u16> {
        let allowed = match self.type_code {
            TYPE_INT => self.extended <= EXTENDED_BOOL,
            TYPE_FLOAT => self.extended == 0,
            _ => true,
        };
        (!allowed).then_some(self.extended)
    }

    /// Appends the record in the layout of `arch`.
    pub(crate) fn write(&self, arch: Arch, out: &mut Vec<u8>) {
        put16(out, self.name);
        put16(out, self.type_info());
        put32(out, self.raw);
        out.resize(out.len() + arch.attribute_size() - ATTRIBUTE_FIELDS_SIZE, 0);
    }
}

/// Size of a string table entry.
pub(crate) const STRING_ENTRY_SIZE: usize = 16;

/// A field of a string table entry, for saying where a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryField {
    Hash,
    Length,
    Index,
    Address,
}

impl EntryField {
    /// The byte offset of the field of the entry at `entry`.
    pub(crate) const fn at(self, entry: usize) -> usize {
        entry
            + match self {
                EntryField::Hash => 0,
                EntryField::Length => 4,
                EntryField::Index => 8,
                EntryField::Address => 12,
            }
    }
}

/// An entry of a string table's bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StringEntry {
    /// [`string_hash`](crate::string_hash) of the string.
    pub hash: u32,
    /// Its length in UTF-16 units, with the NUL.
    pub length: u32,
    /// Its one-based index.
    pub index: u32,
    /// Where its text is.
    pub address: Address,
}

impl StringEntry {
    /// The entry at byte `o`.
    pub(crate) fn read(b: &[u8], o: usize) -> Self {
        StringEntry {
            hash: u32_at(b, EntryField::Hash.at(o)),
            length: u32_at(b, EntryField::Length.at(o)),
            index: u32_at(b, EntryField::Index.at(o)),
            address: read_address(b, EntryField::Address.at(o)),
        }
    }

    /// Appends the entry.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        put32(out, self.hash);
        put32(out, self.length);
        put32(out, self.index);
        put_address(out, self.address);
    }
}

/// Size of a key definition.
pub(crate) const KEY_SIZE: usize = 8;

/// The byte offset of slot `slot` (0-3) of the key definition at `key`.
pub(crate) const fn key_slot_at(key: usize, slot: usize) -> usize {
    key + slot * 2
}

/// The key definition at byte `o`: four one-based name indexes, 0 where a
/// slot is unused.
pub(crate) fn read_key(b: &[u8], o: usize) -> [u16; 4] {
    std::array::from_fn(|slot| u16_at(b, key_slot_at(o, slot)))
}

/// Appends a key definition.
pub(crate) fn write_key(key: &[u16; 4], out: &mut Vec<u8>) {
    key.iter().for_each(|&k| put16(out, k));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(segment: u16, element: u16) -> Address {
        Address { segment, element }
    }

    #[test]
    fn a_node_reads_back_as_written_in_both_layouts() {
        let node = NodeRecord {
            name: 7,
            key: 4095,
            flags: 1,
            attribute_count: 3,
            child_count: 65535,
            attributes: address(1, 2),
            children: address(3, 4),
        };
        for arch in [Arch::X64, Arch::X86] {
            let bytes = node.to_bytes(arch);
            assert_eq!(NodeRecord::read(&bytes, 0, arch), node);
            assert_eq!(NodeRecord::read_name(&bytes, 0), 7);
            assert!(bytes[arch.node_size()..].iter().all(|&b| b == 0));
        }
        // The 64-bit layout pads after each address.
        let bytes = node.to_bytes(Arch::X64);
        assert_eq!(bytes[12..16], [0; 4]);
        assert_eq!(bytes[16..20], [3, 0, 4, 0]);
        assert_eq!(node.to_bytes(Arch::X86)[12..16], [3, 0, 4, 0]);
        assert_eq!(bytes[2..4], (4095u16 << 4 | 1).to_le_bytes());
    }

    #[test]
    fn attributes_read_back_as_written() {
        let records = [
            (AttributeRecord::int(1, -5), RawValue::Int(-5)),
            (AttributeRecord::bool(2, true), RawValue::Bool(1)),
            (AttributeRecord::float(3, 1.5), RawValue::Float(1.5)),
            (
                AttributeRecord::string(4, address(2, 9), 0x3fff),
                RawValue::Str(address(2, 9)),
            ),
        ];
        for arch in [Arch::X64, Arch::X86] {
            for (record, value) in records {
                let mut out = Vec::new();
                record.write(arch, &mut out);
                assert_eq!(out.len(), arch.attribute_size());
                let back = AttributeRecord::read(&out, 0);
                assert_eq!(back, record);
                assert_eq!(back.value(), value);
                assert_eq!(back.unexpected_extended(), None);
            }
        }
        let mut out = Vec::new();
        AttributeRecord::string(4, address(2, 9), 0x1234).write(Arch::X86, &mut out);
        // Type 0x1234 << 2 | 3 = 0x48d3; the address 2:9.
        assert_eq!(out, [4, 0, 0xd3, 0x48, 2, 0, 9, 0]);
        let odd = AttributeRecord::read(&[1, 0, 2 | 1 << 2, 0, 0, 0, 0, 0], 0);
        assert_eq!(odd.unexpected_extended(), Some(1));
        assert_eq!(
            AttributeRecord::read(&[1, 0, 0, 0, 0, 0, 0, 0], 0).value(),
            RawValue::Untyped(0)
        );
    }

    #[test]
    fn entries_and_keys_read_back_as_written() {
        let entry = StringEntry {
            hash: 0xdead_beef,
            length: 5,
            index: 2,
            address: address(0, 40),
        };
        let mut out = Vec::new();
        entry.write(&mut out);
        assert_eq!(out.len(), STRING_ENTRY_SIZE);
        assert_eq!(StringEntry::read(&out, 0), entry);
        let mut out = Vec::new();
        write_key(&[1, 2, 0, 4], &mut out);
        assert_eq!(out.len(), KEY_SIZE);
        assert_eq!(read_key(&out, 0), [1, 2, 0, 4]);
    }
}
