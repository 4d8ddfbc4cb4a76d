//! The fields game state reads from a packet decoded by a def loaded at
//! run time, by their def names, with an error naming a field that is
//! missing or of a type game state cannot read it as.

use tera_dynamic::{Record, Value};
use tera_packets::{Angle, Vec3};

use crate::read_error::ReadError;

/// The fields of one decoded record (the packet, or an array's element).
#[derive(Clone, Copy)]
pub(crate) struct Fields<'r, 'a>(pub &'r Record<'a>);

type Read<T> = Result<T, ReadError>;

fn missing(field: &'static str, expected: &'static str) -> ReadError {
    ReadError::Field { field, expected }
}

/// One typed accessor: the field's value through `Value`'s accessor.
macro_rules! scalar {
    ($($name:ident: $t:ty = $as:ident, $expected:literal;)*) => {$(
        pub(crate) fn $name(&self, field: &'static str) -> Read<$t> {
            self.0
                .get(field)
                .and_then(Value::$as)
                .ok_or_else(|| missing(field, $expected))
        }
    )*};
}

impl<'r, 'a> Fields<'r, 'a> {
    scalar! {
        bool: bool = as_bool, "a bool";
        i16: i16 = as_i16, "an int16";
        u16: u16 = as_u16, "a uint16";
        i32: i32 = as_i32, "an int32";
        u32: u32 = as_u32, "a uint32";
        i64: i64 = as_i64, "an int64";
        u64: u64 = as_u64, "a uint64";
        f32: f32 = as_f32, "a float";
        vec3: Vec3 = as_vec3, "a vec3";
        angle: Angle = as_angle, "an angle";
    }

    /// A `string` field, decoded (unpaired surrogates replaced).
    pub(crate) fn string(&self, field: &'static str) -> Read<String> {
        self.0
            .get(field)
            .and_then(Value::as_str)
            .map(tera_packets::Str::to_string_lossy)
            .ok_or_else(|| missing(field, "a string"))
    }

    /// An `int64` or `uint64` field, as `i64` (a `uint64` above
    /// `i64::MAX` saturates, as the compiled readers do).
    pub(crate) fn i64_saturating(&self, field: &'static str) -> Read<i64> {
        match self.0.get(field) {
            Some(Value::UInt64(v)) => Ok(i64::try_from(*v).unwrap_or(i64::MAX)),
            Some(v) => v.as_i64().ok_or_else(|| missing(field, "an integer")),
            None => Err(missing(field, "an integer")),
        }
    }

    /// The elements of an `array` with fields.
    pub(crate) fn records(&self, field: &'static str) -> Read<Vec<Fields<'r, 'a>>> {
        let values = self.array(field)?;
        values
            .iter()
            .map(|v| {
                v.as_record()
                    .map(Fields)
                    .ok_or_else(|| missing(field, "an array of objects"))
            })
            .collect()
    }

    /// The elements of an `array<int32>`.
    pub(crate) fn i32s(&self, field: &'static str) -> Read<Vec<i32>> {
        self.array(field)?
            .iter()
            .map(|v| {
                v.as_i32()
                    .ok_or_else(|| missing(field, "an array of int32"))
            })
            .collect()
    }

    fn array(&self, field: &'static str) -> Read<&'r [Value<'a>]> {
        self.0
            .get(field)
            .and_then(Value::as_array)
            .ok_or_else(|| missing(field, "an array"))
    }
}
