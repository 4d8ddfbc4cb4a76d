//! Simulated sessions and patch days, for tests, benches and examples
//! (feature `simulate`).
//!
//! [`Protocol`] is a version of the game: a def per packet name (the latest
//! version of each name the map holds) and a map. [`play`] plays a
//! plausible session under it: the login, the character list, entering
//! the world, moves, chat, skills, spawns, the inventory, NPCs, a party,
//! a dungeon, with values that stay consistent across packets (one
//! player's ids, continuous positions, the same NPC from spawn to
//! despawn, real-looking names). [`patch_day`] permutes a map's opcodes at
//! random, as a patch does; [`Score`] grades a discovery against the truth.

mod breakdown;
mod capture;
mod drift;
mod fill;
mod grade;
mod perturb;
mod script;
mod world;

pub use breakdown::{Breakdown, Outcome, Shape};
pub use capture::write_capture;
pub use drift::{Drift, Drifted, Recorded, drift};
pub use grade::{BANDS, Calibration, explain};
pub use perturb::{PatchChanges, Perturbation};

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use tera_defs_front::{Def, find_files, load_def_file};
use tera_dynamic::{ProtocolMap, Schema};
use tera_sessions::{
    Direction, End, EndReason, Event, Packet, SessionId, Start, Timestamp, direction_of,
};

use crate::discover::FIXED;
use crate::report::Report;
use crate::samples::Samples;

use world::World;

/// One packet of the protocol: its def, ready to encode, and its opcode.
#[derive(Debug, Clone)]
struct ProtocolPacket {
    def: Def,
    schema: Arc<Schema>,
    opcode: u16,
}

/// A version of the game: what each packet name is and its opcode.
#[derive(Debug, Clone)]
pub struct Protocol {
    packets: HashMap<String, ProtocolPacket>,
    /// How its sessions stray from the rules.
    perturb: Perturbation,
    /// The version `C_CHECK_VERSION` announces.
    pub revision: u32,
}

/// Why a protocol cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    /// A def does not load.
    #[error("{0}")]
    Def(String),
}

impl Protocol {
    /// The latest version of each def under `defs` (a tera-data checkout
    /// or a folder of defs) whose name `map` holds, at the map's opcodes.
    pub fn load(defs: &Path, map: &ProtocolMap, revision: u32) -> Result<Protocol, SimulateError> {
        let root = ["definitions", "protocol"]
            .iter()
            .map(|d| defs.join(d))
            .find(|p| p.is_dir())
            .unwrap_or_else(|| defs.to_path_buf());
        let mut latest: BTreeMap<String, Def> = BTreeMap::new();
        for file in find_files(&[root]).defs {
            let checked = load_def_file(&file);
            let Some(def) = checked.def else { continue };
            if def.platform.is_some() || map.code(&def.name).is_none() {
                continue;
            }
            if latest
                .get(&def.name)
                .is_none_or(|d| d.version < def.version)
            {
                latest.insert(def.name.clone(), def);
            }
        }
        let mut packets = HashMap::new();
        for (name, def) in latest {
            let schema =
                Schema::new(&def).map_err(|e| SimulateError::Def(format!("{name}: {e}")))?;
            let opcode = map.code(&name).unwrap_or(0);
            packets.insert(
                name,
                ProtocolPacket {
                    def,
                    schema: Arc::new(schema),
                    opcode,
                },
            );
        }
        Ok(Protocol {
            packets,
            revision,
            perturb: Perturbation::none(),
        })
    }

    /// The same packets under another map (names it lacks are dropped).
    pub fn with_map(&self, map: &ProtocolMap) -> Protocol {
        let packets = self
            .packets
            .iter()
            .filter_map(|(name, p)| {
                let opcode = map.code(name)?;
                Some((
                    name.clone(),
                    ProtocolPacket {
                        opcode,
                        ..p.clone()
                    },
                ))
            })
            .collect();
        Protocol {
            packets,
            revision: self.revision + 1,
            perturb: self.perturb.clone(),
        }
    }

