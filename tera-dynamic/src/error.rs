//! Errors of decoding and encoding through a [`Schema`](crate::Schema).

use std::fmt;
use std::sync::Arc;

use tera_packets::ErrorKind;

/// Malformed bytes: what went wrong, at which byte of the packet, in which
/// field (the innermost one known): the error the generated packets give,
/// with the field named by the def loaded at run time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct DecodeError {
    kind: ErrorKind,
    offset: usize,
    field: Option<Arc<str>>,
}

impl DecodeError {
    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the packet (header included).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field being read, as named in the def, when known.
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// Names the field, unless an inner field was named already.
    pub(crate) fn in_field(mut self, name: &Arc<str>) -> Self {
        if self.field.is_none() {
            self.field = Some(Arc::clone(name));
        }
        self
    }
}

impl From<tera_packets::Error> for DecodeError {
    fn from(e: tera_packets::Error) -> Self {
        DecodeError {
            kind: e.kind(),
            offset: e.offset(),
            field: None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)?;
        if let Some(field) = &self.field {
            write!(f, " (field `{field}`)")?;
        }
        Ok(())
    }
}

/// Why a value could not be encoded: [`EncodeError::kind`] says which of
/// [`EncodeErrorKind`]'s cases. Boxed, so that a `Result` carrying it comes
/// back from an encode in registers rather than through memory.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(transparent)]
pub struct EncodeError(Box<EncodeErrorKind>);

/// The cases of [`EncodeError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EncodeErrorKind {
    /// A field's value does not have the def's type (or is missing).
    #[error("field `{path}`: expected {expected}, found {found}")]
    Mismatch {
        /// The field, as a dotted path with `[i]` for array elements.
        path: String,
        /// The def's type.
        expected: &'static str,
        /// What the value holds (`nothing` for a missing field).
        found: &'static str,
    },
    /// The packet would not fit in 65535 bytes, or the buffer is too small.
    #[error(transparent)]
    Wire(#[from] tera_packets::Error),
}

impl EncodeError {
    /// Which case this is, with its details.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.0
    }

    /// The case, to take apart.
    pub fn into_kind(self) -> EncodeErrorKind {
        *self.0
    }
}

impl From<EncodeErrorKind> for EncodeError {
    fn from(kind: EncodeErrorKind) -> Self {
        EncodeError(Box::new(kind))
    }
}

impl From<tera_packets::Error> for EncodeError {
    fn from(e: tera_packets::Error) -> Self {
        EncodeErrorKind::Wire(e).into()
    }
}

/// Why [`Record::try_set`](crate::Record::try_set) refused a value; the
/// record is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    /// The record's struct has no field of this name.
    #[error("no field `{name}` in this record")]
    NoField {
        /// The name asked for.
        name: String,
    },
    /// The value does not have the field's type (or, inside an array or
    /// object, one of its parts does not).
    #[error("field `{path}`: expected {expected}, found {found}")]
    Mismatch {
        /// The field at fault, as a dotted path with `[i]` for array
        /// elements, from the field set.
        path: String,
        /// The def's type.
        expected: &'static str,
        /// What the value holds (`nothing` for a missing field).
        found: &'static str,
    },
}
