//! The physical layout: header, regions and segments, found without looking
//! inside the elements.

use crate::address::Address;
use crate::bytes::{u16_at, u32_at};
use crate::problem::{Place, Problem, ProblemKind, Table};
use crate::records::{ADDRESS_SIZE, Arch, KEY_SIZE, STRING_ENTRY_SIZE};

/// The format version in the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// Version 3: no revision field in the header.
    V3,
    /// Version 6: the header has a revision.
    V6,
}

impl Version {
    /// The number written in the header.
    pub const fn number(self) -> i32 {
        match self {
            Version::V3 => 3,
            Version::V6 => 6,
        }
    }
}

/// The file header.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// Format version.
    pub version: Version,
    /// Production time (writers put -1.0).
    pub timestamp: f64,
    /// Data revision (version 6 only).
    pub revision: Option<u32>,
    /// The five schema fields, always zero in valid files.
    pub unknown: [i32; 5],
}

/// One segment of a region: the records from `offset`, of which `used` count
/// (the rest, up to the capacity, is ignored).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Segment {
    pub header: usize,
    pub offset: usize,
    pub used: u32,
}

/// The three regions of a string table.
#[derive(Debug, Clone)]
pub(crate) struct TableLayout {
    pub data: Vec<Segment>,
    /// (offset of the first entry, entry count) of each bucket.
    pub buckets: Vec<(usize, usize)>,
    pub addresses: usize,
    pub address_count: usize,
}

pub(crate) const VALUE_BUCKETS: usize = 1024;
pub(crate) const NAME_BUCKETS: usize = 512;

/// Where everything is.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub arch: Arch,
    pub header: Header,
    pub keys: usize,
    pub key_count: usize,
    pub attributes: Vec<Segment>,
    pub nodes: Vec<Segment>,
    pub values: TableLayout,
    pub names: TableLayout,
    pub footer: usize,
}

