//! Value types: fixed-size fields with a meaning beyond their bits.
//!
//! Each keeps the raw wire bits, so that decoding and encoding again gives
//! back the same bytes, and offers typed accessors.

mod angle;
mod customize;
mod skill_id;
mod vec3;

pub use angle::Angle;
pub use customize::Customize;
pub use skill_id::{SkillId, SkillId32};
pub use vec3::{Vec3, Vec3fa};

/// Implements [`Codec`](crate::Codec) (and so `Wire`), [`Block`](crate::Block),
/// [`IntoOwned`](crate::IntoOwned) and the generated code's `Fixed` for a
/// value type with `from_le_bytes([u8; N])` and `to_le_bytes() -> [u8; N]`
/// methods.
macro_rules! value_wire {
    ($ty:ty, $n:expr) => {
        impl<'a> $crate::Codec<'a> for $ty {
            const FIXED_SIZE: Option<usize> = Some($n);

            #[inline]
            fn read_at(r: &mut $crate::Reader<'a>) -> $crate::Result<Self> {
                Ok(<$ty>::from_le_bytes(r.array::<$n>()?))
            }

            #[inline]
            fn byte_len(&self) -> usize {
                $n
            }

            #[inline]
            fn write_at(&self, w: &mut $crate::Writer<'_>) {
                w.put_array(self.to_le_bytes());
            }
        }

        impl<'a> $crate::Block<'a> for $ty {}

        impl $crate::IntoOwned for $ty {
            type Owned = $ty;
            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }

        impl $crate::wire::__private::Fixed for $ty {
            const SIZE: usize = $n;
            #[inline(always)]
            fn get(run: &[u8], at: usize) -> Self {
                <$ty>::from_le_bytes($crate::wire::__private::bytes_at::<$n>(run, at))
            }
            #[inline(always)]
            fn put(&self, run: &mut [u8], at: usize) {
                $crate::wire::__private::put_at::<$n>(run, at, self.to_le_bytes());
            }
        }
    };
}
pub(crate) use value_wire;

/// The JS reference's factor from int16 angle units to radians:
/// `1 / 0x8000 * PI`, computed in that order so that values match it bit for
/// bit.
pub const RADIANS_PER_UNIT: f64 = 1.0 / 32768.0 * core::f64::consts::PI;
