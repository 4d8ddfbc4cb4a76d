//! `customize`.

use super::value_wire;

/// A character's appearance (`customize`): eight bytes, low byte first:
/// unk, skinColor, faceStyle, faceDecal, hairStyle, hairColor, voice, tattoos.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Customize(pub u64);

impl Customize {
    /// From the eight byte fields, in wire order.
    pub fn from_fields(bytes: [u8; 8]) -> Self {
        Customize(u64::from_le_bytes(bytes))
    }
    /// The eight byte fields, in wire order.
    pub fn fields(self) -> [u8; 8] {
        self.0.to_le_bytes()
    }
    /// Byte 0.
    pub fn unk(self) -> u8 {
        self.0 as u8
    }
    /// Byte 1.
    pub fn skin_color(self) -> u8 {
        (self.0 >> 8) as u8
    }
    /// Byte 2.
    pub fn face_style(self) -> u8 {
        (self.0 >> 16) as u8
    }
    /// Byte 3.
    pub fn face_decal(self) -> u8 {
        (self.0 >> 24) as u8
    }
    /// Byte 4.
    pub fn hair_style(self) -> u8 {
        (self.0 >> 32) as u8
    }
    /// Byte 5.
    pub fn hair_color(self) -> u8 {
        (self.0 >> 40) as u8
    }
    /// Byte 6.
    pub fn voice(self) -> u8 {
        (self.0 >> 48) as u8
    }
    /// Byte 7.
    pub fn tattoos(self) -> u8 {
        (self.0 >> 56) as u8
    }

    /// From the 8 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 8]) -> Self {
        Customize(u64::from_le_bytes(b))
    }

    /// The 8 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 8] {
        self.0.to_le_bytes()
    }
}

value_wire!(Customize, 8);
