//! UTF-16LE <-> UTF-8 transcoding with an ASCII fast path.
//!
//! Game strings are mostly ASCII names and chat: eight bytes at a time are
//! checked for ASCII with one mask and narrowed (or widened) with shifts,
//! without going through `char`; other text falls back to one code point at
//! a time and returns to the fast path after it. The output is sized up
//! front, so a string costs at most one allocation (none when decoded into
//! a `String` with room).

/// Mask of the bits that are zero in four little-endian ASCII code units.
const NON_ASCII_UNITS: u64 = 0xff80_ff80_ff80_ff80;
/// Mask of the bits that are zero in eight ASCII bytes.
const NON_ASCII_BYTES: u64 = 0x8080_8080_8080_8080;

/// The 8 bytes at `at`, if there are 8.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk = bytes.get(at..at.wrapping_add(8))?;
    Some(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?))
}

/// The code unit at byte `at`, if there is one.
#[inline(always)]
fn unit_at(bytes: &[u8], at: usize) -> Option<u16> {
    match bytes.get(at..at.wrapping_add(2))? {
        &[lo, hi] => Some(u16::from_le_bytes([lo, hi])),
        _ => None,
    }
}

/// The byte offset of the first NUL code unit of UTF-16LE `bytes` (units
/// at even offsets), if there is one.
///
/// Eight bytes at a time: `(w - 0x0001..) & !w & 0x8000..` flags the NUL
/// units of a word; a borrow can only flag units above a NUL one, so the
/// lowest flag is the first NUL.
#[inline]
pub fn find_nul(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0001_0001_0001_0001;
    const HIGHS: u64 = 0x8000_8000_8000_8000;
    let (words, rest) = bytes.as_chunks::<8>();
    for (k, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word);
        let nul = w.wrapping_sub(ONES) & !w & HIGHS;
        if nul != 0 {
            return Some(8 * k + (nul.trailing_zeros() / 16 * 2) as usize);
        }
    }
    let (units, _) = rest.as_chunks::<2>();
    units
        .iter()
        .position(|u| *u == [0, 0])
        .map(|k| 8 * words.len() + 2 * k)
}

/// Whether every code unit of UTF-16LE `bytes` is ASCII: eight bytes at a
/// time with one mask.
#[inline]
fn all_ascii_units(bytes: &[u8]) -> bool {
    let (words, rest) = bytes.as_chunks::<8>();
    let seen = words
        .iter()
        .fold(0, |seen, w| seen | u64::from_le_bytes(*w));
    let (units, _) = rest.as_chunks::<2>();
    seen & NON_ASCII_UNITS == 0 && units.iter().all(|u| matches!(u, [0..0x80, 0]))
}

/// The UTF-8 of UTF-16LE `bytes`, with U+FFFD for unpaired surrogates (an
/// odd trailing byte is ignored).
#[allow(unsafe_code)]
#[inline]
pub fn decode_lossy(bytes: &[u8]) -> String {
    // A new `String` of the right size, so one allocation: a word-at-a-time
    // check first (cheaper than the reallocation it saves on other text),
    // then the narrowing pass of `decode_lossy_into` without its check.
    let (units, _) = bytes.as_chunks::<2>();
    if !all_ascii_units(bytes) {
        let mut out = String::with_capacity(units.len() * 3);
        push_mixed(bytes, &mut out);
        return out;
    }
    let mut ascii = Vec::with_capacity(units.len());
    for (dst, unit) in ascii.spare_capacity_mut().iter_mut().zip(units) {
        dst.write(u16::from_le_bytes(*unit) as u8);
    }
    // SAFETY: the capacity is `units.len()` and the loop initialised that
    // many bytes, each the low byte of a unit `all_ascii_units` found below
    // 0x80: ASCII, which is UTF-8.
    unsafe {
        ascii.set_len(units.len());
        String::from_utf8_unchecked(ascii)
    }
}

