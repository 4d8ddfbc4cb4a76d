//! Helpers shared by the tests: hex, the shared vectors, sample messages.

#![allow(dead_code)]

use std::path::PathBuf;

use diep_packets::{
    EntId, FieldData, FieldEntry, FieldTable, Fixed64, StringNt, Upcreate, UpcreateKind, Update,
    Value,
};

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The `(side, name, bytes)` of every line of the shared messages.jsonl,
/// or nothing when the vectors are absent.
pub fn vector_messages() -> Vec<(String, String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = match std::env::var_os("DIEP_VECTORS").map(PathBuf::from) {
        Some(d) if d.is_relative() && !d.is_dir() => root.join(d),
        Some(d) => d,
        None => root.join("../shared/diep/vectors"),
    };
    let Ok(text) = std::fs::read_to_string(dir.join("messages.jsonl")) else {
        eprintln!(
            "diep vectors not found in {}: using the built-in samples only",
            dir.display()
        );
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["side"].as_str().unwrap().to_owned(),
                v["name"].as_str().unwrap().to_owned(),
                unhex(v["hex"].as_str().unwrap()),
            )
        })
        .collect()
}

/// An update with a deletion, a creation (with an array field) and an
/// update (with a sparse array field), through this build's table.
pub fn sample_update() -> Update {
    let t = FieldTable::builtin();
    let idx = |name: &str| t.index_of(name).unwrap();
    let arena = t.group_id("Arena").unwrap();
    let name_group = t.group_id("Name").unwrap();
    let mut groups = vec![arena, name_group];
    groups.sort_unstable();
    // Every field of the two groups, by order index.
    let mut fields: Vec<FieldEntry> = t
        .order()
        .iter()
        .enumerate()
        .filter(|(_, f)| groups.contains(&f.group()))
        .map(|(i, f)| {
            let one = |k: u32| match f.encoding() {
                diep_packets::Encoding::Vu => Value::Vu(k * 1000 + 7),
                diep_packets::Encoding::Vi => Value::Vi(-(k as i32) - 3),
                diep_packets::Encoding::F32 => Value::F32(k as f32 * 0.5),
                diep_packets::Encoding::Fixed64 => Value::Fixed64(Fixed64::from_steps(k as i32)),
                diep_packets::Encoding::StringNt => {
                    Value::Str(StringNt::new(format!("s{k}")).unwrap())
                }
                diep_packets::Encoding::EntId => Value::EntId(EntId::new(k + 1, k)),
            };
            let data = match f.count() {
                None => FieldData::One(one(i as u32)),
                Some(n) => FieldData::Elements((0..n).map(|e| (e, one(e))).collect()),
            };
            FieldEntry {
                index: i as u32,
                data,
            }
        })
        .collect();
    fields.sort_by_key(|f| f.index);
    let creation = Upcreate {
        entity: EntId::new(7, 300),
        kind: UpcreateKind::Creation,
        groups,
        fields,
    };
    let update = Upcreate {
        entity: EntId::new(9, 2),
        kind: UpcreateKind::Update,
        groups: vec![],
        fields: vec![
            FieldEntry {
                index: idx("Position.y"),
                data: FieldData::One(Value::Vi(-5)),
            },
            FieldEntry {
                index: idx("Arena.scoreboardScores"),
                data: FieldData::Elements(vec![(1, Value::Vi(40)), (9, Value::Vi(-1))]),
            },
            FieldEntry {
                index: idx("Name.name"),
                data: FieldData::One(Value::Str(StringNt::new("héllo").unwrap())),
            },
        ],
    };
    Update {
        tick: 1234,
        deletes: vec![EntId::new(3, 4), EntId::new(200, 16000)],
        upcreates: vec![creation, update],
    }
}
