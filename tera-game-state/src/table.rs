//! The shape of a routing table (packet name -> def versions by patch ->
//! reader) and how one is read: the def version of a packet for a patch,
//! the packets a patch cannot read, and the opcode table of a connection
//! (its map, patch, submodules and, when given, the defs loaded at run
//! time). Generic over the state `G` the readers change, so that this
//! module needs nothing of it (game state's table is
//! [`ROUTES`](crate::routes::ROUTES)).

use std::collections::HashMap;
use std::sync::Arc;

use tera_dynamic::{Catalog, Schema};
use tera_packets::ProtocolMap;

use crate::fields::Fields;
use crate::read_error::ReadError;
use crate::submodule::Submodules;

/// Reads a whole packet (header included) at one compiled-in def version
/// into the state.
pub(crate) type ReadCompiled<G> = fn(&mut G, &[u8]) -> Result<(), ReadError>;

/// Reads a packet decoded by a def loaded at run time into the state.
pub(crate) type ReadLoaded<G> = for<'r, 'a> fn(&mut G, Fields<'r, 'a>) -> Result<(), ReadError>;

/// A packet game state reads: the submodules it feeds (any of them), its
/// compiled-in def versions, and how it reads a def loaded at run time
/// (`None`: by its name only, nothing decoded).
pub(crate) struct Route<G: 'static> {
    pub name: &'static str,
    pub needs: Submodules,
    pub versions: &'static [Version<G>],
    pub loaded: Option<ReadLoaded<G>>,
}

/// One compiled-in def version of a packet (`version` 0 and `name` empty:
/// by name only), read from patch `since` on.
pub(crate) struct Version<G> {
    /// The generated type's packet name (checked against its route's).
    pub name: &'static str,
    pub version: u32,
    pub since: u32,
    pub read: ReadCompiled<G>,
}

/// Whether `a` and `b` are the same text (`==` is not a `const fn`).
const fn same(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.split_first(), b.split_first()) {
            (Some((x, a_rest)), Some((y, b_rest))) if *x == *y => (a, b) = (a_rest, b_rest),
            (None, None) => return true,
            _ => return false,
        }
    }
}

/// Whether every compiled-in version of each route decodes a packet of the
/// route's name (a version read by name only has none).
pub(crate) const fn versions_match_routes<G>(mut routes: &[Route<G>]) -> bool {
    while let Some((route, rest)) = routes.split_first() {
        let mut versions = route.versions;
        while let Some((version, others)) = versions.split_first() {
            if version.version != 0 && !same(version.name, route.name) {
                return false;
            }
            versions = others;
        }
        routes = rest;
    }
    true
}

/// The route of `name` in `routes`.
pub(crate) fn route<G>(routes: &'static [Route<G>], name: &str) -> Option<&'static Route<G>> {
    routes.iter().find(|r| r.name == name)
}

impl<G> Route<G> {
    /// The version read at `patch` (`None`: the newest).
    pub(crate) fn version_at(&self, patch: Option<u32>) -> Option<&'static Version<G>> {
        self.versions
            .iter()
            .filter(|v| patch.is_none_or(|p| v.since <= p))
            .max_by_key(|v| v.since)
    }
}

/// How one opcode is read, and what a failure names.
pub(crate) struct Entry<G> {
    pub name: &'static str,
    pub version: u32,
    pub how: How<G>,
}

/// A compiled-in reader, or a def loaded at run time with its reader.
pub(crate) enum How<G> {
    Compiled(ReadCompiled<G>),
    Loaded(Arc<Schema>, ReadLoaded<G>),
}

// Not derived: a derive would ask `G: Clone`, and fn pointers and an `Arc`
// clone whatever `G` is.
impl<G> Clone for Entry<G> {
    fn clone(&self) -> Self {
        Entry {
            name: self.name,
            version: self.version,
            how: match &self.how {
                How::Compiled(read) => How::Compiled(*read),
                How::Loaded(schema, read) => How::Loaded(Arc::clone(schema), *read),
            },
        }
    }
}

/// How `route` is read at `patch`: from `defs` when they hold it (the
/// version the compiled table reads at the patch if they have it, else
/// their newest), else compiled in; `None` when neither can.
pub(crate) fn entry<G>(
    route: &'static Route<G>,
    patch: Option<u32>,
    defs: Option<&Catalog>,
) -> Option<Entry<G>> {
    let compiled = route.version_at(patch);
    if let (Some(defs), Some(read)) = (defs, route.loaded) {
        let wanted = compiled.and_then(|v| defs.get(route.name, v.version));
        if let Some(schema) = wanted.or_else(|| defs.latest(route.name)) {
            return Some(Entry {
                name: route.name,
                version: schema.version(),
                how: How::Loaded(Arc::clone(schema), read),
            });
        }
    }
    compiled.map(|v| Entry {
        name: route.name,
        version: v.version,
        how: How::Compiled(v.read),
    })
}

/// The names game state reads none of at `patch`: no compiled-in version
/// is of the patch or before, and `defs` (when given) hold none.
pub(crate) fn unsupported<G>(
    routes: &'static [Route<G>],
    patch: Option<u32>,
    defs: Option<&Catalog>,
) -> Vec<&'static str> {
    routes
        .iter()
        .filter(|r| entry(r, patch, defs).is_none())
        .map(|r| r.name)
        .collect()
}

/// Opcode -> how to read it, for one connection's map, patch, submodules
/// and defs.
pub(crate) struct OpcodeTable<G> {
    entries: HashMap<u16, Entry<G>, foldhash::fast::FixedState>,
}

impl<G> Default for OpcodeTable<G> {
    fn default() -> Self {
        OpcodeTable {
            entries: HashMap::default(),
        }
    }
}

impl<G> Clone for OpcodeTable<G> {
    fn clone(&self) -> Self {
        OpcodeTable {
            entries: self.entries.clone(),
        }
    }
}

impl<G> std::fmt::Debug for OpcodeTable<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpcodeTable")
            .field("opcodes", &self.entries.len())
            .finish()
    }
}

impl<G> OpcodeTable<G> {
    /// The table of `map`: each packet of `routes` read for `enabled` at
    /// `patch`, where the map has it.
    pub(crate) fn new(
        routes: &'static [Route<G>],
        map: &ProtocolMap,
        patch: Option<u32>,
        enabled: Submodules,
        defs: Option<&Catalog>,
    ) -> Self {
        let mut entries = HashMap::with_hasher(foldhash::fast::FixedState::default());
        for route in routes.iter().filter(|r| r.needs.intersects(enabled)) {
            if let (Some(code), Some(entry)) = (map.code(route.name), entry(route, patch, defs)) {
                entries.insert(code, entry);
            }
        }
        OpcodeTable { entries }
    }

    /// How to read a packet of `opcode`.
    #[inline]
    pub(crate) fn get(&self, opcode: u16) -> Option<&Entry<G>> {
        self.entries.get(&opcode)
    }

    /// How many opcodes are read.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Each packet read, with the def version and whether it was loaded at
    /// run time, by name.
    pub(crate) fn versions(&self) -> Vec<(&'static str, u32, bool)> {
        let mut out: Vec<_> = self
            .entries
            .values()
            .map(|e| (e.name, e.version, matches!(e.how, How::Loaded(..))))
            .collect();
        out.sort_unstable();
        out
    }
}
