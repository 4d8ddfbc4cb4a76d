//! How the routing table ([`ROUTES`](crate::routes::ROUTES)) is read: the
//! def version of a packet for a patch, the packets a patch cannot read,
//! and the opcode table of a connection (its map, patch, submodules and,
//! when given, the defs loaded at run time).

use std::collections::HashMap;
use std::sync::Arc;

use tera_dynamic::{Catalog, Schema};
use tera_packets::ProtocolMap;

use crate::fields::Fields;
use crate::game::GameState;
use crate::read_error::ReadError;
use crate::routes::ROUTES;
use crate::submodule::Submodules;

/// Reads a whole packet (header included) at one compiled-in def version
/// into the state.
pub(crate) type ReadCompiled = fn(&mut GameState, &[u8]) -> Result<(), ReadError>;

/// Reads a packet decoded by a def loaded at run time into the state.
pub(crate) type ReadLoaded =
    for<'r, 'a> fn(&mut GameState, Fields<'r, 'a>) -> Result<(), ReadError>;

/// A packet game state reads: the submodules it feeds (any of them), its
/// compiled-in def versions, and how it reads a def loaded at run time
/// (`None`: by its name only, nothing decoded).
#[derive(Clone, Copy)]
pub(crate) struct Route {
    pub name: &'static str,
    pub needs: Submodules,
    pub versions: &'static [Version],
    pub loaded: Option<ReadLoaded>,
}

/// One compiled-in def version of a packet (`version` 0 and `name` empty:
/// by name only), read from patch `since` on.
#[derive(Clone, Copy)]
pub(crate) struct Version {
    /// The generated type's packet name (checked against its route's).
    pub name: &'static str,
    pub version: u32,
    pub since: u32,
    pub read: ReadCompiled,
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
const fn versions_match_routes(mut routes: &[Route]) -> bool {
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

// A version filed under another packet's route does not compile.
const _: () = assert!(versions_match_routes(ROUTES));

/// The route of `name`.
pub(crate) fn route(name: &str) -> Option<&'static Route> {
    ROUTES.iter().find(|r| r.name == name)
}

impl Route {
    /// The version read at `patch` (`None`: the newest).
    pub(crate) fn version_at(&self, patch: Option<u32>) -> Option<&'static Version> {
        self.versions
            .iter()
            .filter(|v| patch.is_none_or(|p| v.since <= p))
            .max_by_key(|v| v.since)
    }
}

/// How one opcode is read, and what a failure names.
#[derive(Clone)]
pub(crate) struct Entry {
    pub name: &'static str,
    pub version: u32,
    pub how: How,
}

/// A compiled-in reader, or a def loaded at run time with its reader.
#[derive(Clone)]
pub(crate) enum How {
    Compiled(ReadCompiled),
    Loaded(Arc<Schema>, ReadLoaded),
}

/// How `route` is read at `patch`: from `defs` when they hold it (the
/// version the compiled table reads at the patch if they have it, else
/// their newest), else compiled in; `None` when neither can.
pub(crate) fn entry(
    route: &'static Route,
    patch: Option<u32>,
    defs: Option<&Catalog>,
) -> Option<Entry> {
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
pub(crate) fn unsupported(patch: Option<u32>, defs: Option<&Catalog>) -> Vec<&'static str> {
    ROUTES
        .iter()
        .filter(|r| entry(r, patch, defs).is_none())
        .map(|r| r.name)
        .collect()
}

/// Opcode -> how to read it, for one connection's map, patch, submodules
/// and defs.
#[derive(Default, Clone)]
pub(crate) struct OpcodeTable {
    entries: HashMap<u16, Entry, foldhash::fast::FixedState>,
}

impl std::fmt::Debug for OpcodeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpcodeTable")
            .field("opcodes", &self.entries.len())
            .finish()
    }
}

impl OpcodeTable {
    /// The table of `map`: each packet game state reads for `enabled` at
    /// `patch`, where the map has it.
    pub(crate) fn new(
        map: &ProtocolMap,
        patch: Option<u32>,
        enabled: Submodules,
        defs: Option<&Catalog>,
    ) -> Self {
        let mut entries = HashMap::with_hasher(foldhash::fast::FixedState::default());
        for route in ROUTES.iter().filter(|r| r.needs.intersects(enabled)) {
            if let (Some(code), Some(entry)) = (map.code(route.name), entry(route, patch, defs)) {
                entries.insert(code, entry);
            }
        }
        OpcodeTable { entries }
    }

    /// How to read a packet of `opcode`.
    #[inline]
    pub(crate) fn get(&self, opcode: u16) -> Option<&Entry> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_is_of_its_route_and_each_route_is_listed_once() {
        for (k, route) in ROUTES.iter().enumerate() {
            assert!(
                ROUTES.iter().skip(k + 1).all(|r| r.name != route.name),
                "{} twice",
                route.name
            );
            assert!(!route.versions.is_empty(), "{}", route.name);
            // Read by name only: no def to load; else a reader of loaded defs.
            let by_name = route.versions.iter().all(|v| v.version == 0);
            assert_eq!(by_name, route.loaded.is_none(), "{}", route.name);
            let mut since: Vec<u32> = route.versions.iter().map(|v| v.since).collect();
            since.dedup();
            assert_eq!(since.len(), route.versions.len(), "{}", route.name);
        }
    }

    #[test]
    fn the_patch_picks_the_newest_version_not_after_it() {
        let login = route("S_LOGIN").expect("a route");
        assert_eq!(login.version_at(Some(100)).map(|v| v.version), Some(14));
        assert_eq!(login.version_at(Some(114)).map(|v| v.version), Some(15));
        assert_eq!(login.version_at(None).map(|v| v.version), Some(15));
        assert!(login.version_at(Some(85)).is_none());
    }
}
