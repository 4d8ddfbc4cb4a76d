//! A session's packets (JSON of named fields, as the stand-in hands them to
//! tera-game-state) as bytes, through the project's defs read at run time:
//! fields a session leaves out are zero, as the generated packets'
//! `Default`.

use std::path::Path;

use serde_json::{Map, Value as Json};
use tera_dynamic::{Catalog, ElementKind, Kind, StructSchema, Value};

/// The project's defs.
pub fn catalog(defs: &Path) -> Catalog {
    let mut catalog = Catalog::new();
    let loaded = catalog.load_dir(defs);
    assert!(
        loaded > 0 && catalog.problems().is_empty(),
        "{} defs from {}, problems: {:?}",
        loaded,
        defs.display(),
        catalog.problems().len()
    );
    catalog
}

/// The whole packet (header included) of one step: by its def when it
/// names a version the project has, else the header alone (packets read by
/// name only; a def the project lacks is one game state does not read, or
/// its decode failure fails the test).
pub fn encode(catalog: &Catalog, name: &str, version: Option<u64>, fields: &Json) -> Vec<u8> {
    let header = vec![4, 0, 0, 0];
    let Some(version) = version else {
        return header;
    };
    let version = u32::try_from(version).expect("a def version");
    let Some(schema) = catalog.get(name, version) else {
        return header;
    };
    let empty = Map::new();
    let given = fields.as_object().unwrap_or(&empty);
    let full = filled(schema.root(), given);
    let record = schema
        .deserialize(full)
        .unwrap_or_else(|e| panic!("{name}.{version}: {e}"));
    schema
        .encode(&record, 0)
        .unwrap_or_else(|e| panic!("{name}.{version}: {e}"))
}

/// `given` with every field of `schema` it lacks set to zero.
fn filled(schema: &StructSchema, given: &Map<String, Json>) -> Json {
    let mut out = Map::new();
    for field in schema.fields() {
        let value = match (given.get(field.name()), field.kind()) {
            (Some(Json::Object(inner)), Kind::Object(object)) => filled(object, inner),
            (Some(Json::Array(elements)), Kind::Array(ElementKind::Block(block))) => Json::Array(
                elements
                    .iter()
                    .map(|e| filled(block, e.as_object().expect("an element's fields")))
                    .collect(),
            ),
            (Some(value), _) => value.clone(),
            (None, kind) => serde_json::to_value(Value::zero(kind)).expect("a zero value"),
        };
        out.insert(field.name().to_owned(), value);
    }
    Json::Object(out)
}
