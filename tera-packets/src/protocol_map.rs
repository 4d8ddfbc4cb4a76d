//! Opcode maps: packet name <-> opcode, which differ per client build.

use std::collections::{BTreeMap, HashMap};

/// A map compiled into a crate by the build script.
#[derive(Debug, Clone, Copy)]
pub struct StaticMap<C: 'static> {
    /// The revision from the file name (`365100` in `protocol.365100.map`).
    pub revision: u32,
    /// `(name, code)` in file order.
    pub entries: &'static [(&'static str, C)],
}

/// A protocol map: packet name <-> opcode, both ways, one opcode per name
/// and one name per opcode.
///
/// The one map type of the workspace: compiled-in maps
/// ([`ProtocolMap::from_static`]), maps read at run time (the def front end
/// parses and checks the file; `tera_dynamic::load_protocol_map` turns it
/// into this type), and maps that opcode discovery builds and writes
/// ([`ProtocolMap::insert`], [`ProtocolMap::to_text`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtocolMap {
    revision: Option<u32>,
    /// By name, so that iteration and the written text are in name order.
    by_name: BTreeMap<String, u16>,
    by_code: HashMap<u16, String>,
}

impl ProtocolMap {
    /// An empty map without a revision.
    pub fn new() -> Self {
        ProtocolMap::default()
    }

    /// A map from a compiled-in table.
    pub fn from_static(map: &StaticMap<u16>) -> Self {
        ProtocolMap::from_entries(Some(map.revision), map.entries.iter().copied())
    }

    /// A map of `(name, opcode)` pairs already checked elsewhere (a map
    /// file the def front end read, say); a later pair for a name or an
    /// opcode replaces an earlier one, as [`ProtocolMap::insert`] does.
    pub fn from_entries<'a>(
        revision: Option<u32>,
        entries: impl IntoIterator<Item = (&'a str, u16)>,
    ) -> Self {
        let mut out = ProtocolMap {
            revision,
            ..ProtocolMap::default()
        };
        for (name, code) in entries {
            out.insert(name, code);
        }
        out
    }

    /// Sets `name`'s opcode, taking both the name and the opcode from any
    /// earlier entries.
    pub fn insert(&mut self, name: &str, code: u16) {
        if let Some(old) = self.by_name.remove(name) {
            self.by_code.remove(&old);
        }
        if let Some(old) = self.by_code.remove(&code) {
            self.by_name.remove(&old);
        }
        self.by_name.insert(name.to_owned(), code);
        self.by_code.insert(code, name.to_owned());
    }

    /// The revision: the client build the map is for, when known.
    pub fn revision(&self) -> Option<u32> {
        self.revision
    }

    /// The opcode of a packet name.
    pub fn code(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied()
    }

    /// The packet name of an opcode.
    pub fn name(&self, code: u16) -> Option<&str> {
        self.by_code.get(&code).map(String::as_str)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// All `(name, opcode)` pairs, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u16)> {
        self.by_name.iter().map(|(n, c)| (n.as_str(), *c))
    }

    /// The map as the text of a `protocol.REV.map` file: `NAME = CODE` a
    /// line, by name, as tera-data's maps are written.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, code) in self.iter() {
            out.push_str(name);
            out.push_str(" = ");
            out.push_str(&code.to_string());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::ProtocolMap;

    #[test]
    fn from_entries_keeps_both_ways_one_to_one() {
        let map =
            ProtocolMap::from_entries(Some(7), [("S_A", 1), ("S_B", 2), ("S_A", 3), ("S_C", 2)]);
        assert_eq!(map.revision(), Some(7));
        assert_eq!(map.code("S_A"), Some(3));
        assert_eq!(map.name(1), None);
        assert_eq!(map.name(2), Some("S_C"));
        assert_eq!(map.code("S_B"), None);
        assert_eq!(map.len(), 2);
    }

    #[test]
    fn insert_takes_the_name_and_the_opcode_from_earlier_entries() {
        let mut map = ProtocolMap::new();
        map.insert("A", 1);
        map.insert("B", 1);
        assert_eq!(map.name(1), Some("B"));
        assert_eq!(map.code("A"), None);
        map.insert("B", 2);
        assert_eq!(map.name(1), None);
        assert_eq!(map.len(), 1);
        assert_eq!(map.revision(), None);
    }

    #[test]
    fn the_text_is_one_line_an_entry_by_name() {
        let map = ProtocolMap::from_entries(None, [("S_CHAT", 20), ("C_CHAT", 21)]);
        assert_eq!(map.to_text(), "C_CHAT = 21\nS_CHAT = 20\n");
        let names: Vec<&str> = map.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["C_CHAT", "S_CHAT"]);
    }
}
