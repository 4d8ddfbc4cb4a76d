//! The JSON form of messages: `{"side", "id", "name", "value"}` with the
//! values of the protocol notes (entid as `{"hash","id"}` or `null`; an
//! update's array fields as arrays in a creation and as objects from
//! element index to value in an update). What the CLI prints and reads and
//! the vectors hold.
//!
//! An `f32` is written as the number it is exactly (`f64`); -0, NaN and
//! the infinities as the strings `"-0"`, `"NaN"`, `"Infinity"`,
//! `"-Infinity"` (NaN payloads are not kept in JSON).

use serde_json::{Map, Value as Json, json};

use crate::compressed::Compressed;
use crate::entid::EntId;
use crate::error::DiepErrorKind;
use crate::field_table::{Encoding, FieldTable};
use crate::float::{Fixed64, Vf};
use crate::input_flags::InputFlags;
use crate::messages::{
    Accept, Heartbeat, Input, Joystick, Notification, OutdatedClient, PlayerCount, ServerInfo,
    Spawn, TakeTank, TankUpgrade, ToRespawn,
};
use crate::side::{Clientbound, InputMessage, Serverbound, Side};
use crate::string_nt::StringNt;
use crate::update::{FieldData, FieldEntry, Upcreate, UpcreateKind, Update, UpdateView, Value};
use crate::varint::{Vi, Vu};

/// Why a JSON value does not give a message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// The JSON is not the value the message needs.
    #[error("{0}")]
    Shape(String),
    /// The value does not encode (a string with NUL, a field that does not
    /// match the table).
    #[error(transparent)]
    Wire(#[from] tera_packets::Error),
}

fn shape(what: impl Into<String>) -> JsonError {
    JsonError::Shape(what.into())
}

/// An `f32` as JSON.
pub fn f32_to_json(x: f32) -> Json {
    if x.is_nan() {
        json!("NaN")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "Infinity" } else { "-Infinity" })
    } else if x == 0.0 && x.is_sign_negative() {
        json!("-0")
    } else {
        json!(f64::from(x))
    }
}

/// An `f32` from JSON (a number, or one of the strings of [`f32_to_json`]).
pub fn f32_from_json(v: &Json) -> Option<f32> {
    match v {
        Json::Number(n) => n.as_f64().map(|x| x as f32),
        Json::String(s) => match s.as_str() {
            "NaN" => Some(f32::NAN),
            "Infinity" => Some(f32::INFINITY),
            "-Infinity" => Some(f32::NEG_INFINITY),
            "-0" => Some(-0.0),
            _ => None,
        },
        _ => None,
    }
}

/// An entid as JSON: `{"hash","id"}` or `null`.
pub fn entid_to_json(e: EntId) -> Json {
    match e.0 {
        None => Json::Null,
        Some(e) => json!({"hash": e.hash.get(), "id": e.id}),
    }
}

/// An entid from JSON.
pub fn entid_from_json(v: &Json) -> Option<EntId> {
    match v {
        Json::Null => Some(EntId::NONE),
        Json::Object(o) => {
            let hash = u32::try_from(o.get("hash")?.as_u64()?).ok()?;
            let id = u32::try_from(o.get("id")?.as_u64()?).ok()?;
            (hash != 0).then(|| EntId::new(hash, id))
        }
        _ => None,
    }
}

/// An update's value as JSON.
pub fn value_to_json(v: &Value<'_>) -> Json {
    match v {
        Value::Vu(n) => json!(n),
        Value::Vi(n) => json!(n),
        Value::F32(x) => f32_to_json(*x),
        Value::Fixed64(x) => json!(x.to_f64()),
        Value::Str(s) => json!(s.as_str()),
        Value::EntId(e) => entid_to_json(*e),
    }
}

/// A value of `encoding` from JSON.
pub fn value_from_json(v: &Json, encoding: Encoding) -> Option<Value<'static>> {
    Some(match encoding {
        Encoding::Vu => Value::Vu(u32_of(v)?),
        Encoding::Vi => Value::Vi(i32_of(v)?),
        Encoding::F32 => Value::F32(f32_from_json(v)?),
        Encoding::Fixed64 => Value::Fixed64(Fixed64::from_f64(v.as_f64()?)),
        Encoding::StringNt => Value::Str(StringNt::new(v.as_str()?.to_owned()).ok()?),
        Encoding::EntId => Value::EntId(entid_from_json(v)?),
    })
}

fn u32_of(v: &Json) -> Option<u32> {
    // The JS writer keeps the low 32 bits of what it is given (a negative
    // `vu` in the vectors is its two's complement).
    match v.as_u64() {
        Some(n) => u32::try_from(n).ok(),
        None => v
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(|n| n as u32),
    }
}

