//! The one list of the def language's scalar types: each one's variant name
//! (the same in [`Scalar`](tera_defs_front::model::Scalar), [`Value`](crate::Value),
//! a view's slot and a walk's operation), the runtime type that holds it
//! (the generated packets' field type), the [`Value`](crate::Value)
//! accessor that reads it, and how that accessor converts. Every value form
//! and every match over scalars is written from this list, so that adding a
//! scalar is one line here (and its runtime type in `tera-packets`).

/// Calls `$then! { [$($arg)*] Variant(RuntimeType) accessor class "doc", ... }`
/// with every scalar, in [`Scalar::ALL`](tera_defs_front::model::Scalar::ALL)'s
/// order. `class` says what the accessor accepts: `exact` (this variant
/// only), `int` (any integer whose value fits), `float` (`Float` or
/// `Double`, when the value converts exactly).
macro_rules! for_each_scalar {
    ($($then:ident)::+ $([$($arg:tt)*])?) => {
        $($then)::+! { [$($($arg)*)?]
            Bool(bool) as_bool exact "`bool`.",
            Byte(u8) as_u8 int "`byte`.",
            Int16(i16) as_i16 int "`int16`.",
            UInt16(u16) as_u16 int "`uint16`.",
            Int32(i32) as_i32 int "`int32`.",
            UInt32(u32) as_u32 int "`uint32`.",
            Int64(i64) as_i64 int "`int64` (a decimal string in JSON).",
            UInt64(u64) as_u64 int "`uint64` (a decimal string in JSON).",
            Float(f32) as_f32 float "`float`.",
            Double(f64) as_f64 float "`double`.",
            Vec3(tera_packets::Vec3) as_vec3 exact "`vec3`.",
            Vec3fa(tera_packets::Vec3fa) as_vec3fa exact "`vec3fa`.",
            Angle(tera_packets::Angle) as_angle exact "`angle`.",
            SkillId(tera_packets::SkillId) as_skill_id exact "`skillid`.",
            SkillId32(tera_packets::SkillId32) as_skill_id32 exact "`skillid32`.",
            Customize(tera_packets::Customize) as_customize exact "`customize`.",
        }
    };
}
pub(crate) use for_each_scalar;

/// `match $s { Scalar::V => $each!(RuntimeType, V), ... }` over every
/// scalar: the runtime type chosen once, the code after written once.
macro_rules! with_scalar {
    ($s:expr, $each:ident) => {
        $crate::scalars::for_each_scalar!(crate::scalars::with_scalar_arms [($s) $each])
    };
}
pub(crate) use with_scalar;

/// [`with_scalar!`]'s expansion, given the list.
macro_rules! with_scalar_arms {
    ([($s:expr) $each:ident] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        match $s {
            $(tera_defs_front::model::Scalar::$v => $each!($t, $v),)*
        }
    };
}
pub(crate) use with_scalar_arms;
