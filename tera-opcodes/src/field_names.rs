//! How common each field name is among the defs: a value found in a field
//! named `gameId` says the packet is about an entity, which a third of
//! the game's packets are; in a field named `contractId`, far more. A
//! link through a field is worth no more than the odds against a def
//! having a field of that name at all: a rival def, or the true def the
//! set lacks, names its fields alike. A def that fits where a packet holds
//! a text has a text there, so a text field's name is as common as it is
//! among the defs that have a text (of tera-data's 156 names with a
//! text, 96 have a `name` or a `...Name`).

use std::collections::{HashMap, HashSet};

use tera_dynamic::{ElementKind, Kind, StructSchema};

use crate::defset::DefSet;

/// What links through one field say at most, however rare its name.
const FIELD_CAP: f64 = 32.0;
/// A field name's odds count this many times: one field is several values.
const PER_FIELD: f64 = 2.0;

/// The share of the defs' names that have a field of each name.
#[derive(Debug, Default)]
pub(crate) struct FieldNames {
    /// The names (indices into the def set, ascending) that have a field
    /// of each name.
    holders: HashMap<String, Vec<usize>>,
    names: usize,
    /// The names that have a text field.
    with_text: usize,
}

impl FieldNames {
    /// Counts the field names of every version of every name of `defs`.
    pub(crate) fn count(defs: &DefSet) -> FieldNames {
        let mut holders: HashMap<String, Vec<usize>> = HashMap::new();
        let mut with_text = 0;
        for (k, name) in defs.names.iter().enumerate() {
            let mut own: HashSet<String> = HashSet::new();
            let mut text = false;
            for v in &name.versions {
                collect(v.schema.root(), &mut own, &mut text);
            }
            for f in own {
                holders.entry(f).or_default().push(k);
            }
            with_text += usize::from(text);
        }
        FieldNames {
            holders,
            names: defs.names.len(),
            with_text,
        }
    }

    /// The share of the defs' names that have a field of every name of
    /// `fields` (one name of all at least: the names a def of the set has
    /// are all at hand), among those that have a text when `text` (one of
    /// `fields` is a text where it was read).
    pub(crate) fn share_of_all<'f>(
        &self,
        fields: impl IntoIterator<Item = &'f str>,
        text: bool,
    ) -> f64 {
        let mut common: Option<Vec<usize>> = None;
        for f in fields {
            let held = self.holders.get(f).map_or(&[][..], Vec::as_slice);
            common = Some(match common {
                None => held.to_vec(),
                Some(c) => c
                    .into_iter()
                    .filter(|k| held.binary_search(k).is_ok())
                    .collect(),
            });
        }
        let all = if text { self.with_text } else { self.names }.max(1);
        let n = common.map_or(all, |c| c.len()).clamp(1, all);
        n as f64 / all as f64
    }

    /// What links through a field named `field` say at most.
    pub(crate) fn cap(&self, field: &str) -> f64 {
        let Some(held) = self.holders.get(field) else {
            return FIELD_CAP;
        };
        let total = self.names.max(1) as f64;
        (PER_FIELD * (total / held.len() as f64).log2()).clamp(1.0, FIELD_CAP)
    }
}

fn collect(s: &StructSchema, out: &mut HashSet<String>, text: &mut bool) {
    for f in s.fields() {
        out.insert(f.name().to_owned());
        *text |= is_text(f.kind());
        if let Some(inner) = f.kind().struct_schema() {
            collect(inner, out, text);
        }
    }
}

fn is_text(kind: &Kind) -> bool {
    matches!(kind, Kind::String | Kind::Array(ElementKind::String))
}

/// Whether `schema` has a text field named `field`, at any depth.
pub(crate) fn has_text(schema: &StructSchema, field: &str) -> bool {
    schema.fields().iter().any(|f| {
        (f.name() == field && is_text(f.kind()))
            || f.kind()
                .struct_schema()
                .is_some_and(|inner| has_text(inner, field))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_dynamic::Catalog;

    /// A def set of one version of each (name, body).
    fn defs_of(defs: [(&str, &str); 4]) -> DefSet {
        let mut catalog = Catalog::new();
        for (name, body) in defs {
            catalog.add_def(&format!("{name}.1.def"), body).unwrap();
        }
        DefSet::from_catalog(&catalog)
    }

    #[test]
    fn fields_held_together_are_rarer_than_each() {
        let names = FieldNames::count(&defs_of([
            ("S_A", "uint64 gameId\nvec3 loc\n"),
            ("S_B", "uint64 gameId\nuint32 skill\n"),
            ("S_C", "uint64 gameId\nvec3 loc\nuint32 skill\n"),
            ("S_D", "uint32 count\n"),
        ]));
        assert_eq!(names.share_of_all(["gameId"], false), 0.75);
        assert_eq!(names.share_of_all(["gameId", "loc"], false), 0.5);
        assert_eq!(names.share_of_all(["loc", "skill"], false), 0.25);
        // No def holds both, yet one may: one name of all at least.
        assert_eq!(names.share_of_all(["count", "loc"], false), 0.25);
        assert_eq!(names.share_of_all(["unheard"], false), 0.25);
    }

    #[test]
    fn a_text_field_is_as_common_as_among_the_defs_with_a_text() {
        let defs = defs_of([
            ("S_A", "uint64 gameId\nstring name\n"),
            ("S_B", "uint32 id\nstring message\n"),
            ("S_C", "uint64 gameId\n"),
            ("S_D", "uint32 count\n"),
        ]);
        let names = FieldNames::count(&defs);
        // One def of the two with a text names it `name`.
        assert_eq!(names.share_of_all(["name"], true), 0.5);
        assert_eq!(names.share_of_all(["gameId", "name"], true), 0.5);
        // An integer's name among all four.
        assert_eq!(names.share_of_all(["gameId"], false), 0.5);
        assert_eq!(names.share_of_all(["id"], false), 0.25);
        // Which is which, the def read with says.
        let a = defs.names[defs.index("S_A").unwrap()].versions[0]
            .schema
            .root();
        assert!(has_text(a, "name") && !has_text(a, "gameId") && !has_text(a, "message"));
    }
}
