//! A catalogue of hand-made hostile packets: each one decodes to one exact
//! error (kind, byte offset, field), never a panic, and the error's Display
//! names the offset and the field.
//!
//! Offsets in the comments are absolute packet offsets (header included), in
//! decimal; the hex is little-endian.
//!
//! Every rejection also goes to `crate::also_rejects`, which the test crate
//! that includes this file defines: nothing in `tera-packets`' own test, the
//! dynamic decoder's verdict in `tera-dynamic`'s (the same catalogue, the
//! same decisions).

use std::fmt::Debug;

use tera_packets::{Array, Bytes, Error, ErrorKind, Packet, Str};

fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_hexdigit).collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {s:?}"
    );
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// Decodes `bytes` as `P`, expects exactly `kind` at `offset` in `field`,
/// and checks that the Display string names the offset and the field.
#[track_caller]
fn expect<'a, P: Packet<'a> + Debug>(
    bytes: &'a [u8],
    kind: ErrorKind,
    offset: usize,
    field: Option<&str>,
) -> Error {
    let err = match P::decode(bytes) {
        Ok(v) => panic!("expected {kind:?} at {offset}, decoded {v:?}"),
        Err(e) => e,
    };
    crate::also_rejects(P::NAME, bytes, &err);
    assert_eq!(err.kind(), kind, "kind of {err}");
    assert_eq!(err.offset(), offset, "offset of {err}");
    assert_eq!(err.field(), field, "field of {err}");
    let shown = err.to_string();
    assert!(
        shown.starts_with(&kind.to_string()),
        "{shown:?} does not start with the kind"
    );
    let place = match field {
        Some(f) => format!(" at byte {offset} (field `{f}`)"),
        None => format!(" at byte {offset}"),
    };
    assert!(
        shown.ends_with(&place),
        "{shown:?} does not end with {place:?}"
    );
    err
}

// ---------------------------------------------------------------------------
// The packet types (small defs, written by hand).

/// `uint16 a; int32 b`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_FIXED", version = 1)]
struct Fixed {
    a: u16,
    b: i32,
}

/// `string s`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_STR", version = 1)]
struct OneStr<'a> {
    s: Str<'a>,
}

/// `string playerName` (renamed: errors use the def's name)
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_RENAMED", version = 1)]
struct Renamed<'a> {
    #[tera(rename = "playerName")]
    player_name: Str<'a>,
}

/// `string a; string b`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_TWO_STR", version = 1)]
struct TwoStr<'a> {
    a: Str<'a>,
    b: Str<'a>,
}

/// `string command; string parameter; bool unk` (I_INPUT_COMMAND.1)
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_INPUT_COMMAND", version = 1)]
struct InputCommand<'a> {
    command: Str<'a>,
    parameter: Str<'a>,
    unk: bool,
}

/// `bytes d`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_BYTES", version = 1)]
struct OneBytes<'a> {
    d: Bytes<'a>,
}

/// `array list { int32 v }`: elements are `here, next, v` (8 bytes).
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_LIST", version = 1)]
struct List<'a> {
    list: Array<'a, V32>,
}

#[derive(Debug, Clone, PartialEq, tera_packets::Block)]
struct V32 {
    v: i32,
}

/// `array list { uint16 x }`: elements are `here, next, x` (6 bytes).
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_LIST16", version = 1)]
struct List16<'a> {
    list: Array<'a, V16>,
}

#[derive(Debug, Clone, PartialEq, tera_packets::Block)]
struct V16 {
    x: u16,
}

/// `array<string> list`: elements are `here, next, stroff` + text.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_STR_LIST", version = 1)]
struct StrList<'a> {
    list: Array<'a, Str<'a>>,
}

/// `array<bytes> list`: elements are `here, next, offset, count`.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_BYTES_LIST", version = 1)]
struct BytesList<'a> {
    list: Array<'a, Bytes<'a>>,
}

/// `array outer { array inner { uint16 x } }`: outer elements are
/// `here, next, inner count, inner offset` (8 bytes).
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_NESTED", version = 1)]
struct Nested<'a> {
    outer: Array<'a, Mid<'a>>,
}

#[derive(Debug, Clone, PartialEq, tera_packets::Block)]
struct Mid<'a> {
    inner: Array<'a, V16>,
}

