//! `skillid` and `skillid32`.

use super::value_wire;

/// A skill id packed in 64 bits (`skillid`). The raw bits are kept; the
/// accessors follow the JS reference's reader:
///
/// - `type`: bits 28..32; `npc`: bit 32; `reserved`: bits 33.. (31 bits);
/// - for an NPC skill of type 1, `id` is bits 0..16 and `huntingZoneId` bits
///   16..28; otherwise `id` is bits 0..28 and `huntingZoneId` is 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SkillId(pub u64);

impl SkillId {
    /// Packs the fields as the JS reference's writer does (bits of `reserved`
    /// beyond the first are dropped).
    pub fn new(id: u32, skill_type: u8, npc: bool, hunting_zone_id: u32, reserved: u32) -> Self {
        let has_zone = npc && skill_type == 1;
        let id_mask: u64 = if has_zone { 0xffff } else { 0xfff_ffff };
        let zone = if has_zone {
            (u64::from(hunting_zone_id) & 0xfff) << 16
        } else {
            0
        };
        SkillId(
            (u64::from(id) & id_mask)
                | zone
                | (u64::from(skill_type) & 0xf) << 28
                | u64::from(npc) << 32
                | (u64::from(reserved) & 1) << 33,
        )
    }
    fn has_zone(self) -> bool {
        self.npc() && self.skill_type() == 1
    }
    /// The skill type (bits 28..32).
    pub fn skill_type(self) -> u8 {
        ((self.0 >> 28) & 0xf) as u8
    }
    /// Whether this is an NPC skill (bit 32).
    pub fn npc(self) -> bool {
        self.0 >> 32 & 1 == 1
    }
    /// The skill id.
    pub fn id(self) -> u32 {
        if self.has_zone() {
            (self.0 & 0xffff) as u32
        } else {
            (self.0 & 0xfff_ffff) as u32
        }
    }
    /// The hunting zone of an NPC skill of type 1, else 0.
    pub fn hunting_zone_id(self) -> u32 {
        if self.has_zone() {
            ((self.0 >> 16) & 0xfff) as u32
        } else {
            0
        }
    }
    /// Bits 33.. (31 bits).
    pub fn reserved(self) -> u32 {
        ((self.0 >> 33) & 0x7fff_ffff) as u32
    }

    /// From the 8 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 8]) -> Self {
        SkillId(u64::from_le_bytes(b))
    }

    /// The 8 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 8] {
        self.0.to_le_bytes()
    }
}

value_wire!(SkillId, 8);

/// A skill id packed in 32 bits (`skillid32`). The raw bits are kept:
///
/// - `type`: bits 26..30; `npc`: bit 30; `reserved`: bit 31 (read as
///   2147483647 when set, like the JS reference's signed shift);
/// - for an NPC skill of type 1, `id` is bits 0..16 and `huntingZoneId` bits
///   16..26; otherwise `id` is bits 0..26.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SkillId32(pub u32);

impl SkillId32 {
    /// Packs the fields as the JS reference's writer does.
    pub fn new(id: u32, skill_type: u8, npc: bool, hunting_zone_id: u32, reserved: u32) -> Self {
        let has_zone = npc && skill_type == 1;
        let id_mask: u32 = if has_zone { 0xffff } else { 0x3ff_ffff };
        let zone = if has_zone {
            (hunting_zone_id & 0x3ff) << 16
        } else {
            0
        };
        SkillId32(
            (id & id_mask)
                | zone
                | (u32::from(skill_type) & 0xf) << 26
                | u32::from(npc) << 30
                | (reserved & 1) << 31,
        )
    }
    fn has_zone(self) -> bool {
        self.npc() && self.skill_type() == 1
    }
    /// The skill type (bits 26..30).
    pub fn skill_type(self) -> u8 {
        ((self.0 >> 26) & 0xf) as u8
    }
    /// Whether this is an NPC skill (bit 30).
    pub fn npc(self) -> bool {
        self.0 >> 30 & 1 == 1
    }
    /// The skill id.
    pub fn id(self) -> u32 {
        if self.has_zone() {
            self.0 & 0xffff
        } else {
            self.0 & 0x3ff_ffff
        }
    }
    /// The hunting zone of an NPC skill of type 1, else 0.
    pub fn hunting_zone_id(self) -> u32 {
        if self.has_zone() {
            (self.0 >> 16) & 0x3ff
        } else {
            0
        }
    }
    /// Bit 31, as the JS reference reads it: 2147483647 when set, else 0.
    pub fn reserved(self) -> u32 {
        if self.0 >> 31 == 1 { 0x7fff_ffff } else { 0 }
    }

    /// From the 4 wire bytes.
    #[inline]
    pub fn from_le_bytes(b: [u8; 4]) -> Self {
        SkillId32(u32::from_le_bytes(b))
    }

    /// The 4 wire bytes.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }
}

value_wire!(SkillId32, 4);
