//! A value that does not fit its def is refused with the path of the first
//! field at fault, what the def wants and what the value holds; a buffer
//! that is too small with the size needed. `encode_into`, `encode` and
//! `encoded_len` give the same error.

use tera_dynamic::{Catalog, EncodeError, EncodeErrorKind, Record, Schema, Value};
use tera_packets::{ErrorKind, Str};

const DEF: &str = "\
uint32 id
array items
- int32 x
- string label
object pos
- float f
- array<int32> marks
string name
";

fn schema() -> Schema {
    load("S_TEST.1.def", DEF)
}

/// The schema of def file `name` (`NAME.1.def`) holding `text`.
fn load(name: &str, text: &str) -> Schema {
    let mut catalog = Catalog::new();
    catalog
        .add_def(name, text)
        .map_err(|report| report.render(false))
        .expect("the test def loads");
    let packet = name.split('.').next().expect("NAME.1.def");
    Schema::clone(catalog.get(packet, 1).expect("loaded"))
}

/// A packet of the def with two items and two marks, decoded.
fn record(schema: &Schema) -> Record<'static> {
    let json = r#"{"id":7,"items":[{"x":1,"label":"a"},{"x":2,"label":"bc"}],
        "pos":{"f":1.5,"marks":[3,4]},"name":"n"}"#;
    schema
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .expect("the JSON fits the def")
}

/// The error of every encoding entry point, checked to be the same.
fn refusal(schema: &Schema, value: &Record<'_>) -> EncodeError {
    let mut buf = vec![0; 4096];
    let into = schema
        .encode_into(value, 1, &mut buf)
        .expect_err("encode_into refuses");
    let new = schema.encode(value, 1).expect_err("encode refuses");
    let len = schema.encoded_len(value).expect_err("encoded_len refuses");
    assert_eq!(into, new);
    assert_eq!(into, len);
    into
}

/// The elements of array field `name` of `record`, to change.
fn array<'r, 'a>(record: &'r mut Record<'a>, name: &str) -> &'r mut Vec<Value<'a>> {
    match record.get_mut(name) {
        Some(Value::Array(items)) => items,
        other => panic!("{name} is not an array: {other:?}"),
    }
}

fn mismatch(e: &EncodeError) -> (&str, &str, &str) {
    match e.kind() {
        EncodeErrorKind::Mismatch {
            path,
            expected,
            found,
        } => (path, expected, found),
        other => panic!("not a mismatch: {other}"),
    }
}

#[test]
fn a_scalar_of_another_type_is_named() {
    let schema = schema();
    let mut value = record(&schema);
    *value.get_mut("id").unwrap() = Value::Int32(7);
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e), ("id", "uint32", "int32"));
    assert_eq!(e.to_string(), "field `id`: expected uint32, found int32");
}

#[test]
fn a_field_inside_an_array_element_is_named_with_its_index() {
    let schema = schema();
    let mut value = record(&schema);
    let Value::Object(second) = &mut array(&mut value, "items")[1] else {
        panic!("an element is an object");
    };
    *second.get_mut("label").unwrap() = Value::UInt32(0);
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e), ("items[1].label", "string", "uint32"));
}

#[test]
fn an_element_inside_an_object_is_named() {
    let schema = schema();
    let mut value = record(&schema);
    let Some(Value::Object(pos)) = value.get_mut("pos") else {
        panic!("pos is an object");
    };
    array(pos, "marks")[0] = Value::Float(3.0);
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e), ("pos.marks[0]", "int32", "float"));
}

#[test]
fn a_record_of_another_struct_is_refused() {
    let schema = schema();
    let mut value = record(&schema);
    let items = value.get("items").cloned().unwrap();
    *value.get_mut("pos").unwrap() = items;
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e), ("pos", "object", "array"));

    let mut value = record(&schema);
    let pos = value.get("pos").cloned().unwrap();
    array(&mut value, "items")[0] = pos;
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e), ("items[0].x", "int32", "nothing"));
}

#[test]
fn the_first_field_at_fault_is_the_one_named() {
    let schema = schema();
    let mut value = record(&schema);
    *value.get_mut("name").unwrap() = Value::Bool(true);
    *value.get_mut("id").unwrap() = Value::Bool(true);
    let e = refusal(&schema, &value);
    assert_eq!(mismatch(&e).0, "id");
}

