//! The value tree of a dynamic packet: named fields in def order, exact
//! 64-bit integers, strings and bytes that borrow from the packet when
//! decoded, arrays, objects and the runtime's value types.

use std::sync::Arc;

use tera_packets::{Angle, Bytes, Customize, SkillId, SkillId32, Str, Vec3, Vec3fa};

/// One field's value. Decoding borrows strings and bytes from the packet
/// (`'a`); values built or read from JSON own theirs (`'static`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// `bool`.
    Bool(bool),
    /// `byte`.
    Byte(u8),
    /// `int16`.
    Int16(i16),
    /// `uint16`.
    UInt16(u16),
    /// `int32`.
    Int32(i32),
    /// `uint32`.
    UInt32(u32),
    /// `int64` (a decimal string in JSON).
    Int64(i64),
    /// `uint64` (a decimal string in JSON).
    UInt64(u64),
    /// `float`.
    Float(f32),
    /// `double`.
    Double(f64),
    /// `vec3`.
    Vec3(Vec3),
    /// `vec3fa`.
    Vec3fa(Vec3fa),
    /// `angle`.
    Angle(Angle),
    /// `skillid`.
    SkillId(SkillId),
    /// `skillid32`.
    SkillId32(SkillId32),
    /// `customize`.
    Customize(Customize),
    /// `string`.
    String(Str<'a>),
    /// `bytes` (a hex string in JSON).
    Bytes(Bytes<'a>),
    /// `array` (elements are [`Value::Object`]s) or `array<T>`.
    Array(Vec<Value<'a>>),
    /// `object`, and each element of an `array` with fields.
    Object(Record<'a>),
}

/// The fields of a block or object, in def order, by their def names.
/// The names are the schema's, shared by every record of a struct.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record<'a> {
    pub(crate) names: Names,
    pub(crate) values: Vec<Value<'a>>,
}

/// The def names of a struct's fields, in order.
pub(crate) type Names = Arc<[Arc<str>]>;

impl<'a> Record<'a> {
    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        let i = self.names.iter().position(|n| &**n == name)?;
        self.values.get(i)
    }

    /// The value of field `name`, to change it. Encoding checks that the
    /// new value has the field's type.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value<'a>> {
        let i = self.names.iter().position(|n| &**n == name)?;
        self.values.get_mut(i)
    }

    /// The fields and their values, in def order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.names.iter().map(|n| &**n).zip(&self.values)
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the block has no fields.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The same record owning its strings and bytes.
    pub fn into_owned(self) -> Record<'static> {
        Record {
            names: self.names,
            values: self.values.into_iter().map(Value::into_owned).collect(),
        }
    }
}

impl Value<'_> {
    /// The same value owning its strings and bytes.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Bool(v) => Value::Bool(v),
            Value::Byte(v) => Value::Byte(v),
            Value::Int16(v) => Value::Int16(v),
            Value::UInt16(v) => Value::UInt16(v),
            Value::Int32(v) => Value::Int32(v),
            Value::UInt32(v) => Value::UInt32(v),
            Value::Int64(v) => Value::Int64(v),
            Value::UInt64(v) => Value::UInt64(v),
            Value::Float(v) => Value::Float(v),
            Value::Double(v) => Value::Double(v),
            Value::Vec3(v) => Value::Vec3(v),
            Value::Vec3fa(v) => Value::Vec3fa(v),
            Value::Angle(v) => Value::Angle(v),
            Value::SkillId(v) => Value::SkillId(v),
            Value::SkillId32(v) => Value::SkillId32(v),
            Value::Customize(v) => Value::Customize(v),
            Value::String(s) => Value::String(tera_packets::IntoOwned::into_owned(s)),
            Value::Bytes(b) => Value::Bytes(tera_packets::IntoOwned::into_owned(b)),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(r) => Value::Object(r.into_owned()),
        }
    }

    /// The def language's word for the value's type (`int32`, `string`,
    /// `array`, ...), for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Byte(_) => "byte",
            Value::Int16(_) => "int16",
            Value::UInt16(_) => "uint16",
            Value::Int32(_) => "int32",
            Value::UInt32(_) => "uint32",
            Value::Int64(_) => "int64",
            Value::UInt64(_) => "uint64",
            Value::Float(_) => "float",
            Value::Double(_) => "double",
            Value::Vec3(_) => "vec3",
            Value::Vec3fa(_) => "vec3fa",
            Value::Angle(_) => "angle",
            Value::SkillId(_) => "skillid",
            Value::SkillId32(_) => "skillid32",
            Value::Customize(_) => "customize",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
}
