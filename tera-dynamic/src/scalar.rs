//! Each def scalar as the runtime type the generated packets use for it:
//! written, matched and given a zero value through that type's own impls
//! (reading is `Slot::read_scalar`), so that the dynamic path writes their
//! bytes exactly.

use tera_defs_front::model::Scalar;
use tera_packets::{Angle, Customize, SkillId, SkillId32, Vec3, Vec3fa, Wire, Writer};

use crate::slot::Slot;
use crate::value::Value;

/// Expands `$each!(RuntimeType, ValueVariant)` for scalar `$s`.
macro_rules! with_scalar {
    ($s:expr, $each:ident) => {
        match $s {
            tera_defs_front::model::Scalar::Bool => $each!(bool, Bool),
            tera_defs_front::model::Scalar::Byte => $each!(u8, Byte),
            tera_defs_front::model::Scalar::Int16 => $each!(i16, Int16),
            tera_defs_front::model::Scalar::UInt16 => $each!(u16, UInt16),
            tera_defs_front::model::Scalar::Int32 => $each!(i32, Int32),
            tera_defs_front::model::Scalar::UInt32 => $each!(u32, UInt32),
            tera_defs_front::model::Scalar::Int64 => $each!(i64, Int64),
            tera_defs_front::model::Scalar::UInt64 => $each!(u64, UInt64),
            tera_defs_front::model::Scalar::Float => $each!(f32, Float),
            tera_defs_front::model::Scalar::Double => $each!(f64, Double),
            tera_defs_front::model::Scalar::Vec3 => $each!(tera_packets::Vec3, Vec3),
            tera_defs_front::model::Scalar::Vec3fa => $each!(tera_packets::Vec3fa, Vec3fa),
            tera_defs_front::model::Scalar::Angle => $each!(tera_packets::Angle, Angle),
            tera_defs_front::model::Scalar::SkillId => $each!(tera_packets::SkillId, SkillId),
            tera_defs_front::model::Scalar::SkillId32 => $each!(tera_packets::SkillId32, SkillId32),
            tera_defs_front::model::Scalar::Customize => $each!(tera_packets::Customize, Customize),
        }
    };
}
pub(crate) use with_scalar;

/// The zero value of scalar `s` (what `Default` gives the generated field).
pub(crate) fn zero(s: Scalar) -> Value<'static> {
    macro_rules! zero {
        ($t:ty, $v:ident) => {
            Value::$v(<$t>::default())
        };
    }
    with_scalar!(s, zero)
}

/// Whether `v` holds a value of scalar `s`.
#[inline]
pub(crate) fn matches(s: Scalar, v: &Value<'_>) -> bool {
    macro_rules! is {
        ($t:ty, $v:ident) => {
            matches!(v, Value::$v(_))
        };
    }
    with_scalar!(s, is)
}

/// Writes `v` at the cursor (a value of another type writes nothing: the
/// encoder checked the types first).
#[inline]
pub(crate) fn write(v: &Value<'_>, w: &mut Writer<'_>) {
    match v {
        Value::Bool(x) => x.write(w, 0),
        Value::Byte(x) => x.write(w, 0),
        Value::Int16(x) => x.write(w, 0),
        Value::UInt16(x) => x.write(w, 0),
        Value::Int32(x) => x.write(w, 0),
        Value::UInt32(x) => x.write(w, 0),
        Value::Int64(x) => x.write(w, 0),
        Value::UInt64(x) => x.write(w, 0),
        Value::Float(x) => x.write(w, 0),
        Value::Double(x) => x.write(w, 0),
        Value::Vec3(x) => x.write(w, 0),
        Value::Vec3fa(x) => x.write(w, 0),
        Value::Angle(x) => x.write(w, 0),
        Value::SkillId(x) => x.write(w, 0),
        Value::SkillId32(x) => x.write(w, 0),
        Value::Customize(x) => x.write(w, 0),
        Value::String(_) | Value::Bytes(_) | Value::Array(_) | Value::Object(_) => {}
    }
}

/// The def language's word for scalar `s`.
pub(crate) fn def_name(s: Scalar) -> &'static str {
    zero(s).type_name()
}

/// A scalar's runtime type, as a view's slot and as a value's variant: what
/// the walks call once per scalar field, chosen by the operation.
pub(crate) trait ScalarType: Copy + for<'a> Wire<'a> {
    /// The def language's word for the type.
    const NAME: &'static str;
    /// The value as a view's slot.
    fn into_slot(self) -> Slot;
    /// The value `value` holds, if it is of this type.
    fn of(value: &Value<'_>) -> Option<Self>;
}

macro_rules! scalar_type {
    ($($t:ty, $v:ident, $name:literal;)*) => {
        $(
            impl ScalarType for $t {
                const NAME: &'static str = $name;
                #[inline(always)]
                fn into_slot(self) -> Slot {
                    Slot::$v(self)
                }
                #[inline(always)]
                fn of(value: &Value<'_>) -> Option<Self> {
                    match value {
                        Value::$v(x) => Some(*x),
                        _ => None,
                    }
                }
            }
        )*
    };
}

scalar_type! {
    bool, Bool, "bool";
    u8, Byte, "byte";
    i16, Int16, "int16";
    u16, UInt16, "uint16";
    i32, Int32, "int32";
    u32, UInt32, "uint32";
    i64, Int64, "int64";
    u64, UInt64, "uint64";
    f32, Float, "float";
    f64, Double, "double";
    Vec3, Vec3, "vec3";
    Vec3fa, Vec3fa, "vec3fa";
    Angle, Angle, "angle";
    SkillId, SkillId, "skillid";
    SkillId32, SkillId32, "skillid32";
    Customize, Customize, "customize";
}
