//! `S_CHAT.4` by hand: 23 bytes of fixed fields and two strings.

use tera_data::{Str, Visitor};

use super::wire::{Input, Output, Result, le, set};

/// The fixed run: two string offsets, then the fixed fields.
const FIXED: usize = 27;

pub struct SChat<'a> {
    pub channel: u32,
    pub game_id: u64,
    pub player_id: u32,
    pub server_id: u32,
    pub is_world_event_target: bool,
    pub gm: bool,
    pub founder: bool,
    pub name: &'a [u8],
    pub message: &'a [u8],
}

impl<'a> SChat<'a> {
    pub fn decode(packet: &'a [u8]) -> Result<Self> {
        let mut input = Input::packet(packet)?;
        let b: &[u8; FIXED] = input.fixed(4)?;
        let name = input.string(usize::from(le!(b, 0, u16)))?;
        let message = input.string(usize::from(le!(b, 2, u16)))?;
        Ok(SChat {
            channel: le!(b, 4, u32),
            game_id: le!(b, 8, u64),
            player_id: le!(b, 16, u32),
            server_id: le!(b, 20, u32),
            is_world_event_target: b[24] != 0,
            gm: b[25] != 0,
            founder: b[26] != 0,
            name,
            message,
        })
    }

    pub fn encoded_len(&self) -> usize {
        4 + FIXED + self.name.len() + 2 + self.message.len() + 2
    }

    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len();
        let mut out = Output::packet(buf, len)?;
        let b: &mut [u8; FIXED] = out.fixed();
        set!(b, 0, 0u32);
        set!(b, 4, self.channel);
        set!(b, 8, self.game_id);
        set!(b, 16, self.player_id);
        set!(b, 20, self.server_id);
        b[24] = u8::from(self.is_world_event_target);
        b[25] = u8::from(self.gm);
        b[26] = u8::from(self.founder);
        out.string(4, self.name);
        out.string(6, self.message);
        Ok(len)
    }

    /// Every field, in definition order.
    pub fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(u64::from(self.channel));
        v.unsigned(self.game_id);
        v.unsigned(u64::from(self.player_id));
        v.unsigned(u64::from(self.server_id));
        v.bool(self.is_world_event_target);
        v.bool(self.gm);
        v.bool(self.founder);
        v.str(&Str::from_utf16le(self.name));
        v.str(&Str::from_utf16le(self.message));
    }
}
