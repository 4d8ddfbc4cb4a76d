//! Reading values the short way, as `serde_json::Value` reads: accessors
//! (`as_u32`, `as_str`, ...), access by field name and element index
//! (`value["members"][0]["name"]`, [`Value::get`]) and by path
//! ([`Value::get_path`]: `"members[0].name"`), for values, records and
//! views; and `From` impls that make values of Rust ones.

use std::ops::{Index, IndexMut};

use tera_packets::{Bytes, Str};

use crate::scalars::for_each_scalar;
use crate::value::{Record, Value};
use crate::view::{ArrayView, RecordView, ViewValue};

/// One step of a path: a field by name or an array element by index.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step<'p> {
    Field(&'p str),
    Element(usize),
}

/// The steps of `path` (`members[0].name`, or `members.0.name`): `None`
/// for a step that is not a name or an index.
fn steps(path: &str) -> impl Iterator<Item = Option<Step<'_>>> {
    path.split('.').flat_map(|part| {
        let (head, indices) = part.split_at(part.find('[').unwrap_or(part.len()));
        let head = match head {
            "" if indices.is_empty() => Some(None),
            "" => None,
            digits if digits.bytes().all(|b| b.is_ascii_digit()) => {
                Some(digits.parse().ok().map(Step::Element))
            }
            name => Some(Some(Step::Field(name))),
        };
        let indices = indices.split_inclusive(']').map(|ix| {
            ix.strip_prefix('[')?
                .strip_suffix(']')?
                .parse()
                .ok()
                .map(Step::Element)
        });
        head.into_iter().chain(indices)
    })
}

/// What a path steps through: a field of a record, an element of an array.
trait Walk: Sized {
    fn step(self, step: Step<'_>) -> Option<Self>;

    /// The value at `path` from here.
    fn walk(self, path: &str) -> Option<Self> {
        steps(path).try_fold(self, |here, step| here.step(step?))
    }
}

impl<'r, 'a> Walk for &'r Value<'a> {
    fn step(self, step: Step<'_>) -> Option<Self> {
        match (self, step) {
            (Value::Object(record), Step::Field(name)) => record.get(name),
            (Value::Array(items), Step::Element(i)) => items.get(i),
            _ => None,
        }
    }
}

impl<'r, 'a> Walk for &'r mut Value<'a> {
    fn step(self, step: Step<'_>) -> Option<Self> {
        match (self, step) {
            (Value::Object(record), Step::Field(name)) => record.get_mut(name),
            (Value::Array(items), Step::Element(i)) => items.get_mut(i),
            _ => None,
        }
    }
}

impl<'v, 'a> Walk for ViewValue<'v, 'a> {
    fn step(self, step: Step<'_>) -> Option<Self> {
        match (self, step) {
            (ViewValue::Object(record), Step::Field(name)) => record.get(name),
            (ViewValue::Array(items), Step::Element(i)) => items.get(i),
            _ => None,
        }
    }
}

/// Which values a `get` reads: a field by name (`&str`) or an array's
/// element by position (`usize`). Sealed.
pub trait ValueIndex: private::Sealed {
    #[doc(hidden)]
    fn index_into<'r, 'a>(&self, value: &'r Value<'a>) -> Option<&'r Value<'a>>;
    #[doc(hidden)]
    fn index_into_mut<'r, 'a>(&self, value: &'r mut Value<'a>) -> Option<&'r mut Value<'a>>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for &str {}
    impl Sealed for usize {}
}

impl ValueIndex for &str {
    fn index_into<'r, 'a>(&self, value: &'r Value<'a>) -> Option<&'r Value<'a>> {
        value.step(Step::Field(self))
    }
    fn index_into_mut<'r, 'a>(&self, value: &'r mut Value<'a>) -> Option<&'r mut Value<'a>> {
        value.step(Step::Field(self))
    }
}

impl ValueIndex for usize {
    fn index_into<'r, 'a>(&self, value: &'r Value<'a>) -> Option<&'r Value<'a>> {
        value.step(Step::Element(*self))
    }
    fn index_into_mut<'r, 'a>(&self, value: &'r mut Value<'a>) -> Option<&'r mut Value<'a>> {
        value.step(Step::Element(*self))
    }
}

/// Declares the scalar accessors of [`Value`] and [`ViewValue`] from the
/// scalar list.
macro_rules! accessors {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        impl Value<'_> {
            $(accessor!($class, $v, $t, $acc);)*

            /// An integer of any width, widened.
            fn integer(&self) -> Option<i128> {
                match self {
                    $(Value::$v(x) => integer!($class, x),)*
                    _ => None,
                }
            }
        }

