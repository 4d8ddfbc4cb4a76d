//! One writer for every log format: events in, a `.TeraLog`, a `.pkt` or
//! JSONL out.

use std::io::Write;

use crate::error::WriteError;
use crate::event::{Event, Start};
use crate::format::Format;
use crate::jsonl::JsonlWriter;
use crate::named::Named;
use crate::pkt::{PktOptions, PktWriter};
use crate::teralog::{TeraLogOptions, TeraLogWriter};

/// What the formats need that events may not give.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SinkOptions {
    /// For a `.TeraLog`.
    pub teralog: TeraLogOptions,
    /// For a `.pkt`.
    pub pkt: PktOptions,
}

enum Writer<W: Write> {
    TeraLog(TeraLogWriter<W>),
    Pkt(Box<PktWriter<W>>),
    Jsonl(JsonlWriter<W>),
}

/// Writes events as a log of any format this crate writes.
pub struct Sink<W: Write> {
    writer: Writer<W>,
}

impl<W: Write> Sink<W> {
    /// A writer of `format` to `out`. A `.pkt` lists its servers first:
    /// `starts` are the starts of the sessions to be written (read from
    /// the source beforehand; the other formats ignore them).
    ///
    /// # Errors
    /// [`WriteError::Unsupported`] for a capture format,
    /// [`WriteError::Missing`] for a `.pkt` without region or client
    /// version, or the output's error.
    pub fn new(
        format: Format,
        out: W,
        options: &SinkOptions,
        starts: &[Start],
    ) -> Result<Sink<W>, WriteError> {
        let writer = match format {
            Format::TeraLog => Writer::TeraLog(TeraLogWriter::new(out, options.teralog.clone())),
            Format::Pkt => {
                let header = PktWriter::<W>::header_for(&options.pkt, starts)?;
                Writer::Pkt(Box::new(PktWriter::new(out, &header)?))
            }
            Format::Jsonl => Writer::Jsonl(JsonlWriter::new(out)),
            Format::Pcap | Format::Pcapng => return Err(WriteError::Unsupported(format)),
        };
        Ok(Sink { writer })
    }

    /// Writes one event (JSONL also writes what `named` says of a packet).
    ///
    /// # Errors
    /// As the format's writer.
    pub fn write(&mut self, event: &Event, named: Option<&Named>) -> Result<(), WriteError> {
        match &mut self.writer {
            Writer::TeraLog(w) => w.write(event),
            Writer::Pkt(w) => w.write(event),
            Writer::Jsonl(w) => w.write_named(event, named),
        }
    }

    /// Gaps the format could not hold.
    #[must_use]
    pub fn gaps_dropped(&self) -> u64 {
        match &self.writer {
            Writer::TeraLog(w) => w.gaps_dropped(),
            Writer::Pkt(w) => w.gaps_dropped(),
            Writer::Jsonl(_) => 0,
        }
    }

    /// Ends the file and returns the output, flushed.
    ///
    /// # Errors
    /// The output's error.
    pub fn finish(self) -> Result<W, WriteError> {
        match self.writer {
            Writer::TeraLog(w) => w.finish(),
            Writer::Pkt(w) => w.finish(),
            Writer::Jsonl(w) => w.finish(),
        }
    }
}
