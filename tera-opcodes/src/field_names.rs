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
    caps: HashMap<String, f64>,
}

impl FieldNames {
    /// Counts the field names of every version of every name of `defs`.
    pub(crate) fn count(defs: &DefSet) -> FieldNames {
        let mut holders: HashMap<String, usize> = HashMap::new();
        for name in &defs.names {
            let mut own: HashSet<String> = HashSet::new();
            for v in &name.versions {
                collect(v.schema.root(), &mut own);
            }
            for f in own {
                *holders.entry(f).or_default() += 1;
            }
        }
        let total = defs.names.len().max(1) as f64;
        let caps = holders
            .into_iter()
            .map(|(f, n)| {
                let bits = (PER_FIELD * (total / n as f64).log2()).clamp(1.0, FIELD_CAP);
                (f, bits)
            })
            .collect();
        FieldNames { caps }
    }

    /// What links through a field named `field` say at most.
    pub(crate) fn cap(&self, field: &str) -> f64 {
        self.caps.get(field).copied().unwrap_or(FIELD_CAP)
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
