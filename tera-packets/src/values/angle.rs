//! `angle`.

use super::{RADIANS_PER_UNIT, value_wire};

/// An angle carried as `i16` units of pi / 0x8000 (`angle`). The raw value is
/// kept; conversion from radians rounds to the nearest unit, so that every
/// raw value survives a trip through radians (the JS reference truncates and
/// loses eight of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Angle(pub i16);

impl Angle {
    /// The angle in radians: `raw * (1 / 0x8000 * PI)`, like the JS reference.
    pub fn to_radians(self) -> f64 {
        f64::from(self.0) * RADIANS_PER_UNIT
    }

    /// The nearest angle to `radians` (saturating; NaN gives 0).
    pub fn from_radians(radians: f64) -> Self {
        Angle((radians / RADIANS_PER_UNIT).round() as i16)
    }

    /// From the 2 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 2]) -> Self {
        Angle(i16::from_le_bytes(b))
    }

    /// The 2 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 2] {
        self.0.to_le_bytes()
    }
}

value_wire!(Angle, 2);
