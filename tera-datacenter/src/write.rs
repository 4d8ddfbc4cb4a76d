//! The writer: a valid, deterministic file from an [`OwnedElement`] tree.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, Write};

use crate::hash::{bucket_of, string_hash, value_hash};
use crate::layout::{Arch, NAME_BUCKETS, VALUE_BUCKETS, Version};
use crate::owned::name_order;
use crate::{Address, OwnedElement, OwnedValue, WriteError};

/// Most elements a segment holds.
const SEGMENT_MAX: usize = 65535;

/// How to write a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WriteOptions {
    /// Element layout.
    pub arch: Arch,
    /// Format version.
    pub version: Version,
    /// Data revision (written for version 6 only).
    pub revision: u32,
    /// Header timestamp.
    pub timestamp: f64,
}

impl Default for WriteOptions {
    /// 64-bit, version 6, revision 0, timestamp -1.0 (what writers put).
    fn default() -> Self {
        WriteOptions {
            arch: Arch::X64,
            version: Version::V6,
            revision: 0,
            timestamp: -1.0,
        }
    }
}

/// Segmented records written in order: each block of `n` records stays in one
/// segment.
struct Records {
    what: &'static str,
    size: usize,
    segments: Vec<Vec<u8>>,
    reserved: Vec<usize>,
}

impl Records {
    fn new(what: &'static str, size: usize) -> Self {
        Records {
            what,
            size,
            segments: vec![Vec::new()],
            reserved: vec![0],
        }
    }

    /// Reserves `n` consecutive records (n <= SEGMENT_MAX).
    fn reserve(&mut self, n: usize) -> Result<Address, WriteError> {
        if n == 0 {
            return Ok(Address::NONE);
        }
        if self.reserved.last().copied().unwrap_or(0) + n > SEGMENT_MAX {
            if self.segments.len() >= u16::MAX as usize {
                return Err(WriteError::TooManySegments(self.what));
            }
            self.segments.push(Vec::new());
            self.reserved.push(0);
        }
        let segment = self.reserved.len() - 1;
        let element = self.reserved[segment];
        self.reserved[segment] += n;
        Ok(Address {
            segment: segment as u16,
            element: element as u16,
        })
    }

    /// Appends the record at `at`, which is the next one in order.
    fn push(&mut self, at: Address, record: &[u8]) {
        let seg = &mut self.segments[at.segment as usize];
        debug_assert_eq!(seg.len(), at.element as usize * self.size);
        seg.extend_from_slice(record);
    }

    fn byte_len(&self) -> usize {
        4 + self.segments.iter().map(|s| 8 + s.len()).sum::<usize>()
    }

    /// Writes the region, freeing each segment once it is written.
    fn serialize(self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&(self.segments.len() as u32).to_le_bytes())?;
        for s in self.segments {
            let n = (s.len() / self.size) as u32;
            out.write_all(&n.to_le_bytes())?;
            out.write_all(&n.to_le_bytes())?;
            out.write_all(&s)?;
        }
        Ok(())
    }
}

/// A string table being built: interned strings in insertion order.
struct Strings<'t> {
    buckets: usize,
    data: Vec<Vec<u16>>,
    entries: Vec<(u32, u32, Address)>,
    map: HashMap<&'t str, (Address, u32)>,
}

impl<'t> Strings<'t> {
    fn new(buckets: usize) -> Self {
        Strings {
            buckets,
            data: vec![Vec::new()],
            entries: Vec::new(),
            map: HashMap::new(),
        }
    }

    /// The address and one-based index of `s`, added if new.
    fn intern(&mut self, s: &'t str) -> Result<(Address, u32), WriteError> {
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
        if self.data.last().map_or(0, Vec::len) + units.len() + 1 > SEGMENT_MAX {
            if self.data.len() >= u16::MAX as usize {
                return Err(WriteError::TooManySegments("string data"));
            }
            self.data.push(Vec::new());
        }
        let segment = (self.data.len() - 1) as u16;
        let seg = self.data.last_mut().expect("one segment at least");
        let address = Address {
            segment,
            element: seg.len() as u16,
        };
        seg.extend_from_slice(&units);
        seg.push(0);
        self.entries.push((
            string_hash(units.iter().copied()),
            units.len() as u32 + 1,
            address,
        ));
        let index = self.entries.len() as u32;
        self.map.insert(s, (address, index));
        Ok((address, index))
    }

    fn byte_len(&self) -> usize {
        4 + self.data.iter().map(|s| 8 + 2 * s.len()).sum::<usize>()
            + self.buckets * 4
            + self.entries.len() * 16
            + 4
            + 4 * self.entries.len()
    }

