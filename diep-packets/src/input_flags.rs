//! The flags of the Input message (bitflags on the wire as `vu`).

use tera_packets::{Codec, Reader, Result, Visit, Visitor, Writer};

use crate::varint::{read_vu, vu_len, write_vu};

bitflags::bitflags! {
    /// The keys and modes of an Input message: bit i = flag i, on the wire
    /// as `vu`. Bits this build does not name are kept as they came.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct InputFlags: u32 {
        /// The left mouse button (fire).
        const LEFT_CLICK = 1 << 0;
        /// Up.
        const UP = 1 << 1;
        /// Left.
        const LEFT = 1 << 2;
        /// Down.
        const DOWN = 1 << 3;
        /// Right.
        const RIGHT = 1 << 4;
        /// God mode (sandbox).
        const GOD_MODE = 1 << 5;
        /// Suicide.
        const SUICIDE = 1 << 6;
        /// The right mouse button.
        const RIGHT_CLICK = 1 << 7;
        /// Level up (sandbox).
        const LEVEL_UP = 1 << 8;
        /// A gamepad is used: the joystick's x and y follow the mouse.
        const GAMEPAD = 1 << 9;
        /// Switch tank (sandbox).
        const SWITCH_TANK = 1 << 10;
        /// An ad blocker is on.
        const ADBLOCK = 1 << 11;
        // Any other bit is kept.
        const _ = !0;
    }
}

impl<'a> Codec<'a> for InputFlags {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline(always)]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_vu(r).map(InputFlags::from_bits_retain)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(self.bits())
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, self.bits());
    }
}

impl Visit for InputFlags {
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(u64::from(self.bits()));
    }
}

crate::owned_is_self!(InputFlags);
