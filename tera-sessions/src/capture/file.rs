//! pcap and pcapng files as a stream of frames, read in bounded memory.
//!
//! The formats are parsed by `pcap-parser` (rusticata's, maintained, used by
//! Suricata's tooling): its block parsers run over a buffer this module
//! fills from any `Read`, so that the buffer's size is bounded
//! ([`MAX_BLOCK`]) and a block's claimed length is never trusted beyond it.

use std::io::Read;

use pcap_parser::nom;
use pcap_parser::pcapng::Block;
use pcap_parser::{Linktype, PcapError, PcapHeader};

use super::CaptureError;
use crate::Timestamp;

/// Bytes read at a time.
const READ_CHUNK: usize = 1 << 20;

/// The largest block or record read (a frame's snapshot length is at most
/// 256 KiB in the tools that write captures).
pub(crate) const MAX_BLOCK: usize = 16 << 20;

/// One captured frame.
#[derive(Debug)]
pub(crate) struct Frame<'a> {
    /// When it was captured.
    pub(crate) time: Timestamp,
    /// What its first header is.
    pub(crate) link: Linktype,
    /// Its bytes, as captured.
    pub(crate) data: &'a [u8],
}

/// A pcapng interface: its link type and clock.
#[derive(Clone, Copy, Debug)]
struct Interface {
    link: Linktype,
    /// Timestamp units per second.
    units_per_second: u64,
    /// Seconds added to every timestamp.
    offset_seconds: i64,
}

#[derive(Debug)]
enum Format {
    Pcap {
        big_endian: bool,
        modified: bool,
        nanoseconds: bool,
        link: Linktype,
    },
    PcapNg {
        big_endian: bool,
        interfaces: Vec<Interface>,
        /// The time of the last timestamped packet (simple packet blocks
        /// have none).
        last_time: Timestamp,
    },
}

impl Format {
    fn name(&self) -> &'static str {
        match self {
            Format::Pcap { .. } => "pcap",
            Format::PcapNg { .. } => "pcapng",
        }
    }
}

/// What one parse of the buffer gave.
enum Parsed {
    /// A frame: its time, link type, where its data lies in the buffer.
    Frame(Timestamp, Linktype, usize, usize),
    /// A block that holds no frame.
    Other,
}

/// Frames of a pcap or pcapng file.
#[derive(Debug)]
pub(crate) struct Frames<R> {
    reader: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// Bytes of the last frame handed out, consumed at the next call.
    pending: usize,
    /// The file offset of `buf[start]`.
    offset: u64,
    eof: bool,
    format: Format,
}

impl<R: Read> Frames<R> {
    /// Reads the file header.
    pub(crate) fn new(reader: R) -> Result<Frames<R>, CaptureError> {
        let mut frames = Frames {
            reader,
            buf: vec![0; READ_CHUNK],
            start: 0,
            end: 0,
            pending: 0,
            offset: 0,
            eof: false,
            format: Format::Pcap {
                big_endian: false,
                modified: false,
                nanoseconds: false,
                link: Linktype::NULL,
            },
        };
        while frames.end < 64 && !frames.eof {
            frames.fill()?;
        }
        let head = frames.unread();
        if let Ok((rest, shb)) = pcap_parser::parse_sectionheaderblock(head) {
            let consumed = head.len() - rest.len();
            frames.format = Format::PcapNg {
                big_endian: shb.big_endian(),
                interfaces: Vec::new(),
                last_time: Timestamp::default(),
            };
            frames.consume(consumed);
        } else if let Ok((rest, header)) = pcap_parser::parse_pcap_header(head) {
            let consumed = head.len() - rest.len();
            frames.format = pcap_format(&header);
            frames.consume(consumed);
        } else {
            let start = head.get(..head.len().min(8)).unwrap_or_default().to_vec();
            return Err(CaptureError::NotACapture(start));
        }
        Ok(frames)
    }

