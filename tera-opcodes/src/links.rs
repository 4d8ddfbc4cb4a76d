//! Value evidence: values that tie packets together across a session. The
//! player's ids from `S_LOGIN` come back in other packets' `gameId` and
//! `playerId`; an NPC's id in its spawn, its moves and its despawn; a
//! skill in the request and in its result; the player's position in
//! every packet about the player. A candidate def whose fields of the same
//! name hold values that packets already named hold is likelier right,
//! by the rarity of those values.

use std::collections::HashMap;
use std::sync::Arc;

use tera_dynamic::{Schema, Value};
use tera_sessions::Timestamp;

use crate::base_rates::BaseRates;
use crate::field_names::FieldNames;
use crate::leaves::{Visit, integer, walk};
use crate::report::Evidence;
use crate::samples::{Group, Samples};

/// Distinct packets of a candidate whose values are read: enough to see
/// an id recur, few enough that every candidate is read once, fast.
const LINK_SAMPLES: usize = 64;

/// Distinct packets of a candidate whose integers are classed by size,
/// for the evidence of field names.
const CLASS_SAMPLES: usize = 24;

/// Field names interned as small numbers.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    ids: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Fields {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = name.into();
        self.names.push(Arc::clone(&name));
        self.ids.insert(name, id);
        id
    }

    fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("?", |n| n)
    }
}

/// A position a packet holds.
#[derive(Debug, Clone, Copy)]
struct Place {
    session: u32,
    time: Timestamp,
    field: u32,
    at: [f32; 3],
}

/// The values of a candidate's packets that evidence reads, read once.
#[derive(Debug, Default)]
pub(crate) struct Digest {
    /// Distinct (field, value) pairs of integer leaves worth a link.
    ints: Vec<(u32, u64, bool)>,
    /// Each packet's (field, value) pairs worth a link, packet by packet.
    records: Vec<Vec<(u32, u64)>>,
    /// Positions, with the packet's session and time.
    places: Vec<Place>,
    /// The size class of every named integer of the first packets.
    pub(crate) classes: Vec<(u32, u8)>,
    /// The 64-bit ids of each packet read: (packet, id).
    pub(crate) ids: Vec<(usize, u64)>,
    /// Strings read, and how many of them read as a system message.
    pub(crate) texts: usize,
    pub(crate) system_messages: usize,
}

/// How rare an integer is, in bits: ids and large values recur by
/// chance seldom, small counts and flags all the time. `log2 |v| - 8`,
/// from 0 (|v| < 256) to 24.
pub(crate) fn rarity(v: u64) -> f64 {
    let magnitude = v.min(v.wrapping_neg());
    if magnitude < 256 {
        return 0.0;
    }
    ((magnitude as f64).log2() - 8.0).clamp(0.0, 24.0)
}

/// The key a string is linked by: a hash of its UTF-16 text (FNV-1a)
/// with the top bit set and its length in the next bits, so that its
/// rarity reads as about two bits a character.
fn text_key(units: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in units {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let chars = (units.len() / 2).min(12) as u32;
    // Rarity is log2 |v| - 8: a value just above 2^(8 + 2 * chars).
    (1u64 << (8 + 2 * chars)) | (h & ((1u64 << (8 + 2 * chars)) - 1) & !0xff) | 0x80
}

/// Whether UTF-16LE text reads as a system message: `@`, the message's
/// number, then its arguments after `\v` (`@1234\vUserName\vKaelric`),
/// the form the client looks its text up by.
fn is_system_message(units: &[u8]) -> bool {
    let mut chars = units
        .chunks_exact(2)
        .map(|u| u16::from_le_bytes([u[0], u[1]]));
    if chars.next() != Some(u16::from(b'@')) {
        return false;
    }
    let mut digits = 0;
    for c in chars {
        match c {
            0x30..=0x39 => digits += 1,
            0x0b => break,
            _ => return false,
        }
    }
    digits > 0
}

/// Field names that say nothing about what a field holds.
fn anonymous(name: &str) -> bool {
    name.starts_with("unk") || name.starts_with("unkn")
}

/// Whether a field holds a position of the kind the player's moves give.
fn is_place(name: &str) -> bool {
    name == "loc" || name.ends_with("Loc")
}

struct Collect<'f> {
    fields: &'f mut Fields,
    ints: &'f mut Vec<(u32, u64, bool)>,
    /// Where each integer's size class goes, while packets are read for it.
    classes: Option<&'f mut Vec<(u32, u8)>>,
    places: Vec<(u32, [f32; 3])>,
    texts: &'f mut usize,
    system_messages: &'f mut usize,
}

