//! The writer: a valid, deterministic file from an [`OwnedElement`] tree.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;

use foldhash::fast::FixedState;
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
    /// Store identical attribute runs and identical child runs once, as the
    /// official files do (several elements then point at the same records).
    pub dedup: bool,
}

impl Default for WriteOptions {
    /// 64-bit, version 6, revision 0, timestamp -1.0 (what writers put),
    /// deduplicated.
    fn default() -> Self {
        WriteOptions {
            arch: Arch::X64,
            version: Version::V6,
            revision: 0,
            timestamp: -1.0,
            dedup: true,
        }
    }
}

/// Segmented records, appended in runs: a run stays in one segment.
struct Records {
    what: &'static str,
    size: usize,
    segments: Vec<Vec<u8>>,
}

impl Records {
    fn new(what: &'static str, size: usize) -> Self {
        Records {
            what,
            size,
            segments: vec![Vec::new()],
        }
    }

    /// Appends a run of whole records (at most [`SEGMENT_MAX`]), in a new
    /// segment when the last one cannot hold it.
    fn append(&mut self, run: &[u8]) -> Result<Address, WriteError> {
        let n = run.len() / self.size;
        if n == 0 {
            return Ok(Address::NONE);
        }
        let last = self.segments.last().map_or(0, Vec::len) / self.size;
        if last + n > SEGMENT_MAX {
            if self.segments.len() >= u16::MAX as usize {
                return Err(WriteError::TooManySegments(self.what));
            }
            self.segments.push(Vec::new());
        }
        let segment = self.segments.len() - 1;
        let seg = &mut self.segments[segment];
        let element = seg.len() / self.size;
        seg.extend_from_slice(run);
        Ok(Address {
            segment: segment as u16,
            element: element as u16,
        })
    }

    /// The `len` bytes of records from `at`.
    fn run(&self, at: Address, len: usize) -> &[u8] {
        &self.segments[at.segment as usize][at.element as usize * self.size..][..len]
    }

    /// Overwrites the record at `at`.
    fn set(&mut self, at: Address, record: &[u8]) {
        let start = at.element as usize * self.size;
        self.segments[at.segment as usize][start..start + self.size].copy_from_slice(record);
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

/// A string table: strings in index order, their hashes and addresses.
struct Strings {
    buckets: usize,
    data: Vec<Vec<u16>>,
    entries: Vec<(u32, u32, Address)>,
}

/// A string table being built, each string added once.
struct Interner<'t> {
    strings: Strings,
    /// Address, one-based index and value hash of each string.
    map: HashMap<&'t str, (Address, u32, u16), FixedState>,
}

impl<'t> Interner<'t> {
    fn new(buckets: usize) -> Self {
        Interner {
            strings: Strings {
                buckets,
                data: vec![Vec::new()],
                entries: Vec::new(),
            },
            map: HashMap::with_hasher(FixedState::with_seed(0)),
        }
    }