/// Appends the UTF-8 of UTF-16LE `bytes` to `out`, replacing unpaired
/// surrogates with U+FFFD (an odd trailing byte is ignored). Allocates
/// nothing when `out` has room for the text: `bytes.len() / 2` bytes for
/// ASCII, `bytes.len() / 2 * 3` otherwise.
#[allow(unsafe_code)]
#[inline]
pub fn decode_lossy_into(bytes: &[u8], out: &mut String) {
    // The common case, ASCII: the low byte of every unit, written into the
    // reserved room in one pass that also ORs the units together, and is
    // kept only if none has a bit above 0x7f. `u16 as u8`, not the first
    // byte of each pair: LLVM turns the truncation of whole units into a
    // mask and a pack, where picking every other byte becomes a byte
    // gather. `String::push` would check capacity per byte, `from_utf8`
    // take another pass.
    let (units, _) = bytes.as_chunks::<2>();
    // SAFETY: the length is only moved over bytes the loop wrote, and only
    // when they are all ASCII, which is UTF-8.
    let vec = unsafe { out.as_mut_vec() };
    vec.reserve(units.len());
    let len = vec.len();
    let mut seen = 0u16;
    for (dst, unit) in vec.spare_capacity_mut().iter_mut().zip(units) {
        let unit = u16::from_le_bytes(*unit);
        seen |= unit;
        dst.write(unit as u8);
    }
    if seen < 0x80 {
        // SAFETY: `reserve` made room for `units.len()` bytes after `len`,
        // and the loop initialised all of them with ASCII.
        unsafe { vec.set_len(len + units.len()) };
    } else {
        push_mixed(bytes, out);
    }
}

/// `decode_lossy_into` of text that is not all ASCII: ASCII runs four
/// units at a time, the rest one code point at a time, pushed as `char`s
/// so that no UTF-8 check is needed afterwards.
fn push_mixed(bytes: &[u8], out: &mut String) {
    // A unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is
    // 4): one reservation.
    out.reserve(bytes.len() / 2 * 3);
    let mut i = 0;
    loop {
        // Four ASCII units.
        while let Some(w) = word_at(bytes, i) {
            if w & NON_ASCII_UNITS != 0 {
                break;
            }
            for shift in [0, 16, 32, 48] {
                out.push(char::from((w >> shift) as u8));
            }
            i += 8;
        }
        let Some(unit) = unit_at(bytes, i) else { break };
        i += 2;
        let c = match unit {
            0xd800..=0xdbff => match unit_at(bytes, i) {
                Some(low @ 0xdc00..=0xdfff) => {
                    i += 2;
                    let cp =
                        0x1_0000 + ((u32::from(unit) - 0xd800) << 10) + (u32::from(low) - 0xdc00);
                    char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER)
                }
                _ => char::REPLACEMENT_CHARACTER,
            },
            0xdc00..=0xdfff => char::REPLACEMENT_CHARACTER,
            _ => char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER),
        };
        out.push(c);
    }
}

/// The code units of UTF-16LE `bytes` (a trailing odd byte is ignored).
pub fn units(bytes: &[u8]) -> impl Iterator<Item = u16> + Clone + '_ {
    bytes.chunks_exact(2).map(|c| {
        u16::from_le_bytes([
            c.first().copied().unwrap_or(0),
            c.get(1).copied().unwrap_or(0),
        ])
    })
}

/// Appends the UTF-16LE encoding of `s` to `out`.
pub fn encode_into(s: &str, out: &mut Vec<u8>) {
    // A UTF-8 sequence of n bytes is at most 2n bytes of UTF-16: one
    // reservation is enough.
    out.reserve(2 * s.len());
    let bytes = s.as_bytes();
    let mut i = 0;
    loop {
        // Eight ASCII bytes: widen each to a unit.
        while let Some(w) = word_at(bytes, i) {
            if w & NON_ASCII_BYTES != 0 {
                break;
            }
            let spread = |w: u64| {
                let w = (w | (w << 16)) & 0x0000_ffff_0000_ffff;
                (w | (w << 8)) & 0x00ff_00ff_00ff_00ff
            };
            out.extend_from_slice(&spread(w & 0xffff_ffff).to_le_bytes());
            out.extend_from_slice(&spread(w >> 32).to_le_bytes());
            i += 8;
        }
        let Some(&b) = bytes.get(i) else { break };
        if b.is_ascii() {
            out.extend_from_slice(&[b, 0]);
            i += 1;
            continue;
        }
        let Some(c) = s.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        let mut buf = [0u16; 2];
        for unit in c.encode_utf16(&mut buf) {
            out.extend_from_slice(&unit.to_le_bytes());
        }
        i += c.len_utf8();
    }
}

