//! One value of a [`View`](crate::View), as it sits in the view's single
//! vector: scalars as their runtime types, strings and bytes as ranges of
//! the packet, arrays and objects as positions in the vector. Small and
//! `Copy`, so that a whole packet decodes into one allocation.

use tera_defs_front::model::Scalar;
use tera_packets::{
    Angle, Bytes, Customize, Reader, Result, SkillId, SkillId32, Str, Vec3, Vec3fa, Wire,
};

use crate::scalar::with_scalar;
use crate::schema::Kind;
use crate::value::Value;

/// A slot of a view. Positions are `u32`: a packet has at most 65535
/// bytes, and a view at most a slot per byte read plus its records.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Slot {
    Bool(bool),
    Byte(u8),
    Int16(i16),
    UInt16(u16),
    Int32(i32),
    UInt32(u32),
    Int64(i64),
    UInt64(u64),
    Float(f32),
    Double(f64),
    Vec3(Vec3),
    Vec3fa(Vec3fa),
    Angle(Angle),
    SkillId(SkillId),
    SkillId32(SkillId32),
    Customize(Customize),
    /// UTF-16LE text (without its NUL) at `start..start + len` of the packet.
    String {
        start: u32,
        len: u32,
    },
    /// Bytes at `start..start + len` of the packet.
    Bytes {
        start: u32,
        len: u32,
    },
    /// `len` elements from slot `first`: scalars and strings one slot each;
    /// blocks of scalars in field order their records one after another;
    /// other blocks each a [`Slot::Next`] then their record.
    Array {
        first: u32,
        len: u32,
    },
    /// A record of the object's struct from slot `start`.
    Object {
        start: u32,
    },
    /// Before each element's record in an array of blocks that are not
    /// scalars only: the slot of the next element's `Next` (their records
    /// are not contiguous, as each one's own arrays follow it).
    Next(u32),
}

/// `usize` to a slot position; views never hold more than `u32::MAX`.
#[inline]
pub(crate) fn pos(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Slot {
    /// Reads scalar `s` at the cursor through its runtime type.
    #[inline(always)]
    pub(crate) fn read_scalar(s: Scalar, r: &mut Reader<'_>) -> Result<Slot> {
        macro_rules! read {
            ($t:ty, $v:ident) => {
                Slot::$v(<$t as Wire<'_>>::read(r, 0)?)
            };
        }
        Ok(with_scalar!(s, read))
    }

    /// The zero slot of a field of kind `kind`: the empty string, bytes and
    /// array; an object's slot is set when it is read.
    pub(crate) fn zero(kind: &Kind) -> Slot {
        macro_rules! zero {
            ($t:ty, $v:ident) => {
                Slot::$v(<$t>::default())
            };
        }
        match kind {
            Kind::Scalar(s) => with_scalar!(*s, zero),
            Kind::String => Slot::String { start: 0, len: 0 },
            Kind::Bytes => Slot::Bytes { start: 0, len: 0 },
            Kind::Array(_) => Slot::Array { first: 0, len: 0 },
            Kind::Object(_) => Slot::Object { start: 0 },
        }
    }

    /// A scalar, string or bytes slot as a value borrowing from `packet`;
    /// `None` for arrays, objects and links.
    #[inline(always)]
    pub(crate) fn leaf<'a>(self, packet: &'a [u8]) -> Option<Value<'a>> {
        let range = |start: u32, len: u32| {
            let start = start as usize;
            packet.get(start..start + len as usize).unwrap_or_default()
        };
        Some(match self {
            Slot::Bool(v) => Value::Bool(v),
            Slot::Byte(v) => Value::Byte(v),
            Slot::Int16(v) => Value::Int16(v),
            Slot::UInt16(v) => Value::UInt16(v),
            Slot::Int32(v) => Value::Int32(v),
            Slot::UInt32(v) => Value::UInt32(v),
            Slot::Int64(v) => Value::Int64(v),
            Slot::UInt64(v) => Value::UInt64(v),
            Slot::Float(v) => Value::Float(v),
            Slot::Double(v) => Value::Double(v),
            Slot::Vec3(v) => Value::Vec3(v),
            Slot::Vec3fa(v) => Value::Vec3fa(v),
            Slot::Angle(v) => Value::Angle(v),
            Slot::SkillId(v) => Value::SkillId(v),
            Slot::SkillId32(v) => Value::SkillId32(v),
            Slot::Customize(v) => Value::Customize(v),
            Slot::String { start, len } => Value::String(Str::from_utf16le(range(start, len))),
            Slot::Bytes { start, len } => Value::Bytes(Bytes::from(range(start, len))),
            Slot::Array { .. } | Slot::Object { .. } | Slot::Next(_) => return None,
        })
    }
}
