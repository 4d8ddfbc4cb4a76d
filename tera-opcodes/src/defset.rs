//! The defs discovery may assign: each packet name with its versions, the
//! direction its prefix gives (`C_` from the client, `S_` from the
//! server), and what each version's length can be.

use std::collections::HashMap;
use std::sync::Arc;

use tera_dynamic::{Catalog, Schema};
use tera_sessions::{Direction, direction_of};

/// One version of a name, with its length bounds.
#[derive(Debug, Clone)]
pub(crate) struct Version {
    pub(crate) schema: Arc<Schema>,
    /// The packet's length when it never varies.
    pub(crate) fixed_len: Option<usize>,
    /// The shortest packet it can be (every string, bytes and array empty).
    pub(crate) min_len: usize,
}

/// A packet name and its versions, oldest first.
#[derive(Debug, Clone)]
pub(crate) struct Name {
    pub(crate) name: Arc<str>,
    pub(crate) direction: Direction,
    pub(crate) versions: Vec<Version>,
}

/// The names discovery chooses from, by direction.
#[derive(Debug, Clone, Default)]
pub struct DefSet {
    pub(crate) names: Vec<Name>,
    by_name: HashMap<Arc<str>, usize>,
    /// Names discovery never assigns ([`discoverable`]: `I_`, `TTB_`).
    skipped: Vec<String>,
}

/// The direction of a name discovery may give an opcode: `C_` and `S_`
/// names, by [`direction_of`]. `I_` names travel to the client too, but
/// they are a proxy's commands to its client (tera-toolbox's
/// `I_TELEPORT`, `I_INPUT_COMMAND`): short or empty defs that would fit
/// many game packets, sent by no server in the sessions at hand.
pub(crate) fn discoverable(name: &str) -> Option<Direction> {
    direction_of(name).filter(|_| !name.starts_with("I_"))
}

impl DefSet {
    /// Every def of `catalog` without a platform infix, grouped by name.
    pub fn from_catalog(catalog: &Catalog) -> DefSet {
        let mut set = DefSet::default();
        for schema in catalog.iter() {
            if schema.platform().is_some() {
                continue;
            }
            set.add(Arc::clone(schema));
        }
        set
    }

    /// Adds one def (a later version of a name it holds, or a new name).
    pub fn add(&mut self, schema: Arc<Schema>) {
        let Some(direction) = discoverable(schema.name()) else {
            if !self.skipped.iter().any(|n| n == schema.name()) {
                self.skipped.push(schema.name().to_owned());
            }
            return;
        };
        let min_len = schema
            .encoded_len(&schema.zero())
            .unwrap_or(usize::from(u16::MAX));
        let version = Version {
            fixed_len: schema.fixed_len(),
            min_len,
            schema,
        };
        let name: Arc<str> = version.schema.name().into();
        let next = self.names.len();
        let index = *self.by_name.entry(Arc::clone(&name)).or_insert(next);
        if index == next {
            self.names.push(Name {
                name,
                direction,
                versions: Vec::new(),
            });
        }
        let versions = &mut self.names[index].versions;
        versions.retain(|v| v.schema.version() != version.schema.version());
        versions.push(version);
        versions.sort_by_key(|v| v.schema.version());
    }

    /// The set without the names `drop` says to leave out (defs nobody has
    /// written yet, as for the names a patch adds).
    pub fn without(&self, drop: impl Fn(&str) -> bool) -> DefSet {
        let mut set = DefSet {
            skipped: self.skipped.clone(),
            ..DefSet::default()
        };
        for name in self.names.iter().filter(|n| !drop(&n.name)) {
            for v in &name.versions {
                set.add(Arc::clone(&v.schema));
            }
        }
        set
    }

    /// The index of `name`, if the set holds it.
    pub(crate) fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The def of `name` at `version`, or its latest.
    pub fn schema(&self, name: &str, version: Option<u32>) -> Option<&Arc<Schema>> {
        let n = &self.names[self.index(name)?];
        match version {
            Some(v) => n.versions.iter().find(|x| x.schema.version() == v),
            None => n.versions.last(),
        }
        .map(|v| &v.schema)
    }

    /// The def of the name at index `n` at `version`, or its latest when
    /// it has no such version (a fit's version always is one).
    pub(crate) fn version(&self, n: usize, version: u32) -> &Arc<Schema> {
        let versions = &self.names[n].versions;
        let v = versions
            .iter()
            .find(|v| v.schema.version() == version)
            .unwrap_or(&versions[versions.len() - 1]);
        &v.schema
    }

    /// How many names the set holds.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the set holds no name.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// How many defs (versions of every name).
    pub fn defs(&self) -> usize {
        self.names.iter().map(|n| n.versions.len()).sum()
    }

    /// Names left out: their prefix gives no direction, or `I_` (see
    /// `discoverable` in the source).
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}
