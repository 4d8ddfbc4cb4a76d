//! Counts over a stream of events: what `tera-defs capture` prints when
//! it is done.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use tera_net::Direction;

use tera_net::KeyGeneration;

use crate::event::{Event, SessionId, Start};
use crate::named::Named;
use crate::naming::Protocol;
use crate::versions::VersionChoice;

/// One session as the summary shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSummary {
    /// Its start.
    pub start: Start,
    /// Its protocol, once known.
    pub protocol: Option<Protocol>,
    /// Its packets.
    pub packets: u64,
    /// The versions chosen by fit for its names with more than one.
    pub versions: Vec<VersionChoice>,
    /// Bytes its capture showed twice with different values (the first
    /// copy kept; see [`Summary::set_conflicting`]).
    pub conflicting_bytes: u64,
}

/// Counts of sessions, packets, bytes, gaps and decoding.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The sessions in the order they started (the first
    /// [`Summary::MAX_SESSIONS`]; [`Summary::sessions`] counts them all).
    pub listed: Vec<SessionSummary>,
    /// How many sessions started.
    pub sessions: u64,
    /// Sessions by key generation (captures only).
    pub keys: HashMap<KeyGeneration, u64>,
    /// Packets client to server, and their bytes.
    pub c2s: (u64, u64),
    /// Packets server to client, and their bytes.
    pub s2c: (u64, u64),
    /// Gaps, and the bytes they lost.
    pub gaps: (u64, u64),
    /// Named packets by def name.
    pub by_name: BTreeMap<String, u64>,
    /// Packets that did not decode, by def (or `opcode N`).
    pub failed: BTreeMap<String, u64>,
    index: HashMap<SessionId, usize>,
}

impl Summary {
    /// The most sessions listed one by one.
    pub const MAX_SESSIONS: usize = 16;
    /// The most names the text lists, the most frequent first.
    pub const MAX_NAMES: usize = 20;

    /// An empty summary.
    #[must_use]
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Counts `event`, with what a namer made of it when it is a packet.
    pub fn add(&mut self, event: &Event, named: Option<&Named>) {
        match event {
            Event::Start(start) => {
                self.sessions += 1;
                if let Some(keys) = start.keys {
                    *self.keys.entry(keys).or_default() += 1;
                }
                if self.listed.len() < Summary::MAX_SESSIONS {
                    self.index.insert(start.session, self.listed.len());
                    self.listed.push(SessionSummary {
                        start: start.clone(),
                        protocol: None,
                        versions: Vec::new(),
                        packets: 0,
                        conflicting_bytes: 0,
                    });
                }
            }
            Event::Packet(packet) => {
                let count = match packet.direction {
                    Direction::ClientToServer => &mut self.c2s,
                    Direction::ServerToClient => &mut self.s2c,
                };
                count.0 += 1;
                count.1 += packet.bytes.len() as u64;
                if let Some(&i) = self.index.get(&packet.session)
                    && let Some(listed) = self.listed.get_mut(i)
                {
                    listed.packets += 1;
                }
                if let Some(named) = named {
                    if let Some(def) = &named.def {
                        *self.by_name.entry(def.name().to_owned()).or_default() += 1;
                    }
                    if named.value.is_err() {
                        let failed = match &named.def {
                            Some(def) => def.to_string(),
                            None => "unnamed opcodes".to_owned(),
                        };
                        *self.failed.entry(failed).or_default() += 1;
                    }
                }
            }
            Event::Gap(gap) => {
                self.gaps.0 += 1;
                self.gaps.1 += gap.len;
            }
            Event::End(_) => {}
        }
    }

    /// Records the protocol a namer found for `session`.
    pub fn set_protocol(&mut self, session: SessionId, protocol: &Protocol) {
        if let Some(&i) = self.index.get(&session)
            && let Some(listed) = self.listed.get_mut(i)
        {
            listed.protocol = Some(protocol.clone());
        }
    }

