//! The API a hook or a tool reads through: a def's fields and their kinds,
//! the checked setter, the accessors, `From`, `Index` and paths, on values
//! and on views.

use std::sync::Arc;

use tera_dynamic::{
    Catalog, ElementKind, Kind, Record, Scalar, Schema, SetError, Value, ViewValue,
};
use tera_packets::{Str, Vec3};

const PARTY: &str = "\
uint32 id
array members
- uint32 id
- string name
- array<uint16> buffs
object leader
- vec3 pos
- string name
array<string> notes
bytes blob
int64 exp
";

fn load(file: &str, text: &str) -> Arc<Schema> {
    let mut catalog = Catalog::new();
    catalog
        .add_def(file, text)
        .map_err(|report| report.render(false))
        .expect("the test def loads")
}

fn party(schema: &Schema) -> Record<'static> {
    schema
        .deserialize(serde_json::json!({
            "id": 1,
            "members": [
                {"id": 10, "name": "Elin", "buffs": [1, 2]},
                {"id": 11, "name": "Baraka", "buffs": []},
            ],
            "leader": {"pos": {"x": 1.0, "y": 2.0, "z": 3.0}, "name": "Elin"},
            "notes": ["a", "b"],
            "blob": "0aff",
            "exp": "-5",
        }))
        .expect("fits the def")
}

#[test]
fn a_schema_shows_every_field_with_its_kind() {
    let schema = load("S_PARTY.1.def", PARTY);
    let shown: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("{} {}", f.kind(), f.name()))
        .collect();
    assert_eq!(
        shown,
        [
            "uint32 id",
            "array members",
            "object leader",
            "array<string> notes",
            "bytes blob",
            "int64 exp"
        ]
    );
    let Kind::Array(ElementKind::Block(member)) = schema.field("members").unwrap().kind() else {
        panic!("members is an array of blocks");
    };
    let inner: Vec<String> = member
        .fields()
        .iter()
        .map(|f| format!("{} {}", f.kind(), f.name()))
        .collect();
    assert_eq!(inner, ["uint32 id", "string name", "array<uint16> buffs"]);
    assert!(matches!(
        member.field("buffs").unwrap().kind(),
        Kind::Array(ElementKind::Scalar(Scalar::UInt16))
    ));
    let Kind::Object(leader) = schema.field("leader").unwrap().kind() else {
        panic!("leader is an object");
    };
    assert!(matches!(
        leader.field("pos").unwrap().kind(),
        Kind::Scalar(Scalar::Vec3)
    ));
    assert_eq!(leader.index_of("name"), Some(1));
    assert!(schema.field("nobody").is_none());
    // A record knows its schema: the same struct the schema holds.
    let record = party(&schema);
    assert!(Arc::ptr_eq(record.schema(), schema.root()));
    let members = record["members"][0].as_record().unwrap();
    assert!(Arc::ptr_eq(members.schema(), member));
}

#[test]
fn the_setter_takes_a_value_of_the_fields_type() {
    let schema = load("S_PARTY.1.def", PARTY);
    let mut record = party(&schema);
    record.try_set("id", 7u32).unwrap();
    record.try_set("exp", i64::MIN).unwrap();
    record.try_set("notes", vec![Value::from("x")]).unwrap();
    record.try_set("blob", vec![1u8, 2, 3]).unwrap();
    let bytes = schema.encode(&record, 1).unwrap();
    let back = schema.decode(&bytes).unwrap();
    assert_eq!(back["id"], Value::UInt32(7));
    assert_eq!(back["exp"].as_i64(), Some(i64::MIN));
    assert_eq!(
        back.get_path("notes[0]").and_then(Value::as_str).unwrap(),
        "x"
    );
    assert_eq!(back["blob"].as_bytes(), Some(&[1u8, 2, 3][..]));
}

#[test]
fn the_setter_refuses_another_type_naming_the_field_and_changes_nothing() {
    let schema = load("S_PARTY.1.def", PARTY);
    let mut record = party(&schema);
    let before = record.clone();
    let e = record.try_set("id", 7u16).unwrap_err();
    assert_eq!(
        e,
        SetError::Mismatch {
            path: "id".into(),
            expected: "uint32",
            found: "uint16"
        }
    );
    assert_eq!(e.to_string(), "field `id`: expected uint32, found uint16");
    // Deep: the element of an array, the field of an element.
    let mut members = record["members"].clone();
    members[1]["name"] = Value::from(3u8);
    let e = record.try_set("members", members).unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `members[1].name`: expected string, found byte"
    );
    let e = record
        .try_set("notes", vec![Value::from("a"), Value::from(1u32)])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `notes[1]`: expected string, found uint32"
    );
    // A record of another struct is not an object of this one.
    let leader = record["leader"].clone();
    let e = record.try_set("members", vec![leader.clone()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `members[0].id`: expected uint32, found nothing"
    );
    let e = record.try_set("leader", Value::from("x")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `leader`: expected object, found string"
    );
    assert_eq!(
        record.try_set("leeder", leader),
        Err(SetError::NoField {
            name: "leeder".into()
        })
    );
    assert_eq!(record, before);
}