#[test]
fn a_small_buffer_gets_the_size_needed() {
    let schema = schema();
    let value = record(&schema);
    let len = schema.encoded_len(&value).expect("fits");
    let mut buf = vec![0; len];
    assert_eq!(schema.encode_into(&value, 1, &mut buf), Ok(len));
    let e = schema
        .encode_into(&value, 1, &mut buf[..len - 1])
        .expect_err("one byte short");
    match e.kind() {
        EncodeErrorKind::Wire(w) => {
            assert_eq!(w.kind(), ErrorKind::BufferTooSmall { needed: len as u32 })
        }
        other => panic!("not a wire error: {other}"),
    }
}

#[test]
fn a_packet_over_65535_bytes_is_too_large() {
    let schema = schema();
    let mut value = record(&schema);
    let long = "x".repeat(40_000);
    *value.get_mut("name").unwrap() = Value::String(Str::from(long));
    let mut buf = vec![0; 1 << 17];
    let e = schema
        .encode_into(&value, 1, &mut buf)
        .expect_err("too large");
    match e.into_kind() {
        EncodeErrorKind::Wire(w) => {
            assert!(matches!(w.kind(), ErrorKind::TooLarge { size } if size > 65535));
        }
        other => panic!("not a wire error: {other}"),
    }
}

/// Scalars of two types in turn: written a type at a time (one chunk),
/// refused in wire order all the same.
#[test]
fn alternating_scalars_are_refused_in_wire_order() {
    let schema = &load(
        "S_TURNS.1.def",
        "uint32 a\nint32 b\nuint32 c\nint32 d\nuint32 e\nint32 f\nuint32 g\n",
    );
    let mut value = schema.zero();
    for (name, n) in ["a", "c", "e", "g"].into_iter().zip(1u32..) {
        *value.get_mut(name).unwrap() = Value::UInt32(n);
    }
    for (name, n) in ["b", "d", "f"].into_iter().zip(-3i32..) {
        *value.get_mut(name).unwrap() = Value::Int32(n);
    }
    let bytes = schema.encode(&value, 9).expect("fits");
    let mut expected = vec![32, 0, 9, 0];
    for (u, i) in [(1u32, -3i32), (2, -2), (3, -1)] {
        expected.extend(u.to_le_bytes());
        expected.extend(i.to_le_bytes());
    }
    expected.extend(4u32.to_le_bytes());
    assert_eq!(bytes, expected);
    assert_eq!(schema.decode(&bytes).expect("reads back"), value);

    *value.get_mut("e").unwrap() = Value::Float(1.0);
    assert_eq!(mismatch(&refusal(schema, &value)), ("e", "uint32", "float"));
    *value.get_mut("d").unwrap() = Value::UInt32(1);
    assert_eq!(mismatch(&refusal(schema, &value)), ("d", "int32", "uint32"));
}

/// Elements of mixed scalars, too few of a type to chunk: written field
/// after field (a run), each checked.
#[test]
fn elements_of_mixed_scalars_are_written_and_checked() {
    let schema = &load(
        "S_MARKS.1.def",
        "array marks\n- uint32 id\n- float weight\n- int16 step\n- bool seen\n",
    );
    let json = r#"{"marks":[{"id":5,"weight":0.5,"step":-2,"seen":true},
        {"id":6,"weight":2.0,"step":3,"seen":false}]}"#;
    let mut value = schema
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .expect("the JSON fits the def");
    let bytes = schema.encode(&value, 9).expect("fits");
    let mut expected = vec![0, 0, 9, 0, 2, 0, 8, 0];
    for (here, next, id, weight, step, seen) in [
        (8u16, 23u16, 5u32, 0.5f32, -2i16, 1u8),
        (23, 0, 6, 2.0, 3, 0),
    ] {
        expected.extend(here.to_le_bytes());
        expected.extend(next.to_le_bytes());
        expected.extend(id.to_le_bytes());
        expected.extend(weight.to_le_bytes());
        expected.extend(step.to_le_bytes());
        expected.push(seen);
    }
    let len = u16::try_from(expected.len()).expect("a small packet");
    expected[..2].copy_from_slice(&len.to_le_bytes());
    assert_eq!(bytes, expected);
    assert_eq!(schema.decode(&bytes).expect("reads back"), value);

    let Some(Value::Array(marks)) = value.get_mut("marks") else {
        panic!("marks is an array");
    };
    let Value::Object(second) = &mut marks[1] else {
        panic!("an element is an object");
    };
    *second.get_mut("step").unwrap() = Value::UInt16(3);
    assert_eq!(
        mismatch(&refusal(schema, &value)),
        ("marks[1].step", "int16", "uint16")
    );
}