    /// The address, one-based index and value hash of `s`, added if new.
    fn intern(&mut self, s: &'t str) -> Result<(Address, u32, u16), WriteError> {
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

impl Strings {
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

fn address_bytes(a: Address) -> [u8; 4] {
    let [s0, s1] = a.segment.to_le_bytes();
    let [e0, e1] = a.element.to_le_bytes();
    [s0, s1, e0, e1]
}

fn put_address(out: &mut Vec<u8>, a: Address) {
    out.extend_from_slice(&address_bytes(a));
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
/// children are stored sorted by name index (children stably), children are
/// laid out before their parent (the root at 0:0), identical attribute runs
/// and child runs are stored once unless [`WriteOptions::dedup`] is off, one
/// key (all zero) is defined, and every region's capacity equals its used
/// count: the same tree always gives the same bytes.
pub fn write_dec(root: &OwnedElement, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    if root.name != "__root__" {
        return Err(WriteError::RootName(root.name.clone()));
    }
    if !root.attributes.is_empty() {
        return Err(WriteError::RootAttributes);
    }
    let source = OwnedSource::new(root)?;
    Ok(encode(&source, options)?.into_bytes())
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

/// The regions of a file, laid out but not yet serialized. It borrows
/// nothing from the tree it was laid out from, which can be dropped first.
pub(crate) struct Encoded {
    options: WriteOptions,
    keys: Vec<[u16; 4]>,
    attributes: Records,
    nodes: Records,
    values: Strings,
    names: Strings,
}

impl Encoded {
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

    /// The whole file in one buffer, freeing each part once it is copied.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.byte_len());
        self.serialize(&mut out)
            .expect("writing to a Vec cannot fail");
        out
    }
}

/// Most key definitions a file may have.
const KEYS_MAX: usize = 4096;

/// Runs of records stored once: a run of the same bytes is found again by
/// its hash and given the address of the first one.
#[derive(Default)]
struct RunIndex {
    runs: HashMap<u64, Address, FixedState>,
}

impl RunIndex {
    /// The address of `run` in `records`: an identical run already there
    /// when `share`, else a new one.
    fn place(
        &mut self,
        records: &mut Records,
        run: &[u8],
        share: bool,
    ) -> Result<Address, WriteError> {
        if run.is_empty() {
            return Ok(Address::NONE);
        }
        if !share {
            return records.append(run);
        }
        // A fixed seed: the same tree gives the same file.
        let hash = FixedState::with_seed(0).hash_one(run);
        if let Some(&at) = self.runs.get(&hash) {
            // A hash collision keeps the new run apart.
            if records.run(at, run.len()) == run {
                return Ok(at);
            }
            return records.append(run);
        }
        let at = records.append(run)?;
        self.runs.insert(hash, at);
        Ok(at)
    }
}

/// One element being laid out: its sorted children are
/// `pending[children.clone()]`, of which `next` are done, and their records
/// are `finished[records..]`.
struct Frame<N> {
    node: N,
    children: std::ops::Range<usize>,
    next: usize,
    records: usize,
}

/// Lays out a tree: children before their parent (the root at 0:0),
/// attributes sorted by name index, children stably by name index then by
/// the values of their key attributes, key definition 0 with no keys, and
/// with [`WriteOptions::dedup`] identical attribute runs and child runs
/// stored once.
pub(crate) fn encode<S: Source>(source: &S, options: &WriteOptions) -> Result<Encoded, WriteError> {
    let mut layout = Layout::new(source, options);
    let root_at = layout.nodes.append(&vec![0; options.arch.node_size()])?;
    debug_assert_eq!(
        root_at,
        Address {
            segment: 0,
            element: 0
        }
    );
    let mut pending: Vec<S::Node> = Vec::new();
    let mut finished: Vec<u8> = Vec::new();
    let mut stack = vec![layout.open(source.root(), &mut pending, finished.len())];
    while let Some(top) = stack.last_mut() {
        if top.next < top.children.end {
            let child = pending[top.next];
            top.next += 1;
            let frame = layout.open(child, &mut pending, finished.len());
            stack.push(frame);
            continue;
        }
        let frame = stack.pop().expect("non-empty");
        let record = layout.close(&frame, &finished[frame.records..])?;
        let record = &record[..options.arch.node_size()];
        finished.truncate(frame.records);
        pending.truncate(frame.children.start);
        if stack.is_empty() {
            layout.nodes.set(root_at, record);
        } else {
            finished.extend_from_slice(record);
        }
    }
    layout.finish()
}

/// The state of [`encode`]: the regions filled so far and scratch buffers.
struct Layout<'s, S: Source> {
    source: &'s S,
    options: WriteOptions,
    keys: Vec<[u16; 4]>,
    key_index: HashMap<[u16; 4], u16>,
    nodes: Records,
    attributes: Records,
    values: Interner<'s>,
    node_runs: RunIndex,
    attribute_runs: RunIndex,
    attrs: Vec<(u16, ValueRef<'s>)>,
    run: Vec<u8>,
    children: Vec<S::Node>,
    child_keys: Vec<(u16, [Option<ValueRef<'s>>; 4])>,
    order: Vec<usize>,
    scratch: Vec<(u16, ValueRef<'s>)>,
}

impl<'s, S: Source> Layout<'s, S> {
    fn new(source: &'s S, options: &WriteOptions) -> Self {
        Layout {
            source,
            options: *options,
            keys: vec![[0; 4]],
            key_index: HashMap::from([([0; 4], 0)]),
            nodes: Records::new("nodes", options.arch.node_size()),
            attributes: Records::new("attributes", options.arch.attribute_size()),
            values: Interner::new(VALUE_BUCKETS),
            node_runs: RunIndex::default(),
            attribute_runs: RunIndex::default(),
            attrs: Vec::new(),
            run: Vec::new(),
            children: Vec::new(),
            child_keys: Vec::new(),
            order: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn name_of(&self, index: u16) -> &'s str {
        self.source.names()[index as usize - 1]
    }

    /// Starts an element: its children, sorted, are appended to `pending`.
    fn open(
        &mut self,
        node: S::Node,
        pending: &mut Vec<S::Node>,
        records: usize,
    ) -> Frame<S::Node> {
        self.children.clear();
        self.source.children(node, &mut self.children);
        sort_children(
            self.source,
            &self.children,
            &mut self.child_keys,
            &mut self.order,
            &mut self.scratch,
        );
        let start = pending.len();
        pending.extend(self.order.iter().map(|&i| self.children[i]));
        Frame {
            node,
            children: start..pending.len(),
            next: start,
            records,
        }
    }

    /// Ends an element whose children's records are `child_records`: places
    /// its attribute run and child run and returns its own record (the first
    /// [`Arch::node_size`] bytes).
    fn close(
        &mut self,
        frame: &Frame<S::Node>,
        child_records: &[u8],
    ) -> Result<[u8; 24], WriteError> {
        let node = frame.node;
        let name = self.source.name(node);
        let child_count = frame.children.len();
        if child_count > SEGMENT_MAX {
            return Err(self.too_many(name, "children", child_count));
        }
        let attr_count = self.attribute_run(node, name)?;
        let share = self.options.dedup;
        let attr_at = self
            .attribute_runs
            .place(&mut self.attributes, &self.run, share)?;
        let child_at = self
            .node_runs
            .place(&mut self.nodes, child_records, share)?;
        let key = self.key_definition(node)?;
        // The padding words of 64-bit records stay zero.
        let mut record = [0; 24];
        record[0..2].copy_from_slice(&name.to_le_bytes());
        record[2..4].copy_from_slice(&(key << 4).to_le_bytes());
        record[4..6].copy_from_slice(&(attr_count as u16).to_le_bytes());
        record[6..8].copy_from_slice(&(child_count as u16).to_le_bytes());
        record[8..12].copy_from_slice(&address_bytes(attr_at));
        let children = self.options.arch.node_size() / 2 + 4;
        record[children..children + 4].copy_from_slice(&address_bytes(child_at));
        Ok(record)
    }

    fn too_many(&self, name: u16, what: &'static str, count: usize) -> WriteError {
        WriteError::TooMany {
            name: self.name_of(name).into(),
            what,
            count,
        }
    }

    /// Encodes the element's attributes, sorted by name, into `self.run`;
    /// returns how many there are.
    fn attribute_run(&mut self, node: S::Node, name: u16) -> Result<usize, WriteError> {
        self.attrs.clear();
        self.source.attributes(node, &mut self.attrs);
        if self.attrs.len() > SEGMENT_MAX {
            return Err(self.too_many(name, "attributes", self.attrs.len()));
        }
        self.attrs.sort_by_key(|a| a.0);
        if let Some(w) = self.attrs.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(WriteError::DuplicateAttribute {
                element: self.name_of(name).into(),
                name: self.name_of(w[0].0).into(),
            });
        }
        self.run.clear();
        for &(attr_name, value) in &self.attrs {
            let (info, raw) = match value {
                _ if self.name_of(attr_name) == "__value__"
                    && !matches!(value, ValueRef::Str(_)) =>
                {
                    return Err(WriteError::ValueNotString(self.name_of(name).into()));
                }
                ValueRef::Int(v) => (1u16, v as u32),
                ValueRef::Bool(v) => (1 | 1 << 2, v as u32),
                ValueRef::Float(v) => (2, v.to_bits()),
                ValueRef::Str(s) => {
                    let (a, _, hash) = self.values.intern(s)?;
                    (3 | hash << 2, (a.element as u32) << 16 | a.segment as u32)
                }
            };
            self.run.extend_from_slice(&attr_name.to_le_bytes());
            self.run.extend_from_slice(&info.to_le_bytes());
            put32(&mut self.run, raw);
            if self.options.arch == Arch::X64 {
                put32(&mut self.run, 0);
            }
        }
        Ok(self.attrs.len())
    }

    /// The index of the element's key definition, added if new.
    fn key_definition(&mut self, node: S::Node) -> Result<u16, WriteError> {
        let key = self.source.key(node);
        if let Some(&k) = self.key_index.get(&key) {
            return Ok(k);
        }
        if self.keys.len() >= KEYS_MAX {
            return Err(WriteError::TooManyKeys(self.keys.len() + 1));
        }
        let k = self.keys.len() as u16;
        self.keys.push(key);
        self.key_index.insert(key, k);
        Ok(k)
    }

    fn finish(self) -> Result<Encoded, WriteError> {
        let mut names = Interner::new(NAME_BUCKETS);
        for n in self.source.names() {
            names.intern(n)?;
        }
        Ok(Encoded {
            options: self.options,
            keys: self.keys,
            attributes: self.attributes,
            nodes: self.nodes,
            values: self.values.strings,
            names: names.strings,
        })
    }
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