/// `uint32 id; ref list; array list { byte v }` (explicit ref)
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "H_REF", version = 1)]
struct Ref<'a> {
    id: u32,
    #[tera(refs_before(list))]
    list: Array<'a, V8>,
}

#[derive(Debug, Clone, PartialEq, tera_packets::Block)]
struct V8 {
    v: u8,
}

// ---------------------------------------------------------------------------
// Header.

#[test]
fn missing_header_empty_slice() {
    let err = expect::<Fixed>(&[], ErrorKind::MissingHeader, 0, None);
    assert_eq!(
        err.to_string(),
        "packet is shorter than its 4-byte header at byte 0"
    );
}

#[test]
fn missing_header_three_bytes() {
    expect::<Fixed>(&[0x03], ErrorKind::MissingHeader, 0, None);
    expect::<Fixed>(&[0x03, 0x00, 0x00], ErrorKind::MissingHeader, 0, None);
    expect::<OneStr>(&[0x03, 0x00, 0x00], ErrorKind::MissingHeader, 0, None);
}

#[test]
fn header_length_larger_than_slice() {
    let bytes = hex("1400 0000 2211 feffffff"); // declares 20, has 10
    let err = expect::<Fixed>(
        &bytes,
        ErrorKind::LengthMismatch {
            declared: 20,
            actual: 10,
        },
        0,
        None,
    );
    assert_eq!(
        err.to_string(),
        "header declares 20 bytes but the packet has 10 at byte 0"
    );
}

#[test]
fn header_length_smaller_than_slice() {
    let bytes = hex("0800 0000 2211 feffffff"); // declares 8, has 10
    expect::<Fixed>(
        &bytes,
        ErrorKind::LengthMismatch {
            declared: 8,
            actual: 10,
        },
        0,
        None,
    );
    // A header alone that declares 0 bytes.
    expect::<Fixed>(
        &hex("0000 0000"),
        ErrorKind::LengthMismatch {
            declared: 0,
            actual: 4,
        },
        0,
        None,
    );
}

#[test]
fn slice_longer_than_u16_is_a_length_mismatch() {
    let mut bytes = vec![0u8; 70_000];
    bytes[0] = 0x70; // declares 0x1170 = 4464
    bytes[1] = 0x11;
    expect::<Fixed>(
        &bytes,
        ErrorKind::LengthMismatch {
            declared: 0x1170,
            actual: 70_000,
        },
        0,
        None,
    );
}

// ---------------------------------------------------------------------------
// Fixed fields and metadata slots.

#[test]
fn fixed_field_runs_past_the_end() {
    // `a` is whole, `b` (4 bytes at 6) has only 2.
    let bytes = hex("0800 0000 2211 feff");
    let err = expect::<Fixed>(&bytes, ErrorKind::UnexpectedEnd, 6, Some("b"));
    assert_eq!(
        err.to_string(),
        "field runs past the end of the packet at byte 6 (field `b`)"
    );
}

#[test]
fn first_fixed_field_missing() {
    expect::<Fixed>(&hex("0400 0000"), ErrorKind::UnexpectedEnd, 4, Some("a"));
    expect::<Fixed>(&hex("0500 0000 22"), ErrorKind::UnexpectedEnd, 4, Some("a"));
}

#[test]
fn metadata_slot_runs_past_the_end() {
    // The string's 2-byte offset slot at 4 has only 1 byte. The slot area is
    // skipped before any field is read, so no field is named.
    expect::<OneStr>(&hex("0500 0000 06"), ErrorKind::UnexpectedEnd, 4, None);
    expect::<OneStr>(&hex("0400 0000"), ErrorKind::UnexpectedEnd, 4, None);
}

#[test]
fn explicit_ref_slot_runs_past_the_end() {
    // `id` is whole; the ref slot of `list` (4 bytes at 8) has 2.
    expect::<Ref>(
        &hex("0a00 0000 11000000 0100"),
        ErrorKind::UnexpectedEnd,
        8,
        None,
    );
}

