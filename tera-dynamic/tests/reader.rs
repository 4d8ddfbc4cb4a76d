//! What a passive reader meets: typed getters whose errors name the packet
//! and the field, exact fit against versions that merely decode, and maps
//! of any file name.

use tera_dynamic::{Catalog, Misfit, Value};

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    catalog
        .add_def(
            "S_EACH_SKILL_RESULT.3.def",
            "uint64 source\nuint64 target\nint64 damage\nbool crit\narray hits\n- uint32 value\nstring note\n",
        )
        .unwrap();
    catalog
}

fn hit() -> tera_dynamic::Record<'static> {
    let catalog = catalog();
    let schema = catalog.get("S_EACH_SKILL_RESULT", 3).unwrap();
    schema
        .deserialize(serde_json::json!({
            "source": 1, "target": 2, "damage": 70000, "crit": true,
            "hits": [{"value": 5}], "note": "x"
        }))
        .unwrap()
}

#[test]
fn getters_read_fields_of_any_integer_width_that_fits() {
    let hit = hit();
    assert_eq!(hit.i64("damage").unwrap(), 70000);
    assert_eq!(hit.u32("damage").unwrap(), 70000);
    assert_eq!(hit.u64("source").unwrap(), 1);
    assert!(hit.bool("crit").unwrap());
    assert_eq!(hit.string("note").unwrap(), "x");
    assert_eq!(hit.array("hits").unwrap()[0].u32("value").unwrap(), 5);
    let value = Value::Object(hit);
    assert_eq!(value.i64("damage").unwrap(), 70000);
}

#[test]
fn a_typo_names_the_packet_the_field_and_the_nearest_names() {
    let hit = hit();
    let error = hit.u32("damag").unwrap_err();
    assert!(error.is_missing());
    assert_eq!(error.owner(), "S_EACH_SKILL_RESULT.3");
    assert_eq!(
        error.to_string(),
        "S_EACH_SKILL_RESULT.3 has no field `damag`: did you mean `damage`?"
    );
    assert_eq!(
        hit.u32("amount").unwrap_err().to_string(),
        "S_EACH_SKILL_RESULT.3 has no field `amount`; its fields: source, target, damage, crit, \
         hits, note"
    );
}

#[test]
fn a_field_of_another_type_says_what_it_holds() {
    let hit = hit();
    assert_eq!(
        hit.u32("note").unwrap_err().to_string(),
        "S_EACH_SKILL_RESULT.3 field `note` is a string, not u32"
    );
    assert_eq!(
        hit.u16("damage").unwrap_err().to_string(),
        "S_EACH_SKILL_RESULT.3 field `damage` holds 70000, which is not a u16"
    );
    assert_eq!(
        hit.string("hits").unwrap_err().to_string(),
        "S_EACH_SKILL_RESULT.3 field `hits` is an array, not string"
    );
    // An array element is named by its array.
    let element = &hit.array("hits").unwrap()[0];
    assert_eq!(
        element.u32("vaule").unwrap_err().to_string(),
        "S_EACH_SKILL_RESULT.3 hits[] has no field `vaule`: did you mean `value`?"
    );
    // A getter of a value that has no fields.
    let scalar = Value::UInt32(1);
    assert!(
        scalar
            .u32("x")
            .unwrap_err()
            .to_string()
            .contains("has no fields")
    );
}

#[test]
fn exact_fit_refuses_trailing_bytes_and_other_layouts_that_decode() {
    let mut catalog = Catalog::new();
    let v1 = catalog.add_def("S_SPAWN.1.def", "uint32 id\n").unwrap();
    let v2 = catalog
        .add_def("S_SPAWN.2.def", "uint32 id\nuint16 kind\n")
        .unwrap();
    let flag = catalog.add_def("S_FLAG.1.def", "bool on\n").unwrap();
    let packet = [10, 0, 7, 0, 1, 0, 0, 0, 3, 0];
    // Both decode; only version 2 reads every byte.
    assert!(v1.decode(&packet).is_ok() && v2.decode(&packet).is_ok());
    assert_eq!(v1.fit(&packet), Err(Misfit::Trailing { left: 2, len: 10 }));
    assert_eq!(v2.fit(&packet), Ok(()));
    // Too short for version 2.
    assert!(matches!(v2.fit(&packet[..8]), Err(Misfit::Decode(_))));
    // A bool of 2 reads as true and encodes as 1: not what the def wrote.
    assert_eq!(
        flag.fit(&[5, 0, 7, 0, 2]),
        Err(Misfit::Reencode {
            at: 4,
            again: 5,
            len: 5
        })
    );
    // A string's offset where the writer would not put it: the value
    // encodes shorter, and not as a prefix.
    let chat = catalog.add_def("S_SAY.1.def", "string text\n").unwrap();
    let spaced = [12, 0, 7, 0, 8, 0, 0, 0, b'h', 0, 0, 0];
    assert!(chat.decode(&spaced).is_ok());
    assert_eq!(
        chat.fit(&spaced).unwrap_err().to_string(),
        "encodes to other bytes from byte 4 (10 bytes, not 12)"
    );
    assert_eq!(flag.fit(&[5, 0, 7, 0, 1]), Ok(()));
    assert_eq!(
        v1.fit(&packet).unwrap_err().to_string(),
        "2 of its 10 bytes are left after the def's fields"
    );
}

#[test]
fn a_map_of_any_file_name_takes_the_revision_given() {
    let dir = std::env::temp_dir().join(format!("tera-dynamic-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("opcodes-eu.txt");
    std::fs::write(&path, "S_EACH_SKILL_RESULT 1234\n").unwrap();
    let mut catalog = catalog();
    // The file name gives no revision: `load_map` reads a map without one.
    catalog.load_map(&path).unwrap();
    assert_eq!(catalog.protocol_map().unwrap().revision(), None);
    catalog.load_map_as(&path, 319_256).unwrap();
    assert_eq!(catalog.protocol_map().unwrap().revision(), Some(319_256));
    assert_eq!(catalog.by_opcode(1234, None).map(|s| s.version()), Some(3));
    // A line left out is reported, naming the file the user gave.
    std::fs::write(&path, "S_EACH_SKILL_RESULT\n").unwrap();
    catalog.load_map_as(&path, 1).unwrap();
    let report = catalog.problems().last().unwrap();
    assert_eq!(report.file_name, path.display().to_string());
    assert!(!report.is_ok());
    assert!(catalog.load_map_as(dir.join("missing"), 1).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