    /// Writes the table, freeing each data segment once it is written.
    fn serialize(self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&(self.data.len() as u32).to_le_bytes())?;
        let mut bytes = Vec::new();
        for seg in self.data {
            bytes.clear();
            put32(&mut bytes, seg.len() as u32);
            put32(&mut bytes, seg.len() as u32);
            seg.iter()
                .for_each(|u| bytes.extend_from_slice(&u.to_le_bytes()));
            out.write_all(&bytes)?;
        }
        let mut buckets: Vec<Vec<(u32, u32, u32, Address)>> = vec![Vec::new(); self.buckets];
        for (i, &(hash, len, address)) in self.entries.iter().enumerate() {
            buckets[bucket_of(hash, self.buckets)].push((hash, len, i as u32 + 1, address));
        }
        for mut bucket in buckets {
            // Stable: colliding hashes keep index order.
            bucket.sort_by_key(|e| e.0);
            bytes.clear();
            put32(&mut bytes, bucket.len() as u32);
            for (hash, len, index, address) in bucket {
                put32(&mut bytes, hash);
                put32(&mut bytes, len);
                put32(&mut bytes, index);
                put_address(&mut bytes, address);
            }
            out.write_all(&bytes)?;
        }
        bytes.clear();
        put32(&mut bytes, self.entries.len() as u32 + 1);
        self.entries
            .iter()
            .for_each(|e| put_address(&mut bytes, e.2));
        out.write_all(&bytes)
    }
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_address(out: &mut Vec<u8>, a: Address) {
    out.extend_from_slice(&a.segment.to_le_bytes());
    out.extend_from_slice(&a.element.to_le_bytes());
}

/// A value as the writer takes it: strings borrowed from the tree.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ValueRef<'a> {
    Int(i32),
    Bool(bool),
    Float(f32),
    Str(&'a str),
}

impl ValueRef<'_> {
    /// The order of key values: by type, then numbers by value (floats by
    /// `total_cmp`), strings by UTF-16 code units.
    fn key_order(&self, other: &Self) -> Ordering {
        use ValueRef::*;
        let rank = |v: &ValueRef<'_>| match v {
            Int(_) => 0,
            Bool(_) => 1,
            Float(_) => 2,
            Str(_) => 3,
        };
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Float(a), Float(b)) => a.total_cmp(b),
            (Str(a), Str(b)) => a.encode_utf16().cmp(b.encode_utf16()),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl<'a> From<&'a OwnedValue> for ValueRef<'a> {
    fn from(v: &'a OwnedValue) -> Self {
        match v {
            OwnedValue::Int(v) => ValueRef::Int(*v),
            OwnedValue::Bool(v) => ValueRef::Bool(*v),
            OwnedValue::Float(v) => ValueRef::Float(*v),
            OwnedValue::Str(s) => ValueRef::Str(s),
        }
    }
}

/// A tree the writer can lay out: names are already one-based indexes into
/// [`names`](Source::names), which is in [`name_order`].
pub(crate) trait Source {
    /// A handle on one element.
    type Node: Copy;
    /// The `__root__` element.
    fn root(&self) -> Self::Node;
    /// Every name, in index order (index `i` is `names()[i - 1]`).
    fn names(&self) -> &[&str];
    /// The element's name index.
    fn name(&self, node: Self::Node) -> u16;
    /// The name indexes of the element's key attributes (0: unused slot).
    fn key(&self, node: Self::Node) -> [u16; 4];
    /// Appends the element's attributes to `out`, in any order.
    fn attributes<'s>(&'s self, node: Self::Node, out: &mut Vec<(u16, ValueRef<'s>)>);
    /// Appends the element's children to `out`, in their given order.
    fn children(&self, node: Self::Node, out: &mut Vec<Self::Node>);
}

/// Writes the decompressed (`.dec`) bytes of a tree whose root is a
/// `__root__` element without attributes.
///
/// Names are indexed in [`name_order`](crate::name_order), attributes and
/// children are stored sorted by name index (children stably), elements are
/// laid out breadth first, one key (all zero) is defined, and every region's
/// capacity equals its used count: the same tree always gives the same bytes.
pub fn write_dec(root: &OwnedElement, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    if root.name != "__root__" {
        return Err(WriteError::RootName(root.name.clone()));
    }
    if !root.attributes.is_empty() {
        return Err(WriteError::RootAttributes);
    }
    let source = OwnedSource::new(root)?;
    let encoded = encode(&source, options)?;
    let mut out = Vec::with_capacity(encoded.byte_len());
    encoded
        .serialize(&mut out)
        .expect("writing to a Vec cannot fail");
    Ok(out)
}

/// An [`OwnedElement`] tree as a [`Source`].
struct OwnedSource<'t> {
    root: &'t OwnedElement,
    names: Vec<&'t str>,
    index: HashMap<&'t str, u16>,
}

