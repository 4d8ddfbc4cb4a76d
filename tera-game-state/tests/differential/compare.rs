//! Packet-by-packet comparison of a Rust trace with tera-game-state's:
//! events and every property (objects flattened to their leaves), each
//! difference either one of the deliberate ones listed in the README (the
//! JS line that makes it is quoted) or a failure.

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};

/// The deliberate differences, each with the tera-game-state line that
/// makes it (README, "Differences from tera-game-state").
pub const DELIBERATE: &[(&str, &str)] = &[
    (
        "kick filter",
        "lib/party.js: this.partyMembers = this.partyMembers.filter(elem => elem.playerId !== event.playerId && elem.serverId !== event.serverId);",
    ),
    (
        "left member's class",
        "lib/party.js: let retObj = { class: -1};",
    ),
    (
        "glyph ids",
        "lib/glyphs.js: return Object.entries(this.known).filter(([id, enable]) => enable).map(([id, enable]) => id);",
    ),
];

/// What a comparison counted.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Packets whose events and properties are all equal.
    pub packets_equal: usize,
    /// Packets equal but for deliberate differences.
    pub packets_deliberate: usize,
    /// Packets.
    pub packets: usize,
    /// Properties equal.
    pub properties_equal: usize,
    /// Properties that differ deliberately.
    pub properties_deliberate: usize,
    /// Properties.
    pub properties: usize,
    /// Events only game state emits (abnormalities), left out.
    pub rust_only_events: usize,
    /// Packets with each deliberate difference, by its name.
    pub by_difference: BTreeMap<&'static str, usize>,
}

/// A model of tera-game-state's party under its leave and kick filter:
/// every member of the left member's server or with their player id goes.
/// Its list is Rust's with every filter since the list was last replaced
/// or reset applied.
#[derive(Debug, Default)]
pub struct KickFilter {
    /// (server id, player id) of each leave and kick since the last reset.
    removed: Vec<(Json, Json)>,
    /// `removed` before the current packet.
    before: Vec<(Json, Json)>,
    /// Rust's members after the previous packet.
    members: Json,
    /// The current packet's name and fields.
    packet: String,
    fields: Json,
}

impl KickFilter {
    /// Follows the session before comparing a packet: leaves and kicks
    /// filter; a new list, leaving the party, entering or leaving the game
    /// (tera-game-state's events, which reset its party) start over.
    pub fn step(&mut self, packet: &str, fields: &Json, js_events: &[Json]) {
        self.before = self.removed.clone();
        self.packet = packet.to_owned();
        self.fields = fields.clone();
        let resets = js_events.iter().any(|e| {
            matches!(
                e["name"].as_str(),
                Some("party.leave" | "leave_game" | "enter_game")
            )
        });
        if packet.starts_with("S_LEAVE_PARTY_MEMBER") || packet.starts_with("S_BAN_PARTY_MEMBER") {
            self.removed
                .push((fields["serverId"].clone(), fields["playerId"].clone()));
        } else if packet.starts_with("S_PARTY_MEMBER_LIST") || resets {
            self.removed.clear();
        }
    }

    /// After comparing a packet: Rust's members now.
    pub fn seen(&mut self, rust_state: &Json) {
        self.members = rust_state["party"]["members"].clone();
    }

    fn apply(&self, members: &Json) -> Json {
        filtered(members, &self.removed)
    }

    /// tera-game-state's members before the current packet.
    fn js_before(&self) -> Json {
        filtered(&self.members, &self.before)
    }

    /// The class tera-game-state gives the member the current packet
    /// removes: from its own list, -1 when not there.
    fn left_class(&self) -> Json {
        let (server, player) = (&self.fields["serverId"], &self.fields["playerId"]);
        self.js_before()
            .as_array()
            .and_then(|list| {
                list.iter()
                    .rev()
                    .find(|m| m["serverId"] == *server && m["playerId"] == *player)
            })
            .map_or(json!(-1), |m| m["class"].clone())
    }

    /// Whether tera-game-state's `S_SPAWN_USER` fix changes a member of
    /// its own list (and so emits `list`).
    fn spawn_fixes_a_member(&self) -> bool {
        let f = &self.fields;
        self.js_before().as_array().is_some_and(|list| {
            list.iter().any(|m| {
                m["serverId"] == f["serverId"]
                    && m["playerId"] == f["playerId"]
                    && !same(
                        &m["gameId"],
                        &json!(format!("{}n", big_digits(&f["gameId"]))),
                    )
            })
        })
    }
}

