//! Naming and decoding each packet of a stream of sessions: every session
//! picks its protocol map by the revision its client announces in
//! `C_CHECK_VERSION` (the first client packet, opcode 19900), as the proxy
//! does, and its packets are named through that map and read by the
//! packet set's latest version of each name.

use std::collections::HashMap;
use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_net::Direction;

use crate::def::Def;
use crate::event::{Event, Packet, SessionId};
use crate::named::Named;
use crate::packet_set::PacketSet;
use crate::version::{C_CHECK_VERSION_OPCODE, announced_revision};

/// What a session's protocol is known to be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Protocol {
    /// The revision the client announced, when its first packet was a
    /// `C_CHECK_VERSION` that decodes.
    pub revision: Option<u32>,
    /// The map that names the session's packets (`None`: no map at all).
    pub map: Option<Arc<ProtocolMap>>,
    /// Whether that map was taken for want of one of the announced
    /// revision (the highest known), so names may be wrong.
    pub fallback: bool,
    /// Why the first client packet gave no revision, if it did not.
    pub problem: Option<String>,
}

/// One session's protocol and the defs its opcodes resolved to.
#[derive(Default)]
struct SessionState {
    protocol: Option<Protocol>,
    defs: HashMap<u16, Result<Def, String>>,
}

/// Names and decodes the packets of sessions with a [`PacketSet`].
///
/// The map of a session: the fixed one when given (`--map`); else the
/// map of the revision the session's `C_CHECK_VERSION` announces, among
/// the set's maps and those added; else the highest of them, marked
/// [`Protocol::fallback`]. Defs are the set's latest version of each name.
pub struct Namer<'s> {
    set: &'s dyn PacketSet,
    fixed: Option<Arc<ProtocolMap>>,
    maps: Vec<Arc<ProtocolMap>>,
    sessions: HashMap<SessionId, SessionState>,
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
                self.sessions.insert(start.session, SessionState::default());
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
        let def = state
            .defs
            .entry(opcode)
            .or_insert_with(|| match &map {
                None => Err("no protocol map names opcodes".to_owned()),
                Some(map) => {
                    set.lookup_opcode(map, opcode, None)
                        .map_err(|e| match map.revision() {
                            Some(rev) => format!("{e} (protocol.{rev}.map)"),
                            None => e.to_string(),
                        })
                }
            })
            .clone();
        match def {
            Err(message) => Named {
                def: None,
                data: Err(message),
            },
            Ok(def) => {
                let mut json = Vec::new();
                let data = match set.write_json(&def, &packet.bytes, false, &mut json) {
                    Ok(()) => Ok(json),
                    Err(e) => Err(e.to_string()),
                };
                Named {
                    def: Some(def),
                    data,
                }
            }
        }
    }
}

fn highest(maps: &[Arc<ProtocolMap>]) -> Option<Arc<ProtocolMap>> {
    maps.iter().max_by_key(|m| m.revision()).cloned()
}

/// The protocol of a session whose first client packet is `first`.
fn choose(fixed: Option<&Arc<ProtocolMap>>, maps: &[Arc<ProtocolMap>], first: &Packet) -> Protocol {
    let announced = if first.opcode() == C_CHECK_VERSION_OPCODE {
        announced_revision(&first.bytes)
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
    let exact = revision.and_then(|r| maps.iter().find(|m| m.revision() == Some(r)).cloned());
    let fallback = exact.is_none();
    Protocol {
        revision,
        map: exact.or_else(|| highest(maps)),
        fallback,
        problem,
    }
}
