//! The synthetic defs of ../shared/vectors/synthetic-defs, written by hand
//! with the derive, against the JS reference's vectors: decode `hex` and
//! compare with `value` (with `input` where the JS reader is wrong), then
//! encode the JSON value back and get `hex` byte for byte.
//!
//! Needs `TERA_DATA_DIR` (the tera-data folder; the vectors are beside it).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tera_packets::json::{int64, int64_array};
use tera_packets::{
    Angle, Array, Block, Bytes, Customize, Packet, SkillId, SkillId32, Str, Vec3, Vec3fa,
};

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_ALL_PRIMS", version = 1)]
struct AllPrims {
    b: bool,
    u8: u8,
    i16: i16,
    u16: u16,
    i32: i32,
    u32: u32,
    #[serde(with = "int64")]
    i64: i64,
    #[serde(with = "int64")]
    u64: u64,
    f32: f32,
    f64: f64,
    pos: Vec3,
    rot: Vec3fa,
    w: Angle,
    skill: SkillId,
    skill32: SkillId32,
    cust: Customize,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_BIG", version = 1)]
struct Big<'a> {
    id: u32,
    items: Array<'a, BigItem<'a>>,
    tail: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct BigItem<'a> {
    #[serde(with = "int64")]
    a: u64,
    s: Str<'a>,
    n: Array<'a, u16>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_DYN_ROOT", version = 1)]
struct DynRoot<'a> {
    a: i32,
    s1: Str<'a>,
    blob: Bytes<'a>,
    s2: Str<'a>,
    ints: Array<'a, i32>,
    strs: Array<'a, Str<'a>>,
    #[serde(with = "int64_array")]
    u64s: Array<'a, u64>,
    locs: Array<'a, Vec3>,
    skills: Array<'a, SkillId>,
    skills32: Array<'a, SkillId32>,
    angles: Array<'a, Angle>,
    custs: Array<'a, Customize>,
    floats: Array<'a, f32>,
    flags: Array<'a, bool>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_EXPLICIT_REF", version = 1)]
struct ExplicitRef<'a> {
    id: u32,
    #[tera(refs_before(list))]
    mid: i32,
    #[tera(refs_before(name, blob))]
    name: Str<'a>,
    blob: Bytes<'a>,
    list: Array<'a, ExplicitRefItem<'a>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct ExplicitRefItem<'a> {
    v: i32,
    #[tera(refs_before(sub))]
    w: u16,
    sub: Array<'a, i32>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_INTERLEAVED", version = 1)]
struct Interleaved<'a> {
    id: u32,
    #[tera(interleaved)]
    a: Array<'a, InterA<'a>>,
    #[tera(interleaved)]
    b: Array<'a, Vec3>,
    #[tera(interleaved)]
    c: Array<'a, InterC>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct InterA<'a> {
    x: u32,
    s: Str<'a>,
    n: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct InterC {
    y: u8,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_LEGACY_COUNT_OFFSET", version = 1)]
struct LegacyCountOffset<'a> {
    #[tera(refs_before(list, name))]
    id: u32,
    name: Str<'a>,
    list: Array<'a, LegacyItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct LegacyItem {
    v: i32,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_NESTED", version = 1)]
struct Nested<'a> {
    id: u32,
    outer: Array<'a, NestedOuter<'a>>,
    tail: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct NestedOuter<'a> {
    x: i32,
    name: Str<'a>,
    data: Bytes<'a>,
    mid: Array<'a, NestedMid<'a>>,
    names: Array<'a, Str<'a>>,
    nums: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct NestedMid<'a> {
    y: u16,
    tag: Str<'a>,
    inner: Array<'a, NestedInner<'a>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct NestedInner<'a> {
    z: u8,
    leaf: Str<'a>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_OBJECTS", version = 1)]
struct Objects<'a> {
    a: i32,
    #[tera(parts_after(e))]
    o: ObjectsO<'a>,
    e: i16,
    elems: Array<'a, ObjectsElem<'a>>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, Block)]
struct ObjectsO<'a> {
    b: i32,
    deep: Deep,
    #[tera(part = 1)]
    loc: Vec3,
    s: Str<'a>,
    arr: Array<'a, ObjectsArr>,
    deep2: Deep2<'a>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, Block)]
struct Deep {
    d: u16,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, Block)]
