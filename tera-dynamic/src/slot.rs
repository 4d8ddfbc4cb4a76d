//! One value of a [`View`](crate::View), as it sits in the view's single
//! vector: scalars as their runtime types, strings and bytes as ranges of
//! the packet, arrays and objects as positions in the vector. Small and
//! `Copy`, so that a whole packet decodes into one allocation.

use tera_defs_front::model::Scalar;
use tera_packets::{Reader, Result, Wire};

use crate::scalars::{for_each_scalar, with_scalar};

/// Declares [`Slot`] from the scalar list.
macro_rules! slot_enum {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        /// A slot of a view. Positions are `u32`: a packet has at most 65535
        /// bytes, and a view at most a slot per byte read plus its records.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub(crate) enum Slot {
            $(#[doc = $doc] $v($t),)*
            /// UTF-16LE text (without its NUL) at `start..start + len` of the packet.
            String { start: u32, len: u32 },
            /// Bytes at `start..start + len` of the packet.
            Bytes { start: u32, len: u32 },
            /// `len` elements from slot `first`: scalars and strings one slot each;
            /// blocks of scalars in field order their records one after another;
            /// other blocks each a [`Slot::Next`] then their record.
            Array { first: u32, len: u32 },
            /// A record of the object's struct from slot `start`.
            Object { start: u32 },
            /// Before each element's record in an array of blocks that are not
            /// scalars only: the slot of the next element's `Next` (their records
            /// are not contiguous, as each one's own arrays follow it).
            Next(u32),
        }
    };
}
for_each_scalar!(slot_enum);

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

    /// The zero of scalar `s`.
    pub(crate) fn zero_scalar(s: Scalar) -> Slot {
        macro_rules! zero {
            ($t:ty, $v:ident) => {
                Slot::$v(<$t>::default())
            };
        }
        with_scalar!(s, zero)
    }
}
