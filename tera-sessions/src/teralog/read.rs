//! Reading a `.TeraLog` as events, a block at a time.

use std::io::Read;

use tera_net::Direction;

use crate::error::{At, ReadError};
use crate::event::{End, EndReason, Event, Packet, SessionId, Start, Timestamp};
use crate::format::Format;
use crate::read_util::read_full;
use crate::teralog::blocks::{
    CLIENT, EPOCH_UNIX_MILLIS, MAGIC, MAGIC_TEXT, REGION, SERVER, START, TIMESTAMP,
};

/// Where the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the start block.
    Header,
    /// After the start block, before the first message.
    BeforeFirst,
    /// Among the messages.
    Messages,
    /// The end event was given, or an error.
    Done,
}

/// The events of a `.TeraLog`: one session (number 0), its start (with
/// the region of the header, if any), its packets, and its end
/// ([`EndReason::EndOfInput`]). Memory stays at one block whatever the
/// file's length.
pub struct TeraLogReader<R> {
    input: R,
    offset: u64,
    state: State,
    time: Timestamp,
    region: Option<String>,
    block: Vec<u8>,
    /// A packet read with the start it comes after.
    pending: Option<Event>,
}

impl<R: Read> TeraLogReader<R> {
    /// A reader of `input`, which starts with the magic block.
    pub fn new(input: R) -> TeraLogReader<R> {
        TeraLogReader {
            input,
            offset: 0,
            state: State::Header,
            time: Timestamp::from_unix_millis(EPOCH_UNIX_MILLIS),
            region: None,
            block: Vec::with_capacity(usize::from(u16::MAX)),
            pending: None,
        }
    }

    fn error(&self, at: u64, message: impl Into<String>) -> ReadError {
        ReadError::malformed(Format::TeraLog, At::Byte(at), message)
    }

    /// The next block's type and its start offset (its payload is in
    /// `self.block`), or `None` at the end of the input.
    fn next_block(&mut self) -> Result<Option<(u8, u64)>, ReadError> {
        let at = self.offset;
        let mut head = [0; 3];
        let got = read_full(&mut self.input, &mut head)?;
        if got == 0 {
            return Ok(None);
        }
        if got < head.len() {
            return Err(self.error(at, "the file ends inside a block header"));
        }
        let [kind, lo, hi] = head;
        let size = u16::from_le_bytes([lo, hi]);
        if size < 2 {
            return Err(self.error(
                at,
                format!("block of type {kind} has size {size}, less than its own 2 bytes"),
            ));
        }
        let len = usize::from(size) - 2;
        self.block.resize(len, 0);
        let got = read_full(&mut self.input, &mut self.block)?;
        if got < len {
            return Err(self.error(
                at,
                format!("block of type {kind} needs {len} bytes, the file ends after {got}"),
            ));
        }
        self.offset += 3 + len as u64;
        Ok(Some((kind, at)))
    }

    /// Reads the header up to the start block.
    fn header(&mut self) -> Result<(), ReadError> {
        match self.next_block()? {
            Some((MAGIC, _)) if self.block == MAGIC_TEXT => {}
            _ => return Err(self.error(0, "no TeraConnectionLog magic block")),
        }
        loop {
            match self.next_block()? {
                None => return Err(self.error(self.offset, "the file ends before its start block")),
                Some((START, _)) => return Ok(()),
                Some((REGION, at)) => {
                    let text = std::str::from_utf8(&self.block)
                        .map_err(|_| self.error(at, "the region is not text"))?;
                    self.region = Some(text.to_owned());
                }
                Some((TIMESTAMP, at)) => self.time = self.timestamp(at)?,
                Some(_) => {}
            }
        }
    }

    fn timestamp(&self, at: u64) -> Result<Timestamp, ReadError> {
        let millis = match self.block.len() {
            8 => {
                let mut bytes = [0; 8];
                bytes.copy_from_slice(&self.block);
                i64::from_le_bytes(bytes)
            }
            1..8 => {
                let mut bytes = [0; 8];
                bytes
                    .get_mut(..self.block.len())
                    .unwrap_or_default()
                    .copy_from_slice(&self.block);
                i64::from_le_bytes(bytes)
            }
            n => return Err(self.error(at, format!("a timestamp of {n} bytes (1 to 8 expected)"))),
        };
        Ok(Timestamp::from_unix_millis(
            millis.saturating_add(EPOCH_UNIX_MILLIS),
        ))
    }

    fn start(&mut self) -> Event {
        Event::Start(Start {
            session: SessionId(0),
            time: self.time,
            client: None,
            server: None,
            keys: None,
            region: self.region.take(),
            client_version: None,
        })
    }

    fn end(&mut self) -> Event {
        self.state = State::Done;
        Event::End(End {
            session: SessionId(0),
            time: self.time,
            reason: EndReason::EndOfInput,
        })
    }

    /// The next event after the start block.
    fn message(&mut self) -> Result<Event, ReadError> {
        loop {
            let Some((kind, at)) = self.next_block()? else {
                if self.state == State::BeforeFirst {
                    self.state = State::Messages;
                    return Ok(self.start());
                }
                return Ok(self.end());
            };
            let direction = match kind {
                CLIENT => Direction::ClientToServer,
                SERVER => Direction::ServerToClient,
                TIMESTAMP => {
                    self.time = self.timestamp(at)?;
                    continue;
                }
                _ => continue,
            };
            if self.block.len() < 2 {
                return Err(self.error(
                    at,
                    format!(
                        "a message of {} bytes is shorter than a packet header",
                        self.block.len() + 2
                    ),
                ));
            }
            let mut bytes = Vec::with_capacity(self.block.len() + 2);
            // The block's size field is the packet's length field.
            bytes.extend_from_slice(
                &u16::try_from(self.block.len() + 2)
                    .unwrap_or(0)
                    .to_le_bytes(),
            );
            bytes.extend_from_slice(&self.block);
            let packet = Event::Packet(Packet {
                session: SessionId(0),
                time: self.time,
                direction,
                bytes,
            });
            if self.state == State::BeforeFirst {
                self.state = State::Messages;
                self.pending = Some(packet);
                return Ok(self.start());
            }
            return Ok(packet);
        }
    }
}

impl<R: Read> Iterator for TeraLogReader<R> {
    type Item = Result<Event, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(event) = self.pending.take() {
            return Some(Ok(event));
        }
        let result = match self.state {
            State::Done => return None,
            State::Header => self.header().and_then(|()| {
                self.state = State::BeforeFirst;
                self.message()
            }),
            State::BeforeFirst | State::Messages => self.message(),
        };
        if result.is_err() {
            self.state = State::Done;
        }
        Some(result)
    }
}
