//! The JSON value encoding of tera-toolbox (feature `serde`).
//!
//! 64-bit integers as decimal strings, bytes as lower-case hex, `vec3` as
//! `{x, y, z}`, `angle` and `vec3fa` in radians, `skillid`/`skillid32` as
//! `{reserved, npc, type, huntingZoneId, id, raw}` and `customize` as its
//! eight byte fields plus `raw`. Deserializing uses `raw` when present, so
//! that a value read back from JSON encodes to the same bytes.
//!
//! Plain `i64`/`u64` fields and arrays of them need
//! `#[serde(with = "tera_packets::json::int64")]` and
//! `#[serde(with = "tera_packets::json::int64_array")]`; the generated
//! packets carry these attributes.

use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::{Angle, Array, Block, Bytes, Customize, SkillId, SkillId32, Str, Vec3, Vec3fa};

/// A 64-bit integer written as a decimal string, read from a string or a
/// number.
pub trait Int64: Sized + Copy + fmt::Display + core::str::FromStr {
    /// From a JSON number.
    fn from_i128(v: i128) -> Option<Self>;
}

impl Int64 for i64 {
    fn from_i128(v: i128) -> Option<Self> {
        i64::try_from(v).ok()
    }
}

impl Int64 for u64 {
    fn from_i128(v: i128) -> Option<Self> {
        u64::try_from(v).ok()
    }
}

/// `#[serde(with)]` module for `i64`/`u64` fields: decimal strings.
pub mod int64 {
    use super::*;

    /// Serializes as a decimal string.
    pub fn serialize<T: Int64, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// Deserializes from a decimal string or a number.
    pub fn deserialize<'de, T: Int64, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_any(Int64Visitor(core::marker::PhantomData))
    }
}

struct Int64Visitor<T>(core::marker::PhantomData<T>);

impl<T: Int64> Visitor<'_> for Int64Visitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 64-bit integer as a decimal string or a number")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse()
            .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        T::from_i128(i128::from(v))
            .ok_or_else(|| E::invalid_value(de::Unexpected::Signed(v), &self))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        T::from_i128(i128::from(v))
            .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        if v.fract() == 0.0 && v.abs() < 9.007_199_254_740_992e15 {
            self.visit_i64(v as i64)
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }
}

struct Int64Json<T>(T);

impl<T: Int64> Serialize for Int64Json<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de, T: Int64> Deserialize<'de> for Int64Json<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        int64::deserialize(d).map(Int64Json)
    }
}

/// `#[serde(with)]` module for arrays of `i64`/`u64`: lists of decimal
/// strings.
pub mod int64_array {
    use super::*;

    /// Serializes as a list of decimal strings.
    pub fn serialize<'a, T, S>(v: &Array<'a, T>, s: S) -> Result<S::Ok, S::Error>
    where
        T: Int64 + Block<'a>,
        S: Serializer,
    {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for e in v.iter() {
            seq.serialize_element(&Int64Json(*e))?;
        }
        seq.end()
    }

    /// Deserializes from a list of decimal strings or numbers.
    pub fn deserialize<'de, 'a, T, D>(d: D) -> Result<Array<'a, T>, D::Error>
    where
        T: Int64,
        D: Deserializer<'de>,
    {
        let items: Vec<Int64Json<T>> = Vec::deserialize(d)?;
        Ok(items.into_iter().map(|i| i.0).collect())
    }
}

impl Serialize for Str<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string_lossy())
    }
}

impl<'de> Deserialize<'de> for Str<'_> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Str<'static>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'static>, E> {
                Ok(Str::from(v))
            }
        }
        d.deserialize_str(V)
    }
}

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Hex<'b>(&'b [u8]);
        impl fmt::Display for Hex<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
            }
        }
        s.collect_str(&Hex(self))
    }
}

impl<'de> Deserialize<'de> for Bytes<'_> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Bytes<'static>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes as a hex string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes<'static>, E> {
                let digits = v.as_bytes();
                if !digits.len().is_multiple_of(2) {
                    return Err(E::invalid_length(digits.len(), &self));
                }
                digits
                    .chunks_exact(2)
                    .map(|pair| {
                        core::str::from_utf8(pair)
                            .ok()
                            .and_then(|p| u8::from_str_radix(p, 16).ok())
                            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
                    })
                    .collect::<Result<Vec<u8>, E>>()
                    .map(Bytes::from)
            }
        }
        d.deserialize_str(V)
    }
}

impl<'a, T: Block<'a> + Serialize> Serialize for Array<'a, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for e in self.iter() {
            seq.serialize_element(&*e)?;
        }
        seq.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Array<'_, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(core::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        d.deserialize_seq(V(core::marker::PhantomData))
            .map(Array::from)
    }
}

/// `{x, y, z}` with `f64` coordinates (what a JSON number holds).
#[derive(Serialize, Deserialize)]
struct Xyz {
    x: f64,
    y: f64,
    z: f64,
}

impl Serialize for Vec3 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Vec3", 3)?;
        st.serialize_field("x", &self.x)?;
        st.serialize_field("y", &self.y)?;
        st.serialize_field("z", &self.z)?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for Vec3 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Xyz { x, y, z } = Xyz::deserialize(d)?;
        Ok(Vec3::new(x as f32, y as f32, z as f32))
    }
}