fn i32_of(v: &Json) -> Option<i32> {
    v.as_i64().and_then(|n| i32::try_from(n).ok())
}

/// An Update view as JSON: `{"tick", "deletes", "upcreates"}`.
pub fn update_to_json(view: &UpdateView<'_>) -> Json {
    let deletes: Vec<Json> = view.deletes().map(entid_to_json).collect();
    let upcreates: Vec<Json> = view
        .upcreates()
        .map(|u| {
            let mut fields = Map::new();
            for f in u.fields() {
                let name = f.field.name();
                let value = value_to_json(&f.value);
                match (f.element, u.kind()) {
                    (None, _) => {
                        fields.insert(name.to_owned(), value);
                    }
                    (Some(_), UpcreateKind::Creation) => {
                        let slot = fields
                            .entry(name.to_owned())
                            .or_insert_with(|| Json::Array(Vec::new()));
                        if let Json::Array(a) = slot {
                            a.push(value);
                        }
                    }
                    (Some(e), UpcreateKind::Update) => {
                        let slot = fields
                            .entry(name.to_owned())
                            .or_insert_with(|| Json::Object(Map::new()));
                        if let Json::Object(o) = slot {
                            o.insert(e.to_string(), value);
                        }
                    }
                }
            }
            let mut o = Map::new();
            o.insert("entity".into(), entid_to_json(u.entity()));
            match u.kind() {
                UpcreateKind::Creation => {
                    o.insert("kind".into(), json!("creation"));
                    let groups: Vec<Json> = u.groups().map(|(_, g)| json!(g.name())).collect();
                    o.insert("groups".into(), Json::Array(groups));
                }
                UpcreateKind::Update => {
                    o.insert("kind".into(), json!("update"));
                }
            }
            o.insert("fields".into(), Json::Object(fields));
            Json::Object(o)
        })
        .collect();
    json!({"tick": view.tick(), "deletes": deletes, "upcreates": upcreates})
}

/// An owned Update from its JSON, checked against `table`.
pub fn update_from_json(v: &Json, table: &FieldTable) -> Result<Update, JsonError> {
    let tick = v
        .get("tick")
        .and_then(u32_of)
        .ok_or_else(|| shape("update: `tick` must be a u32"))?;
    let deletes = v
        .get("deletes")
        .and_then(Json::as_array)
        .ok_or_else(|| shape("update: `deletes` must be an array"))?
        .iter()
        .map(|d| entid_from_json(d).ok_or_else(|| shape("update: a delete is not an entid")))
        .collect::<Result<Vec<_>, _>>()?;
    let upcreates = v
        .get("upcreates")
        .and_then(Json::as_array)
        .ok_or_else(|| shape("update: `upcreates` must be an array"))?
        .iter()
        .map(|u| upcreate_from_json(u, table))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Update {
        tick,
        deletes,
        upcreates,
    })
}