#[test]
fn fixed_field_after_strings_runs_past_the_end() {
    // I_INPUT_COMMAND.1 without its trailing bool: `unk` is read after the
    // NUL of `parameter`, at 16 = the end.
    let bytes = hex("1000 0000 0800 0c00 61000000 62000000");
    expect::<InputCommand>(&bytes, ErrorKind::UnexpectedEnd, 16, Some("unk"));
    // With the bool it decodes.
    let mut ok = bytes.clone();
    ok[0] = 0x11;
    ok.push(1);
    let v = InputCommand::decode(&ok).unwrap();
    assert_eq!(
        (v.command, v.parameter, v.unk),
        ("a".into(), "b".into(), true)
    );
}

#[test]
fn trailing_bytes_after_the_data_are_ignored() {
    // Offsets may point anywhere, so bytes nobody points at are not an error;
    // encoding again gives the canonical packet without them.
    let bytes = hex("0c00 0000 2211 feffffff eeee");
    let v = Fixed::decode(&bytes).unwrap();
    assert_eq!(v, Fixed { a: 0x1122, b: -2 });
    assert_eq!(v.encode().unwrap(), hex("0a00 0000 2211 feffffff"));
}

// ---------------------------------------------------------------------------
// Strings.

#[test]
fn string_offset_into_the_header() {
    let bytes = hex("0a00 0000 0200 61000000"); // offset 2
    let err = expect::<OneStr>(&bytes, ErrorKind::OffsetInHeader, 4, Some("s"));
    assert_eq!(
        err.to_string(),
        "offset points into the packet header at byte 4 (field `s`)"
    );
    // Offset 0 (what an empty array has) is in the header too.
    expect::<OneStr>(
        &hex("0a00 0000 0000 61000000"),
        ErrorKind::OffsetInHeader,
        4,
        Some("s"),
    );
}

#[test]
fn string_offset_into_the_header_names_the_def_name() {
    let bytes = hex("0a00 0000 0300 61000000");
    let err = expect::<Renamed>(&bytes, ErrorKind::OffsetInHeader, 4, Some("playerName"));
    assert_eq!(
        err.to_string(),
        "offset points into the packet header at byte 4 (field `playerName`)"
    );
}

#[test]
fn string_offset_past_the_end() {
    let bytes = hex("0a00 0000 0b00 61000000"); // offset 11 in a 10-byte packet
    let err = expect::<OneStr>(&bytes, ErrorKind::OffsetOutOfBounds, 4, Some("s"));
    assert_eq!(
        err.to_string(),
        "offset points past the end of the packet at byte 4 (field `s`)"
    );
    expect::<OneStr>(
        &hex("0a00 0000 ffff 61000000"),
        ErrorKind::OffsetOutOfBounds,
        4,
        Some("s"),
    );
}

#[test]
fn string_offset_at_the_very_end_is_unterminated() {
    // Offset 10 = the packet's length: an empty tail, no NUL.
    expect::<OneStr>(
        &hex("0a00 0000 0a00 61000000"),
        ErrorKind::UnterminatedString,
        10,
        Some("s"),
    );
}

#[test]
fn string_without_nul_before_the_end() {
    let bytes = hex("0a00 0000 0600 6100 6200");
    let err = expect::<OneStr>(&bytes, ErrorKind::UnterminatedString, 6, Some("s"));
    assert_eq!(
        err.to_string(),
        "string has no NUL terminator before the end of the packet at byte 6 (field `s`)"
    );
}

#[test]
fn string_nul_must_be_aligned_to_its_start() {
    // From 6 the units are `41 00`, `00 42`, `00 43`: the `00 00` at 7..9 is
    // not a unit of this string, so there is no terminator.
    expect::<OneStr>(
        &hex("0c00 0000 0600 4100 0042 0043"),
        ErrorKind::UnterminatedString,
        6,
        Some("s"),
    );
    // With an aligned NUL after them, the three units are the text.
    let bytes = hex("0e00 0000 0600 4100 0042 0043 0000");
    let v = OneStr::decode(&bytes).unwrap();
    assert_eq!(v.s.units().collect::<Vec<_>>(), [0x0041, 0x4200, 0x4300]);
}