    fn unread(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    /// Reads more bytes, moving the unread ones to the front first.
    fn fill(&mut self) -> Result<(), CaptureError> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            return Ok(());
        }
        let space = self.buf.get_mut(self.end..).unwrap_or_default();
        let n = loop {
            match self.reader.read(space) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        };
        self.eof = n == 0;
        self.end += n;
        Ok(())
    }

    /// Makes room for a block of `need` more bytes than are unread.
    fn want(&mut self, need: usize) -> Result<(), CaptureError> {
        let len = self.end - self.start;
        let total = len.saturating_add(need.max(1));
        if total > MAX_BLOCK {
            return Err(CaptureError::BlockTooLarge {
                format: self.format.name(),
                offset: self.offset,
                len: total as u64,
                max: MAX_BLOCK,
            });
        }
        if total > self.buf.len() {
            self.buf.resize(total.next_power_of_two().min(MAX_BLOCK), 0);
        }
        self.fill()
    }

    /// The next frame, `None` at the end of the file.
    pub(crate) fn next_frame(&mut self) -> Result<Option<Frame<'_>>, CaptureError> {
        let pending = std::mem::take(&mut self.pending);
        self.consume(pending);
        loop {
            match self.parse() {
                Ok((consumed, Parsed::Frame(time, link, from, to))) => {
                    self.pending = consumed;
                    let data = self.buf.get(from..to).unwrap_or_default();
                    return Ok(Some(Frame { time, link, data }));
                }
                Ok((consumed, Parsed::Other)) => self.consume(consumed),
                Err(Needs::More(need)) => {
                    if self.eof {
                        return if self.start == self.end {
                            Ok(None)
                        } else {
                            Err(CaptureError::Truncated {
                                offset: self.offset,
                            })
                        };
                    }
                    self.want(need)?;
                }
                Err(Needs::Fail(what)) => {
                    return Err(CaptureError::Malformed {
                        format: self.format.name(),
                        offset: self.offset,
                        what,
                    });
                }
            }
        }
    }

    /// Parses the block at the front of the unread bytes.
    fn parse(&mut self) -> Result<(usize, Parsed), Needs> {
        let base = self.start;
        let data = self.buf.get(self.start..self.end).unwrap_or_default();
        match &mut self.format {
            Format::Pcap {
                big_endian,
                modified,
                nanoseconds,
                link,
            } => {
                let parsed = if *modified {
                    pcap_parser::parse_pcap_frame_modified(data)
                } else if *big_endian {
                    pcap_parser::parse_pcap_frame_be(data)
                } else {
                    pcap_parser::parse_pcap_frame(data)
                };
                let (rest, record) = parsed.map_err(Needs::from)?;
                let fraction = if *nanoseconds { 1 } else { 1000 };
                let nanos =
                    i64::from(record.ts_sec) * 1_000_000_000 + i64::from(record.ts_usec) * fraction;
                let from = base + offset_in(data, record.data);
                let consumed = data.len() - rest.len();
                Ok((
                    consumed,
                    Parsed::Frame(Timestamp(nanos), *link, from, from + record.data.len()),
                ))
            }
            Format::PcapNg {
                big_endian,
                interfaces,
                last_time,
            } => {
                let parsed = if *big_endian {
                    pcap_parser::parse_block_be(data)
                } else {
                    pcap_parser::parse_block_le(data)
                };
                let (rest, block) = parsed.map_err(Needs::from)?;
                let consumed = data.len() - rest.len();
                let parsed = match block {
                    Block::SectionHeader(shb) => {
                        *big_endian = shb.big_endian();
                        interfaces.clear();
                        Parsed::Other
                    }
                    Block::InterfaceDescription(idb) => {
                        let units_per_second = idb.ts_resolution().ok_or_else(|| {
                            Needs::Fail(format!(
                                "interface {} has a bad time resolution ({:#x})",
                                interfaces.len(),
                                idb.if_tsresol
                            ))
                        })?;
                        interfaces.push(Interface {
                            link: idb.linktype,
                            units_per_second,
                            offset_seconds: idb.if_tsoffset,
                        });
                        Parsed::Other
                    }
                    Block::EnhancedPacket(epb) => {
                        let interface = interface(interfaces, epb.if_id)?;
                        let ticks = (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low);
                        *last_time = time_of(ticks, interface);
                        let from = base + offset_in(data, epb.data);
                        Parsed::Frame(*last_time, interface.link, from, from + epb.data.len())
                    }
                    Block::SimplePacket(spb) => {
                        let interface = interface(interfaces, 0)?;
                        let from = base + offset_in(data, spb.data);
                        Parsed::Frame(*last_time, interface.link, from, from + spb.data.len())
                    }
                    _ => Parsed::Other,
                };
                Ok((consumed, parsed))
            }
        }
    }
}

fn pcap_format(header: &PcapHeader) -> Format {
    Format::Pcap {
        big_endian: header.is_bigendian(),
        modified: header.is_modified_format(),
        nanoseconds: header.is_nanosecond_precision(),
        link: header.network,
    }
}

fn interface(interfaces: &[Interface], id: u32) -> Result<Interface, Needs> {
    interfaces
        .get(id as usize)
        .copied()
        .ok_or_else(|| Needs::Fail(format!("packet of interface {id}, which is not described")))
}

/// Nanoseconds since the epoch of `ticks` of `interface`'s clock,
/// saturating at the ends of `Timestamp`'s range.
fn time_of(ticks: u64, interface: Interface) -> Timestamp {
    let units = u128::from(interface.units_per_second.max(1));
    let nanos = u128::from(ticks) * 1_000_000_000 / units;
    let offset = i128::from(interface.offset_seconds) * 1_000_000_000;
    let total = (nanos as i128).saturating_add(offset);
    Timestamp(total.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
}

/// Where `inner` starts within `outer` (a sub-slice of it).
fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize)
}

/// Why a block could not be parsed yet.
enum Needs {
    /// At least this many more bytes (0: unknown).
    More(usize),
    /// It is malformed.
    Fail(String),
}

impl<'a> From<nom::Err<PcapError<&'a [u8]>>> for Needs {
    fn from(e: nom::Err<PcapError<&'a [u8]>>) -> Needs {
        match e {
            nom::Err::Incomplete(nom::Needed::Size(n)) => Needs::More(n.get()),
            nom::Err::Incomplete(nom::Needed::Unknown) => Needs::More(0),
            nom::Err::Error(e) | nom::Err::Failure(e) => match e {
                PcapError::Incomplete(n) => Needs::More(n),
                PcapError::UnexpectedEof | PcapError::Eof => Needs::More(0),
                other => Needs::Fail(format!("{other:?}")),
            },
        }
    }
}
