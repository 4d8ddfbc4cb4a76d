//! A packet's value as JSON, from its def: the fields a scene sets, and
//! for the others a value that reads like the game's (ids from the world,
//! small counts, floats in range, names and chat lines), so that a
//! session's packets look as real ones do to discovery.

use rand::RngExt;
use serde_json::{Map, Value as Json, json};
use tera_defs_front::{Block, ElemType, FieldType, Item, Scalar};

use super::world::World;

/// Fields a scene sets, by name, at any depth of the root block and its
/// objects. An array set to a JSON array of objects gives its elements'
/// fields (the rest filled as usual).
pub(crate) type Set<'a> = &'a [(&'a str, Json)];

/// The value of a def's root block.
pub(crate) fn block(b: &Block, set: Set<'_>, world: &mut World) -> Json {
    let mut out = Map::new();
    for item in &b.items {
        let Item::Field(f) = item else { continue };
        let given = set.iter().find(|(n, _)| *n == f.name).map(|(_, v)| v);
        let value = match (&f.ty, given) {
            (FieldType::Array(elem), Some(Json::Array(items))) => Json::Array(
                items
                    .iter()
                    .map(|item| {
                        let fields: Vec<(&str, Json)> = item
                            .as_object()
                            .map(|o| o.iter().map(|(k, v)| (k.as_str(), v.clone())).collect())
                            .unwrap_or_default();
                        block(elem, &fields, world)
                    })
                    .collect(),
            ),
            (FieldType::Object(inner), _) => block(inner, set, world),
            (_, Some(v)) => v.clone(),
            (ty, None) => field(&f.name, ty, world),
        };
        // A split object (two `object NAME` lines) is one object.
        match (out.get_mut(&f.name), value) {
            (Some(Json::Object(first)), Json::Object(more)) => first.extend(more),
            (_, value) => {
                out.insert(f.name.clone(), value);
            }
        }
    }
    Json::Object(out)
}

/// A value for a field the scene did not set.
fn field(name: &str, ty: &FieldType, world: &mut World) -> Json {
    match ty {
        FieldType::Scalar(s) if world.independent => super::perturb::scalar(*s, world),
        FieldType::Scalar(s) => scalar(name, *s, world),
        FieldType::String if world.independent => {
            let as_if = ["name", "message", "other"][world.rng.random_range(0..3)];
            Json::String(world.text_for(as_if))
        }
        FieldType::String => Json::String(world.text_for(name)),
        FieldType::Bytes => {
            let n = world.rng.random_range(0..48);
            let hex: String = (0..n)
                .map(|_| format!("{:02x}", world.rng.random::<u8>()))
                .collect();
            Json::String(hex)
        }
        FieldType::ArrayOf(elem) => {
            let n = length(world);
            Json::Array(
                (0..n)
                    .map(|_| match elem {
                        ElemType::Scalar(s) if world.independent => {
                            super::perturb::scalar(*s, world)
                        }
                        ElemType::Scalar(s) => scalar(name, *s, world),
                        ElemType::String => Json::String(world.text_for("name")),
                    })
                    .collect(),
            )
        }
        FieldType::Array(elem) => {
            let n = length(world);
            Json::Array((0..n).map(|_| block(elem, &[], world)).collect())
        }
        FieldType::Object(inner) => block(inner, &[], world),
    }
}

/// An array's length: lists the game sends mostly hold something.
fn length(world: &mut World) -> usize {
    if world.rng.random_bool(0.15) {
        0
    } else {
        world.rng.random_range(1..6)
    }
}

/// A scalar by its field's name: what such a field holds in the game.
fn scalar(name: &str, s: Scalar, world: &mut World) -> Json {
    let lower = name.to_ascii_lowercase();
    match s {
        Scalar::Bool => json!(world.rng.random_bool(0.3)),
        Scalar::Byte => json!(world.rng.random_range(0..4u8)),
        Scalar::Int16 | Scalar::UInt16 => json!(by_meaning(world, &lower) % 30_000),
        Scalar::Int32 | Scalar::UInt32 => {
            let v = if lower.contains("playerid") {
                u64::from(world.me.player_id)
            } else if lower.contains("serverid") {
                u64::from(world.me.server_id)
            } else if lower.contains("templateid") {
                u64::from(world.me.template_id)
            } else if identifier(name) {
                world.pooled(name)
            } else {
                by_meaning(world, &lower) & 0x7fff_ffff
            };
            json!(v)
        }
        Scalar::Int64 | Scalar::UInt64 => {
            let v = if lower.contains("gameid")
                || lower == "target"
                || lower == "source"
                || lower == "owner"
            {
                world.someone()
            } else if lower.contains("dbid") {
                world.item_dbid()
            } else {
                by_meaning(world, &lower)
            };
            Json::String(v.to_string())
        }
        Scalar::Float | Scalar::Double => {
            if world.rng.random_bool(0.3) {
                json!(0.0)
            } else {
                json!(f64::from(world.rng.random_range(1..100_000u32)) / 100.0)
            }
        }
        Scalar::Vec3 => {
            if lower.contains("loc") || lower.contains("dest") {
                world.near_me(300.0)
            } else if world.rng.random_bool(0.5) {
                json!({"x": 0.0, "y": 0.0, "z": 0.0})
            } else {
                let mut c = || f64::from(world.rng.random_range(-20_000..20_000i32)) / 8.0;
                json!({"x": c(), "y": c(), "z": c()})
            }
        }
        Scalar::Vec3fa => {
            let mut c = || f64::from(world.rng.random_range(-3000..3000i32)) / 1000.0;
            json!({"x": c(), "y": c(), "z": c()})
        }
        Scalar::Angle => json!(f64::from(world.rng.random_range(-3141..3141i32)) / 1000.0),
        Scalar::SkillId => json!({"raw": world.me.skill().to_string()}),
        Scalar::SkillId32 => json!({"raw": (world.me.skill() & 0x0fff_ffff).to_string()}),
        Scalar::Customize => json!({"raw": world.rng.random::<u64>().to_string()}),
    }
}

/// A value as what the field's name says it holds: a time, a duration,
/// a kind or a state (a small number), a level, an amount, a quantity of
/// HP, experience or money; anything else a small number.
fn by_meaning(world: &mut World, lower: &str) -> u64 {
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let rng = &mut world.rng;
    if lower.contains("time") && !lower.contains("times") {
        (world.time / 1_000_000) as u64 & 0x7fff_ffff
    } else if has(&["duration", "cooldown", "remain", "expir", "delay"]) {
        rng.random_range(1_000..600_000)
    } else if has(&[
        "type",
        "mode",
        "status",
        "state",
        "stage",
        "kind",
        "index",
        "slot",
        "pocket",
        "container",
        "channel",
        "reason",
        "category",
        "relation",
        "emotion",
        "animation",
        "emote",
        "class",
        "race",
        "gender",
        "page",
        "button",
        "flag",
        "option",
        "grade",
        "rank",
        "step",
    ]) {
        rng.random_range(0..10)
    } else if lower.contains("level") {
        rng.random_range(1..71)
    } else if has(&["amount", "count", "stack", "quantity", "num"]) {
        rng.random_range(1..100)
    } else if has(&[
        "hp", "mp", "damage", "value", "exp", "xp", "money", "price", "gold", "point", "stamina",
        "diff",
    ]) {
        rng.random_range(1_000..10_000_000)
    } else {
        small(rng, lower)
    }
}

/// Whether a field names an identifier of something in the game (`id`,
/// `questId`, `item`, `zone`, ...): such values recur.
fn identifier(name: &str) -> bool {
    name == "id"
        || name.ends_with("Id")
        || name.ends_with("ID")
        || matches!(
            name,
            "item" | "zone" | "contract" | "dungeon" | "quest" | "guild" | "achievement" | "title"
        )
}

/// A small integer: zero half the time, else a count, an index or an id
/// of a few digits, as most integer fields of the game hold.
fn small(rng: &mut impl rand::Rng, _name: &str) -> u64 {
    match rng.random_range(0..10) {
        0..=4 => 0,
        5..=7 => rng.random_range(1..100),
        _ => rng.random_range(100..100_000),
    }
}
