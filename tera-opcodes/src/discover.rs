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
//!    assignment as a whole is a maximum-weight matching; the entries whose
//!    margin reaches the anchor level feed the next round's evidence,
//!    until the sure entries stop changing.
//! 4. Entries whose margin reaches the threshold are written; the others
//!    are listed as candidates.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use crate::defset::DefSet;
use crate::fit::{Fit, fit_name};
use crate::links::{Digest, Fields, Index, one_life};
use crate::lives::Lives;
use crate::map::OpcodeMap;
use crate::matching::{Chosen, Edge, assign};
use crate::places_order::{Scene, login_order, scene_order};
use crate::report::{Entry, Evidence, Report, Unexplained};
use crate::samples::Samples;
use crate::scenes::{
    CONSEQUENCES, KEEPALIVES, LOGIN_ORDER, SCENES, SYSTEM_MESSAGE_TEXT, ends_a_life,
};
use crate::semantics::Semantics;
use crate::sequence::{Order, exchanges, follows, pair, pair_key};

/// The opcodes every version keeps: the first packet of each side.
pub const FIXED: [(&str, u16); 2] = [("C_CHECK_VERSION", 19900), ("S_CHECK_VERSION", 19901)];

/// The margin, in bits, an entry needs to be written into the map by
/// default: a confidence of 1 - 2^-10, about 0.999.
pub const DEFAULT_THRESHOLD: f64 = 10.0;

/// The margin an entry needs before its values and order count as
/// evidence for others.
const ANCHOR: f64 = 12.0;
/// What any exact fit is worth, however little it pins down.
const BASE: f64 = 1.0;
/// Structure beyond this says nothing more.
const STRUCTURE_CAP: f64 = 256.0;
/// Plausible values beyond this say nothing more.
const VALUES_CAP: f64 = 48.0;
/// All value links together beyond this say nothing more.
const LINKS_CAP: f64 = 64.0;
/// The previous map naming a packet at all: it was live in the last
/// version, and most packets live on while few new ones come (about
/// log2(0.98 / 0.02) = 6 bits against a name the map lacks). A prior:
/// less than a string's fit or an id's link, so it breaks ties only.
const PRIOR_NAME: f64 = 6.0;
/// ... and at the same opcode.
const PRIOR_SAME: f64 = 2.0;
/// Each exchange of a keepalive ([`KEEPALIVES`]), up to
/// [`KEEPALIVE_CAP`]: two empty packets that answer each other all session
/// long are few, and a request repeated with nothing else to it is rare.
const KEEPALIVE_BITS: f64 = 2.0;
/// What a keepalive's exchanges say at most.
const KEEPALIVE_CAP: f64 = 16.0;
/// Text that reads as a system message under a name whose text is one:
/// chat, names and descriptions almost never start `@` and a number.
const SYSTEM_MESSAGE_BITS: f64 = 12.0;
/// Each id a despawn ends (seen before, and no later packet holds it), up
/// to [`LIFE_CAP`]: an id that a packet of another kind holds is mostly
/// seen again. Ids seen again count nothing against: the game names a dead
/// NPC once more as the source of its loot. As much again when those
/// lives began in the other end of the name's life cycle.
const LIFE_BITS: f64 = 2.0;
/// What the ids a despawn ends say at most, and where they began as much.
const LIFE_CAP: f64 = 12.0;
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
    previous: Option<OpcodeMap>,
    known: OpcodeMap,
    threshold: f64,
}

/// One candidate: a group, a name, the fit and what its values hold.
struct Candidate {
    group: usize,
    name: usize,
    fit: Fit,
    digest: Digest,
    /// Evidence that does not change between rounds.
    fixed: Vec<Evidence>,
    /// The whole evidence of the last round.
    evidence: Vec<Evidence>,
    weight: f64,
}

/// A pinned entry: fixed or known.
struct Pin {
    name: String,
    opcode: u16,
    fixed: bool,
    group: Option<usize>,
    def: Option<usize>,
    fit: Option<Fit>,
    digest: Digest,
}

