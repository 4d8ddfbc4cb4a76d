//! The runtime's catalogue of hostile packets (`tera-packets`' test
//! `hostile/catalogue.rs`, included here whole), with every rejection of the
//! derived types checked against the dynamic decoder given the same packet
//! as a def: rejected too, with the same error kind, byte and field.

use std::sync::{Arc, LazyLock};

use tera_dynamic::{Catalog, Schema, ViewBuf};

#[path = "../../tera-packets/tests/hostile/catalogue.rs"]
mod catalogue;

/// Each derived type of the catalogue, as the def its doc comment gives.
/// (`H_BYTES_LIST`, an `array<bytes>`, is not in the def language: the
/// derive can write it, a def cannot.)
const DEFS: &[(&str, &str)] = &[
    ("H_FIXED.1.def", "uint16 a\nint32 b\n"),
    ("H_STR.1.def", "string s\n"),
    ("H_RENAMED.1.def", "string playerName\n"),
    ("H_TWO_STR.1.def", "string a\nstring b\n"),
    (
        "H_INPUT_COMMAND.1.def",
        "string command\nstring parameter\nbool unk\n",
    ),
    ("H_BYTES.1.def", "bytes d\n"),
    ("H_LIST.1.def", "array list\n- int32 v\n"),
    ("H_LIST16.1.def", "array list\n- uint16 x\n"),
    ("H_STR_LIST.1.def", "array<string> list\n"),
    (
        "H_NESTED.1.def",
        "array outer\n- array inner\n-- uint16 x\n",
    ),
    ("H_REF.1.def", "uint32 id\nref list\narray list\n- byte v\n"),
];

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    let mut catalog = Catalog::new();
    for (file, source) in DEFS {
        if let Err(report) = catalog.add_def(file, source) {
            panic!("{}", report.render(false));
        }
    }
    catalog
});

fn schema(name: &str) -> Option<&'static Arc<Schema>> {
    CATALOG.get(name, 1)
}

/// The hook the catalogue calls with each rejection of a derived type.
fn also_rejects(name: &str, bytes: &[u8], generated: &tera_packets::Error) {
    let Some(schema) = schema(name) else {
        assert_eq!(name, "H_BYTES_LIST", "every other type has its def");
        return;
    };
    let dynamic = match schema.decode(bytes) {
        Ok(v) => panic!(
            "{name}: the derived type rejects ({generated}), the dynamic decoder reads {v:?}"
        ),
        Err(e) => e,
    };
    assert_eq!(
        (dynamic.kind(), dynamic.offset(), dynamic.field()),
        (generated.kind(), generated.offset(), generated.field()),
        "{name}: dynamic `{dynamic}`, derived `{generated}`"
    );
    assert_eq!(dynamic.to_string(), generated.to_string());
    // A view in a kept buffer, one that has read other packets, refuses
    // with the same error.
    let mut buf = ViewBuf::new();
    let _ = schema.view_in(&schema.encode(&schema.zero(), 0).unwrap(), &mut buf);
    let kept = schema.view_in(bytes, &mut buf).map(|v| v.record().len());
    assert_eq!(kept, Err(dynamic), "{name}: view_in");
}
