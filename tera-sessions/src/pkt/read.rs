//! Reading a `.pkt` as events, an entry at a time.

use std::collections::HashMap;
use std::io::Read;

use flate2::read::DeflateDecoder;
use tera_net::Direction;

use crate::error::{At, ReadError};
use crate::event::{End, EndReason, Event, Packet, SessionId, Start, Timestamp};
use crate::format::Format;
use crate::pkt::header::PktHeader;
use crate::read_util::read_full;

/// The entries after the header: as stored, or inflated.
enum Body<R: Read> {
    Plain(R),
    Deflate(DeflateDecoder<R>),
}

impl<R: Read> Read for Body<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Body::Plain(r) => r.read(buf),
            Body::Deflate(r) => r.read(buf),
        }
    }
}

/// An entry's fixed part: time, server, direction, opcode, length.
const ENTRY_HEAD: usize = 17;

/// The events of a `.pkt`: a session per server id, started at its first
/// entry (with the server's real address, the region and the client
/// version), its packets (the header rebuilt from the entry's opcode and
/// length), and at the end of the file every session's end
/// ([`EndReason::EndOfInput`]). Memory stays at one entry, plus one slot
/// per server of the header.
pub struct PktReader<R: Read> {
    header: PktHeader,
    body: Body<R>,
    /// Where the entries start in the file (for offsets of plain ones).
    body_start: u64,
    offset: u64,
    sessions: HashMap<i32, SessionId>,
    time: Timestamp,
    /// Sessions still to end, once the entries are over.
    ending: Option<std::ops::Range<u32>>,
    /// A packet read with the start it comes after.
    pending: Option<Event>,
    done: bool,
}

impl<R: Read> PktReader<R> {
    /// Reads the header of `input`; the entries are read as the iterator
    /// goes.
    ///
    /// # Errors
    /// [`ReadError::Malformed`] for a bad header, or the input's error.
    pub fn new(mut input: R) -> Result<PktReader<R>, ReadError> {
        let (header, body_start) = PktHeader::read(&mut input)?;
        let body = if header.compression == 0 {
            Body::Plain(input)
        } else {
            Body::Deflate(DeflateDecoder::new(input))
        };
        Ok(PktReader {
            header,
            body,
            body_start,
            offset: 0,
            sessions: HashMap::new(),
            time: Timestamp::default(),
            ending: None,
            pending: None,
            done: false,
        })
    }

    /// The file's header.
    #[must_use]
    pub fn header(&self) -> &PktHeader {
        &self.header
    }

    fn at(&self, offset: u64) -> At {
        if self.header.compression == 0 {
            At::Byte(self.body_start + offset)
        } else {
            At::InflatedByte(offset)
        }
    }

    fn error(&self, offset: u64, message: impl Into<String>) -> ReadError {
        ReadError::malformed(Format::Pkt, self.at(offset), message)
    }

    fn read_error(&self, offset: u64, e: std::io::Error) -> ReadError {
        if self.header.compression == 0 {
            ReadError::Io(e)
        } else {
            self.error(offset, format!("the deflate stream is broken: {e}"))
        }
    }

    /// The next entry as a packet (with its start first when its server
    /// is new), or `None` at the end of the entries.
    fn entry(&mut self) -> Result<Option<Event>, ReadError> {
        let at = self.offset;
        let mut head = [0; ENTRY_HEAD];
        let got = read_full(&mut self.body, &mut head).map_err(|e| self.read_error(at, e))?;
        if got == 0 {
            return Ok(None);
        }
        if got < ENTRY_HEAD {
            return Err(self.error(at, "the file ends inside an entry"));
        }
        let [
            t0,
            t1,
            t2,
            t3,
            t4,
            t5,
            t6,
            t7,
            s0,
            s1,
            s2,
            s3,
            dir,
            o0,
            o1,
            l0,
            l1,
        ] = head;
        let millis = i64::from_le_bytes([t0, t1, t2, t3, t4, t5, t6, t7]);
        let server = i32::from_le_bytes([s0, s1, s2, s3]);
        let direction = match dir {
            0 => Direction::ClientToServer,
            1 => Direction::ServerToClient,
            other => {
                return Err(self.error(at + 12, format!("direction {other} (0 or 1 expected)")));
            }
        };
        let len = usize::from(u16::from_le_bytes([l0, l1]));
        let Ok(packet_len) = u16::try_from(len + 4) else {
            return Err(self.error(
                at + 15,
                format!("a payload of {len} bytes: no packet is that long"),
            ));
        };
        let mut bytes = Vec::with_capacity(len + 4);
        bytes.extend_from_slice(&packet_len.to_le_bytes());
        bytes.extend_from_slice(&[o0, o1]);
        bytes.resize(len + 4, 0);
        let got = read_full(&mut self.body, bytes.get_mut(4..).unwrap_or_default())
            .map_err(|e| self.read_error(at, e))?;
        if got < len {
            return Err(self.error(at, format!("an entry of {len} bytes ends after {got}")));
        }
        self.offset += (ENTRY_HEAD + len) as u64;
        self.time = Timestamp::from_unix_millis(millis);
        let packet = |session| {
            Event::Packet(Packet {
                session,
                time: Timestamp::from_unix_millis(millis),
                direction,
                bytes,
            })
        };
        if let Some(&session) = self.sessions.get(&server) {
            return Ok(Some(packet(session)));
        }
        let Some(info) = self.header.servers.iter().find(|s| s.id == server) else {
            return Err(self.error(
                at + 8,
                format!("server id {server}, which the header does not list"),
            ));
        };
        let session = SessionId(u32::try_from(self.sessions.len()).unwrap_or(u32::MAX));
        let start = Event::Start(Start {
            session,
            time: self.time,
            client: None,
            server: Some(info.real),
            keys: None,
            region: Some(self.header.region.name().to_owned()),
            client_version: Some(self.header.client_version),
        });
        self.sessions.insert(server, session);
        self.pending = Some(packet(session));
        Ok(Some(start))
    }
}

impl<R: Read> Iterator for PktReader<R> {
    type Item = Result<Event, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(event) = self.pending.take() {
            return Some(Ok(event));
        }
        if self.done {
            return None;
        }
        if let Some(ending) = &mut self.ending {
            let Some(n) = ending.next() else {
                self.done = true;
                return None;
            };
            return Some(Ok(Event::End(End {
                session: SessionId(n),
                time: self.time,
                reason: EndReason::EndOfInput,
            })));
        }
        match self.entry() {
            Ok(Some(event)) => Some(Ok(event)),
            Ok(None) => {
                let count = u32::try_from(self.sessions.len()).unwrap_or(u32::MAX);
                self.ending = Some(0..count);
                self.next()
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}
