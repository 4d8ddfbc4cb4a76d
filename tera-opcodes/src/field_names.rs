//! How common each field name is among the defs: a value found in a field
//! named `gameId` says the packet is about an entity, which a third of
//! the game's packets are; in a field named `contractId`, far more. A
//! link through a field is worth no more than the odds against a def
//! having a field of that name at all: a rival def, or the true def the
//! set lacks, names its fields alike.

use std::collections::{HashMap, HashSet};

use tera_dynamic::StructSchema;

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
}

impl FieldNames {
    /// Counts the field names of every version of every name of `defs`.
    pub(crate) fn count(defs: &DefSet) -> FieldNames {
        let mut holders: HashMap<String, Vec<usize>> = HashMap::new();
        for (k, name) in defs.names.iter().enumerate() {
            let mut own: HashSet<String> = HashSet::new();
            for v in &name.versions {
                collect(v.schema.root(), &mut own);
            }
            for f in own {
                holders.entry(f).or_default().push(k);
            }
        }
        FieldNames {
            holders,
            names: defs.names.len(),
        }
    }

    /// The share of the defs' names that have a field of every name of
    /// `fields` (one name of all at least: the names a def of the set has
    /// are all at hand).
    pub(crate) fn share_of_all<'f>(&self, fields: impl IntoIterator<Item = &'f str>) -> f64 {
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
        let all = self.names.max(1);
        let n = common.map_or(all, |c| c.len()).max(1);
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

fn collect(s: &StructSchema, out: &mut HashSet<String>) {
    for f in s.fields() {
        out.insert(f.name().to_owned());
        if let Some(inner) = f.kind().struct_schema() {
            collect(inner, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_dynamic::Catalog;

    #[test]
    fn fields_held_together_are_rarer_than_each() {
        let mut catalog = Catalog::new();
        for (name, body) in [
            ("S_A", "uint64 gameId\nvec3 loc\n"),
            ("S_B", "uint64 gameId\nuint32 skill\n"),
            ("S_C", "uint64 gameId\nvec3 loc\nuint32 skill\n"),
            ("S_D", "uint32 count\n"),
        ] {
            catalog.add_def(&format!("{name}.1.def"), body).unwrap();
        }
        let names = FieldNames::count(&DefSet::from_catalog(&catalog));
        assert_eq!(names.share_of_all(["gameId"]), 0.75);
        assert_eq!(names.share_of_all(["gameId", "loc"]), 0.5);
        assert_eq!(names.share_of_all(["loc", "skill"]), 0.25);
        // No def holds both, yet one may: one name of all at least.
        assert_eq!(names.share_of_all(["count", "loc"]), 0.25);
        assert_eq!(names.share_of_all(["unheard"]), 0.25);
    }
}
