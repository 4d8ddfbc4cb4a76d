//! `vf` (an f32's bits, byte-swapped, through `vi`) and `fixed64` (1/64
//! steps through `vi`).

use tera_packets::{Codec, Reader, Result, Visit, Visitor, Writer};

use crate::varint::{read_vu, unzigzag, vu_len, write_vu, zigzag};

/// An `f32` on the wire as `vf`: its bits byte-swapped, as an `i32`
/// through `vi`. Bit-exact: -0.0, NaN payloads and infinities survive, and
/// two values are equal when their bits are.
#[derive(Debug, Clone, Copy, Default)]
pub struct Vf(pub f32);

impl Vf {
    /// The zigzag-coded `vu` that carries `self`.
    #[inline]
    const fn wire(self) -> u32 {
        zigzag(self.0.to_bits().swap_bytes() as i32)
    }
}

impl PartialEq for Vf {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Vf {}

impl<'a> Codec<'a> for Vf {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline(always)]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        let n = read_vu(r)?;
        Ok(Vf(f32::from_bits((unzigzag(n) as u32).swap_bytes())))
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(self.wire())
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, self.wire());
    }
}

impl From<f32> for Vf {
    fn from(v: f32) -> Self {
        Vf(v)
    }
}

/// A number in 1/64 steps on the wire as `vi(trunc(x * 64))` (`fixed64`:
/// angles and border widths). Holds the steps, so nothing is lost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fixed64 {
    /// The value in 1/64 steps.
    pub steps: i32,
}

impl Fixed64 {
    /// The value `steps / 64`.
    pub const fn from_steps(steps: i32) -> Self {
        Fixed64 { steps }
    }

    /// The number, truncated toward zero to 1/64 steps as diep's writer
    /// does (saturating at the ends of `i32`; NaN is 0).
    pub fn from_f64(x: f64) -> Self {
        Fixed64 {
            steps: (x * 64.0).trunc() as i32,
        }
    }

    /// The number (exact: every `i32 / 64` is an `f64`).
    pub fn to_f64(self) -> f64 {
        f64::from(self.steps) / 64.0
    }
}

impl<'a> Codec<'a> for Fixed64 {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline(always)]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_vu(r).map(|n| Fixed64::from_steps(unzigzag(n)))
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(zigzag(self.steps))
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, zigzag(self.steps));
    }
}

impl Visit for Vf {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.float(f64::from(self.0));
    }
}

impl Visit for Fixed64 {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.float(self.to_f64());
    }
}

crate::owned_is_self!(Vf, Fixed64);

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes<'a, T: Codec<'a>>(v: T) -> Vec<u8> {
        let mut buf = vec![0; v.byte_len()];
        v.write_at(&mut Writer::new(&mut buf, 0));
        buf
    }

    #[test]
    fn worked_examples() {
        assert_eq!(bytes(Vf(0.0)), [0x00]);
        assert_eq!(bytes(Vf(-0.0)), [0x80, 0x02]);
        assert_eq!(bytes(Vf(1.0)), [0xfe, 0x80, 0x04]);
        assert_eq!(bytes(Vf(2.0)), [0x80, 0x01]);
    }

    #[test]
    fn special_floats_survive() {
        for bits in [
            0x8000_0000u32,
            0x7fc0_0001,
            0xffa0_0000,
            0x7f80_0000,
            0xff80_0000,
        ] {
            let b = bytes(Vf(f32::from_bits(bits)));
            let back = Vf::read_at(&mut Reader::at(&b, 0)).unwrap();
            assert_eq!(back.0.to_bits(), bits);
        }
    }

    #[test]
    fn fixed64_truncates_toward_zero() {
        assert_eq!(Fixed64::from_f64(1.999).steps, 127);
        assert_eq!(Fixed64::from_f64(-1.999).steps, -127);
        assert_eq!(Fixed64::from_f64(-13289.640625).to_f64(), -13289.640625);
    }
}
