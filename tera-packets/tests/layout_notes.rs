//! Every byte-level example of LAYOUT-NOTES.md, written by hand with the
//! derive: encoding gives the JS writer's bytes, decoding gives the value
//! back (and, where the JS reader is wrong, what the writer meant).

use tera_packets::{
    Angle, Array, Block, Bytes, Error, ErrorKind, HEADER_LEN, Packet, SkillId, Str, Vec3,
};

fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_hexdigit).collect();
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// Encodes `value`, checks the bytes, decodes them back and checks equality.
fn golden<'a, P: Packet<'a> + PartialEq + std::fmt::Debug>(value: &P, expected: &'a [u8]) {
    let bytes = value.encode().unwrap();
    assert_eq!(hex_of(&bytes), hex_of(expected), "encoded bytes");
    assert_eq!(value.encoded_len(), expected.len());
    assert!(
        expected.len() >= min_len::<P>(),
        "shorter than MIN_WIRE_LEN allows"
    );
    let decoded = P::decode(expected).unwrap();
    assert_eq!(&decoded, value, "decoded value");
}

/// The shortest encoding `MIN_WIRE_LEN` allows, header included.
fn min_len<'a, P: Packet<'a>>() -> usize {
    HEADER_LEN + 2 * P::META_WORDS + P::MIN_WIRE_LEN
}

/// Checks that a value with every string, byte field and array empty
/// encodes to exactly the minimum: the bound is a true one, and tight.
fn is_minimal<'a, P: Packet<'a>>(empty: &P) {
    assert_eq!(empty.encoded_len(), min_len::<P>(), "{}", P::NAME);
    assert_eq!(empty.encode().unwrap().len(), min_len::<P>(), "{}", P::NAME);
}

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E1", version = 1)]
struct E1 {
    a: u16,
    b: i32,
}

