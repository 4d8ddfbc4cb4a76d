//! `vec3` and `vec3fa`.

use super::{RADIANS_PER_UNIT, value_wire};

/// A position: three `f32` (`vec3`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Vec3 {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Z.
    pub z: f32,
}

impl Vec3 {
    /// A vector from its coordinates.
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vec3 { x, y, z }
    }

    /// From the 12 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 12]) -> Self {
        let [x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3] = b;
        Vec3 {
            x: f32::from_le_bytes([x0, x1, x2, x3]),
            y: f32::from_le_bytes([y0, y1, y2, y3]),
            z: f32::from_le_bytes([z0, z1, z2, z3]),
        }
    }

    /// The 12 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 12] {
        let [x0, x1, x2, x3] = self.x.to_le_bytes();
        let [y0, y1, y2, y3] = self.y.to_le_bytes();
        let [z0, z1, z2, z3] = self.z.to_le_bytes();
        [x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3]
    }
}

value_wire!(Vec3, 12);

/// Three angles carried as `f32` in int16-angle units (`vec3fa`): radians =
/// raw * pi / 0x8000. The raw floats are kept, so nothing is lost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Vec3fa {
    /// The raw values, in angle units.
    pub raw: Vec3,
}

impl Vec3fa {
    /// From raw angle units.
    pub const fn from_raw(raw: Vec3) -> Self {
        Vec3fa { raw }
    }

    /// The three angles in radians, as the JS reference computes them.
    pub fn to_radians(self) -> [f64; 3] {
        [self.raw.x, self.raw.y, self.raw.z].map(|v| f64::from(v) * RADIANS_PER_UNIT)
    }

    /// From three angles in radians, as the JS reference writes them.
    pub fn from_radians(radians: [f64; 3]) -> Self {
        let [x, y, z] = radians.map(|r| (r * (1.0 / RADIANS_PER_UNIT)) as f32);
        Vec3fa {
            raw: Vec3 { x, y, z },
        }
    }

    /// From the 12 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 12]) -> Self {
        Vec3fa {
            raw: Vec3::from_le_bytes(b),
        }
    }

    /// The 12 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 12] {
        self.raw.to_le_bytes()
    }
}

value_wire!(Vec3fa, 12);
