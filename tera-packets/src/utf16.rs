//! UTF-16LE <-> UTF-8 transcoding with an ASCII fast path.
//!
//! Game strings are mostly ASCII names and chat; eight bytes (four code
//! units) at a time are checked for ASCII with one mask and narrowed without
//! going through `char`.

/// Mask of the bits that are zero in four little-endian ASCII code units.
const NON_ASCII_UNITS: u64 = 0xff80_ff80_ff80_ff80;

/// Appends the UTF-8 of UTF-16LE `bytes` (even length) to `out`, replacing
/// unpaired surrogates with U+FFFD.
pub fn decode_lossy_into(bytes: &[u8], out: &mut String) {
    out.reserve(bytes.len() / 2);
    let mut done = 0;
    for chunk in bytes.chunks_exact(8) {
        let Ok(arr) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        if u64::from_le_bytes(arr) & NON_ASCII_UNITS != 0 {
            break;
        }
        for b in [arr[0], arr[2], arr[4], arr[6]] {
            out.push(char::from(b));
        }
        done += 8;
    }
    // The rest (a non-ASCII chunk onwards, or the short tail) unit by unit.
    let rest = bytes.get(done..).unwrap_or_default();
    out.extend(char::decode_utf16(units(rest)).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
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
    out.reserve(s.len() * 2);
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let ascii_run = bytes
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| b.is_ascii())
            .count();
        for &b in bytes.get(i..i + ascii_run).unwrap_or_default() {
            out.push(b);
            out.push(0);
        }
        i += ascii_run;
        let Some(tail) = s.get(i..) else { return };
        let Some(c) = tail.chars().next() else { return };
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