        impl ViewValue<'_, '_> {
            $(
                #[doc = concat!("[`Value::", stringify!($acc), "`] of a scalar.")]
                pub fn $acc(&self) -> Option<$t> {
                    self.as_value()?.$acc()
                }
            )*
        }
    };
}

/// A widening to `i128` for an integer variant, `None` for the others.
macro_rules! integer {
    (int, $x:ident) => {
        Some(i128::from(*$x))
    };
    ($class:ident, $x:ident) => {{
        let _ = $x;
        None
    }};
}

/// One accessor of [`Value`], by class (see `for_each_scalar!`).
macro_rules! accessor {
    (exact, $v:ident, $t:ty, $acc:ident) => {
        #[doc = concat!("The value of a [`Value::", stringify!($v), "`].")]
        pub fn $acc(&self) -> Option<$t> {
            match self {
                Value::$v(x) => Some(*x),
                _ => None,
            }
        }
    };
    (int, $v:ident, $t:ty, $acc:ident) => {
        #[doc = concat!(
                            "The value as `", stringify!($t), "`, from an integer of any width ",
                            "whose value fits (`None` for other values)."
                        )]
        pub fn $acc(&self) -> Option<$t> {
            self.integer().and_then(|n| <$t>::try_from(n).ok())
        }
    };
    (float, $v:ident, $t:ty, $acc:ident) => {
        #[doc = concat!(
                            "The value as `", stringify!($t), "`, from a `float` or a `double` ",
                            "that it holds exactly."
                        )]
        pub fn $acc(&self) -> Option<$t> {
            let x = match self {
                Value::Float(x) => f64::from(*x),
                Value::Double(x) => *x,
                _ => return None,
            };
            // The cast is the conversion: exact, or it does not count.
            let y = x as $t;
            (f64::from(y) == x || x.is_nan()).then_some(y)
        }
    };
}

for_each_scalar!(accessors);

impl<'a> Value<'a> {
    /// The text of a `string` (compare it with a `&str`; `to_string()`
    /// decodes it).
    pub fn as_str(&self) -> Option<&Str<'a>> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes of a `bytes`.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The elements of an array, to change (encoding checks their types).
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value<'a>>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The record of an object or array element.
    pub fn as_record(&self) -> Option<&Record<'a>> {
        match self {
            Value::Object(record) => Some(record),
            _ => None,
        }
    }

    /// The record of an object or array element, to change.
    pub fn as_record_mut(&mut self) -> Option<&mut Record<'a>> {
        match self {
            Value::Object(record) => Some(record),
            _ => None,
        }
    }

    /// Field `name` of an object, or element `i` of an array
    /// (`value.get("name")`, `value.get(0)`); `None` when there is none.
    pub fn get(&self, index: impl ValueIndex) -> Option<&Value<'a>> {
        index.index_into(self)
    }

    /// Whether this is [`Value::Null`]: what indexing gives for a missing
    /// field or element (`value["missing"].is_null()`).
    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// [`get`](Value::get), to change the value in place (encoding checks
    /// its type).
    pub fn get_mut(&mut self, index: impl ValueIndex) -> Option<&mut Value<'a>> {
        index.index_into_mut(self)
    }

    /// The value at `path` from here: field names and element indices,
    /// `members[0].name` or `members.0.name`; `None` when a step finds
    /// nothing (no such field, an index past the end, a malformed path).
    ///
    /// ```
    /// # use tera_dynamic::{Catalog, Value};
    /// # let mut catalog = Catalog::new();
    /// # let schema = catalog.add_def("S_PARTY.2.def", "array members\n- uint32 id\n- string name\n").unwrap();
    /// # let party = schema.deserialize(serde_json::json!({"members": [{"id": 9, "name": "Elin"}]})).unwrap();
    /// let party = Value::Object(party);
    /// assert_eq!(party.get_path("members[0].name").and_then(Value::as_str).unwrap(), "Elin");
    /// assert_eq!(party["members"][0]["id"].as_u32(), Some(9));
    /// assert_eq!(party.get_path("members[1].name"), None);
    /// ```
    pub fn get_path(&self, path: &str) -> Option<&Value<'a>> {
        self.walk(path)
    }

    /// [`get_path`](Value::get_path), to change the value in place
    /// (encoding checks its type).
    pub fn get_path_mut(&mut self, path: &str) -> Option<&mut Value<'a>> {
        self.walk(path)
    }
}