/// A session's 64-bit value (a number or a decimal string) as digits.
fn big_digits(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn filtered(members: &Json, removed: &[(Json, Json)]) -> Json {
    let Some(list) = members.as_array() else {
        return members.clone();
    };
    Json::Array(
        list.iter()
            .filter(|m| {
                removed
                    .iter()
                    .all(|(s, p)| m["serverId"] != *s && m["playerId"] != *p)
            })
            .cloned()
            .collect(),
    )
}

/// Objects flattened to their leaves: path -> value (an empty object is a
/// leaf, arrays are leaves).
pub fn flatten(value: &Json) -> BTreeMap<String, Json> {
    fn walk(prefix: &str, value: &Json, out: &mut BTreeMap<String, Json>) {
        match value {
            Json::Object(map) if !map.is_empty() => {
                for (k, v) in map {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, v, out);
                }
            }
            _ => {
                out.insert(prefix.to_owned(), value.clone());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk("", value, &mut out);
    out
}

/// JSON equality with numbers compared by value, as JavaScript has one
/// number type (`1` and `1.0` are the same).
pub fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn same_list(a: &[Json], b: &[Json]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
}

/// Whether a property that differs is a deliberate difference.
fn deliberate_property(
    path: &str,
    js: &Json,
    rust: &Json,
    rust_all: &BTreeMap<String, Json>,
    kick: &KickFilter,
) -> Option<&'static str> {
    let explained = match path {
        "party.members" => same(js, &kick.apply(rust)),
        "party.inParty" => rust_all.get("party.members").is_some_and(|members| {
            let kept = kick.apply(members);
            *js == json!(kept.as_array().is_some_and(|m| !m.is_empty()))
        }),
        "glyphs.enabled" => {
            let as_strings: Option<Vec<Json>> = rust
                .as_array()
                .map(|ids| ids.iter().map(|id| json!(id.to_string())).collect());
            return as_strings
                .is_some_and(|ids| *js == Json::Array(ids))
                .then_some(DELIBERATE[2].0);
        }
        _ => false,
    };
    explained.then_some(DELIBERATE[0].0)
}

/// Rust's events as tera-game-state would emit them under the deliberate
/// differences: the kick filter's lists, the class -1 of a member not in
/// the party.
fn as_js_events(rust: &[Json], kick: &KickFilter) -> (Vec<Json>, Vec<&'static str>) {
    let mut why = Vec::new();
    let mut events = Vec::new();
    for e in rust {
        let mut e = e.clone();
        match e["name"].as_str() {
            Some("party.list") => {
                if kick.packet.starts_with("S_SPAWN_USER") && !kick.spawn_fixes_a_member() {
                    why.push(DELIBERATE[0].0);
                    continue;
                }
                let kept = kick.apply(&e["args"][0]);
                if kept != e["args"][0] {
                    why.push(DELIBERATE[0].0);
                }
                e["args"][0] = kept;
            }
            Some("party.member_leave" | "party.member_kick") => {
                let class = kick.left_class();
                if e["args"][0]["class"] != class {
                    why.push(if e["args"][0]["class"].is_null() {
                        DELIBERATE[1].0
                    } else {
                        DELIBERATE[0].0
                    });
                }
                e["args"][0]["class"] = class;
            }
            _ => {}
        }
        events.push(e);
    }
    (events, why)
}

/// One packet: counts it, and returns the differences no deliberate one
/// explains.
pub fn packet(
    js_events: &[Json],
    rust_events: &[Json],
    js_state: &Json,
    rust_state: &Json,
    kick: &KickFilter,
    counts: &mut Counts,
) -> Vec<String> {
    let mut unexplained = Vec::new();
    let mut found: Vec<&'static str> = Vec::new();
    let mut strict = same_list(js_events, rust_events);
    if !strict {
        let (as_js, why) = as_js_events(rust_events, kick);
        if same_list(js_events, &as_js) {
            found.extend(why);
        } else {
            unexplained.push(format!("events: JS {js_events:?}, Rust {rust_events:?}"));
        }
    }
    let (js, rust) = (flatten(js_state), flatten(rust_state));
    let mut paths: Vec<&String> = js.keys().chain(rust.keys()).collect();
    paths.sort();
    paths.dedup();
    for path in paths {
        counts.properties += 1;
        let (a, b) = (js.get(path), rust.get(path));
        if a.is_some() && b.is_some() && same(a.unwrap_or(&Json::Null), b.unwrap_or(&Json::Null)) {
            counts.properties_equal += 1;
            continue;
        }
        strict = false;
        let (a, b) = (a.unwrap_or(&Json::Null), b.unwrap_or(&Json::Null));
        let why = (js.contains_key(path) && rust.contains_key(path))
            .then(|| deliberate_property(path, a, b, &rust, kick))
            .flatten();
        if let Some(why) = why {
            counts.properties_deliberate += 1;
            found.push(why);
        } else {
            unexplained.push(format!("{path}: JS {a}, Rust {b}"));
        }
    }
    counts.packets += 1;
    if strict {
        counts.packets_equal += 1;
    } else if unexplained.is_empty() {
        counts.packets_deliberate += 1;
    }
    found.sort_unstable();
    found.dedup();
    for why in found {
        *counts.by_difference.entry(why).or_default() += 1;
    }
    unexplained
}
