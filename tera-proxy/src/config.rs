//! How a connection is relayed.

use std::path::PathBuf;
use std::time::Duration;

use tera_net::KeyGeneration;

use crate::dynamic::DefSource;
use crate::faults::FaultPolicy;
use crate::session_log::SessionLog;
use crate::version::MapSource;

/// How a connection is relayed.
#[derive(Debug, Clone)]
pub struct ProxyConfig {
    /// Where the protocol map comes from. Default [`MapSource::None`].
    pub maps: MapSource,
    /// Bytes queued towards each side before the relay stops reading from
    /// the other (relayed, changed and injected packets alike). Default
    /// 256 KiB.
    pub queue_bytes: usize,
    /// Bytes asked for by each read. Default 16 KiB.
    pub read_chunk: usize,
    /// How long the handshake may take. Default 30 s.
    pub handshake_timeout: Duration,
    /// What a panicking hook does. Default [`FaultPolicy::DisableMod`].
    pub fault_policy: FaultPolicy,
    /// Defs read at run time, for [`Hook::dynamic`](crate::Hook::dynamic) and
    /// [`Event::dynamic`](crate::Event::dynamic). Default
    /// [`DefSource::None`].
    pub defs: DefSource,
    /// The folder of the mods' settings files (`NAME.json` each, see
    /// [`Settings`](crate::Settings)). Default `None`: mods keep their
    /// default settings and nothing is saved.
    pub settings_dir: Option<PathBuf>,
    /// The key constants both sides derive their ciphers with: clients
    /// before major patch 45 use [`KeyGeneration::Old`]. Default
    /// [`KeyGeneration::Current`].
    pub key_generation: KeyGeneration,
    /// A log of what each connection relays (a `.TeraLog`, `.pkt` or
    /// JSONL file per connection). Default `None`.
    pub log: Option<SessionLog>,
}

impl Default for ProxyConfig {
    fn default() -> Self {
        ProxyConfig {
            maps: MapSource::None,
            queue_bytes: 256 * 1024,
            read_chunk: 16 * 1024,
            handshake_timeout: Duration::from_secs(30),
            fault_policy: FaultPolicy::DisableMod,
            defs: DefSource::None,
            settings_dir: None,
            key_generation: KeyGeneration::Current,
            log: None,
        }
    }
}