impl<'r> Visit<'r> for Collect<'_> {
    fn leaf(&mut self, name: &'r str, value: &'r Value<'r>) {
        if anonymous(name) {
            return;
        }
        if let Value::Vec3(v) = value {
            if is_place(name) {
                let id = self.fields.id(name);
                self.places.push((id, [v.x, v.y, v.z]));
            }
            return;
        }
        if let Value::String(text) = value {
            *self.texts += 1;
            if is_system_message(text.as_utf16le()) {
                *self.system_messages += 1;
            }
            // A string is linked by its hash; text of a few characters
            // recurs by chance (names are short), so only longer text
            // counts, at about two bits a character.
            let len = text.len_utf16();
            if len >= 4 {
                let id = self.fields.id(name);
                self.ints.push((id, text_key(text.as_utf16le()), false));
            }
            return;
        }
        if let Some(v) = integer(value) {
            if let (Some(classes), Some(class)) =
                (self.classes.as_deref_mut(), crate::leaves::class(value))
            {
                classes.push((self.fields.id(name), class));
            }
            if rarity(v) > 0.0 {
                let wide = matches!(value, Value::Int64(_) | Value::UInt64(_));
                let id = self.fields.id(name);
                self.ints.push((id, v, wide));
            }
        }
    }
}

impl Digest {
    /// Reads the first distinct packets of `group` under `schema`.
    pub(crate) fn of(
        samples: &Samples,
        group: &Group,
        schema: &Schema,
        fields: &mut Fields,
    ) -> Digest {
        let mut digest = Digest::default();
        for (k, &i) in group.distinct.iter().take(LINK_SAMPLES).enumerate() {
            let Ok(record) = schema.decode(samples.bytes(i)) else {
                continue;
            };
            let before = digest.ints.len();
            let mut collect = Collect {
                fields,
                ints: &mut digest.ints,
                classes: (k < CLASS_SAMPLES).then_some(&mut digest.classes),
                places: Vec::new(),
                texts: &mut digest.texts,
                system_messages: &mut digest.system_messages,
            };
            walk(&record, &mut collect);
            let places = collect.places;
            let ids: Vec<(usize, u64)> = digest.ints[before..]
                .iter()
                .filter(|&&(_, _, wide)| wide)
                .map(|&(_, v, _)| (i, v))
                .collect();
            digest.ids.extend(ids);
            let mut pairs: Vec<(u32, u64)> = digest.ints[before..]
                .iter()
                .map(|&(f, v, _)| (f, v))
                .collect();
            pairs.sort_unstable();
            pairs.dedup();
            if pairs.len() >= 2 {
                digest.records.push(pairs);
            }
            let p = samples.packet(i);
            for (field, at) in places {
                digest.places.push(Place {
                    session: p.session,
                    time: p.time,
                    field,
                    at,
                });
            }
        }
        digest.ints.sort_unstable();
        digest.ints.dedup();
        digest
    }
}

/// The anchored groups that hold a value, each with its name.
type Holders = Vec<(usize, Arc<str>)>;

/// The values of the packets already named, to link candidates to.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// (field, value) -> the anchored groups that hold it, and a name.
    named: HashMap<(u32, u64), Holders>,
    /// 64-bit values under any name -> the anchored groups that hold it.
    wide: HashMap<u64, Holders>,
    /// (field, value) -> the anchored packets (numbered) that hold it.
    tuples: HashMap<(u32, u64), Vec<u32>>,
    /// Each numbered anchored packet's group and name.
    owners: Vec<(usize, Arc<str>)>,
    /// Positions by session, sorted by time.
    places: HashMap<u32, Vec<(Timestamp, [f32; 3], usize)>>,
}

