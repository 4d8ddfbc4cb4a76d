//! Typed getters that say what went wrong: `record.u32("damage")?` gives
//! the field's value, or an error naming the packet and the field (a typo,
//! a field of another type), where `get(..).and_then(Value::as_u32)` gives
//! a bare `None`.

use std::fmt;
use std::sync::Arc;

use tera_defs_front::suggest;

use crate::value::{Record, Value};

/// The most fields a missing field's error lists when no name is close.
const LISTED_FIELDS: usize = 12;

/// Why a typed getter found no value: the field is missing, or holds
/// another type. Its message names the packet and the field:
/// `S_EACH_SKILL_RESULT.3 has no field `damag`: did you mean `damage`?`,
/// `S_CHAT.4 field `message` is a string, not u32`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    owner: Arc<str>,
    field: String,
    problem: Problem,
}

/// What [`FieldError`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Problem {
    /// No field of that name; the names close to it, else the struct's
    /// fields when they are few.
    Missing {
        near: Vec<String>,
        fields: Vec<String>,
    },
    /// The field holds a value of type `found` (the def's word), which is
    /// not a `wanted` (the getter's Rust type).
    Type {
        found: &'static str,
        wanted: &'static str,
    },
    /// An integer that does not fit the getter's type.
    Range { value: String, wanted: &'static str },
    /// The getter was called on a value that is not a record.
    NotARecord { found: &'static str },
}

impl FieldError {
    /// The packet (`NAME.VERSION`) or struct the field was looked up in.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The field asked for.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// Whether the record has no field of that name (rather than one of
    /// another type).
    pub fn is_missing(&self) -> bool {
        matches!(self.problem, Problem::Missing { .. })
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (owner, field) = (&self.owner, &self.field);
        match &self.problem {
            Problem::Missing { near, fields } => {
                write!(f, "{owner} has no field `{field}`")?;
                match near.as_slice() {
                    [] if fields.is_empty() => Ok(()),
                    [] => write!(f, "; its fields: {}", fields.join(", ")),
                    [one] => write!(f, ": did you mean `{one}`?"),
                    many => write!(f, ": did you mean one of `{}`?", many.join("`, `")),
                }
            }
            Problem::Type { found, wanted } => {
                write!(
                    f,
                    "{owner} field `{field}` is {} {found}, not {wanted}",
                    article(found)
                )
            }
            Problem::Range { value, wanted } => {
                write!(
                    f,
                    "{owner} field `{field}` holds {value}, which is not a {wanted}"
                )
            }
            Problem::NotARecord { found } => write!(
                f,
                "{owner}: field `{field}` asked of {} {found}, which has no fields",
                article(found)
            ),
        }
    }
}

impl std::error::Error for FieldError {}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Declares one getter per Rust type on [`Record`] and [`Value`], each
/// through the value's own accessor (`as_u32`, ...).
macro_rules! getters {
    ($($name:ident $acc:ident $t:ty, $int:literal;)*) => {
        impl<'a> Record<'a> {
            $(
                #[doc = concat!(
                    "Field `name` as `", stringify!($name), "`, or an error naming the packet ",
                    "and the field: no such field (with the names close to it), or a ",
                    "value of another type", $int, "."
                )]
                pub fn $name(&self, name: &str) -> Result<$t, FieldError> {
                    let value = self.field(name)?;
                    value.$acc().ok_or_else(|| self.mismatch(name, value, stringify!($name)))
                }
            )*
        }

        impl<'a> Value<'a> {
            $(
                #[doc = concat!("[`Record::", stringify!($name), "`] of an object.")]
                pub fn $name(&self, name: &str) -> Result<$t, FieldError> {
                    self.record_for(name)?.$name(name)
                }
            )*
        }
    };
}

getters! {
    u8 as_u8 u8, " (any integer whose value fits)";
    u16 as_u16 u16, " (any integer whose value fits)";
    u32 as_u32 u32, " (any integer whose value fits)";
    u64 as_u64 u64, " (any integer whose value fits)";
    i16 as_i16 i16, " (any integer whose value fits)";
    i32 as_i32 i32, " (any integer whose value fits)";
    i64 as_i64 i64, " (any integer whose value fits)";
    f32 as_f32 f32, " (a float or double it holds exactly)";
    f64 as_f64 f64, " (a float or double)";
    bool as_bool bool, "";
    vec3 as_vec3 tera_packets::Vec3, "";
    angle as_angle tera_packets::Angle, "";
    skill_id as_skill_id tera_packets::SkillId, "";
    skill_id32 as_skill_id32 tera_packets::SkillId32, "";
}

