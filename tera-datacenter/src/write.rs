//! The writer: a valid, deterministic file from an [`OwnedElement`] tree.

use std::collections::{HashMap, HashSet, VecDeque};

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

    fn serialize(&self, out: &mut Vec<u8>) {
        put32(out, self.segments.len() as u32);
        for s in &self.segments {
            let n = (s.len() / self.size) as u32;
            put32(out, n);
            put32(out, n);
            out.extend_from_slice(s);
        }
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

    fn serialize(&self, out: &mut Vec<u8>) {
        put32(out, self.data.len() as u32);
        for seg in &self.data {
            put32(out, seg.len() as u32);
            put32(out, seg.len() as u32);
            seg.iter()
                .for_each(|u| out.extend_from_slice(&u.to_le_bytes()));
        }
        let mut buckets: Vec<Vec<(u32, u32, u32, Address)>> = vec![Vec::new(); self.buckets];
        for (i, &(hash, len, address)) in self.entries.iter().enumerate() {
            buckets[bucket_of(hash, self.buckets)].push((hash, len, i as u32 + 1, address));
        }
        for mut bucket in buckets {
            // Stable: colliding hashes keep index order.
            bucket.sort_by_key(|e| e.0);
            put32(out, bucket.len() as u32);
            for (hash, len, index, address) in bucket {
                put32(out, hash);
                put32(out, len);
                put32(out, index);
                put_address(out, address);
            }
        }
        put32(out, self.entries.len() as u32 + 1);
        self.entries.iter().for_each(|e| put_address(out, e.2));
    }
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_address(out: &mut Vec<u8>, a: Address) {
    out.extend_from_slice(&a.segment.to_le_bytes());
    out.extend_from_slice(&a.element.to_le_bytes());
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
    let name_index = index_names(root)?;
    let arch = options.arch;
    let mut nodes = Records::new("nodes", arch.node_size());
    let mut attributes = Records::new("attributes", arch.attribute_size());
    let mut values = Strings::new(VALUE_BUCKETS);
    let mut record = Vec::with_capacity(arch.node_size());

    let mut queue = VecDeque::from([(root, nodes.reserve(1)?)]);
    while let Some((e, at)) = queue.pop_front() {
        let too_many = |what, count| WriteError::TooMany {
            name: e.name.clone(),
            what,
            count,
        };
        if e.attributes.len() > SEGMENT_MAX {
            return Err(too_many("attributes", e.attributes.len()));
        }
        if e.children.len() > SEGMENT_MAX {
            return Err(too_many("children", e.children.len()));
        }
        let mut attrs: Vec<(u16, &str, &OwnedValue)> = e
            .attributes
            .iter()
            .map(|(n, v)| (name_index[n.as_str()], n.as_str(), v))
            .collect();
        attrs.sort_by_key(|a| a.0);
        if let Some(w) = attrs.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(WriteError::DuplicateAttribute {
                element: e.name.clone(),
                name: w[0].1.into(),
            });
        }
        let attr_at = attributes.reserve(attrs.len())?;
        for (i, &(name, attr_name, value)) in attrs.iter().enumerate() {
            let (info, raw) = match value {
                _ if attr_name == "__value__" && !matches!(value, OwnedValue::Str(_)) => {
                    return Err(WriteError::ValueNotString(e.name.clone()));
                }
                OwnedValue::Int(v) => (1u16, *v as u32),
                OwnedValue::Bool(v) => (1 | 1 << 2, *v as u32),
                OwnedValue::Float(v) => (2, v.to_bits()),
                OwnedValue::Str(s) => {
                    let (a, _) = values.intern(s)?;
                    (
                        3 | value_hash(s.encode_utf16()) << 2,
                        (a.element as u32) << 16 | a.segment as u32,
                    )
                }
            };
            record.clear();
            record.extend_from_slice(&name.to_le_bytes());
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
        let mut order: Vec<&OwnedElement> = e.children.iter().collect();
        order.sort_by_key(|c| name_index[c.name.as_str()]);
        let child_at = nodes.reserve(order.len())?;
        record.clear();
        record.extend_from_slice(&name_index[e.name.as_str()].to_le_bytes());
        record.extend_from_slice(&0u16.to_le_bytes());
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
        for (i, c) in order.into_iter().enumerate() {
            queue.push_back((
                c,
                Address {
                    segment: child_at.segment,
                    element: child_at.element + i as u16,
                },
            ));
        }
    }

    let mut names = Strings::new(NAME_BUCKETS);
    let mut sorted: Vec<&str> = name_index.keys().copied().collect();
    sorted.sort_by_key(|n| name_index[n]);
    for n in sorted {
        names.intern(n)?;
    }

    let mut out = Vec::new();
    put32(&mut out, options.version.number() as u32);
    out.extend_from_slice(&options.timestamp.to_le_bytes());
    if options.version == Version::V6 {
        put32(&mut out, options.revision);
    }
    out.extend_from_slice(&[0; 16]);
    put32(&mut out, 1);
    out.extend_from_slice(&[0; 8]);
    attributes.serialize(&mut out);
    nodes.serialize(&mut out);
    values.serialize(&mut out);
    names.serialize(&mut out);
    put32(&mut out, 0);
    Ok(out)
}

/// Every name of the tree with its one-based index in name order.
fn index_names(root: &OwnedElement) -> Result<HashMap<&str, u16>, WriteError> {
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
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, i as u16 + 1))
        .collect())
}
