//! Opcode maps as discovery reads and writes them: a previous version's
//! map, a partial map of the new one, and the `protocol.N.map` it
//! proposes, in the format the front end parses.

use std::collections::BTreeMap;
use std::path::Path;

use tera_defs_front::{MapKind, Report, load_map_file, parse_map};

/// Packet names and their opcodes, one opcode per name and one name per
/// opcode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpcodeMap {
    by_name: BTreeMap<String, u16>,
    by_code: BTreeMap<u16, String>,
}

/// Why a map cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The file does not parse; the report holds every diagnostic.
    #[error("{}", .0.render(false))]
    Parse(Box<Report>),
    /// A sysmsg map, or an opcode past 65535.
    #[error("{0}")]
    Invalid(String),
}

impl OpcodeMap {
    /// An empty map.
    pub fn new() -> Self {
        OpcodeMap::default()
    }

    /// Reads a `protocol.REV.map` file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, MapError> {
        let map = load_map_file(path.as_ref())
            .into_result()
            .map_err(|r| MapError::Parse(Box::new(r)))?;
        Self::from_file(map)
    }

    /// Parses the text of a map; `file_name` is `protocol.REV.map`.
    pub fn parse(file_name: &str, source: &str) -> Result<Self, MapError> {
        let map = parse_map(file_name, source)
            .into_result()
            .map_err(|r| MapError::Parse(Box::new(r)))?;
        Self::from_file(map)
    }

    fn from_file(file: tera_defs_front::MapFile) -> Result<Self, MapError> {
        if file.kind != MapKind::Protocol {
            return Err(MapError::Invalid(format!(
                "a {} map holds no opcodes",
                file.kind
            )));
        }
        let mut map = OpcodeMap::new();
        for e in file.entries {
            let code = u16::try_from(e.code).map_err(|_| {
                MapError::Invalid(format!("`{}` = {} is past 65535", e.name, e.code))
            })?;
            map.insert(&e.name, code);
        }
        Ok(map)
    }

    /// Sets `name`'s opcode, taking both the name and the opcode from any
    /// earlier entries.
    pub fn insert(&mut self, name: &str, opcode: u16) {
        if let Some(old) = self.by_name.remove(name) {
            self.by_code.remove(&old);
        }
        if let Some(old) = self.by_code.remove(&opcode) {
            self.by_name.remove(&old);
        }
        self.by_name.insert(name.to_owned(), opcode);
        self.by_code.insert(opcode, name.to_owned());
    }

    /// The opcode of `name`.
    pub fn opcode(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied()
    }

    /// The name of `opcode`.
    pub fn name(&self, opcode: u16) -> Option<&str> {
        self.by_code.get(&opcode).map(String::as_str)
    }

    /// Every entry, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u16)> {
        self.by_name.iter().map(|(n, c)| (n.as_str(), *c))
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The map's text: `NAME = CODE` a line, by name, as tera-data's maps
    /// are written.
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
    use super::*;

    #[test]
    fn a_map_reads_and_writes_the_front_end_format() {
        let map = OpcodeMap::parse("protocol.1.map", "S_CHAT = 20\n# c\nC_CHAT 21\n").unwrap();
        assert_eq!(map.opcode("S_CHAT"), Some(20));
        assert_eq!(map.name(21), Some("C_CHAT"));
        let text = map.to_text();
        assert_eq!(text, "C_CHAT = 21\nS_CHAT = 20\n");
        assert_eq!(OpcodeMap::parse("protocol.1.map", &text).unwrap(), map);
    }

    #[test]
    fn one_name_per_opcode_and_one_opcode_per_name() {
        let mut map = OpcodeMap::new();
        map.insert("A", 1);
        map.insert("B", 1);
        assert_eq!(map.name(1), Some("B"));
        assert_eq!(map.opcode("A"), None);
        map.insert("B", 2);
        assert_eq!(map.name(1), None);
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn bad_maps_are_errors() {
        assert!(matches!(
            OpcodeMap::parse("sysmsg.1.map", "SMT_X 1\n"),
            Err(MapError::Invalid(_))
        ));
        assert!(OpcodeMap::parse("protocol.1.map", "S_X = 70000\n").is_err());
        assert!(matches!(
            OpcodeMap::parse("protocol.1.map", "S_X = = 1\n"),
            Err(MapError::Parse(_))
        ));
    }
}
