//! Arguments of a query and how they compare with attribute values.

use std::cmp::Ordering;

use crate::Value;

use super::op::Op;

/// A query argument (tera-toolbox's `queryArgs` entries).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(String),
    /// A list: `=` means in it, `!=` not in it.
    List(Vec<Arg>),
}

impl From<i32> for Arg {
    fn from(v: i32) -> Self {
        Arg::Int(i64::from(v))
    }
}

impl From<u32> for Arg {
    fn from(v: u32) -> Self {
        Arg::Int(i64::from(v))
    }
}

impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}

impl From<f64> for Arg {
    fn from(v: f64) -> Self {
        Arg::Float(v)
    }
}

impl From<bool> for Arg {
    fn from(v: bool) -> Self {
        Arg::Bool(v)
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Str(v.to_owned())
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Str(v)
    }
}

impl<T: Into<Arg>> From<Vec<T>> for Arg {
    fn from(v: Vec<T>) -> Self {
        Arg::List(v.into_iter().map(Into::into).collect())
    }
}

/// How an attribute value orders against an argument: numbers with
/// numbers, strings with strings, booleans with booleans; `None` when the
/// types differ.
fn compare(value: &Value<'_>, arg: &Arg) -> Option<Ordering> {
    match (value, arg) {
        (Value::Int(v), Arg::Int(a)) => Some(i64::from(*v).cmp(a)),
        (Value::Int(v), Arg::Float(a)) => f64::from(*v).partial_cmp(a),
        (Value::Float(v), Arg::Float(a)) => f64::from(*v).partial_cmp(a),
        // Integers compared with a float attribute as floats.
        #[allow(clippy::cast_precision_loss)]
        (Value::Float(v), Arg::Int(a)) => f64::from(*v).partial_cmp(&(*a as f64)),
        (Value::Bool(v), Arg::Bool(a)) => Some(v.cmp(a)),
        (Value::Str(v), Arg::Str(a)) => Some(v.chars().cmp(a.chars())),
        _ => None,
    }
}

/// Whether `value op arg` holds. A value of another type than the argument
/// is neither equal nor ordered: only `!=` holds.
pub(super) fn holds(value: &Value<'_>, op: Op, arg: &Arg) -> bool {
    if let Arg::List(items) = arg {
        let any = items.iter().any(|item| holds(value, Op::Eq, item));
        return match op {
            Op::Eq => any,
            Op::Ne => !any,
            // Refused when the query is run (see `check_args`).
            _ => false,
        };
    }
    let ordering = compare(value, arg);
    match op {
        Op::Eq => ordering == Some(Ordering::Equal),
        Op::Ne => ordering != Some(Ordering::Equal),
        Op::Ge => matches!(ordering, Some(Ordering::Greater | Ordering::Equal)),
        Op::Gt => ordering == Some(Ordering::Greater),
        Op::Le => matches!(ordering, Some(Ordering::Less | Ordering::Equal)),
        Op::Lt => ordering == Some(Ordering::Less),
    }
}