#[test]
fn string_with_an_odd_number_of_bytes_left() {
    let bytes = hex("0900 0000 0600 6100 62");
    let err = expect::<OneStr>(&bytes, ErrorKind::OddStringLength, 6, Some("s"));
    assert_eq!(
        err.to_string(),
        "string runs to the end of the packet with an odd number of bytes at byte 6 (field `s`)"
    );
    // One byte left.
    expect::<OneStr>(
        &hex("0700 0000 0600 00"),
        ErrorKind::OddStringLength,
        6,
        Some("s"),
    );
}

#[test]
fn string_with_lone_surrogates_decodes_losslessly() {
    // A lone low surrogate, a lone high surrogate (followed by 'a', not by a
    // low surrogate), then 'a'.
    let bytes = hex("0e00 0000 0600 00dc 3dd8 6100 0000");
    let v = OneStr::decode(&bytes).unwrap();
    assert_eq!(v.s.units().collect::<Vec<_>>(), [0xdc00, 0xd83d, 0x0061]);
    assert_eq!(v.s.as_utf16le(), &bytes[6..12]);
    assert_eq!(v.s.to_string_lossy(), "\u{fffd}\u{fffd}a");
    assert_eq!(v.s.to_string(), "\u{fffd}\u{fffd}a");
    assert!(v.s.try_to_string().is_err());
    assert!(v.s != "\u{fffd}\u{fffd}a", "a lone surrogate is not U+FFFD");
    // Re-encoding gives the same bytes: nothing was replaced.
    assert_eq!(v.encode().unwrap(), bytes);
    // A proper pair in the same place is fine.
    let pair = hex("0c00 0000 0600 3dd8 00de 0000");
    let v = OneStr::decode(&pair).unwrap();
    assert_eq!(v.s.try_to_string().unwrap(), "😀");
}

// ---------------------------------------------------------------------------
// Arrays: `count, offset` at 4, elements `here, next, ...`.

#[test]
fn array_next_chain_loops_a_b_a() {
    // count 3: A(8) -> B(16) -> A(8), whose `next` (at 10) is not 0.
    let bytes = hex("1800 0000 0300 0800 | 0800 1000 01000000 | 1000 0800 02000000");
    let err = expect::<List>(&bytes, ErrorKind::ListTooLong, 10, Some("list"));
    assert_eq!(
        err.to_string(),
        "array list goes on after `count` elements at byte 10 (field `list`)"
    );
}

#[test]
fn array_self_loop_with_count_65535_ends_in_overlap() {
    // One element at 8 whose `next` is itself, count 65535, 16 bytes: each
    // visit costs 4 bytes of the 16-byte budget, so the 5th visit fails.
    let bytes = hex("1000 0000 ffff 0800 | 0800 0800 01000000");
    let err = expect::<List>(&bytes, ErrorKind::Overlap, 8, Some("list"));
    assert_eq!(
        err.to_string(),
        "data overlaps other data or loops (more reads than the packet holds) at byte 8 (field `list`)"
    );
}

#[test]
fn array_self_loop_in_the_largest_packet_ends_in_overlap() {
    // 65535 bytes: the loop is cut after 65535 / 4 visits, not 65535.
    let mut bytes = vec![0u8; 65535];
    bytes[..16].copy_from_slice(&hex("ffff 0000 ffff 0800 | 0800 0800 01000000"));
    expect::<List>(&bytes, ErrorKind::Overlap, 8, Some("list"));
}

#[test]
fn array_list_ends_before_count() {
    // count 2, the first element's `next` (at 10) is 0.
    let bytes = hex("1000 0000 0200 0800 | 0800 0000 01000000");
    let err = expect::<List>(&bytes, ErrorKind::ListTooShort, 10, Some("list"));
    assert_eq!(
        err.to_string(),
        "array list ends before `count` elements at byte 10 (field `list`)"
    );
}

#[test]
fn array_list_longer_than_count() {
    // count 1, but A(8) links to B(16).
    let bytes = hex("1800 0000 0100 0800 | 0800 1000 01000000 | 1000 0000 02000000");
    expect::<List>(&bytes, ErrorKind::ListTooLong, 10, Some("list"));
    // The last element's link is named: count 2, B's `next` (at 18) is 8.
    let bytes = hex("1800 0000 0200 0800 | 0800 1000 01000000 | 1000 0800 02000000");
    expect::<List>(&bytes, ErrorKind::ListTooLong, 18, Some("list"));
}