/// Each packet whose values recur together in one packet named, up to
/// [`TUPLE_CAP`]: a rival def that reads the same fields (or the true def
/// the set lacks) finds them together as well, so a few say what many do.
const TUPLE_BITS: f64 = 4.0;
/// What values found together say at most.
const TUPLE_CAP: f64 = 8.0;
/// Each position near the player's, up to [`NEAR_CAP`].
const NEAR_BITS: f64 = 2.0;
/// What positions near the player's say at most: a third of the game's
/// packets hold one.
const NEAR_CAP: f64 = 12.0;

/// What 64-bit values found under other names say of one field at most.
const WIDE_CAP: f64 = 16.0;

/// Positions this far apart or less are "near" (game units; a running
/// character covers about 200 a second).
const NEAR: f32 = 250.0;
/// Positions are compared with those of this many nanoseconds around.
const WINDOW: i64 = 5_000_000_000;

impl Index {
    /// The index of the anchored groups' digests (group, name, digest).
    pub(crate) fn build<'d>(anchors: impl Iterator<Item = (usize, Arc<str>, &'d Digest)>) -> Index {
        let mut index = Index::default();
        for (group, name, digest) in anchors {
            for &(field, v, wide) in &digest.ints {
                let e = index.named.entry((field, v)).or_default();
                if e.len() < 4 && !e.iter().any(|(g, _)| *g == group) {
                    e.push((group, Arc::clone(&name)));
                }
                if wide {
                    let e = index.wide.entry(v).or_default();
                    if e.len() < 4 && !e.iter().any(|(g, _)| *g == group) {
                        e.push((group, Arc::clone(&name)));
                    }
                }
            }
            for record in &digest.records {
                let id = index.owners.len() as u32;
                index.owners.push((group, Arc::clone(&name)));
                for pair in record {
                    let e = index.tuples.entry(*pair).or_default();
                    if e.len() < 64 {
                        e.push(id);
                    }
                }
            }
            for p in &digest.places {
                index
                    .places
                    .entry(p.session)
                    .or_default()
                    .push((p.time, p.at, group));
            }
        }
        for v in index.places.values_mut() {
            v.sort_by_key(|(t, _, _)| *t);
        }
        index
    }

    /// The link and position evidence for `group` as the def `digest`
    /// was read with.
    pub(crate) fn evidence(
        &self,
        group: usize,
        name: &str,
        digest: &Digest,
        fields: &Fields,
        rates: &BaseRates,
        names: &FieldNames,
    ) -> Vec<Evidence> {
        let mut out = Vec::new();
        // A value is worth its rarity, but no more than the odds against
        // a group of this session holding it (the player's id is in a
        // third of them).
        let worth = |v: u64| rarity(v).min(rates.bits(v));
        // Per field: distinct values, their bits, the names they tie to;
        // a 64-bit value found under another name only counts half.
        let mut by_field: HashMap<u32, (usize, f64, Vec<Arc<str>>)> = HashMap::new();
        let mut by_field_wide: HashMap<u32, f64> = HashMap::new();
        // Values held by a packet of the same family, and the first such.
        let mut kin_values = 0usize;
        let mut family: Option<&Arc<str>> = None;
        for &(field, v, wide) in &digest.ints {
            let others = self
                .named
                .get(&(field, v))
                .map(|e| e.iter().filter(|(g, _)| *g != group).collect::<Vec<_>>())
                .unwrap_or_default();
            if let Some((_, other)) = others.iter().find(|(_, other)| kin(name, other)) {
                kin_values += 1;
                family.get_or_insert(other);
            }
            let wide_others: Vec<&(usize, Arc<str>)> = if wide && others.is_empty() {
                self.wide
                    .get(&v)
                    .map(|e| e.iter().filter(|(g, _)| *g != group).collect())
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            let bits = if !others.is_empty() {
                worth(v)
            } else if !wide_others.is_empty() {
                // Half, and at most WIDE_CAP a field: it says the def has a
                // 64-bit field here, not which.
                let w = by_field_wide.entry(field).or_default();
                let add = (worth(v) / 2.0).min(WIDE_CAP - *w);
                *w += add;
                add
            } else {
                continue;
            };
            let others: Vec<&(usize, Arc<str>)> = others.into_iter().chain(wide_others).collect();
            let entry = by_field.entry(field).or_default();
            entry.0 += 1;
            entry.1 += bits;
            for (_, name) in others {
                if entry.2.len() < 3 && !entry.2.contains(name) {
                    entry.2.push(Arc::clone(name));
                }
            }
        }
        let mut fields_found: Vec<_> = by_field.into_iter().collect();
        fields_found.sort_by_key(|(f, _)| *f);
        let family = family.map(|other| other.to_string());
        for (field, (values, bits, with)) in fields_found {
            out.push(Evidence::Link {
                field: fields.name(field).to_owned(),
                values,
                with: with.iter().map(|n| n.to_string()).collect(),
                bits: bits.min(names.cap(fields.name(field))),
            });
        }
        if let Some(e) = self.tuples(group, digest) {
            out.push(e);
        }
        if let Some(with) = family {
            out.push(Evidence::Family {
                with,
                values: kin_values,
                bits: family_bits(kin_values),
            });
        }
        if let Some(e) = self.near(group, digest, fields) {
            out.push(e);
        }
        out
    }

    /// Packets whose values recur together, two fields or more, in one
    /// packet already named: a pair of values meets again by chance far
    /// more seldom than one.
    fn tuples(&self, group: usize, digest: &Digest) -> Option<Evidence> {
        let mut matched = 0;
        let mut with: Vec<Arc<str>> = Vec::new();
        let mut hits: HashMap<u32, usize> = HashMap::new();
        for record in &digest.records {
            hits.clear();
            for pair in record {
                for &id in self.tuples.get(pair).into_iter().flatten() {
                    *hits.entry(id).or_default() += 1;
                }
            }
            let best = hits
                .iter()
                .filter(|(id, n)| {
                    **n >= 2
                        && self
                            .owners
                            .get(**id as usize)
                            .is_some_and(|(g, _)| *g != group)
                })
                .max_by_key(|(id, n)| (**n, std::cmp::Reverse(**id)));
            if let Some((id, _)) = best {
                matched += 1;
                if let Some((_, name)) = self.owners.get(*id as usize)
                    && with.len() < 3
                    && !with.contains(name)
                {
                    with.push(Arc::clone(name));
                }
            }
        }
        (matched > 0).then(|| Evidence::Tuple {
            matched,
            of: digest.records.len(),
            with: with.iter().map(|n| n.to_string()).collect(),
            bits: (TUPLE_BITS * matched as f64).min(TUPLE_CAP),
        })
    }

    fn near(&self, group: usize, digest: &Digest, fields: &Fields) -> Option<Evidence> {
        let mut near = 0;
        let mut field = None;
        for p in &digest.places {
            let Some(list) = self.places.get(&p.session) else {
                continue;
            };
            let from = list.partition_point(|(t, _, _)| t.0 < p.time.0 - WINDOW);
            let close = list[from..]
                .iter()
                .take_while(|(t, _, _)| t.0 <= p.time.0 + WINDOW)
                .any(|(_, at, g)| *g != group && distance(*at, p.at) <= NEAR);
            if close {
                near += 1;
                field.get_or_insert(p.field);
            }
        }
        (near >= 2).then(|| Evidence::Position {
            field: fields.name(field.unwrap_or(0)).to_owned(),
            near,
            bits: (NEAR_BITS * near as f64).min(NEAR_CAP),
        })
    }
}

