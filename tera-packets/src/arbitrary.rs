//! [`Arbitrary`] for the runtime types (feature `arbitrary`), so that
//! generated packets can derive it and property tests and fuzzers can build
//! random values of every packet.
//!
//! Every value made here encodes to bytes that decode back to it: strings
//! hold no NUL unit (it would end the string on the wire) but may hold
//! unpaired surrogates; value types are built from random wire bits, so
//! floats include NaN and infinities. Strings, bytes and arrays are owned.

use std::borrow::Cow;

use ::arbitrary::{Arbitrary, Result, Unstructured};

use crate::array::Array;
use crate::bytes::Bytes;
use crate::string::Str;
use crate::values::{Angle, Customize, SkillId, SkillId32, Vec3, Vec3fa};

impl<'u> Arbitrary<'u> for Str<'_> {
    /// Random UTF-16 code units except NUL, lone surrogates included.
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
        let mut bytes = Vec::new();
        for unit in u.arbitrary_iter::<u16>()? {
            let unit = unit?;
            if unit != 0 {
                bytes.extend_from_slice(&unit.to_le_bytes());
            }
        }
        Ok(Str::from_utf16le(bytes))
    }
}

impl<'u> Arbitrary<'u> for Bytes<'_> {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
        Ok(Bytes(Cow::Owned(Vec::<u8>::arbitrary(u)?)))
    }
}

impl<'u, T: Arbitrary<'u>> Arbitrary<'u> for Array<'_, T> {
    /// An owned array of random elements.
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
        Ok(Array::from(Vec::<T>::arbitrary(u)?))
    }
}

/// `Arbitrary` for value types from random wire bytes.
macro_rules! from_wire_bytes {
    ($($ty:ty => $n:expr),* $(,)?) => {$(
        impl<'u> Arbitrary<'u> for $ty {
            fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
                Ok(<$ty>::from_le_bytes(<[u8; $n]>::arbitrary(u)?))
            }

            fn size_hint(_depth: usize) -> (usize, Option<usize>) {
                ($n, Some($n))
            }
        }
    )*};
}

from_wire_bytes!(
    Vec3 => 12,
    Vec3fa => 12,
    Angle => 2,
    SkillId => 8,
    SkillId32 => 4,
    Customize => 8,
);
