//! Naming and decoding each packet of a stream of sessions: every session
//! picks its protocol map by the revision its client announces in
//! `C_CHECK_VERSION` (the first client packet, opcode 19900), as the proxy
//! does, and its packets are named through that map and read by the
//! version of each name that fits the session's packets (or the latest,
//! by [`VersionRule`]).

use std::collections::HashMap;
use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_net::Direction;

use crate::def::Def;
use crate::event::{Event, Packet, SessionId};
use crate::named::{Named, PacketValue};
use crate::packet_set::PacketSet;
use crate::version::{C_CHECK_VERSION_OPCODE, announced_revision};
use crate::versions::{VersionChoice, VersionRule};

/// What a session's protocol is known to be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Protocol {
    /// The revision the client announced, when its first packet was a
    /// `C_CHECK_VERSION` that decodes.
    pub revision: Option<u32>,
    /// The map that names the session's packets (`None`: none of the
    /// announced revision, or no map at all).
    pub map: Option<Arc<ProtocolMap>>,
    /// Whether that map was taken with no revision to match (the client's
    /// first packet announced none: the highest map known), so names may be
    /// wrong.
    pub fallback: bool,
    /// Why the first client packet gave no revision, if it did not.
    pub problem: Option<String>,
}

/// One session's protocol, the names its opcodes resolved to, and the
/// versions tried on its packets of each name.
#[derive(Default)]
struct SessionState {
    protocol: Option<Protocol>,
    /// By opcode: the name and its highest version, or why there is none.
    defs: HashMap<u16, Result<Def, String>>,
    choices: HashMap<Arc<str>, VersionChoice>,
    /// Whether `choices` were learned ahead ([`Namer::learn`]) and stay.
    learned: bool,
}

/// Names and decodes the packets of sessions with a [`PacketSet`].
///
/// The map of a session: the fixed one when given (`--map`); else the
/// map of the revision the session's `C_CHECK_VERSION` announces, among
/// the set's maps and those added, and none when no map has that revision
/// (opcodes are shuffled every revision: another map would give wrong
/// names); else, when no revision is announced, the highest map, marked
/// [`Protocol::fallback`]. `C_CHECK_VERSION` is named by its opcode, the
/// same in every revision, when the map lacks it.
///
/// The version of each name: by [`VersionRule::Fit`] (the default), per
/// session, the version that fits that session's packets of the name
/// exactly ([`Namer::choices`] says which and its rivals); streaming, the
/// choice is made over the packets seen so far, and a first pass over the
/// same events with [`Namer::learn`] makes it over all of them.
/// [`VersionRule::Latest`] takes the set's highest version.
///
/// Packets come out as values ([`PacketValue`]); [`Namer::json`] asks for
/// their JSON instead.
///
/// ```
/// use tera_dynamic::Catalog;
/// use tera_sessions::{Def, Direction, Event, Namer, Packet, SessionId, Timestamp};
///
/// let mut defs = Catalog::new();
/// // Version 2 dropped `kind`: it decodes the old packets with bytes to spare.
/// defs.add_def("S_SPAWN.1.def", "int32 id\nint16 kind\n").map_err(|r| r.render(false))?;
/// defs.add_def("S_SPAWN.2.def", "int32 id\n").map_err(|r| r.render(false))?;
/// defs.add_map_as("opcodes.txt", "S_SPAWN 4660\n", 1).map_err(|r| r.render(false))?;
/// let mut namer = Namer::new(&defs, None);
/// let spawn = Event::Packet(Packet {
///     session: SessionId(0),
///     time: Timestamp(0),
///     direction: Direction::ServerToClient,
///     bytes: vec![10, 0, 0x34, 0x12, 7, 0, 0, 0, 3, 0],
/// });
/// let named = namer.name(&spawn).expect("a packet");
/// assert_eq!(named.def, Some(Def::new("S_SPAWN", 1)));
/// assert_eq!(named.record()?.i16("kind")?, 3);
/// assert_eq!(
///     named.record()?.u32("kin").unwrap_err().to_string(),
///     "S_SPAWN.1 has no field `kin`: did you mean `kind`?"
/// );
/// let choice = &namer.choices(SessionId(0))[0];
/// assert_eq!(choice.chosen(), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Namer<'s> {
    set: &'s dyn PacketSet,
    fixed: Option<Arc<ProtocolMap>>,
    maps: Vec<Arc<ProtocolMap>>,
    sessions: HashMap<SessionId, SessionState>,
    rule: VersionRule,
    json: bool,
    learned: HashMap<SessionId, HashMap<Arc<str>, VersionChoice>>,
}