fn upcreate_from_json(u: &Json, table: &FieldTable) -> Result<Upcreate, JsonError> {
    let entity = u
        .get("entity")
        .and_then(entid_from_json)
        .ok_or_else(|| shape("upcreate: `entity` must be an entid"))?;
    let kind = match u.get("kind").and_then(Json::as_str) {
        Some("creation") => UpcreateKind::Creation,
        Some("update") => UpcreateKind::Update,
        _ => return Err(shape("upcreate: `kind` must be \"creation\" or \"update\"")),
    };
    let mut groups = Vec::new();
    if kind == UpcreateKind::Creation {
        for g in u
            .get("groups")
            .and_then(Json::as_array)
            .ok_or_else(|| shape("creation: `groups` must be an array"))?
        {
            let name = g.as_str().unwrap_or_default();
            groups.push(
                table
                    .group_id(name)
                    .ok_or_else(|| shape(format!("creation: unknown group `{name}`")))?,
            );
        }
        groups.sort_unstable();
    }
    let given = u
        .get("fields")
        .and_then(Json::as_object)
        .ok_or_else(|| shape("upcreate: `fields` must be an object"))?;
    let mut fields = Vec::with_capacity(given.len());
    for (name, value) in given {
        let index = table
            .index_of(name)
            .ok_or_else(|| shape(format!("upcreate: unknown field `{name}`")))?;
        let Some(field) = table.field(index) else {
            return Err(shape(format!("upcreate: unknown field `{name}`")));
        };
        let encoding = match kind {
            UpcreateKind::Creation => field.encoding(),
            UpcreateKind::Update => field.update_encoding(),
        };
        let bad = || shape(format!("field `{name}`: not a {} value", encoding.name()));
        let data = match (field.count(), value) {
            (None, v) => FieldData::One(value_from_json(v, encoding).ok_or_else(bad)?),
            (Some(_), Json::Array(a)) => FieldData::Elements(
                a.iter()
                    .enumerate()
                    .map(|(k, v)| Some((k as u32, value_from_json(v, encoding)?)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(bad)?,
            ),
            (Some(_), Json::Object(o)) => {
                let mut elements = o
                    .iter()
                    .map(|(k, v)| Some((k.parse::<u32>().ok()?, value_from_json(v, encoding)?)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(bad)?;
                elements.sort_unstable_by_key(|(k, _)| *k);
                FieldData::Elements(elements)
            }
            (Some(_), _) => return Err(bad()),
        };
        fields.push(FieldEntry { index, data });
    }
    fields.sort_unstable_by_key(|f| f.index);
    Ok(Upcreate {
        entity,
        kind,
        groups,
        fields,
    })
}

/// A decoded message's id, name and JSON value.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The id byte.
    pub id: u8,
    /// The message's name.
    pub name: &'static str,
    /// Its value.
    pub value: Json,
}

impl Decoded {
    /// `{"side", "id", "name", "value"}`.
    pub fn to_json(&self, side: Side) -> Json {
        json!({"side": side.name(), "id": self.id, "name": self.name, "value": self.value})
    }
}

fn str_json(s: &StringNt<'_>) -> Json {
    json!(s.as_str())
}

/// A serverbound message as JSON.
pub fn serverbound_to_json(m: &Serverbound<'_>) -> Json {
    match m {
        Serverbound::Input(InputMessage { input, joystick }) => {
            let mut o = json!({
                "flags": input.flags.bits(),
                "mouseX": f32_to_json(input.mouse_x.0),
                "mouseY": f32_to_json(input.mouse_y.0),
            });
            if let (Some(j), Json::Object(map)) = (joystick, &mut o) {
                map.insert("joystickX".into(), f32_to_json(j.x.0));
                map.insert("joystickY".into(), f32_to_json(j.y.0));
            }
            o
        }
        Serverbound::Spawn(m) => json!({"name": str_json(&m.name)}),
        Serverbound::TankUpgrade(m) => json!({"tank": m.tank.0}),
        Serverbound::Heartbeat(_) | Serverbound::ToRespawn(_) | Serverbound::TakeTank(_) => {
            json!({})
        }
    }
}

/// A clientbound message as JSON; a compressed one is inflated (at most
/// `cap` bytes) and shown as `{"declaredLength", "inner": {id, name,
/// value}}`.
pub fn clientbound_to_json(
    m: &Clientbound<'_>,
    table: &FieldTable,
    cap: u32,
) -> Result<Json, tera_packets::Error> {
    Ok(match m {
        Clientbound::Update(v) => update_to_json(v),
        Clientbound::OutdatedClient(m) => json!({"build": str_json(&m.build)}),
        Clientbound::Compressed(c) => compressed_to_json(c, table, cap)?,
        Clientbound::Notification(m) => json!({
            "text": str_json(&m.text),
            "color": m.color,
            "duration": f32_to_json(m.duration),
            "identifier": str_json(&m.identifier),
        }),
        Clientbound::ServerInfo(m) => {
            json!({"gamemode": str_json(&m.gamemode), "host": str_json(&m.host)})
        }
        Clientbound::Heartbeat(_) => json!({}),
        Clientbound::Accept(m) => json!({"accessLevel": m.access_level.0}),
        Clientbound::PlayerCount(m) => json!({"count": m.count.0}),
    })
}

fn compressed_to_json(
    c: &Compressed<'_>,
    table: &FieldTable,
    cap: u32,
) -> Result<Json, tera_packets::Error> {
    let inner = c.inflate(cap)?;
    // A compressed message inside a compressed message is refused: one
    // level is what the protocol uses, and it bounds the work.
    if inner.first() == Some(&crate::compressed::COMPRESSED_ID) {
        return Err(DiepErrorKind::UnknownId {
            id: crate::compressed::COMPRESSED_ID,
        }
        .at(0));
    }
    let m = Clientbound::decode_with(&inner, table)?;
    let value = clientbound_to_json(&m, table, cap)?;
    Ok(json!({
        "declaredLength": c.declared_len(),
        "inner": {"id": m.id(), "name": m.name(), "value": value},
    }))
}

/// Decodes a message of `side` into its id, name and JSON value.
pub fn decode(side: Side, msg: &[u8], table: &FieldTable) -> Result<Decoded, tera_packets::Error> {
    match side {
        Side::Serverbound => {
            let m = Serverbound::decode(msg)?;
            Ok(Decoded {
                id: m.id(),
                name: m.name(),
                value: serverbound_to_json(&m),
            })
        }
        Side::Clientbound => {
            let m = Clientbound::decode_with(msg, table)?;
            Ok(Decoded {
                id: m.id(),
                name: m.name(),
                value: clientbound_to_json(&m, table, crate::DEFAULT_INFLATE_CAP)?,
            })
        }
    }
}

fn get<'v>(value: &'v Json, key: &str, name: &str) -> Result<&'v Json, JsonError> {
    value
        .get(key)
        .ok_or_else(|| shape(format!("{name}: missing `{key}`")))
}

fn string_field(value: &Json, key: &str, name: &str) -> Result<StringNt<'static>, JsonError> {
    let s = get(value, key, name)?
        .as_str()
        .ok_or_else(|| shape(format!("{name}: `{key}` must be a string")))?;
    Ok(StringNt::new(s.to_owned())?)
}