    /// The same protocol, its sessions straying as `perturb` says.
    pub fn perturbed(&self, perturb: Perturbation) -> Protocol {
        Protocol {
            perturb,
            ..self.clone()
        }
    }

    /// The names it holds.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.packets.keys().map(String::as_str)
    }

    /// How many packet names it holds.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}

/// A session being played.
struct Play<'p> {
    protocol: &'p Protocol,
    world: World,
    session: SessionId,
    events: Vec<Event>,
    errors: Vec<String>,
}

impl Play<'_> {
    /// Sends packet `name` with the fields `set` sets (nothing when the
    /// protocol lacks it: not every version has every packet).
    fn send(&mut self, name: &str, set: fill::Set<'_>) {
        let Some(p) = self.protocol.packets.get(name) else {
            return;
        };
        let Some(direction) = direction_of(name) else {
            return;
        };
        let value = fill::block(&p.def.root, set, &mut self.world);
        let bytes = p
            .schema
            .deserialize(value)
            .map_err(|e| e.to_string())
            .and_then(|r| p.schema.encode(&r, p.opcode).map_err(|e| e.to_string()));
        match bytes {
            Ok(mut bytes) => {
                if self.protocol.perturb.stale.contains(name) {
                    perturb::stale(&mut bytes, &mut self.world);
                }
                self.events.push(Event::Packet(Packet {
                    session: self.session,
                    time: Timestamp(self.world.time),
                    direction,
                    bytes,
                }));
            }
            Err(e) => self.errors.push(format!("{name}: {e}")),
        }
        self.world.wait(1, 25);
    }

    /// Sends a consequence: every time, or as often as the perturbation's
    /// rate says.
    fn send_sometimes(&mut self, name: &str, set: fill::Set<'_>) {
        let rate = self.protocol.perturb.consequence_rate;
        if rate >= 1.0 || self.world.rng.random_bool(rate.max(0.0)) {
            self.send(name, set);
        }
    }

    /// Shuffles a burst's packets when the perturbation says so.
    fn shuffle_burst<T>(&mut self, burst: &mut [T]) {
        if self.protocol.perturb.shuffle_bursts {
            burst.shuffle(&mut self.world.rng);
        }
    }

    /// After a scene, now and then a packet of a name no scene plays.
    fn unknown_packet(&mut self, unplayed: &[String]) {
        let p = self.protocol.perturb.unknown_packets;
        if p > 0.0
            && self.world.rng.random_bool(p.min(1.0))
            && let Some(name) = unplayed.choose(&mut self.world.rng)
        {
            self.send(name, &[]);
        }
    }

    fn wait(&mut self, min: i64, max: i64) {
        self.world.wait(min, max);
    }
}

/// A played session: its events and what it holds.
#[derive(Debug, Clone)]
pub struct Session {
    /// Start, packets, end.
    pub events: Vec<Event>,
    /// Packets that could not be made (a def the fill cannot satisfy):
    /// none, for the corpus.
    pub errors: Vec<String>,
}

impl Session {
    /// The session's packets as discovery takes them.
    pub fn samples(&self) -> Samples {
        let mut samples = Samples::new();
        for e in &self.events {
            samples.push(e);
        }
        samples
    }
}

/// Plays a session of about `packets` packets under `protocol`, every
/// random choice drawn from `seed`.
pub fn play(protocol: &Protocol, seed: u64, packets: usize) -> Session {
    play_as(protocol, seed, packets, SessionId(0))
}

