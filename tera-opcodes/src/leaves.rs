//! A decoded packet walked down to its leaves: each scalar, string and
//! bytes value with the name of the field that holds it, and each array
//! and element met on the way. Fit, plausibility and value links all read
//! packets this way.

use tera_dynamic::{Record, Value};

/// What a walk meets.
pub(crate) trait Visit<'r> {
    /// A scalar, string or bytes value of field `name`.
    fn leaf(&mut self, name: &'r str, value: &'r Value<'r>);

    /// An array of field `name` with `len` elements (before them).
    fn array(&mut self, _name: &'r str, _len: usize) {}
}

/// Walks every field of `record`, objects and array elements included.
pub(crate) fn walk<'r, V: Visit<'r>>(record: &'r Record<'r>, visit: &mut V) {
    for (name, value) in record.iter() {
        value_of(name, value, visit);
    }
}

fn value_of<'r, V: Visit<'r>>(name: &'r str, value: &'r Value<'r>, visit: &mut V) {
    match value {
        Value::Object(r) => walk(r, visit),
        Value::Array(items) => {
            visit.array(name, items.len());
            for item in items {
                value_of(name, item, visit);
            }
        }
        other => visit.leaf(name, other),
    }
}

/// A 64-bit view of an integer-like value, for value links: integers,
/// skill ids and the like, as their raw bits (signed ones sign-extended).
pub(crate) fn integer(value: &Value<'_>) -> Option<u64> {
    Some(match value {
        Value::Byte(v) => u64::from(*v),
        Value::Int16(v) => *v as i64 as u64,
        Value::UInt16(v) => u64::from(*v),
        Value::Int32(v) => *v as i64 as u64,
        Value::UInt32(v) => u64::from(*v),
        Value::Int64(v) => *v as u64,
        Value::UInt64(v) => *v,
        Value::SkillId(v) => v.0,
        Value::SkillId32(v) => u64::from(v.0),
        _ => return None,
    })
}

/// The floats a value holds (a `vec3` three, a `float` one), for the
/// finiteness check and plausibility.
pub(crate) fn floats(value: &Value<'_>, mut f: impl FnMut(f64)) {
    match value {
        Value::Float(v) => f(f64::from(*v)),
        Value::Double(v) => f(*v),
        Value::Vec3(v) => {
            f(f64::from(v.x));
            f(f64::from(v.y));
            f(f64::from(v.z));
        }
        Value::Vec3fa(v) => {
            f(f64::from(v.raw.x));
            f(f64::from(v.raw.y));
            f(f64::from(v.raw.z));
        }
        _ => {}
    }
}

/// Size classes of integers: zero, 1-15, 16-255, 256-65535, up to 2^32,
/// beyond, negative.
pub(crate) const CLASSES: usize = 7;

/// The size class of an integer value (`None` for other values).
pub(crate) fn class(value: &Value<'_>) -> Option<u8> {
    let (v, negative) = match value {
        Value::Byte(v) => (u64::from(*v), false),
        Value::Int16(v) => (v.unsigned_abs().into(), *v < 0),
        Value::UInt16(v) => (u64::from(*v), false),
        Value::Int32(v) => (v.unsigned_abs().into(), *v < 0),
        Value::UInt32(v) => (u64::from(*v), false),
        Value::Int64(v) => (v.unsigned_abs(), *v < 0),
        Value::UInt64(v) => (*v, false),
        _ => return None,
    };
    Some(match v {
        _ if negative => 6,
        0 => 0,
        1..=15 => 1,
        16..=255 => 2,
        256..=65_535 => 3,
        65_536..=0xffff_ffff => 4,
        _ => 5,
    })
}
