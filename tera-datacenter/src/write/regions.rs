//! The regions of a file as the writer fills them (segmented records and
//! string tables), and the file serialized from them.

use std::io::{self, Write};

use super::error::WriteError;
use super::options::WriteOptions;
use crate::address::Address;
use crate::bytes::put32;
use crate::hash::bucket_of;
use crate::layout::Version;
use crate::records::{
    ADDRESS_SIZE, KEY_SIZE, STRING_ENTRY_SIZE, StringEntry, put_address, write_key,
};

/// Most elements a segment holds.
pub(crate) const SEGMENT_MAX: usize = 65535;

/// Segmented records, appended in runs: a run stays in one segment.
pub(crate) struct Records {
    what: &'static str,
    size: usize,
    segments: Vec<Vec<u8>>,
}

impl Records {
    pub(crate) fn new(what: &'static str, size: usize) -> Self {
        Records {
            what,
            size,
            segments: vec![Vec::new()],
        }
    }

    /// Appends a run of whole records (at most [`SEGMENT_MAX`]), in a new
    /// segment when the last one cannot hold it.
    pub(crate) fn append(&mut self, run: &[u8]) -> Result<Address, WriteError> {
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
    pub(crate) fn run(&self, at: Address, len: usize) -> &[u8] {
        &self.segments[at.segment as usize][at.element as usize * self.size..][..len]
    }

    /// Overwrites the record at `at`.
    pub(crate) fn set(&mut self, at: Address, record: &[u8]) {
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

/// A string table: strings in index order, with their hashes and addresses.
pub(crate) struct Strings {
    buckets: usize,
    /// The data segments: NUL-terminated UTF-16 strings.
    pub(crate) data: Vec<Vec<u16>>,
    /// Per one-based index - 1: hash, length with the NUL, address.
    pub(crate) entries: Vec<(u32, u32, Address)>,
}

impl Strings {
    pub(crate) fn new(buckets: usize) -> Self {
        Strings {
            buckets,
            data: vec![Vec::new()],
            entries: Vec::new(),
        }
    }

    fn byte_len(&self) -> usize {
        4 + self.data.iter().map(|s| 8 + 2 * s.len()).sum::<usize>()
            + self.buckets * 4
            + self.entries.len() * STRING_ENTRY_SIZE
            + 4
            + ADDRESS_SIZE * self.entries.len()
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
        let mut buckets: Vec<Vec<StringEntry>> = vec![Vec::new(); self.buckets];
        for (i, &(hash, length, address)) in self.entries.iter().enumerate() {
            buckets[bucket_of(hash, self.buckets)].push(StringEntry {
                hash,
                length,
                index: i as u32 + 1,
                address,
            });
        }
        for mut bucket in buckets {
            // Stable: colliding hashes keep index order.
            bucket.sort_by_key(|e| e.hash);
            bytes.clear();
            put32(&mut bytes, bucket.len() as u32);
            bucket.iter().for_each(|e| e.write(&mut bytes));
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

/// The regions of a file, laid out but not yet serialized. It borrows
/// nothing from the tree it was laid out from, which can be dropped first.
pub(crate) struct Encoded {
    pub(crate) options: WriteOptions,
    pub(crate) keys: Vec<[u16; 4]>,
    pub(crate) attributes: Records,
    pub(crate) nodes: Records,
    pub(crate) values: Strings,
    pub(crate) names: Strings,
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
            + self.keys.len() * KEY_SIZE
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
        self.keys.iter().for_each(|k| write_key(k, &mut head));
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
