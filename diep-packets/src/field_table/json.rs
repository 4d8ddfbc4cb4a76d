//! Loading a field table from JSON in the format of `fields.json`.

use serde::Deserialize;

use super::{Encoding, FieldTable, RawField, TableError};

#[derive(Deserialize)]
struct JsonTable {
    #[serde(default)]
    build: String,
    groups: Vec<JsonGroup>,
    order: Vec<String>,
}

#[derive(Deserialize)]
struct JsonGroup {
    id: u32,
    name: String,
    #[serde(default = "yes")]
    used: bool,
    #[serde(default)]
    fields: Vec<JsonField>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct JsonField {
    name: String,
    encoding: String,
    #[serde(default)]
    count: u32,
    #[serde(default)]
    default: Option<f64>,
    #[serde(default)]
    update_encoding: Option<String>,
}

impl FieldTable {
    /// Loads a table in the format of `fields.json`: `build`, `groups`
    /// (`id`, `name`, `used`, `fields` with `name`, `encoding`, `count`,
    /// `default`, `update_encoding`) and `order` (`Group.field` names).
    pub fn from_json(text: &str) -> Result<Self, TableError> {
        let table: JsonTable = serde_json::from_str(text)?;
        let mut groups = Vec::with_capacity(table.groups.len());
        for (index, g) in table.groups.iter().enumerate() {
            if usize::try_from(g.id).ok() != Some(index) {
                return Err(TableError::GroupId {
                    name: g.name.clone(),
                    id: g.id,
                    index,
                });
            }
            let mut fields = Vec::with_capacity(g.fields.len());
            for f in &g.fields {
                let encoding_of = |name: &str| {
                    Encoding::from_name(name).ok_or_else(|| TableError::UnknownEncoding {
                        field: format!("{}.{}", g.name, f.name),
                        encoding: name.to_owned(),
                    })
                };
                fields.push(RawField {
                    name: &f.name,
                    encoding: encoding_of(&f.encoding)?,
                    count: f.count,
                    default: f.default,
                    update_encoding: f.update_encoding.as_deref().map(encoding_of).transpose()?,
                });
            }
            groups.push((g.name.as_str(), g.used, fields));
        }
        Self::assemble(&table.build, groups, table.order.iter().map(String::as_str))
    }
}