/// Three types in turn, one field each, then a string: too few of a type
/// to chunk well, so written field after field (a run), each checked.
#[test]
fn types_in_turn_before_a_string_are_written_and_checked() {
    let schema = &load(
        "S_TRIO.1.def",
        "uint32 a\nint16 b\nfloat c\nuint32 d\nint16 e\nfloat f\nstring name\n",
    );
    let json = r#"{"a":1,"b":-2,"c":0.5,"d":4,"e":-5,"f":6.0,"name":"x"}"#;
    let mut value = schema
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .expect("the JSON fits the def");
    let bytes = schema.encode(&value, 9).expect("fits");
    let mut expected = vec![0, 0, 9, 0, 26, 0];
    for (u, i, f) in [(1u32, -2i16, 0.5f32), (4, -5, 6.0)] {
        expected.extend(u.to_le_bytes());
        expected.extend(i.to_le_bytes());
        expected.extend(f.to_le_bytes());
    }
    expected.extend([b'x', 0, 0, 0]);
    let len = u16::try_from(expected.len()).expect("a small packet");
    expected[..2].copy_from_slice(&len.to_le_bytes());
    assert_eq!(bytes, expected);
    assert_eq!(schema.decode(&bytes).expect("reads back"), value);

    *value.get_mut("e").unwrap() = Value::Int32(-5);
    assert_eq!(mismatch(&refusal(schema, &value)), ("e", "int16", "int32"));
}

/// Empty arrays write nothing: their metadata, a count and an offset of
/// zero, is what their slot or ref holds. Written over a buffer of `0xAA`,
/// so that a slot left unwritten would show; then with one element each,
/// which must link up as before, and in a buffer one byte short.
#[test]
fn empty_arrays_leave_their_zeroed_metadata() {
    let implicit =
        "array list\n- uint32 x\n- string label\narray<int32> nums\narray marks\n- uint16 id\n";
    let explicit = "ref list\nref nums\nuint32 id\narray list\n- ref label\n- uint32 x\n- string label\narray<int32> nums\n";
    for (name, text, json, expected) in [
        (
            "S_IMPLICIT.1.def",
            implicit,
            r#"{"list":[],"nums":[],"marks":[]}"#,
            vec![16u8, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            "S_IMPLICIT.1.def",
            implicit,
            r#"{"list":[],"nums":[7],"marks":[{"id":3}]}"#,
            vec![
                30, 0, 9, 0, // header
                0, 0, 0, 0, 1, 0, 16, 0, 1, 0, 24, 0, // list, nums, marks
                16, 0, 0, 0, 7, 0, 0, 0, // nums[0]
                24, 0, 0, 0, 3, 0, // marks[0]
            ],
        ),
        (
            "S_EXPLICIT.1.def",
            explicit,
            r#"{"list":[],"nums":[],"id":5}"#,
            vec![16, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0],
        ),
        (
            "S_EXPLICIT.1.def",
            explicit,
            r#"{"list":[],"nums":[-1,2],"id":5}"#,
            vec![
                32, 0, 9, 0, 0, 0, 0, 0, 2, 0, 16, 0, 5, 0, 0, 0, // refs, id
                16, 0, 24, 0, 255, 255, 255, 255, // nums[0]
                24, 0, 0, 0, 2, 0, 0, 0, // nums[1]
            ],
        ),
    ] {
        let schema = &load(name, text);
        let value = schema
            .deserialize(&mut serde_json::Deserializer::from_str(json))
            .expect("the JSON fits the def");
        let mut buf = vec![0xAA; 64];
        let len = schema.encode_into(&value, 9, &mut buf).expect("fits");
        assert_eq!(buf[..len], expected, "{json}");
        assert_eq!(schema.decode(&buf[..len]).expect("reads back"), value);
        let short = schema.encode_into(&value, 9, &mut buf[..len - 1]);
        let needed = u32::try_from(len).expect("small");
        assert!(
            matches!(&short, Err(e) if matches!(e.kind(),
                EncodeErrorKind::Wire(w) if w.kind() == ErrorKind::BufferTooSmall { needed })),
            "{json}: {short:?}"
        );
    }
}
