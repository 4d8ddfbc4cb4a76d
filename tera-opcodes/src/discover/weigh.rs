//! Weighing: each candidate's evidence in bits, against the entries sure
//! so far, round after round.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::candidate::{Candidate, Pin, fit_bits, is_generic};
use crate::base_rates::BaseRates;
use crate::defset::DefSet;
use crate::field_names::FieldNames;
use crate::links::{Digest, Fields, Index, one_life};
use crate::lives::Lives;
use crate::login_alignment::{self, login_bits};
use crate::places_order::{Known, Scene, scene_order};
use crate::report::Evidence;
use crate::samples::Samples;
use crate::scenes::{GameRules, ends_a_life};
use crate::semantics::Semantics;
use crate::sequence::{Order, exchanges, follows, pair, pair_key};

/// What the login's order says of one candidate at most.
const LOGIN_CAP: f64 = 24.0;
/// All value links together beyond this say nothing more.
const LINKS_CAP: f64 = 64.0;
/// Each exchange of a keepalive ([`GameRules::keepalives`]), up to
/// [`KEEPALIVE_CAP`]: two empty packets that answer each other all session
/// long are few, and a request repeated with nothing else to it is rare.
const KEEPALIVE_BITS: f64 = 2.0;
/// What a keepalive's exchanges say at most.
const KEEPALIVE_CAP: f64 = 16.0;
/// Each id a despawn ends (seen before, and no later packet holds it), up
/// to [`LIFE_CAP`]: an id that a packet of another kind holds is mostly
/// seen again. Ids seen again count nothing against: the game names a dead
/// NPC once more as the source of its loot. As much again when those
/// lives began in the other end of the name's life cycle.
const LIFE_BITS: f64 = 2.0;
/// What the ids a despawn ends say at most, and where they began as much.
const LIFE_CAP: f64 = 12.0;

/// What a run has read, the same in every round.
pub(super) struct Reading<'a> {
    pub(super) samples: &'a Samples,
    pub(super) order: &'a Order,
    pub(super) lives: &'a Lives,
    pub(super) fields: &'a Fields,
    /// How many groups hold each value.
    pub(super) rates: BaseRates,
    /// How common each field name is among the defs.
    pub(super) field_names: FieldNames,
    /// Each name's known causes and consequences ([`GameRules::consequences`]).
    pub(super) consequences: HashMap<usize, Vec<usize>>,
    /// Names by the key a request shares with its response.
    pub(super) by_key: HashMap<String, Vec<usize>>,
    /// Each candidate by its (group, name): the pairs whose def fits.
    pub(super) by_pair: HashMap<(usize, usize), usize>,
    /// The names whose def fits some group.
    pub(super) fitting: HashSet<usize>,
    /// What a name's def fitting a group says ([`rarity`](super::candidate::rarity)).
    pub(super) specific: HashMap<usize, f64>,
}

impl<'a> Reading<'a> {
    pub(super) fn new(
        weigher: &Weigher<'_>,
        samples: &'a Samples,
        order: &'a Order,
        lives: &'a Lives,
        fields: &'a Fields,
        cands: &[Candidate],
        specific: HashMap<usize, f64>,
    ) -> Reading<'a> {
        let Weigher { defs, rules } = *weigher;
        let mut consequences: HashMap<usize, Vec<usize>> = HashMap::new();
        for (cause, effect) in rules.consequences.iter().map(|r| &r.rule) {
            if let (Some(a), Some(b)) = (defs.index(cause), defs.index(effect)) {
                consequences.entry(a).or_default().push(b);
                consequences.entry(b).or_default().push(a);
            }
        }
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        for (n, name) in defs.names.iter().enumerate() {
            if let Some(k) = pair_key(&name.name) {
                by_key.entry(k).or_default().push(n);
            }
        }
        let by_pair = cands
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.group, c.name), i))
            .collect();
        let fitting: HashSet<usize> = cands.iter().map(|c| c.name).collect();
        Reading {
            samples,
            order,
            lives,
            fields,
            rates: BaseRates::scan(samples),
            field_names: FieldNames::count(defs),
            consequences,
            by_key,
            by_pair,
            fitting,
            specific,
        }
    }
}

/// What the entries sure in one round give.
struct Round {
    /// Their values, to link candidates to.
    index: Index,
    /// What their fields' names hold.
    semantics: Semantics,
    group_of_name: HashMap<usize, usize>,
    name_of_group: HashMap<usize, usize>,
    /// The odds the login's order gives each (group, name) it favours.
    login: HashMap<(usize, usize), f64>,
    /// The scenes, with the names already named.
    scenes: Vec<(String, Scene)>,
}

/// What any exact fit is worth, however little it pins down.
const BASE: f64 = 1.0;

/// Weighs candidates against a def set.
pub(super) struct Weigher<'d> {
    pub(super) defs: &'d DefSet,
    pub(super) rules: &'d GameRules,
}

