//! Offsets that point back into the packet's own fixed block (its metadata
//! words and fixed fields) rather than at data after it: the data is read
//! where the offset says, as the JS reference reads it, once and losslessly;
//! the canonical re-encoding moves it after the block. Where the bytes there
//! cannot be the data, the error is exact.

use tera_packets::{Bytes, ErrorKind, Packet, Str};

/// `uint32 a; uint16 b; string s`: the offset of `s` at byte 4, `a` at 6,
/// `b` at 10, the text from 12.
#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "S_MIXED", version = 1)]
struct Mixed<'a> {
    a: u32,
    b: u16,
    s: Str<'a>,
}

/// `uint32 a; bytes d`: offset at 4, count at 6, `a` at 8, data from 12.
#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "S_BLOB", version = 1)]
struct Blob<'a> {
    a: u32,
    d: Bytes<'a>,
}

/// Decodes `$bytes` as `$ty`, checks that the canonical re-encoding
/// differs and round-trips, and gives the value.
macro_rules! decode_and_recode {
    ($ty:ident, $bytes:expr) => {{
        let value = $ty::decode($bytes).unwrap_or_else(|e| panic!("{e}"));
        let canonical = value.encode().unwrap();
        assert_ne!(canonical, $bytes, "the data moves after the block");
        let again = $ty::decode(&canonical).unwrap();
        assert_eq!(again, value);
        assert_eq!(again.encode().unwrap(), canonical);
        value
    }};
}

#[test]
fn string_inside_a_fixed_field() {
    // s -> 6: the units of `a` (41 00 41 00), then `b` = 0 ends the string.
    let bytes = [0x0c, 0, 0, 0, 6, 0, 0x41, 0, 0x41, 0, 0, 0];
    let v = decode_and_recode!(Mixed, &bytes);
    assert_eq!(v.s, "AA");
    assert_eq!((v.a, v.b), (0x0041_0041, 0));
}

#[test]
fn string_at_an_odd_offset_inside_a_fixed_field() {
    // s -> 7: units 0x4100 (from bytes 7, 8), then 00 00.
    let bytes = [0x0c, 0, 0, 0, 7, 0, 0x41, 0, 0x41, 0, 0, 0];
    let v = decode_and_recode!(Mixed, &bytes);
    assert_eq!(v.s.units().collect::<Vec<_>>(), [0x4100]);
}

#[test]
fn string_over_its_own_offset_word() {
    // s -> 4: its first unit is its own offset (4), then `a` = 0 ends it.
    let bytes = [0x0c, 0, 0, 0, 4, 0, 0, 0, 0, 0, 7, 0];
    let v = decode_and_recode!(Mixed, &bytes);
    assert_eq!(v.s.units().collect::<Vec<_>>(), [4]);
    assert_eq!(v.b, 7);
}

#[test]
fn string_inside_the_fixed_block_without_a_nul() {
    let bytes = [0x0c, 0, 0, 0, 6, 0, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41];
    let err = Mixed::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnterminatedString);
    assert_eq!((err.offset(), err.field()), (6, Some("s")));
}

#[test]
fn bytes_over_their_own_metadata_and_the_fixed_field() {
    // d -> 4, count 8: the offset, the count and `a`, all of the block.
    let bytes = [0x0c, 0, 0, 0, 4, 0, 8, 0, 1, 2, 3, 4];
    let v = decode_and_recode!(Blob, &bytes);
    assert_eq!(&*v.d, &bytes[4..12]);
    assert_eq!(v.a, 0x0403_0201);
}

#[test]
fn bytes_from_inside_the_block_past_the_end() {
    let bytes = [0x0c, 0, 0, 0, 8, 0, 5, 0, 1, 2, 3, 4];
    let err = Blob::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BytesOutOfBounds);
    assert_eq!((err.offset(), err.field()), (8, Some("d")));
}
