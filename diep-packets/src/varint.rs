//! `vu` (u32 as LEB128) and `vi` (i32 zigzag-coded, then `vu`).

use tera_packets::{Codec, Error, ErrorKind, Reader, Result, Visit, Visitor, Writer};

use crate::error::DiepErrorKind;

/// The most bytes a `vu` takes.
pub const MAX_VARINT_LEN: usize = 5;

/// Reads a `vu` at the cursor: 7 bits a byte, low first, bit 7 = more
/// follows. At most 5 bytes, the 5th at most `0x0f`. Errors point at the
/// varint's first byte, except the two about its 5th byte.
// Always inlined: every field of every message reads through it, and a call
// per field costs more than the read (the Input bench, out of line: +65%).
#[inline(always)]
pub fn read_vu(r: &mut Reader<'_>) -> Result<u32> {
    let start = r.pos();
    let (window, available) = window_at(r.buf(), start);
    let (value, len) = decode_window(window, start)?;
    if len > available {
        return Err(Error::new(ErrorKind::UnexpectedEnd, start));
    }
    r.set_pos(start + len);
    Ok(value)
}

/// The 8 bytes at `start` as a little-endian `u64` (one load), and how
/// many of them are in `buf`. Past the end the window holds zeros, which
/// end a varint: one that needs such a byte runs past the end. Near the end
/// the window is the message's last 8 bytes, shifted (no byte copies, whose
/// stores a load of the window would wait for).
#[inline(always)]
fn window_at(buf: &[u8], start: usize) -> (u64, usize) {
    let load = |at: usize| {
        buf.get(at..at.wrapping_add(8))
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_le_bytes)
    };
    if let Some(w) = load(start) {
        return (w, 8);
    }
    let available = buf.len().saturating_sub(start);
    let end = buf.len().wrapping_sub(8);
    match load(end) {
        Some(w) if available > 0 => (w >> (8 * (8 - available)), available),
        _ => {
            // Messages shorter than 8 bytes.
            let mut w = 0u64;
            for (i, &b) in buf.get(start..).unwrap_or_default().iter().enumerate() {
                w |= u64::from(b) << (8 * i);
            }
            (w, available)
        }
    }
}

/// The value and length of the varint in the low bytes of `w`.
#[inline(always)]
fn decode_window(w: u64, start: usize) -> Result<(u32, usize)> {
    let byte = |i: u32| (w >> (8 * i)) as u8;
    let mut v = 0u32;
    for i in 0..4u32 {
        let b = byte(i);
        v |= u32::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return Ok((v, i as usize + 1));
        }
    }
    let b4 = byte(4);
    if b4 > 0x0f {
        return Err(fifth_byte_error(b4, start + 4));
    }
    Ok((v | (u32::from(b4) << 28), 5))
}

/// The error of a 5th byte above `0x0f`.
#[cold]
fn fifth_byte_error(byte: u8, at: usize) -> Error {
    if byte & 0x80 != 0 {
        DiepErrorKind::OverlongVarint.at(at)
    } else {
        DiepErrorKind::VarintOverflow { byte }.at(at)
    }
}

/// The bytes `vu(value)` takes: 1 to 5.
#[inline]
pub const fn vu_len(value: u32) -> usize {
    // 1 + floor(bits / 7), bits = 32 - leading zeros (at least 1).
    let bits = 32 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Writes `vu(value)` at the cursor (the shortest form).
#[inline]
pub fn write_vu(w: &mut Writer<'_>, value: u32) {
    if value < 0x80 {
        w.put_array([value as u8]);
        return;
    }
    let len = vu_len(value);
    if let Some(dst) = w.take(len) {
        let mut v = value;
        for (i, byte) in dst.iter_mut().enumerate() {
            let more = if i + 1 < len { 0x80 } else { 0 };
            *byte = (v & 0x7f) as u8 | more;
            v >>= 7;
        }
    }
}

/// Zigzag: 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...
#[inline]
pub const fn zigzag(n: i32) -> u32 {
    ((n << 1) ^ (n >> 31)) as u32
}

/// The inverse of [`zigzag`].
#[inline]
pub const fn unzigzag(n: u32) -> i32 {
    ((n >> 1) as i32) ^ -((n & 1) as i32)
}

/// A `u32` on the wire as `vu` (LEB128, 1-5 bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vu(pub u32);

/// An `i32` on the wire as `vi`: zigzag-coded, then `vu`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vi(pub i32);

impl<'a> Codec<'a> for Vu {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline(always)]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_vu(r).map(Vu)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(self.0)
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, self.0);
    }
}

impl<'a> Codec<'a> for Vi {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline(always)]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_vu(r).map(|n| Vi(unzigzag(n)))
    }

    #[inline]
    fn byte_len(&self) -> usize {
        vu_len(zigzag(self.0))
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        write_vu(w, zigzag(self.0));
    }
}

impl From<u32> for Vu {
    fn from(v: u32) -> Self {
        Vu(v)
    }
}

impl From<i32> for Vi {
    fn from(v: i32) -> Self {
        Vi(v)
    }
}

impl Visit for Vu {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(u64::from(self.0));
    }
}

impl Visit for Vi {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.signed(i64::from(self.0));
    }
}

crate::owned_is_self!(Vu, Vi);

#[cfg(test)]
mod tests {
    use super::*;

    fn vu_bytes(v: u32) -> Vec<u8> {
        let mut buf = vec![0; vu_len(v)];
        let mut w = Writer::new(&mut buf, 0);
        write_vu(&mut w, v);
        assert_eq!(w.pos(), buf.len());
        buf
    }

    #[test]
    fn worked_examples() {
        assert_eq!(vu_bytes(0), [0x00]);
        assert_eq!(vu_bytes(300), [0xac, 0x02]);
        assert_eq!(vu_bytes(u32::MAX), [0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(vu_bytes(zigzag(1)), [0x02]);
        assert_eq!(vu_bytes(zigzag(-1)), [0x01]);
        assert_eq!(vu_bytes(zigzag(-300)), [0xd7, 0x04]);
        assert_eq!(unzigzag(zigzag(i32::MIN)), i32::MIN);
    }

    #[test]
    fn lengths_at_the_edges() {
        for (v, len) in [
            (0, 1),
            (127, 1),
            (128, 2),
            (16383, 2),
            (16384, 3),
            (u32::MAX, 5),
        ] {
            assert_eq!(vu_len(v), len, "{v}");
        }
    }

    #[test]
    fn strict_reads() {
        let read = |b: &[u8]| read_vu(&mut Reader::at(b, 0)).map_err(|e| (e.kind(), e.offset()));
        assert_eq!(read(&[0xff, 0xff, 0xff, 0xff, 0x0f]), Ok(u32::MAX));
        assert_eq!(
            read(&[0xff, 0xff, 0xff, 0xff, 0x10]),
            Err((DiepErrorKind::VarintOverflow { byte: 0x10 }.into(), 4))
        );
        assert_eq!(
            read(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err((DiepErrorKind::OverlongVarint.into(), 4))
        );
        assert_eq!(read(&[0x80, 0x80]), Err((ErrorKind::UnexpectedEnd, 0)));
        assert_eq!(read(&[]), Err((ErrorKind::UnexpectedEnd, 0)));
    }
}
