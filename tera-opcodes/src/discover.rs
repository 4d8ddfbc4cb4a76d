//! Discovery: from the packets of sessions and a def set, the names of the
//! opcodes, each with its confidence and evidence.
//!
//! 1. Pins: the fixed opcodes (19900 `C_CHECK_VERSION`, 19901
//!    `S_CHECK_VERSION`) and the partial map given.
//! 2. Candidates: every name of the packets' direction whose def (some
//!    version of it) fits every distinct packet of the opcode exactly.
//! 3. Rounds: each candidate is weighed in bits (fit, values, the previous
//!    map as a prior, and, from the entries already sure, value links,
//!    positions, request/response pairs and the login order); the best
//!    assignment as a whole is a maximum-weight matching. An entry's
//!    margin is the least of what the assignment loses without it and its
//!    odds against its true def being one the set lacks (`lacking.rs`).
//!    The entries whose margin reaches the anchor level feed the next
//!    round's evidence, until the sure entries stop changing.
//! 4. Entries whose margin reaches the threshold are written; the others
//!    are listed as candidates.

mod candidate;
mod lacking;
mod weigh;

use std::collections::BTreeSet;

use tera_dynamic::ProtocolMap;

use candidate::{Candidate, Pin};
use weigh::{Reading, Weigher};

use crate::defset::DefSet;
use crate::fit::fit_name;
use crate::layout_rates::LayoutRates;
use crate::links::{Digest, Fields};
use crate::matching::{Chosen, Edge, assign};
use crate::report::{Entry, Evidence, Report, Unexplained};
use crate::samples::Samples;
use crate::scenes::GameRules;
use crate::sequence::Order;

/// The opcodes every version keeps: the first packet of each side.
pub const FIXED: [(&str, u16); 2] = [("C_CHECK_VERSION", 19900), ("S_CHECK_VERSION", 19901)];

/// The margin, in bits, an entry needs to be written into the map by
/// default: a confidence of 1 - 2^-10, about 0.999.
pub const DEFAULT_THRESHOLD: f64 = 10.0;

/// The margin an entry needs before its values and order count as
/// evidence for others.
const ANCHOR: f64 = 12.0;
/// Structure beyond this says nothing more.
const STRUCTURE_CAP: f64 = 256.0;
/// Values plausible or not beyond this say nothing more, either way: defs
/// read some integers as floats, and a field the game leaves unset holds
/// anything.
const VALUES_CAP: f64 = 6.0;
/// The previous map naming a packet at all: it was live in the last
/// version, and most packets live on while few new ones come (about
/// log2(0.98 / 0.02) = 6 bits against a name the map lacks). A prior:
/// less than a string's fit or an id's link, so it breaks ties only.
const PRIOR_NAME: f64 = 6.0;
/// ... and at the same opcode.
const PRIOR_SAME: f64 = 2.0;
/// Text that reads as a system message under a name whose text is one:
/// chat, names and descriptions almost never start `@` and a number.
const SYSTEM_MESSAGE_BITS: f64 = 12.0;
/// Rounds at most (they stop as soon as the sure entries settle).
const MAX_ROUNDS: usize = 8;

/// Opcode discovery over a def set.
///
/// ```no_run
/// use tera_opcodes::{DefSet, Discovery, Samples};
/// # let events: Vec<tera_sessions::Event> = Vec::new();
/// let mut catalog = tera_dynamic::Catalog::new();
/// catalog.load_dir("tera-data");
/// let mut samples = Samples::new();
/// for event in &events {
///     samples.push(event);
/// }
/// let report = Discovery::new(DefSet::from_catalog(&catalog)).run(&mut samples);
/// print!("{}", report.map().to_text());
/// ```
#[derive(Debug, Clone)]
pub struct Discovery {
    defs: DefSet,
    previous: Option<ProtocolMap>,
    known: ProtocolMap,
    threshold: f64,
    rules: GameRules,
}

impl Discovery {
    /// Discovery over `defs`, knowing only the fixed opcodes.
    pub fn new(defs: DefSet) -> Self {
        Discovery {
            defs,
            previous: None,
            known: ProtocolMap::new(),
            threshold: DEFAULT_THRESHOLD,
            rules: GameRules::standard(),
        }
    }

    /// The previous version's map, as a prior.
    pub fn previous(mut self, map: ProtocolMap) -> Self {
        self.previous = Some(map);
        self
    }

    /// Entries of the new version already known: taken as they are.
    pub fn known(mut self, map: ProtocolMap) -> Self {
        self.known = map;
        self
    }

    /// The margin in bits an entry needs to be written (default
    /// [`DEFAULT_THRESHOLD`]).
    pub fn threshold(mut self, bits: f64) -> Self {
        self.threshold = bits;
        self
    }

