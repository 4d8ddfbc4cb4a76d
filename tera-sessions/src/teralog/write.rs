//! Writing events as a `.TeraLog`.

use std::io::Write;

use tera_net::Direction;

use crate::error::WriteError;
use crate::event::{Event, SessionId, Start};
use crate::format::Format;
use crate::packet_check::whole_packet;
use crate::teralog::blocks::{
    CLIENT, EPOCH_UNIX_MILLIS, MAGIC, MAGIC_TEXT, REGION, SERVER, START, TIMESTAMP,
};

/// What a `.TeraLog` holds that events may not give.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeraLogOptions {
    /// The region block's text; when `None`, the session start's region,
    /// and no region block when that is `None` too.
    pub region: Option<String>,
}

/// Where the writer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    BeforeStart,
    In(SessionId),
    Ended(SessionId),
}

/// Writes the events of one session as a `.TeraLog`: the header at its
/// start, a timestamp block before each packet whose millisecond differs
/// from the one before, a message block per packet. Gaps cannot be held:
/// they are counted ([`TeraLogWriter::gaps_dropped`]).
pub struct TeraLogWriter<W: Write> {
    out: W,
    options: TeraLogOptions,
    state: State,
    last_millis: Option<i64>,
    gaps_dropped: u64,
}

impl<W: Write> TeraLogWriter<W> {
    /// A writer to `out`; nothing is written before the session starts.
    pub fn new(out: W, options: TeraLogOptions) -> TeraLogWriter<W> {
        TeraLogWriter {
            out,
            options,
            state: State::BeforeStart,
            last_millis: None,
            gaps_dropped: 0,
        }
    }

    /// Gaps seen and not written.
    #[must_use]
    pub fn gaps_dropped(&self) -> u64 {
        self.gaps_dropped
    }

    fn block(&mut self, kind: u8, payload: &[u8]) -> Result<(), WriteError> {
        let size = u16::try_from(payload.len() + 2).map_err(|_| WriteError::Unrepresentable {
            format: Format::TeraLog,
            what: format!("a block of {} bytes", payload.len()),
        })?;
        self.out.write_all(&[kind])?;
        self.out.write_all(&size.to_le_bytes())?;
        self.out.write_all(payload)?;
        Ok(())
    }

    fn header(&mut self, start: Option<&Start>) -> Result<(), WriteError> {
        self.block(MAGIC, MAGIC_TEXT)?;
        let region = self
            .options
            .region
            .clone()
            .or_else(|| start.and_then(|s| s.region.clone()));
        if let Some(region) = region {
            self.block(REGION, region.as_bytes())?;
        }
        self.block(START, &[])
    }

    /// Writes one event.
    ///
    /// # Errors
    /// [`WriteError::OneSession`] when a second session starts,
    /// [`WriteError::NotStarted`] for an event outside the session,
    /// [`WriteError::NotAPacket`], or the output's error.
    pub fn write(&mut self, event: &Event) -> Result<(), WriteError> {
        let session = event.session();
        match (self.state, event) {
            (State::BeforeStart, Event::Start(start)) => {
                self.header(Some(start))?;
                self.state = State::In(session);
                Ok(())
            }
            (State::In(first) | State::Ended(first), Event::Start(_)) => {
                Err(WriteError::OneSession {
                    format: Format::TeraLog,
                    first,
                    second: session,
                })
            }
            (State::In(current), _) if current == session => match event {
                Event::Packet(packet) => {
                    whole_packet(packet)?;
                    let millis = packet.time.unix_millis() - EPOCH_UNIX_MILLIS;
                    if self.last_millis != Some(millis) {
                        self.block(TIMESTAMP, &millis.to_le_bytes())?;
                        self.last_millis = Some(millis);
                    }
                    let kind = match packet.direction {
                        Direction::ClientToServer => CLIENT,
                        Direction::ServerToClient => SERVER,
                    };
                    // The packet's own length field is the block's size.
                    self.out.write_all(&[kind])?;
                    self.out.write_all(&packet.bytes)?;
                    Ok(())
                }
                Event::Gap(_) => {
                    self.gaps_dropped += 1;
                    Ok(())
                }
                Event::End(_) => {
                    self.state = State::Ended(session);
                    Ok(())
                }
                Event::Start(_) => Ok(()),
            },
            _ => Err(WriteError::NotStarted(session)),
        }
    }

    /// Ends the file (with an empty header when no session started) and
    /// returns the output, flushed.
    ///
    /// # Errors
    /// The output's error.
    pub fn finish(mut self) -> Result<W, WriteError> {
        if self.state == State::BeforeStart {
            self.header(None)?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}