/// [`play`] with a session id of the caller's choice.
pub fn play_as(protocol: &Protocol, seed: u64, packets: usize, session: SessionId) -> Session {
    // 2026-11-27 20:00 UTC, plus an hour per seed.
    let start = 1_795_896_000_000_000_000 + (seed % 1000) as i64 * 3_600_000_000_000;
    let mut play = Play {
        protocol,
        world: World::new(seed, start, protocol.perturb.independent_values),
        session,
        events: Vec::new(),
        errors: Vec::new(),
    };
    play.events.push(Event::Start(Start {
        session,
        time: Timestamp(start),
        client: None,
        server: None,
        keys: None,
        region: None,
        client_version: Some(protocol.revision),
    }));
    play.login();
    let unplayed = unplayed(protocol);
    while play.events.len() < packets {
        play.scene();
        play.unknown_packet(&unplayed);
    }
    play.logout();
    play.events.push(Event::End(End {
        session,
        time: Timestamp(play.world.time),
        reason: EndReason::Closed,
    }));
    Session {
        events: play.events,
        errors: play.errors,
    }
}

/// The names of `protocol` that no scene plays, in a fixed order: the
/// packets interleaved by [`Perturbation::unknown_packets`].
fn unplayed(protocol: &Protocol) -> Vec<String> {
    if protocol.perturb.unknown_packets <= 0.0 {
        return Vec::new();
    }
    let played: BTreeSet<&str> = script::PLAYED.iter().copied().collect();
    let mut names: Vec<String> = protocol
        .names()
        .filter(|n| !played.contains(n) && !n.ends_with("CHECK_VERSION"))
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

/// A patch day: `map`'s opcodes shuffled among its names at random (the
/// fixed opcodes kept), from `seed`.
pub fn patch_day(map: &ProtocolMap, seed: u64) -> ProtocolMap {
    let mut rng = XorShiftRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let fixed: BTreeSet<&str> = FIXED.iter().map(|(n, _)| *n).collect();
    let names: Vec<&str> = map
        .iter()
        .map(|(n, _)| n)
        .filter(|n| !fixed.contains(n))
        .collect();
    let mut codes: Vec<u16> = names.iter().filter_map(|n| map.code(n)).collect();
    codes.shuffle(&mut rng);
    let mut out = ProtocolMap::new();
    for (name, code) in names.iter().zip(codes) {
        out.insert(name, code);
    }
    for (name, code) in FIXED {
        out.insert(name, code);
    }
    out
}

/// A discovery graded against the truth.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Opcodes seen (direction and opcode), the fixed ones aside.
    pub seen: usize,
    /// Of those, named right in the map.
    pub right: usize,
    /// Entries written for opcodes seen, the fixed ones aside.
    pub written: usize,
    /// Of those, wrong.
    pub wrong: usize,
    /// Names or opcodes written twice.
    pub duplicates: usize,
}

/// Scores of several discoveries, summed.
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.seen += other.seen;
        self.right += other.right;
        self.written += other.written;
        self.wrong += other.wrong;
        self.duplicates += other.duplicates;
    }
}

impl Score {
    /// Grades `report` for the packets of `samples` under `truth`.
    pub fn of(report: &Report, samples: &Samples, truth: &ProtocolMap) -> Score {
        let mut score = Score::default();
        let fixed: BTreeSet<u16> = FIXED.iter().map(|(_, c)| *c).collect();
        let mut by_key: HashMap<(Direction, u16), &str> = HashMap::new();
        let mut names = BTreeSet::new();
        let mut codes = BTreeSet::new();
        for e in &report.entries {
            if !names.insert(e.name.as_str()) || !codes.insert(e.opcode) {
                score.duplicates += 1;
            }
            by_key.insert((e.direction, e.opcode), e.name.as_str());
        }
        for g in samples.groups() {
            if fixed.contains(&g.opcode) {
                continue;
            }
            score.seen += 1;
            let truth_name = truth.name(g.opcode);
            if let Some(name) = by_key.get(&(g.direction, g.opcode)) {
                score.written += 1;
                if Some(*name) == truth_name {
                    score.right += 1;
                } else {
                    score.wrong += 1;
                }
            }
        }
        score
    }

    /// Right names over opcodes seen.
    pub fn recall(&self) -> f64 {
        self.right as f64 / self.seen.max(1) as f64
    }

    /// Right names over names written.
    pub fn precision(&self) -> f64 {
        if self.written == 0 {
            1.0
        } else {
            (self.written - self.wrong) as f64 / self.written as f64
        }
    }
}
