//! One entry point for every session source: the format is told by the
//! first bytes, and events come out whatever it was.

use std::fs::File;
use std::io::{BufReader, Cursor, Read};
use std::path::Path;

use crate::capture::{Capture, CaptureBuilder, CaptureStats};
use crate::error::ReadError;
use crate::event::Event;
use crate::format::Format;
use crate::jsonl::JsonlReader;
use crate::pkt::PktReader;
use crate::read_util::read_full;
use crate::teralog::TeraLogReader;

/// A source's bytes: the first ones (read to tell the format) and the
/// rest, buffered.
type Input = BufReader<std::io::Chain<Cursor<Vec<u8>>, Box<dyn Read + Send>>>;

enum Reader {
    Capture(Box<Capture<Input>>),
    TeraLog(TeraLogReader<Input>),
    Pkt(Box<PktReader<Input>>),
    Jsonl(JsonlReader<Input>),
}

/// The events of any session source: a capture (pcap, pcapng), a
/// `.TeraLog`, a `.pkt` or JSONL, told apart by their first bytes. Each
/// event is read when asked for; memory stays bounded whatever the
/// source's length. After an error the iterator ends.
pub struct Events {
    format: Format,
    reader: Reader,
}

impl Events {
    /// Opens the file at `path`.
    ///
    /// # Errors
    /// The file cannot be opened or read, [`ReadError::UnknownFormat`],
    /// or a malformed header.
    pub fn open(path: impl AsRef<Path>) -> Result<Events, ReadError> {
        Events::from_reader(File::open(path)?)
    }

    /// Reads events from `input`.
    ///
    /// # Errors
    /// As [`Events::open`].
    pub fn from_reader(input: impl Read + Send + 'static) -> Result<Events, ReadError> {
        Events::from_reader_with(input, CaptureBuilder::default())
    }

    /// Reads events from `input`; a capture is read as `capture` says
    /// (its caps, the opcodes that make resynchronisation surer).
    ///
    /// # Errors
    /// As [`Events::open`].
    pub fn from_reader_with(
        input: impl Read + Send + 'static,
        capture: CaptureBuilder,
    ) -> Result<Events, ReadError> {
        let mut input: Box<dyn Read + Send> = Box::new(input);
        let mut head = vec![0; Format::HEAD_LEN];
        let got = read_full(&mut input, &mut head)?;
        head.truncate(got);
        let format = Format::detect(&head).ok_or(ReadError::UnknownFormat)?;
        let input: Input = BufReader::with_capacity(1 << 16, Cursor::new(head).chain(input));
        let reader = match format {
            Format::TeraLog => Reader::TeraLog(TeraLogReader::new(input)),
            Format::Pkt => Reader::Pkt(Box::new(PktReader::new(input)?)),
            Format::Jsonl => Reader::Jsonl(JsonlReader::new(input)),
            Format::Pcap | Format::Pcapng => Reader::Capture(Box::new(capture.read(input)?)),
        };
        Ok(Events { format, reader })
    }

    /// The source's format.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }

    /// What a capture's reader counted (frames, connections it skipped and
    /// why); `None` for a log.
    #[must_use]
    pub fn capture_stats(&self) -> Option<&CaptureStats> {
        match &self.reader {
            Reader::Capture(c) => Some(c.stats()),
            _ => None,
        }
    }
}

impl Iterator for Events {
    type Item = Result<Event, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.reader {
            Reader::Capture(r) => Some(r.next()?.map_err(ReadError::from)),
            Reader::TeraLog(r) => r.next(),
            Reader::Pkt(r) => r.next(),
            Reader::Jsonl(r) => r.next(),
        }
    }
}