impl<'t> OwnedSource<'t> {
    fn new(root: &'t OwnedElement) -> Result<Self, WriteError> {
        let mut set: HashSet<&str> = HashSet::from(["__root__", "__value__"]);
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            set.insert(&e.name);
            set.extend(e.attributes.iter().map(|(n, _)| n.as_str()));
            stack.extend(e.children.iter());
        }
        if set.len() > u16::MAX as usize {
            return Err(WriteError::TooManyNames(set.len()));
        }
        let mut names: Vec<&str> = set.into_iter().collect();
        names.sort_by(|a, b| name_order(a, b));
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i as u16 + 1))
            .collect();
        Ok(OwnedSource { root, names, index })
    }
}

impl<'t> Source for OwnedSource<'t> {
    type Node = &'t OwnedElement;

    fn root(&self) -> Self::Node {
        self.root
    }

    fn names(&self) -> &[&str] {
        &self.names
    }

    fn name(&self, node: Self::Node) -> u16 {
        self.index[node.name.as_str()]
    }

    fn key(&self, _: Self::Node) -> [u16; 4] {
        [0; 4]
    }

    fn attributes<'s>(&'s self, node: Self::Node, out: &mut Vec<(u16, ValueRef<'s>)>) {
        out.extend(
            node.attributes
                .iter()
                .map(|(n, v)| (self.index[n.as_str()], v.into())),
        );
    }

    fn children(&self, node: Self::Node, out: &mut Vec<Self::Node>) {
        out.extend(node.children.iter());
    }
}

/// The regions of a file, laid out but not yet serialized.
pub(crate) struct Encoded<'s> {
    options: WriteOptions,
    keys: Vec<[u16; 4]>,
    attributes: Records,
    nodes: Records,
    values: Strings<'s>,
    names: Strings<'s>,
}

impl Encoded<'_> {
    /// The size of the file in bytes.
    pub(crate) fn byte_len(&self) -> usize {
        let header = if self.options.version == Version::V6 {
            32
        } else {
            28
        };
        header
            + 4
            + self.keys.len() * 8
            + self.attributes.byte_len()
            + self.nodes.byte_len()
            + self.values.byte_len()
            + self.names.byte_len()
            + 4
    }

    /// Writes the file, freeing each part once it is written.
    pub(crate) fn serialize(self, out: &mut dyn Write) -> io::Result<()> {
        let mut head = Vec::with_capacity(64);
        put32(&mut head, self.options.version.number() as u32);
        head.extend_from_slice(&self.options.timestamp.to_le_bytes());
        if self.options.version == Version::V6 {
            put32(&mut head, self.options.revision);
        }
        head.extend_from_slice(&[0; 16]);
        put32(&mut head, self.keys.len() as u32);
        for key in &self.keys {
            key.iter()
                .for_each(|k| head.extend_from_slice(&k.to_le_bytes()));
        }
        out.write_all(&head)?;
        self.attributes.serialize(out)?;
        self.nodes.serialize(out)?;
        self.values.serialize(out)?;
        self.names.serialize(out)?;
        out.write_all(&0u32.to_le_bytes())
    }
}

/// Most key definitions a file may have.
const KEYS_MAX: usize = 4096;