impl<'a> Record<'a> {
    /// The value at `path` in the record (see [`Value::get_path`]): its
    /// first step is a field's name.
    pub fn get_path(&self, path: &str) -> Option<&Value<'a>> {
        let (first, rest) = split_first(path)?;
        let field = self.get(first)?;
        if rest.is_empty() {
            Some(field)
        } else {
            field.walk(rest)
        }
    }

    /// [`get_path`](Record::get_path), to change the value in place
    /// (encoding checks its type; [`Record::try_set`] checks at once).
    pub fn get_path_mut(&mut self, path: &str) -> Option<&mut Value<'a>> {
        let (first, rest) = split_first(path)?;
        let field = self.get_mut(first)?;
        if rest.is_empty() {
            Some(field)
        } else {
            field.walk(rest)
        }
    }
}

/// A path's first field name and the steps after it (`members[0].name`:
/// `members` and `[0].name`).
fn split_first(path: &str) -> Option<(&str, &str)> {
    let end = path.find(['.', '[']).unwrap_or(path.len());
    let (first, rest) = path.split_at(end);
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    Some((first, rest)).filter(|(first, _)| !first.is_empty())
}

impl<'v, 'a> ViewValue<'v, 'a> {
    /// A scalar, string or bytes as a [`Value`]; `None` for arrays and
    /// objects.
    pub fn as_value(&self) -> Option<&Value<'a>> {
        match self {
            ViewValue::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The text of a `string` (see [`Value::as_str`]).
    pub fn as_str(&self) -> Option<&Str<'a>> {
        self.as_value()?.as_str()
    }

    /// The bytes of a `bytes`.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        self.as_value()?.as_bytes()
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<ArrayView<'v, 'a>> {
        match self {
            ViewValue::Array(items) => Some(*items),
            _ => None,
        }
    }

    /// The record of an object or array element.
    pub fn as_record(&self) -> Option<RecordView<'v, 'a>> {
        match self {
            ViewValue::Object(record) => Some(*record),
            _ => None,
        }
    }

    /// The value at `path` from here (see [`Value::get_path`]).
    pub fn get_path(self, path: &str) -> Option<ViewValue<'v, 'a>> {
        self.walk(path)
    }
}

impl<'v, 'a> RecordView<'v, 'a> {
    /// The value at `path` in the record (see [`Value::get_path`]): its
    /// first step is a field's name.
    pub fn get_path(&self, path: &str) -> Option<ViewValue<'v, 'a>> {
        let (first, rest) = split_first(path)?;
        let field = self.get(first)?;
        if rest.is_empty() {
            Some(field)
        } else {
            field.walk(rest)
        }
    }
}

/// What indexing finds where there is nothing, as `serde_json::Value`'s
/// indexing: a null.
static NULL: Value<'static> = Value::Null;