#[test]
fn array_count_65535_on_a_tiny_packet() {
    // A proper one-element list under a count of 65535.
    expect::<List>(
        &hex("1000 0000 ffff 0800 | 0800 0000 01000000"),
        ErrorKind::ListTooShort,
        10,
        Some("list"),
    );
    // No elements at all: offset 0 is in the header (slot at 6).
    expect::<List>(
        &hex("0800 0000 ffff 0000"),
        ErrorKind::OffsetInHeader,
        6,
        Some("list"),
    );
    // The offset is the packet's end: the element header is missing.
    expect::<List>(
        &hex("0a00 0000 ffff 0800 0800"),
        ErrorKind::UnexpectedEnd,
        10,
        Some("list"),
    );
}

#[test]
fn array_element_offset_into_the_header() {
    // The first offset (slot at 6) is 2.
    expect::<List>(
        &hex("1000 0000 0100 0200 | 0800 0000 01000000"),
        ErrorKind::OffsetInHeader,
        6,
        Some("list"),
    );
    // The first element's `next` (at 10) is 3.
    expect::<List>(
        &hex("1000 0000 0200 0800 | 0800 0300 01000000"),
        ErrorKind::OffsetInHeader,
        10,
        Some("list"),
    );
}

#[test]
fn array_element_offset_past_the_end() {
    let err = expect::<List>(
        &hex("1000 0000 0100 4000 | 0800 0000 01000000"),
        ErrorKind::OffsetOutOfBounds,
        6,
        Some("list"),
    );
    assert_eq!(
        err.to_string(),
        "offset points past the end of the packet at byte 6 (field `list`)"
    );
    // The first element's `next` (at 10) is 17 in a 16-byte packet.
    expect::<List>(
        &hex("1000 0000 0200 0800 | 0800 1100 01000000"),
        ErrorKind::OffsetOutOfBounds,
        10,
        Some("list"),
    );
}

#[test]
fn array_element_header_cut_by_the_end() {
    // The element at 14 has its `here` but not its `next` (at 16 = the end).
    expect::<List>(
        &hex("1000 0000 0100 0e00 | 0000 0000 0000 0e00"),
        ErrorKind::UnexpectedEnd,
        16,
        Some("list"),
    );
}

#[test]
fn array_element_body_cut_by_the_end_names_the_inner_field() {
    // The element at 8 has `here, next` but only 2 of the 4 bytes of `v`.
    expect::<List>(
        &hex("0e00 0000 0100 0800 | 0800 0000 0100"),
        ErrorKind::UnexpectedEnd,
        12,
        Some("v"),
    );
}

// ---------------------------------------------------------------------------
// Bytes: `offset, count` at 4.

#[test]
fn bytes_count_runs_past_the_end() {
    let bytes = hex("0a00 0000 0800 0300 aabb"); // 3 bytes at 8, 2 there
    let err = expect::<OneBytes>(&bytes, ErrorKind::BytesOutOfBounds, 8, Some("d"));
    assert_eq!(
        err.to_string(),
        "bytes run past the end of the packet at byte 8 (field `d`)"
    );
    expect::<OneBytes>(
        &hex("0a00 0000 0800 ffff aabb"),
        ErrorKind::BytesOutOfBounds,
        8,
        Some("d"),
    );
}

#[test]
fn bytes_offset_into_the_header_or_past_the_end() {
    expect::<OneBytes>(
        &hex("0a00 0000 0100 0200 aabb"),
        ErrorKind::OffsetInHeader,
        4,
        Some("d"),
    );
    expect::<OneBytes>(
        &hex("0a00 0000 0b00 0000 aabb"),
        ErrorKind::OffsetOutOfBounds,
        4,
        Some("d"),
    );
}

#[test]
fn empty_bytes_at_the_very_end_are_fine() {
    // What the JS writer writes for empty bytes: offset = the end, count 0.
    let bytes = hex("0800 0000 0800 0000");
    let v = OneBytes::decode(&bytes).unwrap();
    assert!(v.d.is_empty());
    assert_eq!(v.encode().unwrap(), bytes);
}

// ---------------------------------------------------------------------------
// Overlap: the reader's work budget (the packet's length in bytes).