impl Serialize for Vec3fa {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let [x, y, z] = self.to_radians();
        Xyz { x, y, z }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Vec3fa {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Xyz { x, y, z } = Xyz::deserialize(d)?;
        Ok(Vec3fa::from_radians([x, y, z]))
    }
}

impl Serialize for Angle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.to_radians())
    }
}

impl<'de> Deserialize<'de> for Angle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        f64::deserialize(d).map(Angle::from_radians)
    }
}

/// The JSON shape of both skill id types.
#[derive(Serialize)]
struct SkillJson {
    reserved: u32,
    npc: bool,
    #[serde(rename = "type")]
    skill_type: u8,
    #[serde(rename = "huntingZoneId")]
    hunting_zone_id: u32,
    id: u32,
    #[serde(with = "int64")]
    raw: u64,
}

/// What a skill id may be read from: the object (with or without `raw`),
/// or a plain number meaning `{type: 1, id}`.
#[derive(Deserialize)]
#[serde(untagged)]
enum SkillIn {
    Number(u32),
    Fields {
        #[serde(default)]
        reserved: u32,
        #[serde(default)]
        npc: bool,
        #[serde(default, rename = "type")]
        skill_type: u8,
        #[serde(default, rename = "huntingZoneId")]
        hunting_zone_id: u32,
        #[serde(default)]
        id: u32,
        #[serde(default, with = "opt_int64")]
        raw: Option<u64>,
    },
}

mod opt_int64 {
    use super::*;
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        int64::deserialize(d).map(Some)
    }
}

impl Serialize for SkillId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SkillJson {
            reserved: self.reserved(),
            npc: self.npc(),
            skill_type: self.skill_type(),
            hunting_zone_id: self.hunting_zone_id(),
            id: self.id(),
            raw: self.0,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SkillId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match SkillIn::deserialize(d)? {
            SkillIn::Number(id) => SkillId::new(id, 1, false, 0, 0),
            SkillIn::Fields { raw: Some(raw), .. } => SkillId(raw),
            SkillIn::Fields {
                reserved,
                npc,
                skill_type,
                hunting_zone_id,
                id,
                raw: None,
            } => SkillId::new(id, skill_type, npc, hunting_zone_id, reserved),
        })
    }
}

impl Serialize for SkillId32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SkillJson {
            reserved: self.reserved(),
            npc: self.npc(),
            skill_type: self.skill_type(),
            hunting_zone_id: self.hunting_zone_id(),
            id: self.id(),
            raw: u64::from(self.0),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SkillId32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match SkillIn::deserialize(d)? {
            SkillIn::Number(id) => Ok(SkillId32::new(id, 1, false, 0, 0)),
            SkillIn::Fields { raw: Some(raw), .. } => u32::try_from(raw)
                .map(SkillId32)
                .map_err(|_| de::Error::custom("skillid32 raw value does not fit 32 bits")),
            SkillIn::Fields {
                reserved,
                npc,
                skill_type,
                hunting_zone_id,
                id,
                raw: None,
            } => Ok(SkillId32::new(
                id,
                skill_type,
                npc,
                hunting_zone_id,
                reserved,
            )),
        }
    }
}

/// The JSON shape of `customize`.
#[derive(Serialize, Deserialize)]
struct CustomizeJson {
    #[serde(default)]
    unk: u8,
    #[serde(default, rename = "skinColor")]
    skin_color: u8,
    #[serde(default, rename = "faceStyle")]
    face_style: u8,
    #[serde(default, rename = "faceDecal")]
    face_decal: u8,
    #[serde(default, rename = "hairStyle")]
    hair_style: u8,
    #[serde(default, rename = "hairColor")]
    hair_color: u8,
    #[serde(default)]
    voice: u8,
    #[serde(default)]
    tattoos: u8,
    #[serde(default, with = "opt_int64", skip_serializing)]
    raw: Option<u64>,
}

impl Serialize for Customize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let [
            unk,
            skin_color,
            face_style,
            face_decal,
            hair_style,
            hair_color,
            voice,
            tattoos,
        ] = self.fields();
        let mut st = s.serialize_struct("Customize", 9)?;
        st.serialize_field("unk", &unk)?;
        st.serialize_field("skinColor", &skin_color)?;
        st.serialize_field("faceStyle", &face_style)?;
        st.serialize_field("faceDecal", &face_decal)?;
        st.serialize_field("hairStyle", &hair_style)?;
        st.serialize_field("hairColor", &hair_color)?;
        st.serialize_field("voice", &voice)?;
        st.serialize_field("tattoos", &tattoos)?;
        st.serialize_field("raw", &Int64Json(self.0))?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for Customize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let c = CustomizeJson::deserialize(d)?;
        Ok(match c.raw {
            Some(raw) => Customize(raw),
            None => Customize::from_fields([
                c.unk,
                c.skin_color,
                c.face_style,
                c.face_decal,
                c.hair_style,
                c.hair_color,
                c.voice,
                c.tattoos,
            ]),
        })
    }
}
