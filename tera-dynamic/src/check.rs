//! The type rule of values: whether a value fits a field of its def, and
//! if not, which field (as a path) and why. The checked setter
//! ([`Record::try_set`]) and encoding (before sizing a packet, and to say
//! why a write was refused) both ask it, so that a value refused at set
//! time is the value encoding refuses.

use std::sync::Arc;

use crate::error::SetError;
use crate::program::{Op, Program};
use crate::schema::{ElementKind, FieldSchema, Kind, StructSchema};
use crate::value::{Record, Value};

/// A value that does not fit its field: the field as a dotted path with
/// `[i]` for array elements, the def's type, and what the value holds
/// (`nothing` for a missing field).
#[derive(Debug)]
pub(crate) struct Mismatch {
    pub(crate) path: String,
    pub(crate) expected: &'static str,
    pub(crate) found: &'static str,
}

type Checked = Result<(), Mismatch>;

impl Mismatch {
    #[cold]
    fn new(expected: &'static str, found: Option<&Value<'_>>) -> Mismatch {
        Mismatch {
            path: String::new(),
            expected,
            found: found.map_or("nothing", Value::type_name),
        }
    }

    /// The mismatch as found inside `name` (a field, or `[i]`).
    #[cold]
    fn inside(mut self, name: &str) -> Mismatch {
        self.path = if self.path.is_empty() {
            name.to_string()
        } else if self.path.starts_with('[') {
            format!("{name}{}", self.path)
        } else {
            format!("{name}.{}", self.path)
        };
        self
    }
}

/// Whether `record` is a record of `s`: the same schema, or one whose
/// fields have `s`'s names in order (a record of another def of the same
/// shape); each value is checked where it is walked.
pub(crate) fn same_fields(s: &StructSchema, record: &Record<'_>) -> bool {
    std::ptr::eq(Arc::as_ptr(&record.schema), s) || first_misnamed(s, record).is_none()
}

/// The first of `s`'s fields that `record` lacks or names otherwise.
#[cold]
fn first_misnamed<'s>(s: &'s StructSchema, record: &Record<'_>) -> Option<&'s FieldSchema> {
    let names = record.schema.fields.iter().map(|f| &f.name);
    let mut names = names.take(record.values.len());
    s.fields.iter().find(|f| names.next() != Some(&f.name))
}

/// Checks every field of `record` against `s`, in wire order (the walk's),
/// so that the field named is the first encoding meets.
pub(crate) fn record(s: &StructSchema, record: &Record<'_>) -> Checked {
    program(s, &s.all, record)
}

/// Checks the fields the operations of `program` walk.
fn program(s: &StructSchema, program: &Program, record: &Record<'_>) -> Checked {
    if let Some(f) = (!same_fields(s, record))
        .then(|| first_misnamed(s, record))
        .flatten()
    {
        return Err(Mismatch::new(f.kind.word(), None).inside(&f.name));
    }
    let values = &record.values;
    let field =
        |i: usize| value(&s.fields[i].kind, &values[i]).map_err(|e| e.inside(&s.fields[i].name));
    for op in &program.ops {
        match op {
            Op::Var { field: i, .. } => field(*i)?,
            Op::Part { field: i, part, .. } => {
                let f = &s.fields[*i];
                match (&f.kind, &values[*i]) {
                    (Kind::Object(child), Value::Object(inner)) => {
                        self::program(child, child.program(Some(*part)), inner)
                    }
                    (_, other) => Err(Mismatch::new("object", Some(other))),
                }
                .map_err(|e| e.inside(&f.name))?
            }
            Op::Interleaved(group) => group.iter().try_for_each(|&(i, _)| field(i))?,
            Op::Ref { .. } | Op::Skip(_) | Op::Chunk(_) | Op::Run(_) => {}
            scalar => {
                if let Some(fields) = scalar.scalar_fields() {
                    fields.range().try_for_each(field)?;
                }
            }
        }
    }
    Ok(())
}

/// Checks `v` against a field of kind `kind`.
pub(crate) fn value(kind: &Kind, v: &Value<'_>) -> Checked {
    match (kind, v) {
        (Kind::Scalar(s), v) if v.scalar() == Some(*s) => Ok(()),
        (Kind::String, Value::String(_)) | (Kind::Bytes, Value::Bytes(_)) => Ok(()),
        (Kind::Array(element), Value::Array(items)) => {
            items.iter().enumerate().try_for_each(|(n, item)| {
                self::element(element, item).map_err(|e| e.inside(&format!("[{n}]")))
            })
        }
        (Kind::Object(s), Value::Object(inner)) => self::record(s, inner),
        (kind, v) => Err(Mismatch::new(kind.word(), Some(v))),
    }
}

/// Checks `v` against an array's element.
fn element(element: &ElementKind, v: &Value<'_>) -> Checked {
    match (element, v) {
        (ElementKind::Scalar(s), v) if v.scalar() == Some(*s) => Ok(()),
        (ElementKind::String, Value::String(_)) => Ok(()),
        (ElementKind::Block(s), Value::Object(inner)) => self::record(s, inner),
        (element, v) => Err(Mismatch::new(element.word(), Some(v))),
    }
}

impl<'a> Record<'a> {
    /// Sets field `name` to `value`, checking first that the value has the
    /// field's type (deeply, for arrays and objects): a value of another
    /// type is an error naming the field, and the record is left as it
    /// was. This is the check encoding makes, made at once.
    ///
    /// ```
    /// # use tera_dynamic::{Catalog, SetError, Value};
    /// # let mut catalog = Catalog::new();
    /// let schema = catalog.add_def("S_CHAT.4.def", "uint32 channel\nstring message\n").unwrap();
    /// let mut chat = schema.zero();
    /// chat.try_set("channel", 7u32)?;
    /// chat.try_set("message", "hi")?;
    /// assert_eq!(chat["channel"].as_u32(), Some(7));
    ///
    /// let wrong = chat.try_set("channel", -1i16).unwrap_err();
    /// assert_eq!(wrong.to_string(), "field `channel`: expected uint32, found int16");
    /// assert!(matches!(chat.try_set("chanel", 7u32), Err(SetError::NoField { .. })));
    /// # Ok::<(), SetError>(())
    /// ```
    pub fn try_set(&mut self, name: &str, value: impl Into<Value<'a>>) -> Result<(), SetError> {
        let Some(i) = self.schema.index_of(name) else {
            return Err(SetError::NoField {
                name: name.to_string(),
            });
        };
        let value = value.into();
        self::value(&self.schema.fields[i].kind, &value).map_err(|e| {
            let e = e.inside(name);
            SetError::Mismatch {
                path: e.path,
                expected: e.expected,
                found: e.found,
            }
        })?;
        self.values[i] = value;
        Ok(())
    }
}