/// `List16` whose elements sit 2 bytes apart: the word at each offset `q`
/// from 8 holds `q` itself, so every element's `next` is the next element,
/// 2 bytes on, until the `0` at `8 + 2 * n`. Element `k` overlaps `k + 1`.
fn ladder(n: usize) -> Vec<u8> {
    let len = 12 + 2 * n;
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&u16::try_from(n).unwrap().to_le_bytes());
    bytes.extend_from_slice(&8u16.to_le_bytes());
    for k in 0..n {
        bytes.extend_from_slice(&u16::try_from(8 + 2 * k).unwrap().to_le_bytes());
    }
    bytes.extend_from_slice(&[0, 0, 0x77, 0x77]);
    assert_eq!(bytes.len(), len);
    bytes
}

#[test]
fn overlapping_elements_exhaust_the_budget() {
    // 20 elements in 52 bytes: each costs 4, so the 14th (at 8 + 2 * 13 = 34)
    // is one too many.
    let bytes = ladder(20);
    expect::<List16>(&bytes, ErrorKind::Overlap, 34, Some("list"));
}

#[test]
fn overlap_within_the_budget_is_tolerated() {
    // The budget bounds the work; it is not an exact overlap check. Three
    // overlapping elements in 18 bytes cost 12 and decode; encoding writes
    // them apart.
    let bytes = ladder(3);
    let v = List16::decode(&bytes).unwrap();
    let xs: Vec<u16> = v.list.iter().map(|e| e.x).collect();
    assert_eq!(xs, [12, 0, 0x7777]);
    assert_eq!(
        v.encode().unwrap(),
        hex("1a00 0000 0300 0800 | 0800 0e00 0c00 | 0e00 1400 0000 | 1400 0000 7777")
    );
}

#[test]
fn many_elements_aliasing_one_string() {
    // count 4, elements at 8, 14, 20, 26 all point at one 20-unit string at
    // 32 (42 bytes with its NUL): 4 + 42 + 4 + 42 > 74.
    let mut bytes = hex("4a00 0000 0400 0800");
    for (here, next) in [(8u16, 14u16), (14, 20), (20, 26), (26, 0)] {
        bytes.extend_from_slice(&here.to_le_bytes());
        bytes.extend_from_slice(&next.to_le_bytes());
        bytes.extend_from_slice(&32u16.to_le_bytes());
    }
    for _ in 0..20 {
        bytes.extend_from_slice(&[b'x', 0]);
    }
    bytes.extend_from_slice(&[0, 0]);
    assert_eq!(bytes.len(), 74);
    expect::<StrList>(&bytes, ErrorKind::Overlap, 32, Some("list"));
}

#[test]
fn two_fields_aliasing_one_string() {
    // Both offsets point at one 8-unit string at 8: 18 + 18 > 26.
    let mut bytes = hex("1a00 0000 0800 0800");
    bytes.extend("abcdefgh".bytes().flat_map(|b| [b, 0]));
    bytes.extend_from_slice(&[0, 0]);
    expect::<TwoStr>(&bytes, ErrorKind::Overlap, 8, Some("b"));
    // A short shared string fits the budget (6 + 6 <= 14) and decodes.
    let bytes = hex("0e00 0000 0800 0800 6100 6200 0000");
    let v = TwoStr::decode(&bytes).unwrap();
    assert_eq!((v.a, v.b), ("ab".into(), "ab".into()));
}

#[test]
fn many_elements_aliasing_one_blob() {
    // count 3, elements at 8, 16, 24 each point at the same 40 bytes at 32:
    // 4 + 40 + 4 + 40 > 72.
    let mut bytes = hex("4800 0000 0300 0800");
    for (here, next) in [(8u16, 16u16), (16, 24), (24, 0)] {
        bytes.extend_from_slice(&here.to_le_bytes());
        bytes.extend_from_slice(&next.to_le_bytes());
        bytes.extend_from_slice(&32u16.to_le_bytes());
        bytes.extend_from_slice(&40u16.to_le_bytes());
    }
    bytes.extend_from_slice(&[0xab; 40]);
    assert_eq!(bytes.len(), 72);
    expect::<BytesList>(&bytes, ErrorKind::Overlap, 32, Some("list"));
}