fn f32_field(value: &Json, key: &str, name: &str) -> Result<f32, JsonError> {
    f32_from_json(get(value, key, name)?)
        .ok_or_else(|| shape(format!("{name}: `{key}` must be an f32")))
}

fn u32_field(value: &Json, key: &str, name: &str) -> Result<u32, JsonError> {
    u32_of(get(value, key, name)?).ok_or_else(|| shape(format!("{name}: `{key}` must be a u32")))
}

fn i32_field(value: &Json, key: &str, name: &str) -> Result<i32, JsonError> {
    i32_of(get(value, key, name)?).ok_or_else(|| shape(format!("{name}: `{key}` must be an i32")))
}

/// Encodes the message of `side` named `name` from its JSON value.
pub fn encode(
    side: Side,
    name: &str,
    value: &Json,
    table: &FieldTable,
) -> Result<Vec<u8>, JsonError> {
    match side {
        Side::Serverbound => {
            let m = match name {
                "Input" => {
                    let flags = InputFlags::from_bits_retain(u32_field(value, "flags", name)?);
                    let input = Input {
                        flags,
                        mouse_x: Vf(f32_field(value, "mouseX", name)?),
                        mouse_y: Vf(f32_field(value, "mouseY", name)?),
                    };
                    let joystick = if flags.contains(InputFlags::GAMEPAD) {
                        Some(Joystick {
                            x: Vf(f32_field(value, "joystickX", name)?),
                            y: Vf(f32_field(value, "joystickY", name)?),
                        })
                    } else {
                        None
                    };
                    Serverbound::Input(InputMessage { input, joystick })
                }
                "Spawn" => Serverbound::Spawn(Spawn {
                    name: string_field(value, "name", name)?,
                }),
                "TankUpgrade" => Serverbound::TankUpgrade(TankUpgrade {
                    tank: Vi(i32_field(value, "tank", name)?),
                }),
                "Heartbeat" => Serverbound::Heartbeat(Heartbeat),
                "ToRespawn" => Serverbound::ToRespawn(ToRespawn),
                "TakeTank" => Serverbound::TakeTank(TakeTank),
                _ => return Err(shape(format!("unknown serverbound message `{name}`"))),
            };
            Ok(m.encode()?)
        }
        Side::Clientbound => {
            let m = match name {
                "Update" => return Ok(update_from_json(value, table)?.encode(table)?),
                "OutdatedClient" => Clientbound::OutdatedClient(OutdatedClient {
                    build: string_field(value, "build", name)?,
                }),
                "Notification" => Clientbound::Notification(Notification {
                    text: string_field(value, "text", name)?,
                    color: u32_field(value, "color", name)?,
                    duration: f32_field(value, "duration", name)?,
                    identifier: string_field(value, "identifier", name)?,
                }),
                "ServerInfo" => Clientbound::ServerInfo(ServerInfo {
                    gamemode: string_field(value, "gamemode", name)?,
                    host: string_field(value, "host", name)?,
                }),
                "Heartbeat" => Clientbound::Heartbeat(Heartbeat),
                "Accept" => Clientbound::Accept(Accept {
                    access_level: Vi(i32_field(value, "accessLevel", name)?),
                }),
                "PlayerCount" => Clientbound::PlayerCount(PlayerCount {
                    count: Vu(u32_field(value, "count", name)?),
                }),
                "Compressed" => {
                    let inner = get(value, "inner", name)?;
                    let inner_name = get(inner, "name", "inner")?
                        .as_str()
                        .ok_or_else(|| shape("Compressed: `inner.name` must be a string"))?;
                    let bytes = encode(side, inner_name, get(inner, "value", "inner")?, table)?;
                    let mut out = Vec::new();
                    crate::compress_into(&bytes, &mut out)?;
                    return Ok(out);
                }
                _ => return Err(shape(format!("unknown clientbound message `{name}`"))),
            };
            Ok(m.encode()?)
        }
    }
}
