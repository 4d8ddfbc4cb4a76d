//! Writing events as a `.pkt`.

use std::collections::HashSet;
use std::io::Write;

use flate2::Compression;
use flate2::write::DeflateEncoder;
use tera_net::Direction;

use crate::error::WriteError;
use crate::event::{Event, SessionId};
use crate::format::Format;
use crate::packet_check::whole_packet;
use crate::pkt::header::{PktHeader, Region};

/// What a `.pkt` needs that events may not give. Each `None` is taken
/// from the first session's start ([`crate::Start::region`] when it names
/// a `.pkt` region, [`crate::Start::client_version`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PktOptions {
    /// The region byte's region.
    pub region: Option<Region>,
    /// The client version.
    pub client_version: Option<u32>,
    /// Store the entries as they are instead of deflated.
    pub uncompressed: bool,
}

/// The entries after the header: as they are, or deflated.
enum Body<W: Write> {
    Plain(W),
    Deflate(DeflateEncoder<W>),
}

impl<W: Write> Body<W> {
    fn out(&mut self) -> &mut dyn Write {
        match self {
            Body::Plain(w) => w,
            Body::Deflate(w) => w,
        }
    }
}

/// Writes events as a `.pkt` whose header is known before the first
/// entry: the servers come from [`PktHeader::for_sessions`] over the
/// sessions' starts (a source read twice, or a proxy that logs one
/// connection a file). A session with no server of its number in the
/// header is an error; gaps are counted, not written.
pub struct PktWriter<W: Write> {
    body: Body<W>,
    servers: HashSet<i32>,
    started: HashSet<SessionId>,
    gaps_dropped: u64,
}

impl<W: Write> PktWriter<W> {
    /// Writes `header` to `out`; its `compression` says how the entries
    /// are stored.
    ///
    /// # Errors
    /// The output's error.
    pub fn new(mut out: W, header: &PktHeader) -> Result<PktWriter<W>, WriteError> {
        header.write(&mut out)?;
        let body = match header.compression {
            0 => Body::Plain(out),
            level => Body::Deflate(DeflateEncoder::new(out, Compression::new(u32::from(level)))),
        };
        Ok(PktWriter {
            body,
            servers: header.servers.iter().map(|s| s.id).collect(),
            started: HashSet::new(),
            gaps_dropped: 0,
        })
    }

    /// The header for `starts` with `options`, the region and client
    /// version taken from the first start where the options give none.
    ///
    /// # Errors
    /// [`WriteError::Missing`] when neither gives a region or a client
    /// version.
    pub fn header_for(
        options: &PktOptions,
        starts: &[crate::event::Start],
    ) -> Result<PktHeader, WriteError> {
        let first = starts.first();
        let region = options
            .region
            .or_else(|| first.and_then(|s| s.region.as_deref()?.parse().ok()))
            .ok_or(WriteError::Missing {
                format: Format::Pkt,
                what: "a region",
                how: "set it with --region (DE, FR, JP, KR, NA, RU, SE, TH, TW, UK), \
                      PktOptions::region in the library",
            })?;
        let client_version = options
            .client_version
            .or_else(|| first.and_then(|s| s.client_version))
            .ok_or(WriteError::Missing {
                format: Format::Pkt,
                what: "a client version",
                how: "set it with --client-version N, PktOptions::client_version in the library",
            })?;
        let mut header = PktHeader::for_sessions(region, client_version, starts);
        if options.uncompressed {
            header.compression = 0;
        }
        Ok(header)
    }

    /// Gaps seen and not written.
    #[must_use]
    pub fn gaps_dropped(&self) -> u64 {
        self.gaps_dropped
    }

    /// Writes one event.
    ///
    /// # Errors
    /// [`WriteError::Unrepresentable`] for a session without a server in
    /// the header, [`WriteError::NotStarted`], [`WriteError::NotAPacket`],
    /// or the output's error.
    pub fn write(&mut self, event: &Event) -> Result<(), WriteError> {
        let session = event.session();
        let id = i32::try_from(session.0).unwrap_or(i32::MAX);
        match event {
            Event::Start(_) => {
                if !self.servers.contains(&id) {
                    return Err(WriteError::Unrepresentable {
                        format: Format::Pkt,
                        what: format!("session {}: its header lists no server {id}", session.0),
                    });
                }
                self.started.insert(session);
                Ok(())
            }
            _ if !self.started.contains(&session) => Err(WriteError::NotStarted(session)),
            Event::Packet(packet) => {
                whole_packet(packet)?;
                let (head, body) = packet.bytes.split_at_checked(4).unwrap_or_default();
                let len = u16::try_from(body.len()).unwrap_or(u16::MAX);
                let out = self.body.out();
                out.write_all(&packet.time.unix_millis().to_le_bytes())?;
                out.write_all(&id.to_le_bytes())?;
                out.write_all(&[match packet.direction {
                    Direction::ClientToServer => 0,
                    Direction::ServerToClient => 1,
                }])?;
                out.write_all(head.get(2..4).unwrap_or_default())?;
                out.write_all(&len.to_le_bytes())?;
                out.write_all(body)?;
                Ok(())
            }
            Event::Gap(_) => {
                self.gaps_dropped += 1;
                Ok(())
            }
            Event::End(_) => {
                self.started.remove(&session);
                Ok(())
            }
        }
    }

    /// Ends the deflate stream, if any, and returns the output, flushed.
    ///
    /// # Errors
    /// The output's error.
    pub fn finish(self) -> Result<W, WriteError> {
        let mut out = match self.body {
            Body::Plain(w) => w,
            Body::Deflate(w) => w.finish()?,
        };
        out.flush()?;
        Ok(out)
    }
}