/// What the first value tied to a packet of the same family adds: the
/// names share a word that says what the packets are about
/// (`S_SPAWN_DROPITEM` and `C_TRY_LOOT_DROPITEM`, `S_ABNORMALITY_BEGIN` and
/// `S_ABNORMALITY_END`).
const FAMILY_BITS: f64 = 6.0;
/// Each further value tied to the family: a def of the same layout under
/// another name would hold ids of its own topic (a collection's, not a
/// dropped item's), so every id that turns out to be of this family is a
/// test that name passes and the other would not.
const FAMILY_MORE_BITS: f64 = 2.0;
/// All values tied to the family say this much at most.
const FAMILY_CAP: f64 = 8.0;

fn family_bits(values: usize) -> f64 {
    (FAMILY_BITS + FAMILY_MORE_BITS * values.saturating_sub(1) as f64).min(FAMILY_CAP)
}

/// Words of packet names that say nothing of what a packet is about:
/// the sides, the verbs of a request, and the verbs of a life cycle
/// (`SPAWN`/`DESPAWN`, `BEGIN`/`END`: they say what happens, not to what).
const PLAIN_WORDS: &[&str] = &[
    "C", "S", "REQUEST", "RESPONSE", "REPLY", "RQ", "INFO", "LIST", "DATA", "EX", "START", "END",
    "GET", "SET", "UPDATE", "CHANGE", "SHOW", "USER", "PLAYER", "ME", "MY", "SPAWN", "DESPAWN",
    "BEGIN", "TRY", "ADD", "DEL", "DELETE", "REMOVE",
];