#[test]
fn an_object_of_another_def_of_the_same_shape_is_taken() {
    let schema = load("S_PARTY.1.def", PARTY);
    let other = load("S_LEADER.1.def", "vec3 pos\nstring name\n");
    let mut leader = other.zero();
    leader.try_set("name", "Kaia").unwrap();
    leader
        .try_set(
            "pos",
            Vec3 {
                x: 1.0,
                y: 0.0,
                z: -1.0,
            },
        )
        .unwrap();
    let mut record = party(&schema);
    record.try_set("leader", leader).unwrap();
    let bytes = schema.encode(&record, 1).unwrap();
    let back = schema.decode(&bytes).unwrap();
    assert_eq!(
        back.get_path("leader.name").unwrap().as_str().unwrap(),
        "Kaia"
    );
    assert_eq!(back["leader"]["pos"].as_vec3().map(|p| p.z), Some(-1.0));
}

#[test]
fn integer_accessors_read_any_width_that_fits() {
    assert_eq!(Value::UInt16(5).as_u32(), Some(5));
    assert_eq!(Value::Byte(5).as_i64(), Some(5));
    assert_eq!(Value::Int32(-1).as_u32(), None);
    assert_eq!(Value::Int32(-1).as_i16(), Some(-1));
    assert_eq!(Value::UInt32(70_000).as_u16(), None);
    assert_eq!(Value::UInt64(u64::MAX).as_i64(), None);
    assert_eq!(Value::UInt64(u64::MAX).as_u64(), Some(u64::MAX));
    assert_eq!(Value::Int64(i64::MIN).as_i64(), Some(i64::MIN));
    // Not integers: no number comes out.
    assert_eq!(Value::Bool(true).as_u8(), None);
    assert_eq!(Value::Float(1.0).as_u32(), None);
    assert_eq!(Value::from("7").as_u32(), None);
}

#[test]
fn other_accessors_read_their_own_variant() {
    assert_eq!(Value::Float(1.5).as_f64(), Some(1.5));
    assert_eq!(Value::Double(1.5).as_f32(), Some(1.5));
    assert_eq!(Value::Double(0.1).as_f32(), None, "not exact as f32");
    assert!(Value::Float(f32::NAN).as_f32().unwrap().is_nan());
    assert_eq!(Value::UInt32(1).as_f64(), None);
    assert_eq!(Value::Bool(true).as_bool(), Some(true));
    assert_eq!(Value::Byte(1).as_bool(), None);
    assert_eq!(Value::from("hi").as_str().unwrap(), "hi");
    assert_eq!(Value::from(1u32).as_str(), None);
    assert_eq!(Value::from(vec![9u8]).as_bytes(), Some(&[9u8][..]));
    assert_eq!(
        Value::from(vec![Value::from(1u8)]).as_array(),
        Some(&[Value::Byte(1)][..])
    );
    assert_eq!(Value::from(1u8).as_record(), None);
}

#[test]
fn from_gives_each_type_its_variant() {
    assert_eq!(Value::from(true), Value::Bool(true));
    assert_eq!(Value::from(7u32), Value::UInt32(7));
    assert_eq!(Value::from(-7i16), Value::Int16(-7));
    assert_eq!(Value::from(u64::MAX), Value::UInt64(u64::MAX));
    assert_eq!(Value::from(2.5f64), Value::Double(2.5));
    assert_eq!(Value::from("a"), Value::String(Str::from("a")));
    assert_eq!(
        Value::from(String::from("a")),
        Value::String(Str::from("a"))
    );
    assert_eq!(Value::from(&[1u8][..]).type_name(), "bytes");
    assert_eq!(Value::from(Vec3::default()).scalar(), Some(Scalar::Vec3));
}

