//! Walking every field of a value without knowing its type: the derives
//! implement [`Visit`] for every packet and block, so generic code (loggers,
//! hashers, benchmarks that touch every field) needs neither serde nor a
//! per-packet match.

use crate::array::Array;
use crate::bytes::Bytes;
use crate::string::Str;
use crate::values::{Angle, Customize, SkillId, SkillId32, Vec3, Vec3fa};
use crate::wire::Block;

/// A value whose fields and leaves can be walked by a [`Visitor`].
///
/// Structs call [`Visitor::field`] for each field in declaration order,
/// arrays call [`Visitor::element`] for each element (decoding it from the
/// packet on the way), and leaves call the visitor's method for their kind.
pub trait Visit {
    /// Walks the value with `v`.
    fn visit<V: Visitor>(&self, v: &mut V);
}

/// Receives what [`Visit::visit`] walks. Every method has a default: a
/// field or element is walked into, a leaf is ignored.
pub trait Visitor: Sized {
    /// A field of a struct, with its name as in the definition.
    #[inline]
    fn field<T: Visit + ?Sized>(&mut self, name: &'static str, value: &T) {
        let _ = name;
        value.visit(self);
    }
    /// An array of `len` elements starts; its elements follow.
    #[inline]
    fn array(&mut self, len: usize) {
        let _ = len;
    }
    /// Element `index` of the current array.
    #[inline]
    fn element<T: Visit + ?Sized>(&mut self, index: usize, value: &T) {
        let _ = index;
        value.visit(self);
    }
    /// An unsigned integer (`byte`, `uint16`, `uint32`, `uint64` and the
    /// raw bits of `skillid` and `customize`).
    #[inline]
    fn unsigned(&mut self, value: u64) {
        let _ = value;
    }
    /// A signed integer (`int16`, `int32`, `int64`, the raw `angle`).
    #[inline]
    fn signed(&mut self, value: i64) {
        let _ = value;
    }
    /// A float (`float`, `double`, the coordinates of `vec3`/`vec3fa`).
    #[inline]
    fn float(&mut self, value: f64) {
        let _ = value;
    }
    /// A `bool`.
    #[inline]
    fn bool(&mut self, value: bool) {
        let _ = value;
    }
    /// A string, still UTF-16 ([`Str::to_string_lossy`] decodes it).
    #[inline]
    fn str(&mut self, value: &Str<'_>) {
        let _ = value;
    }
    /// A UTF-8 string (another protocol's text, e.g. diep.io's `stringNT`).
    #[inline]
    fn text(&mut self, value: &str) {
        let _ = value;
    }
    /// A `bytes` field.
    #[inline]
    fn bytes(&mut self, value: &[u8]) {
        let _ = value;
    }
}

macro_rules! visit_as {
    ($method:ident: $wide:ty => $($ty:ty),*) => {$(
        impl Visit for $ty {
            #[inline]
            fn visit<V: Visitor>(&self, v: &mut V) {
                v.$method(<$wide>::from(*self));
            }
        }
    )*};
}

visit_as!(unsigned: u64 => u8, u16, u32, u64);
visit_as!(signed: i64 => i16, i32, i64);
visit_as!(float: f64 => f32, f64);
visit_as!(bool: bool => bool);

impl Visit for Str<'_> {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.str(self);
    }
}

impl Visit for Bytes<'_> {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.bytes(self);
    }
}

impl<'a, T: Block<'a> + Visit> Visit for Array<'a, T> {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.array(self.len());
        let mut i = 0;
        self.for_each(|e| {
            v.element(i, e);
            i += 1;
        });
    }
}

impl Visit for Vec3 {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.field("x", &self.x);
        v.field("y", &self.y);
        v.field("z", &self.z);
    }
}

impl Visit for Vec3fa {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        self.raw.visit(v);
    }
}

impl Visit for Angle {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.signed(i64::from(self.0));
    }
}

impl Visit for SkillId {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(self.0);
    }
}

impl Visit for SkillId32 {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(u64::from(self.0));
    }
}

impl Visit for Customize {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(self.0);
    }
}