/// A field by name, as `serde_json::Value` indexes: `value["name"]`, or
/// [`Value::Null`] when the value is not an object or has no such field
/// (a server's empty list read as `list[0]["id"]` is a null, not a
/// panic). [`Value::get`] and [`Value::get_path`] say `None` instead.
impl<'a> Index<&str> for Value<'a> {
    type Output = Value<'a>;

    fn index(&self, name: &str) -> &Value<'a> {
        self.get(name).unwrap_or(&NULL)
    }
}

/// An array's element by position: `value[0]`, or [`Value::Null`] when the
/// value is not an array or `i` is past its end (the length of an array
/// comes from the packet).
impl<'a> Index<usize> for Value<'a> {
    type Output = Value<'a>;

    fn index(&self, i: usize) -> &Value<'a> {
        self.get(i).unwrap_or(&NULL)
    }
}

/// A field by name, to change in place (encoding checks its type).
///
/// # Panics
/// When the value is not an object or has no such field: a record's fields
/// are its def's, so there is none to add (`serde_json::Value` adds one);
/// [`Value::get_mut`] asks instead.
impl<'a> IndexMut<&str> for Value<'a> {
    fn index_mut(&mut self, name: &str) -> &mut Value<'a> {
        let found = self.type_name();
        match self.get_mut(name) {
            Some(v) => v,
            None => missing_in(found, &name),
        }
    }
}

/// An array's element by position, to change in place.
///
/// # Panics
/// When the value is not an array or `i` is past its end, as
/// `serde_json::Value`'s; [`Value::get_mut`] asks instead.
impl<'a> IndexMut<usize> for Value<'a> {
    fn index_mut(&mut self, i: usize) -> &mut Value<'a> {
        let found = self.type_name();
        match self.get_mut(i) {
            Some(v) => v,
            None => missing_in(found, &i),
        }
    }
}

/// A record's field by name: `record["members"][0]["name"]`, or
/// [`Value::Null`] when the record has no such field (as [`Value`]'s).
impl<'a> Index<&str> for Record<'a> {
    type Output = Value<'a>;

    fn index(&self, name: &str) -> &Value<'a> {
        self.get(name).unwrap_or(&NULL)
    }
}

/// A record's field by name, to change in place (encoding checks its type;
/// [`Record::try_set`] checks at once).
///
/// # Panics
/// When the record has no such field.
impl<'a> IndexMut<&str> for Record<'a> {
    fn index_mut(&mut self, name: &str) -> &mut Value<'a> {
        match self.get_mut(name) {
            Some(v) => v,
            None => missing_in("object", &name),
        }
    }
}

#[cold]
#[track_caller]
fn missing_in(type_name: &str, index: &dyn std::fmt::Debug) -> ! {
    panic!("no {index:?} in this {type_name}: use get or get_path when it may be absent")
}

impl<'a> From<Str<'a>> for Value<'a> {
    fn from(s: Str<'a>) -> Self {
        Value::String(s)
    }
}

impl From<&str> for Value<'_> {
    fn from(s: &str) -> Self {
        Value::String(Str::from(s))
    }
}

impl From<String> for Value<'_> {
    fn from(s: String) -> Self {
        Value::String(Str::from(s))
    }
}

impl<'a> From<Bytes<'a>> for Value<'a> {
    fn from(b: Bytes<'a>) -> Self {
        Value::Bytes(b)
    }
}

/// Borrowed bytes are a `bytes` value.
impl<'a> From<&'a [u8]> for Value<'a> {
    fn from(b: &'a [u8]) -> Self {
        Value::Bytes(Bytes::from(b))
    }
}

/// Owned bytes are a `bytes` value (an `array<byte>` is a `Vec<Value>`).
impl From<Vec<u8>> for Value<'_> {
    fn from(b: Vec<u8>) -> Self {
        Value::Bytes(Bytes::from(b))
    }
}

impl<'a> From<Vec<Value<'a>>> for Value<'a> {
    fn from(items: Vec<Value<'a>>) -> Self {
        Value::Array(items)
    }
}

impl<'a> From<Record<'a>> for Value<'a> {
    fn from(record: Record<'a>) -> Self {
        Value::Object(record)
    }
}
