//! The value tree of a dynamic packet: records bound to their struct's
//! schema, with named fields in def order; exact 64-bit integers, strings
//! and bytes that borrow from the packet when decoded, arrays, objects and
//! the runtime's value types.

use std::fmt;
use std::sync::Arc;

use tera_defs_front::model::Scalar;
use tera_packets::{Bytes, Str};

use crate::scalars::{for_each_scalar, with_scalar};
use crate::schema::{Kind, StructSchema};

/// Declares [`Value`] from the scalar list, with the methods that match
/// every scalar variant.
macro_rules! value_enum {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        /// One field's value. Decoding borrows strings and bytes from the
        /// packet (`'a`); values built or read from JSON own theirs
        /// (`'static`). Read one with the accessors (`as_u32`, `as_str`,
        /// ...), by path ([`Value::get_path`]) or by index
        /// (`value["members"][0]["name"]`); make one from a Rust value with
        /// `From` (`Value::from(7u32)`).
        #[derive(Debug, Clone, PartialEq)]
        pub enum Value<'a> {
            $(#[doc = $doc] $v($t),)*
            /// `string`.
            String(Str<'a>),
            /// `bytes` (a hex string in JSON).
            Bytes(Bytes<'a>),
            /// `array` (elements are [`Value::Object`]s) or `array<T>`.
            Array(Vec<Value<'a>>),
            /// `object`, and each element of an `array` with fields.
            Object(Record<'a>),
            /// Nothing: what indexing a missing field or element gives
            /// (`value["missing"]`, `value[99]`), as `serde_json::Value`'s
            /// `Null`. No def type; encoding a null field is an error.
            Null,
        }

        impl Value<'_> {
            /// The same value owning its strings and bytes.
            pub fn into_owned(self) -> Value<'static> {
                match self {
                    $(Value::$v(v) => Value::$v(v),)*
                    Value::String(s) => Value::String(tera_packets::IntoOwned::into_owned(s)),
                    Value::Bytes(b) => Value::Bytes(tera_packets::IntoOwned::into_owned(b)),
                    Value::Array(items) => {
                        Value::Array(items.into_iter().map(Value::into_owned).collect())
                    }
                    Value::Object(r) => Value::Object(r.into_owned()),
                    Value::Null => Value::Null,
                }
            }

            /// The scalar type the value holds, if it is a scalar.
            pub fn scalar(&self) -> Option<Scalar> {
                match self {
                    $(Value::$v(_) => Some(Scalar::$v),)*
                    _ => None,
                }
            }
        }

        $(
            impl From<$t> for Value<'_> {
                fn from(v: $t) -> Self {
                    Value::$v(v)
                }
            }
        )*
    };
}
for_each_scalar!(value_enum);

/// The fields of a block or object, in def order, by their def names,
/// bound to the [`StructSchema`] they were made from (a decoded packet,
/// [`Schema::zero`](crate::Schema::zero), JSON read through
/// [`Schema::deserialize`](crate::Schema::deserialize)).
/// [`try_set`](Record::try_set) checks a new value's type against the
/// schema; [`get_mut`](Record::get_mut) leaves the check to encoding.
#[derive(Clone)]
pub struct Record<'a> {
    pub(crate) schema: Arc<StructSchema>,
    pub(crate) values: Vec<Value<'a>>,
}

impl<'a> Record<'a> {
    /// The record of `schema` with every field zero or empty: what the
    /// generated type's `Default` holds.
    pub fn zero(schema: &Arc<StructSchema>) -> Record<'static> {
        Record {
            schema: Arc::clone(schema),
            values: schema.fields.iter().map(|f| Value::zero(&f.kind)).collect(),
        }
    }

    /// The schema of the record's struct: its fields and their types.
    pub fn schema(&self) -> &Arc<StructSchema> {
        &self.schema
    }

    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        self.values.get(self.schema.index_of(name)?)
    }

    /// The value of field `name`, to change it in place. Nothing checks
    /// the new value's type until encoding does;
    /// [`try_set`](Record::try_set) checks it at once.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value<'a>> {
        let i = self.schema.index_of(name)?;
        self.values.get_mut(i)
    }

    /// The fields and their values, in def order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.schema
            .fields
            .iter()
            .map(|f| &*f.name)
            .zip(&self.values)
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
            schema: self.schema,
            values: self.values.into_iter().map(Value::into_owned).collect(),
        }
    }
}

/// Records are equal when their fields have the same names and values
/// (whichever def they were made from).
impl PartialEq for Record<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

/// A record shows as a map of its fields.
impl fmt::Debug for Record<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a> Value<'a> {
    /// The zero value of a field of kind `kind`: what the generated field's
    /// `Default` holds.
    pub fn zero(kind: &Kind) -> Value<'static> {
        match kind {
            Kind::Scalar(s) => Value::zero_scalar(*s),
            Kind::String => Value::String(Str::default()),
            Kind::Bytes => Value::Bytes(Bytes::default()),
            Kind::Array(_) => Value::Array(Vec::new()),
            Kind::Object(s) => Value::Object(Record::zero(s)),
        }
    }

    /// The zero value of scalar `s`.
    pub(crate) fn zero_scalar(s: Scalar) -> Value<'static> {
        macro_rules! zero {
            ($t:ty, $v:ident) => {
                Value::$v(<$t>::default())
            };
        }
        with_scalar!(s, zero)
    }

    /// The def language's word for the value's type (`int32`, `string`,
    /// `array`, ...), for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Null => "null",
            scalar => scalar.scalar().map_or("", Scalar::def_name),
        }
    }
}
