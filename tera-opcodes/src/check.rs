//! Grading an existing map against sessions: the entries whose packets do
//! not fit their def, the opcodes seen that the map does not name, and
//! the entries the evidence puts elsewhere (two that trade places are a
//! likely swap).

use serde::Serialize;
use tera_dynamic::ProtocolMap;
use tera_sessions::direction_of;

use crate::defset::DefSet;
use crate::discover::{Discovery, FIXED};
use crate::fit::fit_name;
use crate::report::{Entry, Unexplained};
use crate::samples::Samples;

/// A check of a map.
#[derive(Debug, Clone)]
pub struct Check {
    defs: DefSet,
    map: ProtocolMap,
}

/// A map entry whose packets do not fit its def.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Misfitting {
    /// The name the map gives.
    pub name: String,
    /// The opcode.
    pub opcode: u16,
    /// Packets of the opcode.
    pub samples: usize,
    /// Why the def does not fit (its latest version's reason).
    pub reason: String,
}

/// A map entry that the evidence puts at another opcode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Moved {
    /// The name.
    pub name: String,
    /// The opcode the map gives it (if any).
    pub map_opcode: Option<u16>,
    /// The opcode the evidence gives it.
    pub found_opcode: u16,
    /// How sure discovery is of the opcode it found.
    pub confidence: f64,
    /// The name whose place it takes, when that name moved to this one's:
    /// a swap.
    pub swapped_with: Option<String>,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Map entries whose opcode was seen and whose packets fit their def.
    pub fitting: usize,
    /// Map entries whose opcode was seen, in all.
    pub seen: usize,
    /// Entries whose packets do not fit.
    pub misfits: Vec<Misfitting>,
    /// Opcodes seen that the map does not name (for their direction).
    pub unmapped: Vec<Unexplained>,
    /// Entries the evidence places elsewhere.
    pub moved: Vec<Moved>,
    /// The discovery run the moves come from.
    pub discovery: Vec<Entry>,
}

impl CheckReport {
    /// Pairs of names that traded places.
    pub fn swaps(&self) -> Vec<(&str, &str)> {
        self.moved
            .iter()
            .filter_map(|m| {
                let other = m.swapped_with.as_deref()?;
                (m.name.as_str() < other).then_some((m.name.as_str(), other))
            })
            .collect()
    }

    /// Whether the map passed: every entry seen fits its def and no two
    /// entries traded places (a single moved entry is reported, not held
    /// against the map: discovery itself can be wrong).
    pub fn is_clean(&self) -> bool {
        self.misfits.is_empty() && self.swaps().is_empty()
    }
}

impl Check {
    /// A check of `map` with `defs`.
    pub fn new(defs: DefSet, map: ProtocolMap) -> Self {
        Check { defs, map }
    }

    /// Runs the check over the packets taken.
    pub fn run(&self, samples: &mut Samples) -> CheckReport {
        let discovery = Discovery::new(self.defs.clone())
            .previous(self.map.clone())
            .run(samples);
        let samples = &*samples;
        let mut misfits = Vec::new();
        let mut seen = 0;
        for (name, opcode) in self.map.iter() {
            let Some(direction) = direction_of(name) else {
                continue;
            };
            let Some(g) = samples.group(direction, opcode) else {
                continue;
            };
            seen += 1;
            let group = &samples.groups()[g];
            let reason = match self.defs.index(name) {
                None => Some("no def of this name".to_owned()),
                Some(n) => fit_name(samples, group, &self.defs.names[n])
                    .err()
                    .map(|m| m.to_string()),
            };
            if let Some(reason) = reason {
                misfits.push(Misfitting {
                    name: name.to_owned(),
                    opcode,
                    samples: group.len(),
                    reason,
                });
            }
        }
        let unmapped = samples
            .groups()
            .iter()
            .filter(|g| {
                let named = self.map.name(g.opcode).and_then(direction_of);
                named != Some(g.direction)
            })
            .map(|g| Unexplained {
                opcode: g.opcode,
                direction: g.direction,
                samples: g.len(),
                lengths: g.lengths(),
            })
            .collect();
        let mut moved: Vec<Moved> = discovery
            .entries
            .iter()
            .filter(|e| !FIXED.contains(&(e.name.as_str(), e.opcode)))
            .filter(|e| self.map.code(&e.name) != Some(e.opcode))
            .map(|e| Moved {
                name: e.name.clone(),
                map_opcode: self.map.code(&e.name),
                found_opcode: e.opcode,
                confidence: e.confidence,
                swapped_with: None,
            })
            .collect();
        let places: Vec<(String, Option<u16>, u16)> = moved
            .iter()
            .map(|m| (m.name.clone(), m.map_opcode, m.found_opcode))
            .collect();
        for m in &mut moved {
            m.swapped_with = places
                .iter()
                .find(|(n, map, found)| {
                    *n != m.name && *map == Some(m.found_opcode) && Some(*found) == m.map_opcode
                })
                .map(|(n, _, _)| n.clone());
        }
        CheckReport {
            fitting: seen - misfits.len(),
            seen,
            misfits,
            unmapped,
            moved,
            discovery: discovery.entries,
        }
    }
}