struct Deep2<'a> {
    blob: Bytes<'a>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct ObjectsArr {
    c: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct ObjectsElem<'a> {
    f: i32,
    eo: ElemObject<'a>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Block)]
struct ElemObject<'a> {
    es: Str<'a>,
    ei: Array<'a, i32>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, Packet)]
#[tera(name = "SYN_OBJECTS_READER_QUIRK", version = 1)]
struct ObjectsQuirk<'a> {
    a: i32,
    #[tera(parts_after(e))]
    o: QuirkO<'a>,
    e: i16,
    elems: Array<'a, ObjectsElem<'a>>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, Block)]
struct QuirkO<'a> {
    b: i32,
    s: Str<'a>,
    arr: Array<'a, ObjectsArr>,
    deep: QuirkDeep<'a>,
    #[tera(part = 1)]
    loc: Vec3,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, Block)]
struct QuirkDeep<'a> {
    d: u16,
    blob: Bytes<'a>,
}

/// The vectors folder, or `None` (with a notice) when the data is absent.
fn vectors_dir() -> Option<PathBuf> {
    let Some(data) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("skipping: TERA_DATA_DIR is not set (point it at ../shared/tera-data)");
        return None;
    };
    let dir = PathBuf::from(data).join("../vectors");
    if dir.join("synthetic.jsonl").is_file() {
        Some(dir)
    } else {
        eprintln!("skipping: no synthetic.jsonl in {}", dir.display());
        None
    }
}

/// Numbers compare by value (the JS writes `0` where serde writes `0.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Decodes, compares, re-encodes from JSON and compares bytes. A macro, so
/// that each type's lifetime is inferred at its use.
macro_rules! check {
    ($ty:ident, $line:expr) => {{
        let line: &Value = $line;
        let bytes = hex(line["hex"].as_str().unwrap());
        let expected = line.get("input").unwrap_or(&line["value"]);
        (|| -> Result<(), String> {
            let decoded = $ty::decode(&bytes).map_err(|e| format!("decode: {e}"))?;
            let json = serde_json::to_value(&decoded).unwrap();
            if !same(&json, expected) {
                return Err(format!("value differs:\n ours {json}\n want {expected}"));
            }
            let again = decoded.encode().map_err(|e| format!("encode: {e}"))?;
            if again != bytes {
                return Err("re-encoding the decoded value changed the bytes".into());
            }
            let from_json: $ty =
                serde_json::from_value(expected.clone()).map_err(|e| format!("json: {e}"))?;
            let encoded = from_json.encode().map_err(|e| format!("encode: {e}"))?;
            if encoded != bytes {
                return Err("encoding the JSON value does not give `hex`".into());
            }
            Ok(())
        })()
    }};
}

#[test]
fn synthetic_vectors_round_trip_byte_exact() {
    let Some(dir) = vectors_dir() else { return };
    let text = std::fs::read_to_string(dir.join("synthetic.jsonl")).unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let def = v["def"].as_str().unwrap().to_owned();
        let result = match def.as_str() {
            "SYN_ALL_PRIMS.1.def" => check!(AllPrims, &v),
            "SYN_BIG.1.def" => check!(Big, &v),
            "SYN_DYN_ROOT.1.def" => check!(DynRoot, &v),
            "SYN_EXPLICIT_REF.1.def" => check!(ExplicitRef, &v),
            "SYN_INTERLEAVED.1.def" => check!(Interleaved, &v),
            "SYN_LEGACY_COUNT_OFFSET.1.def" => check!(LegacyCountOffset, &v),
            "SYN_NESTED.1.def" => check!(Nested, &v),
            "SYN_OBJECTS.1.def" => check!(Objects, &v),
            "SYN_OBJECTS_READER_QUIRK.1.def" => check!(ObjectsQuirk, &v),
            other => Err(format!("no hand-written type for {other}")),
        };
        match result {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{def} k={}: {e}", v["k"])),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, 72, "expected all 72 synthetic vectors");
}