/// The words that say what a name is about, without the plain ones.
fn topic_words(name: &str) -> impl Iterator<Item = &str> {
    name.split('_')
        .filter(|w| w.len() > 1 && !PLAIN_WORDS.contains(w))
}

/// The name without its side and its life-cycle verbs: `S_SPAWN_USER` and
/// `S_DESPAWN_USER` both give `USER`.
fn life_cycle_stem(name: &str) -> String {
    let rest = name
        .strip_prefix("C_")
        .or_else(|| name.strip_prefix("S_"))
        .unwrap_or(name);
    rest.split('_')
        .filter(|w| {
            !matches!(
                *w,
                "SPAWN"
                    | "DESPAWN"
                    | "BEGIN"
                    | "END"
                    | "START"
                    | "STOP"
                    | "ADD"
                    | "DEL"
                    | "DELETE"
                    | "REMOVE"
                    | "TRY"
            )
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// Whether two names are two ends of one life cycle (`S_SPAWN_USER` and
/// `S_DESPAWN_USER`).
pub(crate) fn one_life(a: &str, b: &str) -> bool {
    let stem = life_cycle_stem(a);
    a != b && !stem.is_empty() && stem == life_cycle_stem(b)
}

/// Whether two packet names are of one family: they share a word that
/// says what they are about, or they are two ends of one life cycle
/// (`S_SPAWN_USER` and `S_DESPAWN_USER`).
pub(crate) fn kin(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    let wb: Vec<&str> = topic_words(b).collect();
    if topic_words(a).any(|w| wb.contains(&w)) {
        return true;
    }
    one_life(a, b)
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_messages_read_by_form() {
        let utf16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_le_bytes).collect() };
        assert!(is_system_message(&utf16("@1234\u{b}UserName\u{b}Kaelric")));
        assert!(is_system_message(&utf16("@28")));
        assert!(!is_system_message(&utf16("@dungeon:9777")));
        assert!(!is_system_message(&utf16("@")));
        assert!(!is_system_message(&utf16("hello @12")));
    }

    #[test]
    fn families_by_topic_and_by_life_cycle() {
        assert!(kin("C_TRY_LOOT_DROPITEM", "S_SPAWN_DROPITEM"));
        assert!(kin("C_NPC_CONTACT", "S_SPAWN_NPC"));
        assert!(kin("S_DESPAWN_USER", "S_SPAWN_USER"));
        assert!(kin("S_ABNORMALITY_END", "S_ABNORMALITY_BEGIN"));
        // A life-cycle verb alone says nothing of what despawns.
        assert!(!kin("C_DESPAWN_BUILD_OBJECT", "S_DESPAWN_NPC"));
        assert!(!kin("S_SPAWN_USER", "S_SPAWN_USER"));
        assert_eq!(family_bits(1), FAMILY_BITS);
        assert_eq!(family_bits(100), FAMILY_CAP);
    }
}
