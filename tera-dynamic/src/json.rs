//! serde for values: serializing gives exactly the JSON of the generated
//! packets (def names, 64-bit integers as decimal strings, bytes as hex,
//! the value types through their own impls); deserializing goes through
//! the schema, which knows each field's type, and accepts what the
//! generated packets' `Deserialize` accepts.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use tera_defs_front::model::Scalar;
use tera_packets::{Bytes, Str};

use crate::scalars::{for_each_scalar, with_scalar};
use crate::schema::{ElementKind, Kind, Schema, StructSchema};
use crate::value::{Record, Value};
use crate::view::{ArrayView, RecordView, View, ViewValue};

/// Implements `Serialize` for [`Value`] from the scalar list: 64-bit
/// integers as decimal strings, the others through their own impls.
macro_rules! serialize_value {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        impl Serialize for Value<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(Value::$v(v) => serialize_scalar!($v, v, s),)*
                    Value::String(v) => v.serialize(s),
                    Value::Bytes(v) => v.serialize(s),
                    Value::Array(items) => {
                        let mut seq = s.serialize_seq(Some(items.len()))?;
                        for item in items {
                            seq.serialize_element(item)?;
                        }
                        seq.end()
                    }
                    Value::Object(record) => record.serialize(s),
                    Value::Null => s.serialize_unit(),
                }
            }
        }
    };
}

macro_rules! serialize_scalar {
    (Int64, $x:ident, $s:ident) => {
        tera_packets::json::int64::serialize($x, $s)
    };
    (UInt64, $x:ident, $s:ident) => {
        tera_packets::json::int64::serialize($x, $s)
    };
    ($v:ident, $x:ident, $s:ident) => {
        $x.serialize($s)
    };
}

for_each_scalar!(serialize_value);

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.values.len()))?;
        for (name, value) in self.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl Serialize for View<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.record().serialize(s)
    }
}

impl Serialize for RecordView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (name, value) in self.iter() {
            map.serialize_entry(name, &value)?;
        }
        map.end()
    }
}

impl Serialize for ArrayView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for item in self.iter() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}

impl Serialize for ViewValue<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ViewValue::Value(v) => v.serialize(s),
            ViewValue::Array(items) => items.serialize(s),
            ViewValue::Object(record) => record.serialize(s),
        }
    }
}

impl Schema {
    /// Reads a packet value (the JSON of the generated packets) as this
    /// def: every field must be there with its type; other keys are
    /// ignored, as the generated `Deserialize` ignores them.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        &self,
        d: D,
    ) -> Result<Record<'static>, D::Error> {
        StructSeed(&self.root).deserialize(d)
    }
}

/// A struct's fields, by name (a JSON object) or in order (a sequence).
struct StructSeed<'s>(&'s Arc<StructSchema>);

impl<'de> DeserializeSeed<'de> for StructSeed<'_> {
    type Value = Record<'static>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Record<'static>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for StructSeed<'_> {
    type Value = Record<'static>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with the def's fields")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Record<'static>, A::Error> {
        let fields = &self.0.fields;
        let mut values: Vec<Option<Value<'static>>> = fields.iter().map(|_| None).collect();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match fields.iter().position(|f| *f.name == *key) {
                Some(i) => {
                    if values[i].is_some() {
                        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    values[i] = Some(map.next_value_seed(KindSeed(&fields[i].kind))?);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let mut record = Record {
            schema: Arc::clone(self.0),
            values: Vec::with_capacity(fields.len()),
        };
        for (f, v) in fields.iter().zip(values) {
            let v =
                v.ok_or_else(|| de::Error::custom(format_args!("missing field `{}`", f.name)))?;
            record.values.push(v);
        }
        Ok(record)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Record<'static>, A::Error> {
        let mut record = Record {
            schema: Arc::clone(self.0),
            values: Vec::with_capacity(self.0.fields.len()),
        };
        for (n, f) in self.0.fields.iter().enumerate() {
            let v = seq
                .next_element_seed(KindSeed(&f.kind))?
                .ok_or_else(|| de::Error::invalid_length(n, &self))?;
            record.values.push(v);
        }
        Ok(record)
    }
}

/// A value of one field's type.
struct KindSeed<'s>(&'s Kind);

impl<'de> DeserializeSeed<'de> for KindSeed<'_> {
    type Value = Value<'static>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value<'static>, D::Error> {
        match self.0 {
            Kind::Scalar(s) => scalar(*s, d),
            Kind::String => Ok(Value::String(Str::deserialize(d)?)),
            Kind::Bytes => Ok(Value::Bytes(Bytes::deserialize(d)?)),
            Kind::Array(element) => d.deserialize_seq(ArraySeed(element)),
            Kind::Object(s) => Ok(Value::Object(StructSeed(s).deserialize(d)?)),
        }
    }
}

fn scalar<'de, D: Deserializer<'de>>(s: Scalar, d: D) -> Result<Value<'static>, D::Error> {
    macro_rules! read {
        ($t:ty, Int64) => {
            Value::Int64(tera_packets::json::int64::deserialize::<i64, D>(d)?)
        };
        ($t:ty, UInt64) => {
            Value::UInt64(tera_packets::json::int64::deserialize::<u64, D>(d)?)
        };
        ($t:ty, $v:ident) => {
            Value::$v(<$t>::deserialize(d)?)
        };
    }
    Ok(with_scalar!(s, read))
}

/// The elements of an array.
struct ArraySeed<'s>(&'s ElementKind);

impl<'de> Visitor<'de> for ArraySeed<'_> {
    type Value = Value<'static>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'static>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ElementSeed(self.0))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
}

struct ElementSeed<'s>(&'s ElementKind);

impl<'de> DeserializeSeed<'de> for ElementSeed<'_> {
    type Value = Value<'static>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value<'static>, D::Error> {
        match self.0 {
            ElementKind::Scalar(s) => scalar(*s, d),
            ElementKind::String => Ok(Value::String(Str::deserialize(d)?)),
            ElementKind::Block(s) => Ok(Value::Object(StructSeed(s).deserialize(d)?)),
        }
    }
}