impl<'s> Namer<'s> {
    /// A namer over `set` and its own protocol maps; `fixed`, when given,
    /// names every session's packets whatever its revision.
    pub fn new(set: &'s dyn PacketSet, fixed: Option<Arc<ProtocolMap>>) -> Namer<'s> {
        Namer {
            set,
            fixed,
            maps: set.protocol_maps(),
            sessions: HashMap::new(),
            rule: VersionRule::default(),
            json: false,
            learned: HashMap::new(),
        }
    }

    /// Picks versions by `rule` (default [`VersionRule::Fit`]).
    #[must_use]
    pub fn versions(mut self, rule: VersionRule) -> Namer<'s> {
        self.rule = rule;
        self
    }

    /// Gives each packet's JSON ([`PacketValue::Json`]) rather than its
    /// value, when `json`: what a tool that prints packets wants.
    #[must_use]
    pub fn json(mut self, json: bool) -> Namer<'s> {
        self.json = json;
        self
    }

    /// The versions tried on `session`'s packets, one choice per name with
    /// more than one version, by name (until the session's end).
    #[must_use]
    pub fn choices(&self, session: SessionId) -> Vec<&VersionChoice> {
        let mut choices: Vec<&VersionChoice> = self
            .sessions
            .get(&session)
            .into_iter()
            .flat_map(|s| s.choices.values())
            .filter(|c| c.contested())
            .collect();
        choices.sort_by(|a, b| a.name.cmp(&b.name));
        choices
    }

    /// A first pass: follows `event` as [`Namer::name`] does and tries
    /// its packets on the versions of their names, without decoding them.
    /// When the same events are named afterwards (the same file read
    /// again), each session's packets are read with the versions chosen
    /// over all of them, from its first packet on.
    pub fn learn(&mut self, event: &Event) {
        match event {
            Event::Start(start) => {
                self.sessions.insert(start.session, SessionState::default());
            }
            Event::End(end) => {
                if let Some(state) = self.sessions.remove(&end.session) {
                    self.learned.insert(end.session, state.choices);
                }
            }
            Event::Gap(_) => {}
            Event::Packet(packet) => {
                // Only the versions are wanted here; a packet without a
                // name is named again (and its error given) when read.
                let _ = self.version_of(packet);
            }
        }
    }

    /// Adds maps to choose from by revision (a later one of the same
    /// revision wins).
    #[must_use]
    pub fn with_maps(mut self, maps: impl IntoIterator<Item = Arc<ProtocolMap>>) -> Namer<'s> {
        for map in maps {
            self.maps.retain(|m| m.revision() != map.revision());
            self.maps.push(map);
        }
        self
    }

    /// The protocol of `session`, once its first client packet was seen
    /// (until its end).
    #[must_use]
    pub fn protocol(&self, session: SessionId) -> Option<&Protocol> {
        self.sessions.get(&session)?.protocol.as_ref()
    }

    /// Follows `event`: a session's start and end, its first client
    /// packet (which fixes its map); a packet is named and decoded.
    pub fn name(&mut self, event: &Event) -> Option<Named> {
        match event {
            Event::Start(start) => {
                let mut state = SessionState::default();
                // A session still open here was learned and never ended:
                // its choices are kept as a learned session's.
                let unended = self.sessions.remove(&start.session).map(|s| s.choices);
                if let Some(choices) = self.learned.remove(&start.session).or(unended) {
                    state.choices = choices;
                    state.learned = true;
                }
                self.sessions.insert(start.session, state);
                None
            }
            Event::End(end) => {
                self.sessions.remove(&end.session);
                None
            }
            Event::Gap(_) => None,
            Event::Packet(packet) => Some(self.name_packet(packet)),
        }
    }

    fn name_packet(&mut self, packet: &Packet) -> Named {
        let (def, exact) = match self.version_of(packet) {
            Ok(found) => found,
            Err(message) => {
                return Named {
                    def: None,
                    value: Err(message),
                    exact: None,
                };
            }
        };
        let value = if self.json {
            let mut json = Vec::new();
            self.set
                .write_json(&def, &packet.bytes, false, &mut json)
                .map(|()| PacketValue::Json(json))
        } else {
            self.set.read(&def, &packet.bytes)
        };
        Named {
            def: Some(def),
            value: value.map_err(|e| e.to_string()),
            exact,
        }
    }

    /// The def that reads `packet` (its name through the session's map,
    /// its version by the rule), and whether that version fits exactly.
    fn version_of(&mut self, packet: &Packet) -> Result<(Def, Option<bool>), String> {
        let state = self.sessions.entry(packet.session).or_default();
        if state.protocol.is_none() && packet.direction == Direction::ClientToServer {
            state.protocol = Some(choose(self.fixed.as_ref(), &self.maps, packet));
        }
        let opcode = packet.opcode();
        let map = match &state.protocol {
            Some(protocol) => protocol.map.clone(),
            // A server packet before any client one: the default map.
            None => self.fixed.clone().or_else(|| highest(&self.maps)),
        };
        let set = self.set;
        let revision = state.protocol.as_ref().and_then(|p| p.revision);
        let latest = state
            .defs
            .entry(opcode)
            .or_insert_with(|| resolve(set, map.as_deref(), revision, opcode))
            .clone()?;
        if self.rule == VersionRule::Latest {
            return Ok((latest, None));
        }
        let choice = state
            .choices
            .entry(Arc::from(latest.name()))
            .or_insert_with(|| VersionChoice::new(set, latest.name()));
        if !state.learned {
            choice.try_packet(set, &packet.bytes);
        }
        let exact = choice.contested().then(|| choice.exact());
        let version = choice.chosen().unwrap_or(latest.version());
        Ok((Def::new(latest.name(), version), exact))
    }
}