    /// The game rules whose evidence counts (default
    /// [`GameRules::standard`]; [`GameRules::none`] for fit, values and
    /// value links only).
    pub fn rules(mut self, rules: GameRules) -> Self {
        self.rules = rules;
        self
    }

    /// The def set.
    pub fn defs(&self) -> &DefSet {
        &self.defs
    }

    /// Runs discovery over the packets taken.
    pub fn run(&self, samples: &mut Samples) -> Report {
        samples.finish();
        let samples = &*samples;
        let order = Order::new(samples);
        let mut fields = Fields::default();
        let pins = self.pins(samples, &mut fields);
        let pinned_groups: BTreeSet<usize> = pins.iter().filter_map(|p| p.group).collect();
        let pinned_names: BTreeSet<usize> = pins.iter().filter_map(|p| p.def).collect();
        let mut cands = self.candidates(samples, &pinned_groups, &pinned_names, &mut fields);
        let layouts = LayoutRates::measure(
            &self.defs,
            cands.iter().map(|c| c.name).collect::<BTreeSet<usize>>(),
        );
        let rarity = candidate::rarity(&cands, samples, &layouts);
        candidate::bound_fits(&mut cands, samples, &rarity, &layouts);
        let weigher = Weigher {
            defs: &self.defs,
            rules: &self.rules,
        };
        let lives = weigher.lives(samples, &cands);
        let reading = Reading::new(&weigher, samples, &order, &lives, &fields, &cands, rarity);
        let unfit = lacking::Unfit::count(samples, &cands, &pinned_groups);

        let mut anchors: Vec<(usize, usize)> = Vec::new();
        let mut chosen = Vec::new();
        let mut rounds = 0;
        while rounds < MAX_ROUNDS {
            rounds += 1;
            weigher.weigh(&reading, &pins, &mut cands, &anchors);
            let edges: Vec<Edge> = cands
                .iter()
                .map(|c| Edge {
                    row: c.group,
                    col: c.name,
                    weight: c.weight,
                })
                .collect();
            let usable: Vec<usize> = (0..edges.len())
                .filter(|&i| edges[i].weight > 0.0)
                .collect();
            let usable_edges: Vec<Edge> = usable.iter().map(|&i| edges[i]).collect();
            chosen = assign(samples.groups().len(), self.defs.len(), &usable_edges)
                .into_iter()
                .map(|c| {
                    let cand = &cands[usable[c.edge]];
                    let side = samples.groups()[cand.group].direction;
                    Chosen {
                        edge: usable[c.edge],
                        instead: c.instead.map(|j| usable[j]),
                        margin: c.margin.min(lacking::margin(
                            cand,
                            &reading.field_names,
                            &self.defs,
                            unfit.of(side),
                        )),
                    }
                })
                .collect();
            let next: Vec<(usize, usize)> = chosen
                .iter()
                .filter(|c| c.margin >= ANCHOR)
                .map(|c| (cands[c.edge].group, cands[c.edge].name))
                .collect();
            if next == anchors {
                break;
            }
            anchors = next;
        }
        self.report(samples, pins, &cands, &chosen, rounds)
    }

    /// The fixed opcodes and the known entries, each with its group and
    /// def when the packets and the defs have them.
    fn pins(&self, samples: &Samples, fields: &mut Fields) -> Vec<Pin> {
        let mut map = ProtocolMap::new();
        for (name, code) in FIXED {
            map.insert(name, code);
        }
        for (name, code) in self.known.iter() {
            map.insert(name, code);
        }
        map.iter()
            .map(|(name, opcode)| {
                let fixed = FIXED.contains(&(name, opcode));
                let def = self.defs.index(name);
                let group =
                    tera_sessions::direction_of(name).and_then(|d| samples.group(d, opcode));
                let fit = match (group, def) {
                    (Some(g), Some(n)) => {
                        fit_name(samples, &samples.groups()[g], &self.defs.names[n]).ok()
                    }
                    _ => None,
                };
                let digest = match (group, def, &fit) {
                    (Some(g), Some(n), Some(f)) => {
                        let schema = self.defs.version(n, f.version);
                        Digest::of(samples, &samples.groups()[g], schema, fields)
                    }
                    _ => Digest::default(),
                };
                Pin {
                    name: name.to_owned(),
                    opcode,
                    fixed,
                    group,
                    def,
                    fit,
                    digest,
                }
            })
            .collect()
    }

