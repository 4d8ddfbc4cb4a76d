//! The typed value of one field (or one array element) of an update.

use tera_packets::{Codec, IntoOwned, Reader, Result, Writer};

use crate::entid::EntId;
use crate::error::DiepErrorKind;
use crate::field_table::Encoding;
use crate::float::Fixed64;
use crate::string_nt::StringNt;
use crate::varint::{Vi, Vu};

/// A field's value, typed by its encoding. Strings borrow from the message
/// after a decode.
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// `vu`.
    Vu(u32),
    /// `vi`.
    Vi(i32),
    /// `f32`.
    F32(f32),
    /// `fixed64`.
    Fixed64(Fixed64),
    /// `stringNT`.
    Str(StringNt<'a>),
    /// `entid`.
    EntId(EntId),
}

impl PartialEq for Value<'_> {
    /// Floats compare by their bits, so NaN equals itself and -0 is not 0.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Vu(a), Value::Vu(b)) => a == b,
            (Value::Vi(a), Value::Vi(b)) => a == b,
            (Value::F32(a), Value::F32(b)) => a.to_bits() == b.to_bits(),
            (Value::Fixed64(a), Value::Fixed64(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::EntId(a), Value::EntId(b)) => a == b,
            _ => false,
        }
    }
}

impl<'a> Value<'a> {
    /// The encoding this value is written with.
    pub fn encoding(&self) -> Encoding {
        match self {
            Value::Vu(_) => Encoding::Vu,
            Value::Vi(_) => Encoding::Vi,
            Value::F32(_) => Encoding::F32,
            Value::Fixed64(_) => Encoding::Fixed64,
            Value::Str(_) => Encoding::StringNt,
            Value::EntId(_) => Encoding::EntId,
        }
    }

    /// Reads a value of `encoding` at the cursor.
    #[inline]
    pub fn read(r: &mut Reader<'a>, encoding: Encoding) -> Result<Self> {
        Ok(match encoding {
            Encoding::Vu => Value::Vu(Vu::read_at(r)?.0),
            Encoding::Vi => Value::Vi(Vi::read_at(r)?.0),
            Encoding::F32 => Value::F32(f32::read_at(r)?),
            Encoding::Fixed64 => Value::Fixed64(Fixed64::read_at(r)?),
            Encoding::StringNt => Value::Str(StringNt::read_at(r)?),
            Encoding::EntId => Value::EntId(EntId::read_at(r)?),
        })
    }

    /// The bytes the value writes.
    #[inline]
    pub fn byte_len(&self) -> usize {
        match self {
            Value::Vu(v) => Vu(*v).byte_len(),
            Value::Vi(v) => Vi(*v).byte_len(),
            Value::F32(_) => 4,
            Value::Fixed64(v) => v.byte_len(),
            Value::Str(v) => v.byte_len(),
            Value::EntId(v) => v.byte_len(),
        }
    }

    /// Writes the value.
    #[inline]
    pub fn write(&self, w: &mut Writer<'_>) {
        match self {
            Value::Vu(v) => Vu(*v).write_at(w),
            Value::Vi(v) => Vi(*v).write_at(w),
            Value::F32(v) => v.write_at(w),
            Value::Fixed64(v) => v.write_at(w),
            Value::Str(v) => v.write_at(w),
            Value::EntId(v) => v.write_at(w),
        }
    }

    /// Checks that the value is of `encoding`, for field `index`.
    #[inline]
    pub(crate) fn check(&self, encoding: Encoding, index: u32) -> Result<()> {
        if self.encoding() == encoding {
            Ok(())
        } else {
            Err(DiepErrorKind::FieldMismatch { index }.at(0))
        }
    }
}

impl IntoOwned for Value<'_> {
    type Owned = Value<'static>;
    fn into_owned(self) -> Value<'static> {
        match self {
            Value::Vu(v) => Value::Vu(v),
            Value::Vi(v) => Value::Vi(v),
            Value::F32(v) => Value::F32(v),
            Value::Fixed64(v) => Value::Fixed64(v),
            Value::Str(v) => Value::Str(v.into_owned()),
            Value::EntId(v) => Value::EntId(v),
        }
    }
}