/// Fields read one after another from bytes already taken by a [`Cursor`].
struct Fields<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    fn at(b: &'a [u8], pos: usize) -> Self {
        Fields { b, pos }
    }

    fn u16(&mut self) -> u16 {
        self.pos += 2;
        u16_at(self.b, self.pos - 2)
    }

    fn u32(&mut self) -> u32 {
        self.pos += 4;
        u32_at(self.b, self.pos - 4)
    }

    fn f64(&mut self) -> f64 {
        let low = self.u32();
        let high = self.u32();
        f64::from_bits(u64::from(high) << 32 | u64::from(low))
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take(&mut self, len: u64, what: &'static str) -> Result<usize, Problem> {
        let start = self.pos;
        let end = (start as u64)
            .checked_add(len)
            .filter(|&e| e <= self.b.len() as u64);
        match end {
            Some(end) => {
                self.pos = end as usize;
                Ok(start)
            }
            None => Err(Problem::new(
                start,
                Place::File,
                ProblemKind::Truncated { what },
            )),
        }
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, Problem> {
        let o = self.take(4, what)?;
        Ok(u32_at(self.b, o))
    }

    fn segmented(&mut self, size: usize, what: &'static str) -> Result<Vec<Segment>, Problem> {
        let count = self.u32(what)?;
        // Each segment needs at least its 8-byte header: bound the allocation.
        let mut segments = Vec::with_capacity((count as usize).min(self.b.len() / 8));
        for i in 0..count {
            let header = self.take(8, what)?;
            let mut fields = Fields::at(self.b, header);
            let capacity = fields.u32();
            let used = fields.u32();
            if used > capacity {
                return Err(Problem::new(
                    header,
                    Place::Segment(what, i),
                    ProblemKind::UsedExceedsCapacity { used, capacity },
                ));
            }
            let offset = self.take(capacity as u64 * size as u64, what)?;
            segments.push(Segment {
                header,
                offset,
                used,
            });
        }
        Ok(segments)
    }

    fn table(&mut self, table: Table, buckets: usize) -> Result<TableLayout, Problem> {
        let name = table.name();
        let data = self.segmented(
            2,
            match table {
                Table::Values => "values data",
                Table::Names => "names data",
            },
        )?;
        let mut bucket_list = Vec::with_capacity(buckets);
        for _ in 0..buckets {
            let count = self.u32(name)?;
            let offset = self.take(count as u64 * STRING_ENTRY_SIZE as u64, name)?;
            bucket_list.push((offset, count as usize));
        }
        let at = self.pos;
        let declared = self.u32(name)?;
        if declared == 0 {
            return Err(Problem::new(
                at,
                Place::Table(table),
                ProblemKind::ZeroAddressCount,
            ));
        }
        let address_count = declared as usize - 1;
        let addresses = self.take(address_count as u64 * ADDRESS_SIZE as u64, name)?;
        Ok(TableLayout {
            data,
            buckets: bucket_list,
            addresses,
            address_count,
        })
    }
}

/// Reads the header and the region structure with the given element layout.
pub(crate) fn parse_layout(b: &[u8], arch: Arch) -> Result<Layout, Problem> {
    let mut c = Cursor { b, pos: 0 };
    let o = c.take(12, "header")?;
    let mut fields = Fields::at(b, o);
    let version = match fields.u32() as i32 {
        3 => Version::V3,
        6 => Version::V6,
        v => {
            return Err(Problem::new(
                o,
                Place::Header,
                ProblemKind::UnknownVersion(v),
            ));
        }
    };
    let timestamp = fields.f64();
    let revision = match version {
        Version::V6 => Some(c.u32("header")?),
        Version::V3 => None,
    };
    let mut fields = Fields::at(b, c.take(16, "header")?);
    let unknown = [
        fields.u16() as i16 as i32,
        fields.u16() as i16 as i32,
        fields.u32() as i32,
        fields.u32() as i32,
        fields.u32() as i32,
    ];
    let header = Header {
        version,
        timestamp,
        revision,
        unknown,
    };
    let key_count = c.u32("keys")? as usize;
    let keys = c.take(key_count as u64 * KEY_SIZE as u64, "keys")?;
    let attributes = c.segmented(arch.attribute_size(), "attributes")?;
    let nodes = c.segmented(arch.node_size(), "nodes")?;
    let values = c.table(Table::Values, VALUE_BUCKETS)?;
    let names = c.table(Table::Names, NAME_BUCKETS)?;
    let footer = c.take(4, "footer")?;
    if c.pos != b.len() {
        return Err(Problem::new(
            c.pos,
            Place::File,
            ProblemKind::TrailingBytes {
                len: b.len() - c.pos,
            },
        ));
    }
    Ok(Layout {
        arch,
        header,
        keys,
        key_count,
        attributes,
        nodes,
        values,
        names,
        footer,
    })
}

/// Reads the layout with the given architecture, or finds the one that reads
/// the file exactly to its end.
pub(crate) fn detect_layout(b: &[u8], arch: Option<Arch>) -> Result<Layout, Problem> {
    match arch {
        Some(arch) => parse_layout(b, arch),
        None => match parse_layout(b, Arch::X64) {
            Ok(l) => Ok(l),
            Err(x64) => parse_layout(b, Arch::X86).map_err(|x86| match x64.kind {
                // Same failure whatever the layout: report it once.
                ProblemKind::UnknownVersion(_) => x64,
                _ => Problem::new(
                    0,
                    Place::File,
                    ProblemKind::NoLayoutFits {
                        x64: Box::new(x64),
                        x86: Box::new(x86),
                    },
                ),
            }),
        },
    }
}

impl Layout {
    /// Byte offset of `count` records of `size` bytes at `a` in `segments`,
    /// when they are all within the used part.
    pub(crate) fn locate(
        segments: &[Segment],
        a: Address,
        count: u32,
        size: usize,
    ) -> Option<usize> {
        let s = segments.get(a.segment as usize)?;
        (a.element as u32 + count <= s.used).then(|| s.offset + a.element as usize * size)
    }

    /// The UTF-16 bytes of the NUL-terminated string at `a` in a table's data,
    /// up to the NUL or the end of the used part of its segment.
    pub(crate) fn string_at<'a>(b: &'a [u8], data: &[Segment], a: Address) -> Option<&'a [u8]> {
        let s = data.get(a.segment as usize)?;
        if a.element as u32 >= s.used {
            return None;
        }
        let start = s.offset + a.element as usize * 2;
        let end = s.offset + s.used as usize * 2;
        let len = b[start..end]
            .chunks_exact(2)
            .position(|p| p == [0, 0])
            .unwrap_or((end - start) / 2);
        Some(&b[start..start + len * 2])
    }
}