/// The def of `opcode` through `map` (the session's, announcing
/// `revision`).
fn resolve(
    set: &dyn PacketSet,
    map: Option<&ProtocolMap>,
    revision: Option<u32>,
    opcode: u16,
) -> Result<Def, String> {
    let by_map = match map {
        None => Err(match revision {
            Some(rev) => {
                format!("no protocol map of revision {rev} is known (give one with --map FILE)")
            }
            None => "no protocol map is known (give one with --map FILE)".to_owned(),
        }),
        Some(map) => set
            .lookup_opcode(map, opcode, None)
            .map_err(|e| match map.revision() {
                Some(rev) => format!("{e} (protocol.{rev}.map)"),
                None => e.to_string(),
            }),
    };
    match by_map {
        Err(_) if opcode == C_CHECK_VERSION_OPCODE => set
            .resolve("C_CHECK_VERSION", None)
            .map_err(|e| e.to_string()),
        found => found,
    }
}

fn highest(maps: &[Arc<ProtocolMap>]) -> Option<Arc<ProtocolMap>> {
    maps.iter().max_by_key(|m| m.revision()).cloned()
}

/// The protocol of a session whose first client packet is `first`.
fn choose(fixed: Option<&Arc<ProtocolMap>>, maps: &[Arc<ProtocolMap>], first: &Packet) -> Protocol {
    let announced = if first.opcode() == C_CHECK_VERSION_OPCODE {
        announced_revision(&first.bytes).map_err(|e| e.to_string())
    } else {
        Err(format!(
            "the first client packet has opcode {}, not C_CHECK_VERSION ({C_CHECK_VERSION_OPCODE})",
            first.opcode()
        ))
    };
    let (revision, problem) = match announced {
        Ok(revision) => (Some(revision), None),
        Err(problem) => (None, Some(problem)),
    };
    if let Some(map) = fixed {
        return Protocol {
            revision,
            map: Some(Arc::clone(map)),
            fallback: false,
            problem,
        };
    }
    match revision {
        Some(r) => Protocol {
            revision,
            map: maps.iter().find(|m| m.revision() == Some(r)).cloned(),
            fallback: false,
            problem,
        },
        None => Protocol {
            revision,
            map: highest(maps),
            fallback: true,
            problem,
        },
    }
}
