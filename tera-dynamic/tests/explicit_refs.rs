//! Explicit `ref`s: those with fixed-size fields only before them have
//! their place worked out when the def is loaded, the others are
//! remembered as the walk passes them. Both kinds, side by side, write and
//! read the bytes laid out by hand here, and every shorter packet is
//! refused.

use tera_dynamic::{Catalog, Schema};

/// `list`'s and `name`'s refs follow fixed-size fields only; `tail`'s
/// follows a string.
const DEF: &str = "\
ref list
uint16 id
ref name
string name
ref tail
array list
- byte x
array<int32> tail
";

fn schema() -> Schema {
    let mut catalog = Catalog::new();
    catalog
        .add_def("S_REFS.1.def", DEF)
        .map_err(|report| report.render(false))
        .expect("the test def loads");
    Schema::clone(catalog.get("S_REFS", 1).expect("loaded"))
}

const JSON: &str = r#"{"list":[{"x":3}],"id":258,"name":"A","tail":[7]}"#;

#[rustfmt::skip]
const PACKET: [u8; 33] = [
    33, 0, 9, 0, // header
    1, 0, 20, 0, // list: one element, at 20
    2, 1, // id
    12, 0, // name: at 12
    65, 0, 0, 0, // "A" and its NUL
    1, 0, 25, 0, // tail: one element, at 25
    20, 0, 0, 0, 3, // list[0]: here, next, x
    25, 0, 0, 0, 7, 0, 0, 0, // tail[0]: here, next, 7
];

#[test]
fn refs_before_and_after_a_string_land_where_laid_out() {
    let schema = schema();
    let value = schema
        .deserialize(&mut serde_json::Deserializer::from_str(JSON))
        .expect("the JSON fits the def");
    let mut buf = [0xAA; 64];
    let len = schema.encode_into(&value, 9, &mut buf).expect("fits");
    assert_eq!(buf[..len], PACKET);
    assert_eq!(schema.decode(&PACKET).expect("reads"), value);
    let json =
        serde_json::to_value(schema.view(&PACKET).expect("reads").record()).expect("serializes");
    let expected: serde_json::Value = serde_json::from_str(JSON).expect("JSON");
    assert_eq!(json, expected);
}

#[test]
fn every_shorter_packet_is_refused() {
    let schema = schema();
    for len in 4..PACKET.len() {
        let mut short = PACKET[..len].to_vec();
        short[0] = len as u8;
        assert!(schema.view(&short).is_err(), "{len} bytes: {short:?}");
        assert!(schema.decode(&short).is_err(), "{len} bytes");
    }
}

/// Consecutive refs placed at load time are skipped at once by the first
/// read, but a packet that ends inside them is reported at the ref that
/// runs past its end, as the generated packets report it.
#[test]
fn a_packet_ending_among_refs_is_reported_at_the_ref_cut_short() {
    let mut catalog = Catalog::new();
    catalog
        .add_def(
            "S_TWO_REFS.1.def",
            "ref a\nref b\narray<int32> a\narray<int32> b\n",
        )
        .map_err(|report| report.render(false))
        .expect("the test def loads");
    let schema = catalog.get("S_TWO_REFS", 1).expect("loaded");
    // The header, `a`'s ref (bytes 4 to 8) and half of `b`'s.
    let packet = [10, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    for error in [schema.view(&packet).err(), schema.decode(&packet).err()] {
        let error = error.expect("refused");
        assert_eq!(
            (error.kind(), error.offset()),
            (tera_packets::ErrorKind::UnexpectedEnd, 8),
            "{error}"
        );
    }
}