/// Lays out a tree: breadth first, attributes sorted by name index,
/// children stably by name index then by the values of their key
/// attributes, key definition 0 with no keys.
pub(crate) fn encode<'s, S: Source>(
    source: &'s S,
    options: &WriteOptions,
) -> Result<Encoded<'s>, WriteError> {
    let arch = options.arch;
    let all_names = source.names();
    let name_of = |i: u16| all_names[i as usize - 1];
    let mut keys: Vec<[u16; 4]> = vec![[0; 4]];
    let mut key_index: HashMap<[u16; 4], u16> = HashMap::from([([0; 4], 0)]);
    let mut nodes = Records::new("nodes", arch.node_size());
    let mut attributes = Records::new("attributes", arch.attribute_size());
    let mut values = Strings::new(VALUE_BUCKETS);
    let mut record = Vec::with_capacity(arch.node_size());
    let mut attrs: Vec<(u16, ValueRef<'s>)> = Vec::new();
    let mut children: Vec<S::Node> = Vec::new();
    let mut child_keys: Vec<(u16, [Option<ValueRef<'s>>; 4])> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    let mut scratch: Vec<(u16, ValueRef<'s>)> = Vec::new();

    let mut queue = VecDeque::from([(source.root(), nodes.reserve(1)?)]);
    while let Some((e, at)) = queue.pop_front() {
        let name = source.name(e);
        let too_many = |what, count| WriteError::TooMany {
            name: name_of(name).into(),
            what,
            count,
        };
        attrs.clear();
        source.attributes(e, &mut attrs);
        children.clear();
        source.children(e, &mut children);
        if attrs.len() > SEGMENT_MAX {
            return Err(too_many("attributes", attrs.len()));
        }
        if children.len() > SEGMENT_MAX {
            return Err(too_many("children", children.len()));
        }
        attrs.sort_by_key(|a| a.0);
        if let Some(w) = attrs.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(WriteError::DuplicateAttribute {
                element: name_of(name).into(),
                name: name_of(w[0].0).into(),
            });
        }
        let attr_at = attributes.reserve(attrs.len())?;
        for (i, &(attr_name, value)) in attrs.iter().enumerate() {
            let (info, raw) = match value {
                _ if name_of(attr_name) == "__value__" && !matches!(value, ValueRef::Str(_)) => {
                    return Err(WriteError::ValueNotString(name_of(name).into()));
                }
                ValueRef::Int(v) => (1u16, v as u32),
                ValueRef::Bool(v) => (1 | 1 << 2, v as u32),
                ValueRef::Float(v) => (2, v.to_bits()),
                ValueRef::Str(s) => {
                    let (a, _) = values.intern(s)?;
                    (
                        3 | value_hash(s.encode_utf16()) << 2,
                        (a.element as u32) << 16 | a.segment as u32,
                    )
                }
            };
            record.clear();
            record.extend_from_slice(&attr_name.to_le_bytes());
            record.extend_from_slice(&info.to_le_bytes());
            put32(&mut record, raw);
            if arch == Arch::X64 {
                put32(&mut record, 0);
            }
            let here = Address {
                segment: attr_at.segment,
                element: attr_at.element + i as u16,
            };
            attributes.push(here, &record);
        }
        sort_children(source, &children, &mut child_keys, &mut order, &mut scratch);
        let key = source.key(e);
        let key = match key_index.get(&key) {
            Some(&k) => k,
            None => {
                if keys.len() >= KEYS_MAX {
                    return Err(WriteError::TooManyKeys(keys.len() + 1));
                }
                let k = keys.len() as u16;
                keys.push(key);
                key_index.insert(key, k);
                k
            }
        };
        let child_at = nodes.reserve(order.len())?;
        record.clear();
        record.extend_from_slice(&name.to_le_bytes());
        record.extend_from_slice(&(key << 4).to_le_bytes());
        record.extend_from_slice(&(attrs.len() as u16).to_le_bytes());
        record.extend_from_slice(&(order.len() as u16).to_le_bytes());
        put_address(&mut record, attr_at);
        if arch == Arch::X64 {
            put32(&mut record, 0);
        }
        put_address(&mut record, child_at);
        if arch == Arch::X64 {
            put32(&mut record, 0);
        }
        nodes.push(at, &record);
        for (i, &c) in order.iter().enumerate() {
            queue.push_back((
                children[c],
                Address {
                    segment: child_at.segment,
                    element: child_at.element + i as u16,
                },
            ));
        }
    }

    let mut names = Strings::new(NAME_BUCKETS);
    for n in all_names {
        names.intern(n)?;
    }
    Ok(Encoded {
        options: *options,
        keys,
        attributes,
        nodes,
        values,
        names,
    })
}

/// The order of `children` in `order`: stably by name index, then by the
/// values of each child's key attributes (a missing one first).
fn sort_children<'s, S: Source>(
    source: &'s S,
    children: &[S::Node],
    child_keys: &mut Vec<(u16, [Option<ValueRef<'s>>; 4])>,
    order: &mut Vec<usize>,
    scratch: &mut Vec<(u16, ValueRef<'s>)>,
) {
    child_keys.clear();
    for &c in children {
        let key = source.key(c);
        let mut values = [None; 4];
        if key != [0; 4] {
            scratch.clear();
            source.attributes(c, scratch);
            for (slot, k) in values.iter_mut().zip(key) {
                *slot = scratch.iter().find(|a| a.0 == k && k != 0).map(|a| a.1);
            }
        }
        child_keys.push((source.name(c), values));
    }
    order.clear();
    order.extend(0..children.len());
    order.sort_by(|&a, &b| {
        let (na, ka) = &child_keys[a];
        let (nb, kb) = &child_keys[b];
        na.cmp(nb).then_with(|| {
            ka.iter()
                .zip(kb)
                .map(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => x.key_order(y),
                    (x, y) => x.is_some().cmp(&y.is_some()),
                })
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    });
}