impl Weigher<'_> {
    /// Where the ids that despawn candidates read begin and end.
    pub(super) fn lives(&self, samples: &Samples, cands: &[Candidate]) -> Lives {
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
    pub(super) fn weigh(
        &self,
        reading: &Reading<'_>,
        pins: &[Pin],
        cands: &mut [Candidate],
        anchors: &[(usize, usize)],
    ) {
        let round = self.round(reading, pins, cands, anchors);
        let evidence: Vec<Vec<Evidence>> = cands
            .iter()
            .map(|c| self.evidence(reading, &round, c))
            .collect();
        for (c, ev) in cands.iter_mut().zip(evidence) {
            c.weight = BASE + ev.iter().map(Evidence::bits).sum::<f64>();
            c.generic = BASE
                + ev.iter()
                    .filter(|e| is_generic(e))
                    .map(Evidence::bits)
                    .sum::<f64>();
            c.evidence = ev;
        }
    }

    /// What the entries sure so far give: the pins with their group, and
    /// the anchors.
    fn round(
        &self,
        reading: &Reading<'_>,
        pins: &[Pin],
        cands: &[Candidate],
        anchors: &[(usize, usize)],
    ) -> Round {
        let mut sure: Vec<(usize, usize, &Digest)> = Vec::new();
        for p in pins {
            if let (Some(g), Some(n)) = (p.group, p.def) {
                sure.push((g, n, &p.digest));
            }
        }
        for &(g, n) in anchors {
            if let Some(&i) = reading.by_pair.get(&(g, n)) {
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
        // A name whose def fits no opcode of the session (the set lacks
        // its def, or holds one the patch changed) is a place any packet
        // may take, as a name without a def.
        let placed = |name: &String| {
            self.defs
                .index(name)
                .filter(|n| reading.fitting.contains(n) || group_of_name.contains_key(n))
        };
        let scene = |names: &[String]| {
            Scene::new(
                names.iter().map(placed).collect(),
                names.iter().map(|n| n.starts_with("C_")).collect(),
                &group_of_name,
            )
        };
        let login = match &self.rules.login_order {
            Some(rule) => {
                let names: Vec<Option<usize>> = rule.rule.iter().map(placed).collect();
                let client: Vec<bool> = rule.rule.iter().map(|n| n.starts_with("C_")).collect();
                let fits = |g: usize, n: usize| reading.by_pair.contains_key(&(g, n));
                let specific = |n: usize| reading.specific.get(&n).copied().unwrap_or(0.0);
                let places = login_alignment::Places {
                    names: &names,
                    client: &client,
                };
                let known = login_alignment::Known {
                    fits: &fits,
                    specific: &specific,
                    name_of: &name_of_group,
                    group_of: &group_of_name,
                };
                login_bits(reading.order, &places, &known)
            }
            None => HashMap::new(),
        };
        let scenes = self
            .rules
            .scenes
            .iter()
            .filter_map(|r| Some((r.rule.first()?.clone(), scene(&r.rule))))
            .collect();
        Round {
            index,
            semantics,
            group_of_name,
            name_of_group,
            login,
            scenes,
        }
    }

    /// The evidence for one candidate in this round.
    fn evidence(&self, reading: &Reading<'_>, round: &Round, c: &Candidate) -> Vec<Evidence> {
        let Reading {
            samples,
            order,
            lives,
            fields,
            ..
        } = *reading;
        let name = &self.defs.names[c.name];
        let mut ev = c.fixed.clone();
        let mut links = round.index.evidence(
            c.group,
            &name.name,
            &c.digest,
            fields,
            &reading.rates,
            &reading.field_names,
        );
        cap_links(&mut links);
        ev.extend(links);
        ev.extend(round.semantics.evidence(&c.digest));
        let key = pair_key(&name.name);
        let partners = key
            .and_then(|k| reading.by_key.get(&k))
            .into_iter()
            .flatten();
        for &m in partners.filter(|&&m| self.defs.names[m].direction != name.direction) {
            if let Some(e) = self.pair_evidence(order, c.group, m, &round.group_of_name) {
                ev.push(e);
            }
        }
        for &m in reading.consequences.get(&c.name).into_iter().flatten() {
            if let Some(&h) = round.group_of_name.get(&m)
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
        ev.extend(self.life_ends(samples, lives, c, &round.name_of_group));
        ev.extend(self.keepalive(samples, order, c.group, &name.name));
        let sure = |g: usize| round.name_of_group.contains_key(&g);
        let fits = |g: usize, n: usize| reading.by_pair.contains_key(&(g, n));
        let known = Known {
            fits: &fits,
            sure: &sure,
        };
        if let Some(&odds) = round.login.get(&(c.group, c.name)) {
            // The odds count the def's fit; the fit counts for itself.
            let bits = (odds - fit_bits(c)).clamp(0.0, LOGIN_CAP);
            ev.push(Evidence::LoginOrder { bits });
        }
        for (first, scene) in &round.scenes {
            let bits = scene.weigh(scene_order, order, c.group, c.name, &known);
            ev.extend(bits.map(|bits| Evidence::Scene {
                scene: first.clone(),
                bits,
            }));
        }
        ev
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
        let (request, response) = self
            .rules
            .keepalives
            .iter()
            .map(|r| &r.rule)
            .find(|(q, r)| q == name || r == name)?;
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
            with: (if asks { response } else { request }).clone(),
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