impl<'a> Record<'a> {
    /// Field `name`, or an error naming the packet and the field, with
    /// the field names close to it:
    ///
    /// ```
    /// # use tera_dynamic::Catalog;
    /// let mut catalog = Catalog::new();
    /// let schema = catalog.add_def("S_DAMAGE.3.def", "uint64 target\nint64 damage\n").unwrap();
    /// let hit = schema.deserialize(serde_json::json!({"target": 7, "damage": 1200})).unwrap();
    /// assert_eq!(hit.i64("damage")?, 1200);
    /// assert_eq!(
    ///     hit.u32("damag").unwrap_err().to_string(),
    ///     "S_DAMAGE.3 has no field `damag`: did you mean `damage`?"
    /// );
    /// assert_eq!(hit.u8("damage").unwrap_err().to_string(), "S_DAMAGE.3 field `damage` holds 1200, which is not a u8");
    /// # Ok::<(), tera_dynamic::FieldError>(())
    /// ```
    pub fn field(&self, name: &str) -> Result<&Value<'a>, FieldError> {
        self.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.schema.fields.iter().map(|f| &*f.name).collect();
            let limit = suggest::typo_limit(name.chars().count(), 2);
            let near: Vec<String> = suggest::nearest(name, &names, limit)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let fields = if near.is_empty() && names.len() <= LISTED_FIELDS {
                names.iter().map(|n| (*n).to_owned()).collect()
            } else {
                Vec::new()
            };
            FieldError {
                owner: Arc::clone(&self.schema.owner),
                field: name.to_owned(),
                problem: Problem::Missing { near, fields },
            }
        })
    }

    /// Field `name` as text (a `string`, decoded from UTF-16).
    pub fn string(&self, name: &str) -> Result<String, FieldError> {
        let value = self.field(name)?;
        value
            .as_str()
            .map(ToString::to_string)
            .ok_or_else(|| self.mismatch(name, value, "string"))
    }

    /// Field `name` as the bytes of a `bytes`.
    pub fn bytes(&self, name: &str) -> Result<&[u8], FieldError> {
        let value = self.field(name)?;
        value
            .as_bytes()
            .ok_or_else(|| self.mismatch(name, value, "bytes"))
    }

    /// The elements of array field `name`.
    pub fn array(&self, name: &str) -> Result<&[Value<'a>], FieldError> {
        let value = self.field(name)?;
        value
            .as_array()
            .ok_or_else(|| self.mismatch(name, value, "array"))
    }

    /// The record of object field `name`.
    pub fn object(&self, name: &str) -> Result<&Record<'a>, FieldError> {
        let value = self.field(name)?;
        value
            .as_record()
            .ok_or_else(|| self.mismatch(name, value, "object"))
    }

    /// The error of field `name` holding `value`, not a `wanted`.
    fn mismatch(&self, name: &str, value: &Value<'_>, wanted: &'static str) -> FieldError {
        let found = value.type_name();
        let problem = match value.integer_text() {
            Some(text) if wanted.starts_with(['u', 'i']) && wanted.len() <= 3 => Problem::Range {
                value: text,
                wanted,
            },
            _ => Problem::Type { found, wanted },
        };
        FieldError {
            owner: Arc::clone(&self.schema.owner),
            field: name.to_owned(),
            problem,
        }
    }
}

impl<'a> Value<'a> {
    /// [`Record::field`] of an object.
    pub fn field(&self, name: &str) -> Result<&Value<'a>, FieldError> {
        self.record_for(name)?.field(name)
    }

    /// [`Record::string`] of an object.
    pub fn string(&self, name: &str) -> Result<String, FieldError> {
        self.record_for(name)?.string(name)
    }

    /// [`Record::array`] of an object.
    pub fn array(&self, name: &str) -> Result<&[Value<'a>], FieldError> {
        self.record_for(name)?.array(name)
    }

    /// [`Record::object`] of an object.
    pub fn object(&self, name: &str) -> Result<&Record<'a>, FieldError> {
        self.record_for(name)?.object(name)
    }

    /// The record a getter of field `name` reads, or the error of asking a
    /// field of a value that has none.
    fn record_for(&self, name: &str) -> Result<&Record<'a>, FieldError> {
        self.as_record().ok_or_else(|| FieldError {
            owner: Arc::from(self.type_name()),
            field: name.to_owned(),
            problem: Problem::NotARecord {
                found: self.type_name(),
            },
        })
    }

    /// An integer's value as text (any width), for messages.
    fn integer_text(&self) -> Option<String> {
        match self {
            Value::Byte(x) => Some(x.to_string()),
            Value::Int16(x) => Some(x.to_string()),
            Value::Int32(x) => Some(x.to_string()),
            Value::Int64(x) => Some(x.to_string()),
            Value::UInt16(x) => Some(x.to_string()),
            Value::UInt32(x) => Some(x.to_string()),
            Value::UInt64(x) => Some(x.to_string()),
            _ => None,
        }
    }
}
