//! A capture file read as session events.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::link::{Skip, segment};
use super::{CaptureError, CaptureStats, Frames, Limits, Tracker};
use crate::Event;
use crate::decrypt::OpcodeSet;

/// How to read a capture: caps and known opcodes.
#[derive(Clone, Debug, Default)]
pub struct CaptureBuilder {
    limits: Limits,
    known: Option<OpcodeSet>,
}

impl CaptureBuilder {
    /// The caps on what the reader holds (default [`Limits::default`]).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The opcodes a packet may have (a protocol map's codes): after bytes
    /// were lost with a packet header, the search for the next packet then
    /// accepts only headers with these opcodes, which makes it surer.
    #[must_use]
    pub fn known_opcodes(mut self, known: OpcodeSet) -> Self {
        self.known = Some(known);
        self
    }

    /// Opens a capture file.
    ///
    /// # Errors
    /// As [`read`](CaptureBuilder::read), and when the file cannot be
    /// opened.
    pub fn open(self, path: impl AsRef<Path>) -> Result<Capture<File>, CaptureError> {
        self.read(File::open(path)?)
    }

    /// Reads a capture from `reader` (it is read in 1 MiB pieces: no need
    /// to buffer it).
    ///
    /// # Errors
    /// [`CaptureError::NotACapture`] when it starts with neither a pcap nor
    /// a pcapng header; I/O errors.
    pub fn read<R: Read>(self, reader: R) -> Result<Capture<R>, CaptureError> {
        Ok(Capture {
            frames: Frames::new(reader)?,
            tracker: Tracker::new(self.limits, self.known),
            done: false,
        })
    }
}

/// The TERA sessions of a pcap or pcapng capture, as an iterator of
/// [`Event`]s, read in bounded memory (see [`Limits`]).
///
/// It yields `Err` once when the file cannot be read further (a block
/// that is malformed, or cut short at the end of a capture that was still
/// being written), then the ends of the sessions still open, then stops.
#[derive(Debug)]
pub struct Capture<R> {
    frames: Frames<R>,
    tracker: Tracker,
    done: bool,
}

impl Capture<File> {
    /// Opens a capture file with the default caps.
    ///
    /// # Errors
    /// As [`CaptureBuilder::open`].
    pub fn open(path: impl AsRef<Path>) -> Result<Capture<File>, CaptureError> {
        CaptureBuilder::default().open(path)
    }

    /// How to read a capture otherwise: caps, known opcodes; then a file
    /// ([`CaptureBuilder::open`]) or any reader ([`CaptureBuilder::read`]).
    #[must_use]
    pub fn builder() -> CaptureBuilder {
        CaptureBuilder::default()
    }
}

impl<R: Read> Capture<R> {
    /// Reads a capture from `reader` with the default caps.
    ///
    /// # Errors
    /// As [`CaptureBuilder::read`].
    pub fn new(reader: R) -> Result<Capture<R>, CaptureError> {
        CaptureBuilder::default().read(reader)
    }

    /// What was seen so far (all of it once the iterator is done).
    #[must_use]
    pub fn stats(&self) -> &CaptureStats {
        self.tracker.stats()
    }

    /// Reads frames until events are ready or the file ends.
    fn read_more(&mut self) -> Result<(), CaptureError> {
        loop {
            let Some(frame) = self.frames.next_frame()? else {
                self.tracker.finish();
                self.done = true;
                return Ok(());
            };
            let seg = segment(&frame);
            let stats = self.tracker.stats_mut();
            stats.frames += 1;
            match seg {
                Ok(seg) => self.tracker.push(&seg),
                Err(Skip::UnsupportedLink) => stats.unsupported_link += 1,
                Err(Skip::NotTcp) => stats.not_tcp += 1,
                Err(Skip::Bad) => stats.bad_frames += 1,
                Err(Skip::Fragment) => stats.fragments += 1,
            }
            if self.tracker.has_events() {
                return Ok(());
            }
        }
    }
}

impl<R: Read> Iterator for Capture<R> {
    type Item = Result<Event, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(event) = self.tracker.pop() {
                return Some(Ok(event));
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.read_more() {
                self.tracker.finish();
                self.done = true;
                return Some(Err(e));
            }
        }
    }
}