#[test]
fn paths_and_indexes_reach_nested_fields() {
    let schema = load("S_PARTY.1.def", PARTY);
    let record = party(&schema);
    assert_eq!(record["members"][1]["name"].as_str().unwrap(), "Baraka");
    assert_eq!(
        record.get_path("members[1].name"),
        Some(&record["members"][1]["name"])
    );
    assert_eq!(
        record.get_path("members.1.name"),
        Some(&record["members"][1]["name"])
    );
    assert_eq!(
        record
            .get_path("members[0].buffs[1]")
            .and_then(Value::as_u16),
        Some(2)
    );
    assert_eq!(
        record.get_path("leader.name").unwrap().as_str().unwrap(),
        "Elin"
    );
    assert_eq!(record.get_path("id").and_then(Value::as_u32), Some(1));
    let value = Value::Object(record.clone());
    assert_eq!(
        value.get_path("members[0].id").and_then(Value::as_u32),
        Some(10)
    );
    assert_eq!(
        value
            .get("members")
            .and_then(|m| m.get(1))
            .and_then(|m| m.get("id")),
        Some(&Value::UInt32(11))
    );
    // Nothing there, or not a path: `None`, never a panic.
    for path in [
        "members[2].name",
        "members[0].nobody",
        "nobody",
        "id.x",
        "id[0]",
        "members[x]",
        "members[0",
        "members[0]]",
        "members..0",
        "",
        ".id",
        "[0]",
        "members[99999999999999999999999]",
    ] {
        assert_eq!(record.get_path(path), None, "{path}");
    }
}

#[test]
fn a_path_changes_a_nested_field_in_place() {
    let schema = load("S_PARTY.1.def", PARTY);
    let mut record = party(&schema);
    *record.get_path_mut("members[1].buffs").unwrap() = vec![Value::from(9u16)].into();
    record["members"][0]["id"] = Value::from(99u32);
    let bytes = schema.encode(&record, 1).unwrap();
    let back = schema.decode(&bytes).unwrap();
    assert_eq!(
        back.get_path("members[1].buffs[0]").and_then(Value::as_u16),
        Some(9)
    );
    assert_eq!(
        back.get_path("members[0].id").and_then(Value::as_u32),
        Some(99)
    );
}

#[test]
fn an_index_past_the_end_or_a_missing_field_is_a_null_as_in_serde_json() {
    let schema = load("S_PARTY.1.def", PARTY);
    let record = party(&schema);
    let nothing = [
        &record["members"][2],
        &record["members"][2]["name"],
        &record["members"][0]["nobody"],
        &record["nobody"],
        &record["id"][0],
        &record["id"]["x"],
        &record["notes"][usize::MAX],
    ];
    for value in nothing {
        assert_eq!(value, &Value::Null);
        assert!(value.is_null());
        assert_eq!(value.as_u32(), None);
        assert_eq!(value.as_str(), None);
        assert_eq!(value.type_name(), "null");
    }
    assert!(!record["members"][1]["name"].is_null());
    assert_eq!(serde_json::to_string(&record["nobody"]).unwrap(), "null");
    // `get` still tells nothing from a null.
    assert_eq!(record.get("nobody"), None);
    assert_eq!(record["members"].get(2), None);

    // A server's empty list: its first element is a null too.
    let mut empty = record.clone();
    *empty.get_mut("members").unwrap() = Value::Array(Vec::new());
    assert_eq!(empty["members"][0]["id"].as_u32(), None);
    // And a null is no value of any def type: encoding says so.
    let mut null = record.clone();
    *null.get_mut("id").unwrap() = Value::Null;
    let err = schema.encode(&null, 1).unwrap_err().to_string();
    assert!(err.contains("null"), "{err}");
}

#[test]
fn a_view_reads_by_path_too() {
    let schema = load("S_PARTY.1.def", PARTY);
    let bytes = schema.encode(&party(&schema), 1).unwrap();
    let view = schema.view(&bytes).unwrap();
    let record = view.record();
    let name = record.get_path("members[1].name").unwrap();
    assert_eq!(name.as_str().unwrap(), "Baraka");
    assert_eq!(
        record
            .get_path("members.0.buffs.1")
            .and_then(|v| v.as_u16()),
        Some(2)
    );
    assert_eq!(
        record
            .get_path("leader.pos")
            .and_then(|v| v.as_vec3())
            .map(|p| p.y),
        Some(2.0)
    );
    assert_eq!(record.get_path("exp").and_then(|v| v.as_i64()), Some(-5));
    assert!(record.get_path("members[2]").is_none());
    let members = record.get("members").and_then(|m| m.as_array()).unwrap();
    assert_eq!(members.len(), 2);
    assert!(matches!(members.get(1), Some(ViewValue::Object(_))));
    assert!(members.get(2).is_none());
}