impl Discovery {
    /// Discovery over `defs`, knowing only the fixed opcodes.
    pub fn new(defs: DefSet) -> Self {
        Discovery {
            defs,
            previous: None,
            known: OpcodeMap::new(),
            threshold: DEFAULT_THRESHOLD,
        }
    }

    /// The previous version's map, as a prior.
    pub fn previous(mut self, map: OpcodeMap) -> Self {
        self.previous = Some(map);
        self
    }

    /// Entries of the new version already known: taken as they are.
    pub fn known(mut self, map: OpcodeMap) -> Self {
        self.known = map;
        self
    }

    /// The margin in bits an entry needs to be written (default
    /// [`DEFAULT_THRESHOLD`]).
    pub fn threshold(mut self, bits: f64) -> Self {
        self.threshold = bits;
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
        let lives = self.lives(samples, &cands);

        let mut anchors: Vec<(usize, usize)> = Vec::new();
        let mut chosen = Vec::new();
        let mut rounds = 0;
        while rounds < MAX_ROUNDS {
            rounds += 1;
            self.weigh(
                samples, &order, &lives, &pins, &mut cands, &anchors, &fields,
            );
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
                .map(|c| Chosen {
                    edge: usable[c.edge],
                    instead: c.instead.map(|j| usable[j]),
                    margin: c.margin,
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
        let mut map = OpcodeMap::new();
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
                    crate::defset::direction_of(name).and_then(|d| samples.group(d, opcode));
                let fit = match (group, def) {
                    (Some(g), Some(n)) => {
                        fit_name(samples, &samples.groups()[g], &self.defs.names[n]).ok()
                    }
                    _ => None,
                };
                let digest = match (group, def, &fit) {
                    (Some(g), Some(n), Some(f)) => {
                        let schema = self.version(n, f.version);
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

    fn version(&self, name: usize, version: u32) -> &tera_dynamic::Schema {
        let versions = &self.defs.names[name].versions;
        let v = versions
            .iter()
            .find(|v| v.schema.version() == version)
            .unwrap_or(&versions[versions.len() - 1]);
        &v.schema
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
                        bits: fit.plausibility.min(VALUES_CAP),
                    },
                ];
                if let Some(prev) = &self.previous
                    && let Some(code) = prev.opcode(&name.name)
                {
                    let same = code == group.opcode;
                    fixed.push(Evidence::PreviousMap {
                        same_opcode: same,
                        bits: PRIOR_NAME + if same { PRIOR_SAME } else { 0.0 },
                    });
                }
                let digest = Digest::of(samples, group, self.version(n, fit.version), fields);
                if SYSTEM_MESSAGE_TEXT.contains(&&*name.name)
                    && digest.texts > 0
                    && digest.system_messages == digest.texts
                {
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
                });
            }
        }
        out
    }

    /// Where the ids that despawn candidates read begin and end.
    fn lives(&self, samples: &Samples, cands: &[Candidate]) -> Lives {
        let ids: HashSet<u64> = cands
            .iter()
            .filter(|c| ends_a_life(&self.defs.names[c.name].name))
            .flat_map(|c| c.digest.ids.iter().map(|&(_, id)| id))
            .collect();
        Lives::scan(samples, &ids)
    }

    /// A despawn candidate's evidence: how many of the ids it reads were
    /// seen before and are seen no more, and whether those lives began in
    /// the sure packet at the other end of its life cycle.
    fn life_ends(
        &self,
        samples: &Samples,
        lives: &Lives,
        c: &Candidate,
        sure_names: &HashMap<usize, usize>,
    ) -> Option<Evidence> {
        let name = &self.defs.names[c.name].name;
        if !ends_a_life(name) {
            return None;
        }
        let of = c.digest.ids.len();
        let began: Vec<usize> = c
            .digest
            .ids
            .iter()
            .filter_map(|&(packet, id)| lives.ended_at(samples, packet, id))
            .collect();
        let ends = began.len();
        if of == 0 || 2 * ends < of {
            return None;
        }
        let mut bits = (LIFE_BITS * ends as f64).min(LIFE_CAP);
        let mut by: HashMap<usize, usize> = HashMap::new();
        for &first in &began {
            let group = samples.packet(first).group;
            if let Some(&n) = sure_names.get(&group)
                && one_life(name, &self.defs.names[n].name)
            {
                *by.entry(n).or_default() += 1;
            }
        }
        let begun_by = by
            .into_iter()
            .max_by_key(|&(n, k)| (k, std::cmp::Reverse(n)));
        let begun_by = begun_by.filter(|&(_, k)| 2 * k >= ends).map(|(n, k)| {
            bits += (LIFE_BITS * k as f64).min(LIFE_CAP);
            self.defs.names[n].name.to_string()
        });
        Some(Evidence::LifeEnds {
            ends,
            of,
            begun_by,
            bits,
        })
    }

    /// Weighs every candidate against the entries sure so far.
    fn weigh(
        &self,
        samples: &Samples,
        order: &Order,
        lives: &Lives,
        pins: &[Pin],
        cands: &mut [Candidate],
        anchors: &[(usize, usize)],
        fields: &Fields,
    ) {
        // The sure entries: pins with their group, and the anchors.
        let mut sure: Vec<(usize, usize, &Digest)> = Vec::new();
        for p in pins {
            if let (Some(g), Some(n)) = (p.group, p.def) {
                sure.push((g, n, &p.digest));
            }
        }
        let by_pair: HashMap<(usize, usize), usize> = cands
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.group, c.name), i))
            .collect();
        for &(g, n) in anchors {
            if let Some(&i) = by_pair.get(&(g, n)) {
                sure.push((g, n, &cands[i].digest));
            }
        }
        let index = Index::build(
            sure.iter()
                .map(|&(g, n, d)| (g, Arc::clone(&self.defs.names[n].name), d)),
        );
        let semantics = Semantics::learn(sure.iter().map(|&(_, _, d)| d));
        let group_of_name: HashMap<usize, usize> = sure.iter().map(|&(g, n, _)| (n, g)).collect();
        let name_of_group: HashMap<usize, usize> = sure.iter().map(|&(g, n, _)| (g, n)).collect();
        let sure_groups: HashSet<usize> = sure.iter().map(|&(g, _, _)| g).collect();
        let is_sure = |g: usize| sure_groups.contains(&g);
        let fits = |g: usize, n: usize| by_pair.contains_key(&(g, n));
        let scene = |names: &[&str]| {
            Scene::new(
                names.iter().map(|name| self.defs.index(name)).collect(),
                names.iter().map(|n| n.starts_with("C_")).collect(),
                &group_of_name,
            )
        };
        let login = scene(LOGIN_ORDER);
        let scenes: Vec<Scene> = SCENES.iter().map(|names| scene(names)).collect();
        // Each name's known causes and consequences.
        let mut consequences: HashMap<usize, Vec<usize>> = HashMap::new();
        for (cause, effect) in CONSEQUENCES {
            if let (Some(a), Some(b)) = (self.defs.index(cause), self.defs.index(effect)) {
                consequences.entry(a).or_default().push(b);
                consequences.entry(b).or_default().push(a);
            }
        }
        // Names by the key a request shares with its response.
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        for (n, name) in self.defs.names.iter().enumerate() {
            if let Some(k) = pair_key(&name.name) {
                by_key.entry(k).or_default().push(n);
            }
        }
        let evidence: Vec<Vec<Evidence>> = cands
            .iter()
            .map(|c| {
                let mut ev = c.fixed.clone();
                let mut links =
                    index.evidence(c.group, &self.defs.names[c.name].name, &c.digest, fields);
                cap_links(&mut links);
                ev.extend(links);
                ev.extend(semantics.evidence(&c.digest));
                let name = &self.defs.names[c.name];
                let key = pair_key(&name.name);
                let partners = key.and_then(|k| by_key.get(&k)).into_iter().flatten();
                for &m in partners.filter(|&&m| self.defs.names[m].direction != name.direction) {
                    if let Some(e) = self.pair_evidence(order, c.group, m, &group_of_name) {
                        ev.push(e);
                    }
                }
                for &m in consequences.get(&c.name).into_iter().flatten() {
                    if let Some(&h) = group_of_name.get(&m)
                        && h != c.group
                    {
                        let (matched, of, bits) = follows(order, c.group, h);
                        ev.push(Evidence::Follows {
                            with: self.defs.names[m].name.to_string(),
                            matched,
                            of,
                            bits,
                        });
                    }
                }
                if let Some(e) = self.life_ends(samples, lives, c, &name_of_group) {
                    ev.push(e);
                }
                if let Some(e) = self.keepalive(samples, order, c.group, &name.name) {
                    ev.push(e);
                }
                let login_bits = login.weigh(login_order, order, c.group, c.name, &fits, &is_sure);
                if let Some(bits) = login_bits {
                    ev.push(Evidence::LoginOrder { bits });
                }
                for (names, scene) in SCENES.iter().zip(&scenes) {
                    let bits = scene.weigh(scene_order, order, c.group, c.name, &fits, &is_sure);
                    if let Some(bits) = bits {
                        ev.push(Evidence::Scene {
                            scene: names[0].to_owned(),
                            bits,
                        });
                    }
                }
                ev
            })
            .collect();
        for (c, ev) in cands.iter_mut().zip(evidence) {
            c.weight = BASE + ev.iter().map(Evidence::bits).sum::<f64>();
            c.evidence = ev;
        }
    }

    /// The keepalive evidence for `group` as `name`, when `name` is one
    /// side of a keepalive: the group's packets are empty and exchanged
    /// with the empty packets of exactly one group of the other side.
    fn keepalive(
        &self,
        samples: &Samples,
        order: &Order,
        group: usize,
        name: &str,
    ) -> Option<Evidence> {
        let (request, response) = KEEPALIVES.iter().find(|(q, r)| *q == name || *r == name)?;
        let groups = samples.groups();
        if !groups[group].bodiless() {
            return None;
        }
        let asks = *request == name;
        let mut found = (0..groups.len()).filter_map(|h| {
            if h == group || groups[h].direction == groups[group].direction || !groups[h].bodiless()
            {
                return None;
            }
            let (q, r) = if asks { (group, h) } else { (h, group) };
            exchanges(order, q, r)
        });
        let n = found.next()?;
        if found.next().is_some() {
            return None;
        }
        Some(Evidence::Keepalive {
            with: (if asks { *response } else { *request }).to_owned(),
            exchanges: n,
            bits: (KEEPALIVE_BITS * n as f64).min(KEEPALIVE_CAP),
        })
    }

    /// The pair evidence between `group` and name `m`, once `m` is sure
    /// (a pair of two guesses would explain any two packets of one scene).
    fn pair_evidence(
        &self,
        order: &Order,
        group: usize,
        m: usize,
        sure: &HashMap<usize, usize>,
    ) -> Option<Evidence> {
        let &h = sure.get(&m)?;
        if h == group {
            return None;
        }
        let (matched, of, bits) = pair(order, group, h);
        Some(Evidence::Pair {
            with: self.defs.names[m].name.to_string(),
            matched,
            of,
            bits,
        })
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
            let direction = match crate::defset::direction_of(&p.name) {
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

/// All value links of a candidate together count [`LINKS_CAP`] bits at
/// most: each is scaled down alike.
fn cap_links(links: &mut [Evidence]) {
    let total: f64 = links
        .iter()
        .filter(|e| matches!(e, Evidence::Link { .. }))
        .map(Evidence::bits)
        .sum();
    if total <= LINKS_CAP {
        return;
    }
    let scale = LINKS_CAP / total;
    for e in links {
        if let Evidence::Link { bits, .. } = e {
            *bits *= scale;
        }
    }
}
