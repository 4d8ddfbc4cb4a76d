//! Opcode maps: packet name <-> opcode, which differ per client build.

use std::collections::HashMap;

/// A map compiled into a crate by the build script.
#[derive(Debug, Clone, Copy)]
pub struct StaticMap<C: 'static> {
    /// The revision from the file name (`365100` in `protocol.365100.map`).
    pub revision: u32,
    /// `(name, code)` in file order.
    pub entries: &'static [(&'static str, C)],
}

/// A protocol map: packet name <-> opcode, both ways.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtocolMap {
    revision: Option<u32>,
    by_name: HashMap<String, u16>,
    by_code: HashMap<u16, String>,
}

/// A line of a map file that cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct MapError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl ProtocolMap {
    /// A map from a compiled-in table.
    pub fn from_static(map: &StaticMap<u16>) -> Self {
        let mut out = ProtocolMap {
            revision: Some(map.revision),
            ..ProtocolMap::default()
        };
        for &(name, code) in map.entries {
            out.by_name.insert(name.to_owned(), code);
            out.by_code.insert(code, name.to_owned());
        }
        out
    }

    /// A map of `(name, opcode)` pairs already checked elsewhere (a map
    /// file the def front end read, say); a later pair for a name or an
    /// opcode replaces an earlier one.
    pub fn from_entries<'a>(
        revision: Option<u32>,
        entries: impl IntoIterator<Item = (&'a str, u16)>,
    ) -> Self {
        let mut out = ProtocolMap {
            revision,
            ..ProtocolMap::default()
        };
        for (name, code) in entries {
            if let Some(old) = out.by_name.insert(name.to_owned(), code) {
                out.by_code.remove(&old);
            }
            if let Some(old) = out.by_code.insert(code, name.to_owned())
                && old != name
            {
                out.by_name.remove(&old);
            }
        }
        out
    }

    /// Parses the text of a `protocol.REV.map` file: one `NAME = CODE` or
    /// `NAME CODE` a line, `#` comments. Duplicate names or codes and codes
    /// that do not fit a `u16` are errors.
    pub fn parse(text: &str) -> Result<Self, MapError> {
        let mut out = ProtocolMap::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let err = |message: String| MapError { line, message };
            let content = raw
                .split('#')
                .next()
                .unwrap_or_default()
                .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            if content.is_empty() {
                continue;
            }
            let (name, code) = match content.split_once('=') {
                Some((n, c)) => (n.trim(), c.trim()),
                None => match content.split_once(char::is_whitespace) {
                    Some((n, c)) => (n.trim(), c.trim()),
                    None => return Err(err(format!("expected `NAME = CODE`, found `{content}`"))),
                },
            };
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(err(format!("bad packet name `{name}`")));
            }
            let code: u16 = code
                .parse()
                .map_err(|_| err(format!("`{code}` is not an opcode (0..=65535)")))?;
            if out.by_name.insert(name.to_owned(), code).is_some() {
                return Err(err(format!("duplicate name `{name}`")));
            }
            if let Some(other) = out.by_code.insert(code, name.to_owned()) {
                return Err(err(format!("opcode {code} is also `{other}`")));
            }
        }
        Ok(out)
    }

    /// The revision, for compiled-in maps.
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

    /// All `(name, opcode)` pairs, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u16)> {
        self.by_name.iter().map(|(n, c)| (n.as_str(), *c))
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
}