#[test]
fn e1_fixed_fields() {
    golden(&E1 { a: 0x1122, b: -2 }, &hex("0a00 0000 2211 feffffff"));
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E2", version = 1)]
struct E2<'a> {
    a: i32,
    b: Array<'a, X32>,
    s: Str<'a>,
    d: Bytes<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct X32 {
    x: i32,
}

#[test]
fn e2_metadata_first_then_data_in_def_order() {
    let v = E2 {
        a: 1,
        b: vec![X32 { x: 0x11 }, X32 { x: 0x22 }].into(),
        s: "hi".into(),
        d: vec![0xaa, 0xbb].into(),
    };
    golden(
        &v,
        &hex(
            "2a000000 02001200 2200 28000200 01000000 12001a0011000000 1a00000022000000 680069000000 aabb",
        ),
    );
}

#[test]
fn e3_empty_array_string_bytes() {
    let v = E2 {
        a: 1,
        b: Array::default(),
        s: "".into(),
        d: Bytes::default(),
    };
    golden(&v, &hex("14000000 00000000 1200 14000000 01000000 0000"));
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E3b", version = 1)]
struct E3b<'a> {
    d: Bytes<'a>,
    b: Array<'a, X32>,
    s: Str<'a>,
}

#[test]
fn e3b_empty_bytes_share_the_offset_of_what_follows() {
    let v = E3b {
        d: Bytes::default(),
        b: Array::default(),
        s: "z".into(),
    };
    golden(&v, &hex("12000000 0e000000 00000000 0e00 7a000000"));
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E4", version = 1)]
struct E4<'a> {
    id: u32,
    outer: Array<'a, Outer<'a>>,
    tail: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Outer<'a> {
    x: i32,
    inner: Array<'a, Inner>,
    name: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Inner {
    y: u16,
}

#[test]
fn e4_nested_arrays_depth_first() {
    let v = E4 {
        id: 7,
        outer: vec![
            Outer {
                x: 1,
                inner: vec![Inner { y: 0xa1 }, Inner { y: 0xa2 }].into(),
                name: "A".into(),
            },
            Outer {
                x: 2,
                inner: Array::default(),
                name: "".into(),
            },
            Outer {
                x: 3,
                inner: vec![Inner { y: 0xb1 }].into(),
                name: "C".into(),
            },
        ]
        .into(),
        tail: "T".into(),
    };
    golden(
        &v,
        &hex("58000000 03000e00 5400 07000000
              0e002c00 02001c00 2800 01000000
              1c002200a100 22000000a200 41000000
              2c003c00 00000000 3a00 02000000 0000
              3c000000 01004a00 5000 03000000
              4a000000b100 43000000
              54000000"),
    );
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E5", version = 1)]
struct E5<'a> {
    n: Array<'a, i32>,
    s: Array<'a, Str<'a>>,
}

#[test]
fn e5_arrays_of_simple_types_and_strings() {
    let v = E5 {
        n: vec![1, -1].into(),
        s: vec![Str::from("ab"), Str::from(""), Str::from("é")].into(),
    };
    golden(
        &v,
        &hex("3a000000 02000c00 03001c00
              0c00140001000000 14000000ffffffff
              1c002800 2200 610062000000
              28003000 2e00 0000
              30000000 3600 e9000000"),
    );
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E6", version = 1)]
struct E6<'a> {
    id: u32,
    #[tera(interleaved)]
    t: Array<'a, X16>,
    #[tera(interleaved)]
    e: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct X16 {
    x: u16,
}

#[test]
fn e6_interleaved_arrays_alternate() {
    let v = E6 {
        id: 1,
        t: vec![X16 { x: 0x11 }, X16 { x: 0x22 }].into(),
        e: vec![0x31, 0x32, 0x33].into(),
    };
    golden(
        &v,
        &hex("34000000 02001000 03001600 01000000
              10001e001100 1600240031000000 1e0000002200
              24002c0032000000 2c00000033000000"),
    );
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E6b", version = 1)]
struct E6b<'a> {
    #[tera(interleaved)]
    a: Array<'a, A6<'a>>,
    #[tera(interleaved)]
    b: Array<'a, B6>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct A6<'a> {
    x: u16,
    s: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct B6 {
    y: u8,
}

#[test]
fn e6b_interleaved_elements_carry_their_nested_data() {
    let v = E6b {
        a: vec![
            A6 {
                x: 1,
                s: "p".into(),
            },
            A6 {
                x: 2,
                s: "q".into(),
            },
        ]
        .into(),
        b: vec![B6 { y: 0xee }].into(),
    };
    golden(
        &v,
        &hex("29000000 02000c00 01001800
              0c001d00 1400 0100 70000000
              18000000ee
              1d000000 2500 0200 71000000"),
    );
}

/// `int32 a; object o {uint16 b; object d {byte c}}; int16 e;
/// object o {string s; array arr {byte z}}`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E7", version = 1)]
struct E7<'a> {
    a: i32,
    #[tera(parts_after(e))]
    o: O7<'a>,
    e: i16,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct O7<'a> {
    b: u16,
    d: D7,
    #[tera(part = 1)]
    s: Str<'a>,
    arr: Array<'a, Z8>,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct D7 {
    c: u8,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Z8 {
    z: u8,
}

#[test]
fn e7_split_object_hoists_metadata() {
    let v = E7 {
        a: 1,
        o: O7 {
            b: 0xbbbb,
            d: D7 { c: 0xcc },
            s: "S".into(),
            arr: vec![Z8 { z: 0x5a }].into(),
        },
        e: 0x0eee,
    };
    golden(
        &v,
        &hex("1c000000 1300 01001700 01000000 bbbb cc ee0e 53000000 170000005a"),
    );
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E7b", version = 1)]
struct E7b<'a> {
    l: Array<'a, L7<'a>>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct L7<'a> {
    x: i32,
    o: O7b<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct O7b<'a> {
    y: u16,
    s: Str<'a>,
}

#[test]
fn e7b_object_in_element_hoists_into_the_element() {
    let v = E7b {
        l: vec![L7 {
            x: 1,
            o: O7b {
                y: 2,
                s: "k".into(),
            },
        }]
        .into(),
    };
    golden(
        &v,
        &hex("18000000 01000800 08000000 1400 01000000 0200 6b000000"),
    );
}

/// `uint32 id; ref list; int32 mid; ref name; string name; array list {int32 v}`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E8", version = 1)]
struct E8<'a> {
    id: u32,
    #[tera(refs_before(list))]
    mid: i32,
    #[tera(refs_before(name))]
    name: Str<'a>,
    list: Array<'a, V32>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct V32 {
    v: i32,
}

#[test]
fn e8_explicit_refs_sit_where_declared() {
    let v = E8 {
        id: 0x11,
        mid: 0x22,
        name: "n".into(),
        list: vec![V32 { v: 0x33 }].into(),
    };
    golden(
        &v,
        &hex("1e000000 11000000 01001600 22000000 1200 6e000000 1600000033000000"),
    );
}

/// `ref name; ref list; array list {byte v}; string name`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E8b", version = 1)]
struct E8b<'a> {
    #[tera(refs_before(name, list))]
    list: Array<'a, V8>,
    name: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct V8 {
    v: u8,
}

#[test]
fn e8b_ref_order_differs_from_data_order() {
    let v = E8b {
        list: vec![V8 { v: 0x33 }].into(),
        name: "n".into(),
    };
    golden(&v, &hex("13000000 0f00 01000a00 0a00000033 6e000000"));
}

/// Legacy `count list; uint32 id; offset list; array list {byte v}`: the
/// count line is dropped and `offset` is `ref`.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E9", version = 1)]
struct E9<'a> {
    id: u32,
    #[tera(refs_before(list))]
    list: Array<'a, V8>,
}

#[test]
fn e9_legacy_count_and_offset() {
    let v = E9 {
        id: 0x11,
        list: vec![V8 { v: 0x22 }].into(),
    };
    golden(&v, &hex("11000000 11000000 01000c00 0c00000022"));
}

/// `uint16 pre; ref d; bytes d`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E9d", version = 1)]
struct E9d<'a> {
    pre: u16,
    #[tera(refs_before(d))]
    d: Bytes<'a>,
}

#[test]
fn e9d_explicit_ref_of_bytes() {
    let v = E9d {
        pre: 1,
        d: vec![9, 8, 7].into(),
    };
    golden(&v, &hex("0d000000 0100 0a000300 090807"));
}

/// `string command; string parameter; bool unk` (I_INPUT_COMMAND.1): the JS
/// reader reads `unk` from the terminator; we read it where it was written.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E10", version = 1)]
struct E10<'a> {
    command: Str<'a>,
    parameter: Str<'a>,
    unk: bool,
}

#[test]
fn e10_fixed_field_after_strings_is_read_where_written() {
    let v = E10 {
        command: "a".into(),
        parameter: "b".into(),
        unk: true,
    };
    golden(&v, &hex("11000000 0800 0c00 61000000 62000000 01"));
}

/// `int32 pre; array a {...}; int32 after` with `a` empty.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E10c", version = 1)]
struct E10c<'a> {
    pre: i32,
    a: Array<'a, V32>,
    after: i32,
}

#[test]
fn e10c_fixed_field_after_empty_array() {
    let v = E10c {
        pre: 0x55,
        a: Array::default(),
        after: 0x77,
    };
    golden(&v, &hex("10000000 00000000 55000000 77000000"));
}

/// `uint16 a; bytes d; uint16 after`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E10d", version = 1)]
struct E10d<'a> {
    a: u16,
    d: Bytes<'a>,
    after: u16,
}

#[test]
fn e10d_fixed_field_after_bytes() {
    let v = E10d {
        a: 1,
        d: vec![0xaa, 0xbb, 0xcc].into(),
        after: 0x7777,
    };
    golden(&v, &hex("0f000000 0a000300 0100 aabbcc 7777"));
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E11", version = 1)]
struct E11<'a> {
    s: Str<'a>,
}

#[test]
fn e11_surrogate_pairs_are_two_units() {
    let v = E11 { s: "😀".into() };
    golden(&v, &hex("0c000000 0600 3dd800de0000"));
    let bytes = v.encode().unwrap();
    let decoded = E11::decode(&bytes).unwrap();
    assert_eq!(decoded.s.to_string(), "😀");
    assert_eq!(decoded.s.len_utf16(), 2);
}

#[test]
fn e11_lone_surrogates_survive_a_round_trip() {
    // A lone high surrogate: kept as is, shown as U+FFFD.
    let bytes = hex("0a000000 0600 3dd8 0000");
    let decoded = E11::decode(&bytes).unwrap();
    assert_eq!(decoded.s.to_string_lossy(), "\u{fffd}");
    assert!(decoded.s.try_to_string().is_err());
    assert_eq!(decoded.encode().unwrap(), bytes);
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E12", version = 1)]
struct E12 {
    w: Angle,
    pos: Vec3,
}

#[test]
fn e12_angle_keeps_raw_units_where_js_loses_them() {
    // JS writes 10719 * pi/0x8000 back as 10718; rounding keeps it.
    let a = Angle(10719);
    assert_eq!(Angle::from_radians(a.to_radians()), a);
    for raw in i16::MIN..=i16::MAX {
        assert_eq!(Angle::from_radians(Angle(raw).to_radians()).0, raw);
    }
    let v = E12 {
        w: a,
        pos: Vec3::new(1.0, -2.0, 0.5),
    };
    golden(&v, &hex("12000000 df29 0000803f 000000c0 0000003f"));
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E13", version = 1)]
struct E13 {
    c: SkillId,
}

#[test]
fn e13_skill_id_keeps_all_bits() {
    let v = E13 {
        c: SkillId(u64::MAX),
    };
    golden(&v, &hex("0c000000 ffffffffffffffff"));
    assert_eq!(v.c.reserved(), 0x7fff_ffff);
    assert_eq!(SkillId::new(123, 1, false, 0, 0).0, 0x1000_007b);
}

#[test]
fn e16b_reader_follows_next_not_position() {
    // Two elements stored last-first: the list visits offset 16, then 8.
    let bytes = hex("18000000 02001000 08000000 11000000 00000800 22000000");
    let decoded = E8List::decode(&bytes).unwrap();
    let values: Vec<i32> = decoded.list.iter().map(|e| e.v).collect();
    assert_eq!(values, [0x22, 0x11]);
    // Encoding writes the canonical layout.
    assert_eq!(
        hex_of(&decoded.encode().unwrap()),
        "180000000200080008001000220000001000000011000000"
    );
}

#[derive(Debug, PartialEq, Packet)]
#[tera(name = "E8List", version = 1)]
struct E8List<'a> {
    list: Array<'a, V32>,
}

/// The example of the tera-data spec: `int32 number; array list { int16 value }`.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_SPEC_EXAMPLE", version = 1)]
struct SpecExample<'a> {
    number: i32,
    list: Array<'a, Value16>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Value16 {
    value: i16,
}

#[test]
fn spec_example() {
    let v = SpecExample {
        number: 42,
        list: vec![Value16 { value: 1 }, Value16 { value: 2 }].into(),
    };
    golden(
        &v,
        &hex("18000000 02000c00 2a000000 0c0012000100 120000000200"),
    );
}

#[test]
fn errors_name_the_field_and_offset() {
    let mut bytes = E2 {
        a: 1,
        b: Array::default(),
        s: "hi".into(),
        d: Bytes::default(),
    }
    .encode()
    .unwrap();
    bytes[8] = 0x02; // the string's offset now points into the header
    bytes[9] = 0x00;
    let err: Error = E2::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OffsetInHeader);
    assert_eq!(err.offset(), 8);
    assert_eq!(err.field(), Some("s"));
    assert_eq!(
        err.to_string(),
        "offset points into the packet header at byte 8 (field `s`)"
    );
}

#[test]
fn min_wire_len_is_the_length_of_empty_values() {
    is_minimal(&E1 { a: 1, b: 2 });
    is_minimal(&E2 {
        a: 1,
        b: Array::default(),
        s: "".into(),
        d: Bytes::default(),
    });
    is_minimal(&E4 {
        id: 1,
        outer: Array::default(),
        tail: "".into(),
    });
    is_minimal(&E6 {
        id: 1,
        t: Array::default(),
        e: Array::default(),
    });
    is_minimal(&E7 {
        a: 1,
        o: O7::default(),
        e: 2,
    });
    is_minimal(&E8 {
        id: 1,
        mid: 2,
        name: "".into(),
        list: Array::default(),
    });
    is_minimal(&E8b {
        list: Array::default(),
        name: "".into(),
    });
    is_minimal(&E10 {
        command: "".into(),
        parameter: "".into(),
        unk: false,
    });
    is_minimal(&E10d {
        a: 1,
        d: Bytes::default(),
        after: 2,
    });
    is_minimal(&E12 {
        w: Angle(1),
        pos: Vec3::new(1.0, 2.0, 3.0),
    });
}
