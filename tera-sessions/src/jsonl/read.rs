//! Reading JSONL lines as events, a line at a time.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{BufRead, Read};

use serde::Deserialize;

use crate::error::{At, ReadError};
use crate::event::{End, EndReason, Event, Gap, Packet, SessionId, Start, Timestamp};
use crate::format::Format;
use crate::jsonl::line::{Dir, Reason, StartFields};

/// The longest line read (a packet's hex is at most 131 070 characters;
/// its decoded `data` may be longer).
pub(crate) const MAX_LINE: usize = 16 << 20;
/// The most sessions open at once.
const MAX_OPEN: usize = 1 << 16;

/// A line's keys that say which event it is. Others are ignored.
#[derive(Deserialize)]
struct Line<'a> {
    session: u32,
    #[serde(borrow)]
    time: Cow<'a, str>,
    #[serde(default)]
    start: Option<StartFields>,
    #[serde(default)]
    end: Option<Reason>,
    #[serde(default)]
    dir: Option<Dir>,
    #[serde(default, borrow)]
    hex: Option<Cow<'a, str>>,
    #[serde(default)]
    opcode: Option<u16>,
    #[serde(default)]
    gap: Option<u64>,
    #[serde(default)]
    offset: Option<u64>,
}

/// The events of JSONL lines. Blank lines are skipped; a line that is not
/// an event, a packet without `hex`, an event of a session that has not
/// started: each an error naming the line. Sessions still open at the end
/// of the input end there ([`EndReason::EndOfInput`](crate::EndReason)). Memory stays at one line (at
/// most 16 MiB) and the set of open sessions.
pub struct JsonlReader<R> {
    input: R,
    number: u64,
    line: Vec<u8>,
    open: HashSet<u32>,
    /// The last time read, for the ends of sessions left open.
    time: Timestamp,
    /// Sessions still open at the end of the input, to end.
    ending: Option<std::vec::IntoIter<u32>>,
    done: bool,
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> JsonlReader<R> {
        JsonlReader {
            input,
            number: 0,
            line: Vec::new(),
            open: HashSet::new(),
            time: Timestamp::default(),
            ending: None,
            done: false,
        }
    }

    fn error(&self, message: impl Into<String>) -> ReadError {
        ReadError::malformed(Format::Jsonl, At::Line(self.number), message)
    }

    /// The next non-blank line into `self.line`; `false` at the end.
    fn next_line(&mut self) -> Result<bool, ReadError> {
        loop {
            self.line.clear();
            let limit = (MAX_LINE + 1) as u64;
            let read = (&mut self.input)
                .take(limit)
                .read_until(b'\n', &mut self.line)?;
            if read == 0 {
                return Ok(false);
            }
            self.number += 1;
            if self.line.len() > MAX_LINE {
                return Err(self.error(format!("a line over {MAX_LINE} bytes")));
            }
            if !self.line.trim_ascii().is_empty() {
                return Ok(true);
            }
        }
    }

    fn event(&mut self) -> Result<Event, ReadError> {
        let line: Line =
            serde_json::from_slice(&self.line).map_err(|e| self.error(e.to_string()))?;
        let session = SessionId(line.session);
        let time = Timestamp::parse_rfc3339(&line.time).map_err(|e| self.error(e))?;
        self.time = time;
        if let Some(fields) = line.start {
            if self.open.len() >= MAX_OPEN {
                return Err(self.error(format!("more than {MAX_OPEN} sessions open at once")));
            }
            if !self.open.insert(line.session) {
                return Err(self.error(format!("session {} starts twice", line.session)));
            }
            return Ok(Event::Start(Start {
                session,
                time,
                client: fields.client,
                server: fields.server,
                keys: fields.keys.map(Into::into),
                region: fields.region,
                client_version: fields.client_version,
            }));
        }
        if !self.open.contains(&line.session) {
            return Err(self.error(format!(
                "an event of session {} outside its start and end",
                line.session
            )));
        }
        if let Some(reason) = line.end {
            self.open.remove(&line.session);
            return Ok(Event::End(End {
                session,
                time,
                reason: reason.into(),
            }));
        }
        let Some(dir) = line.dir else {
            return Err(self.error("not an event: no `start`, `end`, or `dir` with `hex` or `gap`"));
        };
        if let Some(len) = line.gap {
            return Ok(Event::Gap(Gap {
                session,
                time,
                direction: dir.into(),
                offset: line.offset.unwrap_or(0),
                len,
            }));
        }
        let Some(text) = line.hex else {
            return Err(self.error(
                "a packet line without `hex` cannot be read back (`tera-defs capture --hex` \
                 writes it)",
            ));
        };
        let bytes = hex::decode(text.as_bytes()).map_err(|e| self.error(format!("`hex`: {e}")))?;
        let [lo, hi, _, _, ..] = bytes.as_slice() else {
            return Err(self.error(format!(
                "`hex` holds {} bytes, fewer than a packet's 4-byte header",
                bytes.len()
            )));
        };
        let header = usize::from(u16::from_le_bytes([*lo, *hi]));
        if header != bytes.len() {
            return Err(self.error(format!(
                "`hex` holds {} bytes and its header says {header}: not a whole packet",
                bytes.len()
            )));
        }
        let packet = Packet {
            session,
            time,
            direction: dir.into(),
            bytes,
        };
        if let Some(opcode) = line.opcode
            && opcode != packet.opcode()
        {
            return Err(self.error(format!(
                "`opcode` is {opcode} but the packet's header says {}",
                packet.opcode()
            )));
        }
        Ok(Event::Packet(packet))
    }
}

impl<R: BufRead> Iterator for JsonlReader<R> {
    type Item = Result<Event, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(ending) = &mut self.ending {
            let Some(session) = ending.next() else {
                self.done = true;
                return None;
            };
            return Some(Ok(Event::End(End {
                session: SessionId(session),
                time: self.time,
                reason: EndReason::EndOfInput,
            })));
        }
        let result = match self.next_line() {
            Ok(false) => {
                let mut open: Vec<u32> = self.open.drain().collect();
                open.sort_unstable();
                self.ending = Some(open.into_iter());
                return self.next();
            }
            Ok(true) => self.event(),
            Err(e) => Err(e),
        };
        if result.is_err() {
            self.done = true;
        }
        Some(result)
    }
}