/// `Nested` with `outer` elements that all point at one inner list of `m`
/// elements (6 bytes each) placed after them.
fn nested_aliasing(outer: &[(u16, u16)], count: u16, m: usize) -> Vec<u8> {
    let inner_at = 8 + 8 * outer.len();
    let len = inner_at + 6 * m;
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&count.to_le_bytes());
    bytes.extend_from_slice(&8u16.to_le_bytes());
    for &(here, next) in outer {
        bytes.extend_from_slice(&here.to_le_bytes());
        bytes.extend_from_slice(&next.to_le_bytes());
        bytes.extend_from_slice(&u16::try_from(m).unwrap().to_le_bytes());
        bytes.extend_from_slice(&u16::try_from(inner_at).unwrap().to_le_bytes());
    }
    for k in 0..m {
        let here = u16::try_from(inner_at + 6 * k).unwrap();
        let next = if k + 1 == m { 0 } else { here + 6 };
        bytes.extend_from_slice(&here.to_le_bytes());
        bytes.extend_from_slice(&next.to_le_bytes());
        bytes.extend_from_slice(&u16::try_from(k).unwrap().to_le_bytes());
    }
    assert_eq!(bytes.len(), len);
    bytes
}

#[test]
fn nested_arrays_aliasing_one_inner_list() {
    // 8 outer elements (8..72) share an 8-element inner list at 72: 120
    // bytes. Each outer element costs 4 + 8 * 4 = 36; the 4th runs out after
    // its 2nd inner element, so the 3rd (at 72 + 12 = 84) fails.
    let outer: Vec<(u16, u16)> = (0..8u16)
        .map(|k| (8 + 8 * k, if k == 7 { 0 } else { 16 + 8 * k }))
        .collect();
    let bytes = nested_aliasing(&outer, 8, 8);
    assert_eq!(bytes.len(), 120);
    let err = expect::<Nested>(&bytes, ErrorKind::Overlap, 84, Some("inner"));
    assert_eq!(
        err.to_string(),
        "data overlaps other data or loops (more reads than the packet holds) at byte 84 (field `inner`)"
    );
    // Sharing that fits the budget decodes: 2 outer elements over a
    // 2-element list cost 2 * (4 + 2 * 4) = 24 of 36 bytes.
    let bytes = nested_aliasing(&[(8, 16), (16, 0)], 2, 2);
    let v = Nested::decode(&bytes).unwrap();
    assert_eq!(v.outer.len(), 2);
    for mid in &v.outer {
        assert_eq!(mid.inner.iter().map(|e| e.x).collect::<Vec<_>>(), [0, 1]);
    }
}

#[test]
fn nested_self_loop_over_an_inner_list_is_cut_early() {
    // One outer element at 8 looping to itself with count 65535, its inner
    // list of 2 at 16: 28 bytes, 12 per visit; the 3rd visit's 1st inner
    // element (at 16) fails.
    let bytes = nested_aliasing(&[(8, 8)], 0xffff, 2);
    expect::<Nested>(&bytes, ErrorKind::Overlap, 16, Some("inner"));
}

#[test]
fn nested_self_loop_over_a_long_inner_list_is_linear() {
    // The same in 60016 bytes with 10000 inner elements: quadratic work
    // would be 65535 * 10000 element reads. The budget (60016) pays for the
    // 1st visit (4 + 40000) and the 2nd's first (60016 - 40004 - 4) / 4 =
    // 5002 inner elements; element 5002 (at 16 + 6 * 5002) fails.
    let bytes = nested_aliasing(&[(8, 8)], 0xffff, 10_000);
    assert_eq!(bytes.len(), 60_016);
    expect::<Nested>(&bytes, ErrorKind::Overlap, 16 + 6 * 5002, Some("inner"));
}

// ---------------------------------------------------------------------------
// Every error above is a plain value: no allocation, `Copy`, comparable.

#[test]
fn errors_are_values() {
    let a = List::decode(&hex("1000 0000 0200 0800 | 0800 0000 01000000")).unwrap_err();
    let b = a;
    assert_eq!(a, b);
    let e: Box<dyn std::error::Error> = Box::new(a);
    assert_eq!(
        e.to_string(),
        "array list ends before `count` elements at byte 10 (field `list`)"
    );
}