    /// Every (group, name) whose def fits, with the evidence that holds
    /// whatever the other entries are.
    fn candidates(
        &self,
        samples: &Samples,
        pinned_groups: &BTreeSet<usize>,
        pinned_names: &BTreeSet<usize>,
        fields: &mut Fields,
    ) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (g, group) in samples.groups().iter().enumerate() {
            if pinned_groups.contains(&g) {
                continue;
            }
            for (n, name) in self.defs.names.iter().enumerate() {
                if name.direction != group.direction || pinned_names.contains(&n) {
                    continue;
                }
                let Ok(fit) = fit_name(samples, group, name) else {
                    continue;
                };
                let mut fixed = vec![
                    Evidence::Fit {
                        version: fit.version,
                        distinct: group.distinct(),
                        lengths: group.lengths(),
                        bits: fit.structure.min(STRUCTURE_CAP),
                    },
                    Evidence::Values {
                        bits: fit.plausibility.clamp(-VALUES_CAP, VALUES_CAP),
                    },
                ];
                if let Some(prev) = &self.previous
                    && let Some(code) = prev.code(&name.name)
                {
                    let same = code == group.opcode;
                    fixed.push(Evidence::PreviousMap {
                        same_opcode: same,
                        bits: PRIOR_NAME + if same { PRIOR_SAME } else { 0.0 },
                    });
                }
                let digest = Digest::of(samples, group, self.defs.version(n, fit.version), fields);
                let system_message = self
                    .rules
                    .system_message_text
                    .iter()
                    .any(|r| *r.rule == *name.name);
                if system_message && digest.texts > 0 && digest.system_messages == digest.texts {
                    fixed.push(Evidence::SystemMessage {
                        texts: digest.texts,
                        bits: SYSTEM_MESSAGE_BITS,
                    });
                }
                out.push(Candidate {
                    group: g,
                    name: n,
                    fit,
                    digest,
                    fixed,
                    evidence: Vec::new(),
                    weight: 0.0,
                    generic: 0.0,
                    alike_fit: 0.0,
                });
            }
        }
        out
    }

    fn report(
        &self,
        samples: &Samples,
        pins: Vec<Pin>,
        cands: &[Candidate],
        chosen: &[Chosen],
        rounds: usize,
    ) -> Report {
        let groups = samples.groups();
        let mut entries = Vec::new();
        let mut candidates = Vec::new();
        let mut explained = BTreeSet::new();
        for p in pins {
            let direction = match tera_sessions::direction_of(&p.name) {
                Some(d) => d,
                None => continue,
            };
            let mut evidence = vec![if p.fixed {
                Evidence::Fixed
            } else {
                Evidence::Known
            }];
            if let (Some(g), Some(fit)) = (p.group, &p.fit) {
                evidence.push(Evidence::Fit {
                    version: fit.version,
                    distinct: groups[g].distinct(),
                    lengths: groups[g].lengths(),
                    bits: fit.structure.min(STRUCTURE_CAP),
                });
            }
            if let Some(g) = p.group {
                explained.insert(g);
            }
            entries.push(Entry {
                version: p.fit.as_ref().map(|f| f.version).or_else(|| {
                    p.def
                        .and_then(|n| self.defs.names[n].versions.last())
                        .map(|v| v.schema.version())
                }),
                name: p.name,
                opcode: p.opcode,
                direction,
                confidence: 1.0,
                margin: f64::INFINITY,
                samples: p.group.map_or(0, |g| groups[g].len()),
                evidence,
                beat: None,
            });
        }
        for c in chosen {
            let cand = &cands[c.edge];
            let group = &groups[cand.group];
            explained.insert(cand.group);
            let entry = Entry {
                name: self.defs.names[cand.name].name.to_string(),
                version: Some(cand.fit.version),
                opcode: group.opcode,
                direction: group.direction,
                confidence: 1.0 - (-c.margin).exp2(),
                margin: c.margin,
                samples: group.len(),
                evidence: cand.evidence.clone(),
                beat: c.instead.map(|j| {
                    (
                        self.defs.names[cands[j].name].name.to_string(),
                        cands[j].weight,
                    )
                }),
            };
            if c.margin >= self.threshold {
                entries.push(entry);
            } else {
                candidates.push(entry);
            }
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        candidates.sort_by(|a, b| b.margin.total_cmp(&a.margin));
        let unexplained = groups
            .iter()
            .enumerate()
            .filter(|(g, _)| !explained.contains(g))
            .map(|(_, g)| Unexplained {
                opcode: g.opcode,
                direction: g.direction,
                samples: g.len(),
                lengths: g.lengths(),
            })
            .collect();
        Report {
            entries,
            candidates,
            unexplained,
            threshold: self.threshold,
            packets: samples.len(),
            sessions: samples.sessions(),
            opcodes: groups.len(),
            names: self.defs.len(),
            rounds,
        }
    }
}
