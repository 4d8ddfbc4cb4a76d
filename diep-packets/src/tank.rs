//! Tank ids (a `vi`, -1 = none).

use tera_packets::{Codec, Reader, Result, Visit, Visitor, Writer};

use crate::varint::Vi;

/// A tank id on the wire as `vi`; -1 means none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tank(pub i32);

impl Tank {
    /// No tank.
    pub const NONE: Tank = Tank(-1);

    /// The tank id, or `None` for -1.
    pub fn get(self) -> Option<i32> {
        (self.0 != -1).then_some(self.0)
    }
}

impl Default for Tank {
    fn default() -> Self {
        Tank::NONE
    }
}

impl<'a> Codec<'a> for Tank {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    // A tank id is a `vi`.
    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        Vi::read_at(r).map(|v| Tank(v.0))
    }

    #[inline]
    fn byte_len(&self) -> usize {
        Vi(self.0).byte_len()
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        Vi(self.0).write_at(w);
    }
}

impl Visit for Tank {
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.signed(i64::from(self.0));
    }
}

crate::owned_is_self!(Tank);
