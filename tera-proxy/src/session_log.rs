//! A log of what a connection relays, in any format `tera-sessions`
//! writes (`.TeraLog`, `.pkt`, JSONL): [`ProxyConfig::log`](crate::ProxyConfig::log).
//!
//! Each connection writes one file, `DIR/UNIXMILLIS-N.EXT`: one session,
//! its packets in each direction as the proxy sends them on (after hooks:
//! changed packets as changed, injected ones too, blocked ones not), timed
//! when they are queued, then its end. The connection's writers write it
//! through a 64 KiB buffer: memory stays bounded, and a disk slower than
//! the game slows the relay rather than dropping packets. A file that
//! cannot be written is logged (`tracing`) and given up; the relay goes on.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tera_net::{Direction, KeyGeneration};
use tera_sessions::{
    End, EndReason, Event, Format, Packet, SessionId, Sink, SinkOptions, Start, Timestamp,
};

/// Where and how a proxy logs what it relays.
#[derive(Debug, Clone)]
pub struct SessionLog {
    dir: PathBuf,
    format: Format,
    options: SinkOptions,
}

/// Why a [`SessionLog`] cannot be set up.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionLogError {
    /// A capture format: the proxy writes logs only.
    #[error("{0} is not a log format: write .TeraLog, .pkt or JSONL")]
    NotALog(Format),
    /// A `.pkt` without region or client version in its options.
    #[error(
        "a .pkt log needs SinkOptions::pkt.region and client_version: a proxy's sessions give neither"
    )]
    PktNeedsHeader,
    /// The folder does not exist.
    #[error("{}: not a folder", .0.display())]
    NoFolder(PathBuf),
}

/// Files written so far by this process, for unique names.
static FILES: AtomicU64 = AtomicU64::new(0);

fn now() -> Timestamp {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Timestamp(i64::try_from(since.as_nanos()).unwrap_or(i64::MAX))
}

impl SessionLog {
    /// Logs each connection to a file of `format` in `dir`; `options`
    /// gives what the format needs that a proxy does not know (a `.pkt`'s
    /// region and client version, a `.TeraLog`'s region text).
    ///
    /// # Errors
    /// [`SessionLogError`]: a capture format, a `.pkt` without its header's
    /// fields, a folder that does not exist.
    pub fn new(
        dir: impl Into<PathBuf>,
        format: Format,
        options: SinkOptions,
    ) -> Result<SessionLog, SessionLogError> {
        let dir = dir.into();
        match format {
            Format::Pcap | Format::Pcapng => return Err(SessionLogError::NotALog(format)),
            Format::Pkt if options.pkt.region.is_none() || options.pkt.client_version.is_none() => {
                return Err(SessionLogError::PktNeedsHeader);
            }
            _ => {}
        }
        if !dir.is_dir() {
            return Err(SessionLogError::NoFolder(dir));
        }
        Ok(SessionLog {
            dir,
            format,
            options,
        })
    }

    /// The folder of the files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Starts the log of one connection, or `None` (logged) when its file
    /// cannot be created.
    pub(crate) fn open(&self, keys: KeyGeneration) -> Option<ConnectionLog> {
        let ext = match self.format {
            Format::TeraLog => "TeraLog",
            Format::Pkt => "pkt",
            _ => "jsonl",
        };
        let time = now();
        let number = FILES.fetch_add(1, Ordering::Relaxed);
        let path = self
            .dir
            .join(format!("{}-{number}.{ext}", time.unix_millis()));
        let start = Start {
            session: SessionId(0),
            time,
            client: None,
            server: None,
            keys: Some(keys),
            region: None,
            client_version: None,
        };
        let opened = File::create(&path)
            .map_err(tera_sessions::WriteError::from)
            .and_then(|file| {
                let out = BufWriter::with_capacity(1 << 16, file);
                let mut sink = Sink::new(
                    self.format,
                    out,
                    &self.options,
                    std::slice::from_ref(&start),
                )?;
                sink.write(&Event::Start(start), None)?;
                Ok(sink)
            });
        match opened {
            Ok(sink) => Some(ConnectionLog {
                path,
                sink: Mutex::new(Some(sink)),
            }),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot start the session log");
                None
            }
        }
    }
}

/// The log of one connection.
pub(crate) struct ConnectionLog {
    path: PathBuf,
    sink: Mutex<Option<Sink<BufWriter<File>>>>,
}

impl ConnectionLog {
    /// Records the whole packets of `batch` (plain, as queued to be sent
    /// in direction `dir`).
    pub(crate) fn record(&self, dir: Direction, batch: &[u8]) {
        let mut guard = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(sink) = guard.as_mut() else {
            return;
        };
        let time = now();
        // The relay queues whole packets only.
        for packet in tera_net::framing::packets(batch).map_while(Result::ok) {
            let event = Event::Packet(Packet {
                session: SessionId(0),
                time,
                direction: dir,
                bytes: packet.to_vec(),
            });
            if let Err(e) = sink.write(&event, None) {
                tracing::warn!(path = %self.path.display(), error = %e, "session log given up");
                *guard = None;
                return;
            }
        }
    }

    /// Ends the session (closed) and the file.
    pub(crate) fn finish(self) {
        let sink = self
            .sink
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(mut sink) = sink else {
            return;
        };
        let end = Event::End(End {
            session: SessionId(0),
            time: now(),
            reason: EndReason::Closed,
        });
        if let Err(e) = sink
            .write(&end, None)
            .and_then(|()| sink.finish().map(drop))
        {
            tracing::warn!(path = %self.path.display(), error = %e, "session log not finished");
        }
    }
}