/// The number of UTF-16 code units of `s`.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// Texts that cross the 8-byte chunks in every way: ASCII runs of each
    /// length around non-ASCII characters of 2, 3 and 4 UTF-8 bytes.
    fn texts() -> Vec<String> {
        let mut texts = vec![String::new()];
        for run in 0..12 {
            let ascii: String = "abcdefghijklmnop".chars().take(run).collect();
            for other in ["", "é", "한", "😀", "\u{7f}", "\u{80}", "\u{ffff}"] {
                texts.push(format!("{ascii}{other}{ascii}"));
                texts.push(format!("{other}{ascii}{other}"));
            }
        }
        texts
    }

    #[test]
    fn round_trips_like_std() {
        for text in texts() {
            let mut enc = Vec::new();
            encode_into(&text, &mut enc);
            assert_eq!(enc, utf16le(&text), "encode {text:?}");
            assert_eq!(decode_lossy(&enc), text, "decode {text:?}");
        }
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        // A lone high surrogate before ASCII, a lone low one, a high one at
        // the end, and a reversed pair, inside and across 8-byte chunks.
        let units: [&[u16]; 4] = [
            &[0xd800, 0x41, 0x42, 0x43, 0x44, 0x45],
            &[0x41, 0xdc00, 0x42],
            &[0x41, 0x42, 0x43, 0xd83d],
            &[0xde00, 0xd83d, 0x41],
        ];
        for units in units {
            let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let expected: String = char::decode_utf16(units.iter().copied())
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect();
            assert_eq!(decode_lossy(&bytes), expected, "{units:x?}");
        }
    }

    #[test]
    fn decode_into_appends() {
        let mut s = String::from("x:");
        decode_lossy_into(&utf16le("héllo world"), &mut s);
        assert_eq!(s, "x:héllo world");
        let mut empty = String::new();
        decode_lossy_into(&utf16le("abc"), &mut empty);
        assert_eq!(empty, "abc");
    }

    #[test]
    fn decode_into_a_string_with_room_does_not_reallocate() {
        // Room for the text as documented: half the bytes for ASCII, three
        // halves for any text. The buffer stays where it is.
        for text in texts() {
            let bytes = utf16le(&text);
            let room = if text.is_ascii() {
                bytes.len() / 2
            } else {
                bytes.len() / 2 * 3
            };
            let mut out = String::from("x:");
            out.reserve_exact(room);
            let (at, capacity) = (out.as_ptr(), out.capacity());
            decode_lossy_into(&bytes, &mut out);
            assert_eq!(out, format!("x:{text}"));
            assert_eq!((out.as_ptr(), out.capacity()), (at, capacity), "{text:?}");
        }
    }

    #[test]
    fn find_nul_finds_the_first_nul_unit() {
        // Every position in and across 8-byte words, after units whose
        // bytes are zero on one side (0x0100, 0x0001) or borrow (0x0000
        // before 0x0001): only a whole zero unit at an even offset counts.
        for len in 0..24 {
            for filler in [0x0041u16, 0x0100, 0x0001, 0xffff] {
                let mut units = vec![filler; len];
                assert_eq!(find_nul(&units_le(&units)), None, "{len} x {filler:#x}");
                for at in 0..len {
                    units[at] = 0;
                    if at + 1 < len {
                        units[at + 1] = 1;
                    }
                    assert_eq!(
                        find_nul(&units_le(&units)),
                        Some(2 * at),
                        "{len} {at} {filler:#x}"
                    );
                    units = vec![filler; len];
                }
            }
        }
        // A zero byte pair straddling two units is not a NUL unit.
        assert_eq!(find_nul(&[0x41, 0x00, 0x00, 0x41, 0x00, 0x00]), Some(4));
        assert_eq!(find_nul(&[0x41, 0x00, 0x00]), None);
    }

    fn units_le(units: &[u16]) -> Vec<u8> {
        units.iter().flat_map(|u| u.to_le_bytes()).collect()
    }

    #[test]
    fn every_unit_decodes_like_std() {
        // Each unit alone, after ASCII and inside an 8-byte word of ASCII:
        // the ASCII check decides which path runs, so no unit may pass it
        // unless it is ASCII.
        for unit in 0..=u16::MAX {
            for units in [
                vec![unit],
                vec![0x41, unit],
                vec![0x41, 0x42, unit, 0x43, 0x44],
            ] {
                let expected: String = char::decode_utf16(units.iter().copied())
                    .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect();
                assert_eq!(decode_lossy(&units_le(&units)), expected, "{units:x?}");
            }
        }
    }

    #[test]
    fn odd_trailing_byte_is_ignored() {
        assert_eq!(decode_lossy(&[b'a', 0, b'b']), "a");
    }
}