    /// Records the versions a namer chose for `session`'s names.
    pub fn set_versions<'c>(
        &mut self,
        session: SessionId,
        choices: impl IntoIterator<Item = &'c VersionChoice>,
    ) {
        if let Some(&i) = self.index.get(&session)
            && let Some(listed) = self.listed.get_mut(i)
        {
            listed.versions = choices.into_iter().cloned().collect();
        }
    }

    /// Records the conflicting retransmitted bytes of `session` (a
    /// capture's [`CaptureStats::conflicts`](crate::capture::CaptureStats::conflicts)).
    pub fn set_conflicting(&mut self, session: SessionId, bytes: u64) {
        if let Some(&i) = self.index.get(&session)
            && let Some(listed) = self.listed.get_mut(i)
        {
            listed.conflicting_bytes = bytes;
        }
    }

    /// Packets that did not decode.
    #[must_use]
    pub fn failed_count(&self) -> u64 {
        self.failed.values().sum()
    }
}

fn keys_name(keys: KeyGeneration) -> &'static str {
    match keys {
        KeyGeneration::Current => "current",
        KeyGeneration::Old => "old",
    }
}

fn session_line(f: &mut fmt::Formatter<'_>, s: &SessionSummary) -> fmt::Result {
    let start = &s.start;
    write!(f, "  session {}:", start.session.0)?;
    if let Some(client) = start.client {
        write!(f, " client {client}")?;
    }
    if let Some(server) = start.server {
        write!(f, " server {server}")?;
    }
    if let Some(keys) = start.keys {
        write!(f, " keys {}", keys_name(keys))?;
    }
    if let Some(region) = &start.region {
        write!(f, " region {region}")?;
    }
    match &s.protocol {
        Some(p) => {
            match p.revision {
                Some(rev) => write!(f, " revision {rev}")?,
                None => write!(f, " revision unknown")?,
            }
            match p.map.as_ref().map(|m| m.revision()) {
                Some(Some(rev)) => write!(f, " (map protocol.{rev}")?,
                Some(None) => write!(f, " (map --map")?,
                None => write!(f, " (no map of this revision")?,
            }
            f.write_str(if p.fallback {
                ", the highest: no revision announced)"
            } else {
                ")"
            })?;
        }
        None => write!(f, " no client packet")?,
    }
    write!(f, ", {} packets", s.packets)?;
    if s.conflicting_bytes > 0 {
        write!(
            f,
            ", {} retransmitted bytes differ from the first copy",
            s.conflicting_bytes
        )?;
    }
    writeln!(f)?;
    if !s.versions.is_empty() {
        let exact = s.versions.iter().filter(|c| c.exact()).count();
        writeln!(
            f,
            "    versions chosen by fit ({exact} of {} names with a version that fits every \
             packet):",
            s.versions.len()
        )?;
        for choice in &s.versions {
            writeln!(f, "      {choice}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sessions: {}", self.sessions)?;
        if !self.keys.is_empty() {
            let mut keys: Vec<_> = self.keys.iter().collect();
            keys.sort_by_key(|(k, _)| keys_name(**k));
            let keys: Vec<String> = keys
                .into_iter()
                .map(|(k, n)| format!("{} {n}", keys_name(*k)))
                .collect();
            write!(f, " (keys: {})", keys.join(", "))?;
        }
        writeln!(f)?;
        for s in &self.listed {
            session_line(f, s)?;
        }
        if self.sessions > self.listed.len() as u64 {
            writeln!(
                f,
                "  ... and {} more",
                self.sessions - self.listed.len() as u64
            )?;
        }
        writeln!(
            f,
            "packets: {} c2s ({} bytes), {} s2c ({} bytes)",
            self.c2s.0, self.c2s.1, self.s2c.0, self.s2c.1
        )?;
        writeln!(f, "gaps: {} ({} bytes lost)", self.gaps.0, self.gaps.1)?;
        let failed: Vec<String> = self
            .failed
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        if failed.is_empty() {
            writeln!(f, "did not decode: 0")?;
        } else {
            writeln!(
                f,
                "did not decode: {} ({})",
                self.failed_count(),
                failed.join(", ")
            )?;
        }
        if !self.by_name.is_empty() {
            let mut names: Vec<(&String, &u64)> = self.by_name.iter().collect();
            names.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let shown: Vec<String> = names
                .iter()
                .take(Summary::MAX_NAMES)
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            write!(f, "by name: {}", shown.join(", "))?;
            if names.len() > Summary::MAX_NAMES {
                write!(f, ", and {} names more", names.len() - Summary::MAX_NAMES)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
