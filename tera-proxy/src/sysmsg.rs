//! System messages as tera-toolbox reads and writes them
//! (`parseSystemMessage` / `buildSystemMessage`): a message string is
//! `@CODE` then `\v`-separated key and value tokens, and a connection's
//! `sysmsg.REV.map` names the codes (`SMT_ITEM_USED` for `@1234`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tera_defs_front::{MapKind, parse_map};

/// The separator of a system message's tokens (a vertical tab).
pub const TOKEN_SEPARATOR: char = '\u{b}';

/// Why a system message could not be read or written, or a sysmsg map
/// loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SysmsgError {
    /// The connection has no sysmsg map (none for its revision).
    #[error("the connection has no sysmsg map")]
    NoMap,
    /// The message does not start with `@`.
    #[error("{0:?} is not a system message (it does not start with @)")]
    NotSystemMessage(String),
    /// The message's code is not in the map.
    #[error("system message code {code} is not in sysmsg.{revision}.map")]
    UnknownCode {
        /// The code read.
        code: String,
        /// The map's revision.
        revision: u32,
    },
    /// The name is not in the map.
    #[error("no system message {name} in sysmsg.{revision}.map")]
    UnknownName {
        /// The name asked for.
        name: String,
        /// The map's revision.
        revision: u32,
    },
    /// A sysmsg map file that does not load.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// A system message read: its name and its tokens, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemMessage {
    /// The message's name (`SMT_...`), or the id as written when it names
    /// itself (`@item:1234`-style ids, with a `:`).
    pub id: String,
    /// The `(key, value)` tokens, in order.
    pub tokens: Vec<(String, String)>,
}

impl SystemMessage {
    /// The value of token `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.tokens
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A `sysmsg.REV.map`: system message names and codes, both ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysmsgMap {
    revision: u32,
    by_name: HashMap<String, u32>,
    by_code: HashMap<u32, String>,
}

impl SysmsgMap {
    /// A map of revision `revision` from `(name, code)` pairs.
    pub fn from_entries<'a>(
        revision: u32,
        entries: impl IntoIterator<Item = (&'a str, u32)>,
    ) -> SysmsgMap {
        let mut map = SysmsgMap {
            revision,
            by_name: HashMap::new(),
            by_code: HashMap::new(),
        };
        for (name, code) in entries {
            map.by_name.insert(name.to_owned(), code);
            map.by_code.insert(code, name.to_owned());
        }
        map
    }

    /// Reads `sysmsg.REV.map` at `path`; a malformed line is skipped, as
    /// the map readers of the project do.
    ///
    /// # Errors
    /// [`SysmsgError::File`] when it cannot be read or its name is not a
    /// sysmsg map's.
    pub fn load(path: &Path) -> Result<SysmsgMap, SysmsgError> {
        let file_error = |message: String| SysmsgError::File {
            path: path.to_owned(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let map = parse_map(name, &text)
            .map
            .filter(|m| m.kind == MapKind::Sysmsg)
            .ok_or_else(|| file_error("not a sysmsg.REV.map file".to_owned()))?;
        Ok(SysmsgMap::from_entries(
            map.revision,
            map.entries.iter().map(|e| (e.name.as_str(), e.code)),
        ))
    }

    /// The revision of the map.
    #[must_use]
    pub fn revision(&self) -> u32 {
        self.revision
    }

    /// The code of a name.
    #[must_use]
    pub fn code(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// The name of a code.
    #[must_use]
    pub fn name(&self, code: u32) -> Option<&str> {
        self.by_code.get(&code).map(String::as_str)
    }

    /// Reads a system message (toolbox's `parseSystemMessage`): `@CODE`
    /// then key and value tokens, each after a `\v`.
    ///
    /// ```
    /// use tera_proxy::SysmsgMap;
    ///
    /// let map = SysmsgMap::from_entries(1, [("SMT_ITEM_USED", 1234)]);
    /// let message = map.parse_message("@1234\u{b}ItemName\u{b}@item:6552")?;
    /// assert_eq!(message.id, "SMT_ITEM_USED");
    /// assert_eq!(message.get("ItemName"), Some("@item:6552"));
    /// assert_eq!(map.build_message("SMT_ITEM_USED", &[("ItemName", "@item:6552")])?, "@1234\u{b}ItemName\u{b}@item:6552");
    /// # Ok::<(), tera_proxy::SysmsgError>(())
    /// ```
    ///
    /// # Errors
    /// [`SysmsgError::NotSystemMessage`] without the `@`,
    /// [`SysmsgError::UnknownCode`] for a code the map lacks.
    pub fn parse_message(&self, message: &str) -> Result<SystemMessage, SysmsgError> {
        let body = message
            .strip_prefix('@')
            .ok_or_else(|| SysmsgError::NotSystemMessage(message.to_owned()))?;
        let mut tokens = body.split(TOKEN_SEPARATOR);
        let code = tokens.next().unwrap_or_default();
        let id = if code.contains(':') {
            code.to_owned()
        } else {
            code.parse()
                .ok()
                .and_then(|c| self.name(c))
                .map(str::to_owned)
                .ok_or_else(|| SysmsgError::UnknownCode {
                    code: code.to_owned(),
                    revision: self.revision,
                })?
        };
        let mut pairs = Vec::new();
        while let Some(key) = tokens.next() {
            // A key without a value (a message cut short) reads as empty,
            // as toolbox's `undefined` would print.
            pairs.push((key.to_owned(), tokens.next().unwrap_or_default().to_owned()));
        }
        Ok(SystemMessage { id, tokens: pairs })
    }

    /// Writes a system message (toolbox's `buildSystemMessage`).
    ///
    /// # Errors
    /// [`SysmsgError::UnknownName`] for a name the map lacks.
    pub fn build_message(&self, id: &str, tokens: &[(&str, &str)]) -> Result<String, SysmsgError> {
        let code = self.code(id).ok_or_else(|| SysmsgError::UnknownName {
            name: id.to_owned(),
            revision: self.revision,
        })?;
        let mut message = format!("@{code}");
        for (key, value) in tokens {
            message.push(TOKEN_SEPARATOR);
            message.push_str(key);
            message.push(TOKEN_SEPARATOR);
            message.push_str(value);
        }
        Ok(message)
    }
}

/// The sysmsg map of `revision` in `dir`: `sysmsg.REV.map`, or else the
/// newest older one (tera-data renews its sysmsg maps less often than its
/// protocol maps); `None` when there is none.
pub(crate) fn sysmsg_of(dir: &Path, revision: u32) -> Option<Result<SysmsgMap, SysmsgError>> {
    let exact = dir.join(format!("sysmsg.{revision}.map"));
    if exact.is_file() {
        return Some(SysmsgMap::load(&exact));
    }
    let older = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let rev: u32 = name
                .strip_prefix("sysmsg.")?
                .strip_suffix(".map")?
                .parse()
                .ok()?;
            (rev <= revision).then_some(rev)
        })
        .max()?;
    Some(SysmsgMap::load(&dir.join(format!("sysmsg.{older}.map"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> SysmsgMap {
        SysmsgMap::from_entries(7, [("SMT_A", 10), ("SMT_B", 20)])
    }

    #[test]
    fn messages_read_and_write_back() {
        let m = map();
        let text = "@20\u{b}Name\u{b}Ann\u{b}Count\u{b}3";
        let read = m.parse_message(text).unwrap();
        assert_eq!(read.id, "SMT_B");
        assert_eq!(read.get("Count"), Some("3"));
        let tokens: Vec<(&str, &str)> = read
            .tokens
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(m.build_message(&read.id, &tokens).unwrap(), text);
        assert_eq!(m.build_message("SMT_A", &[]).unwrap(), "@10");
    }

    #[test]
    fn bad_messages_say_why() {
        let m = map();
        assert!(matches!(
            m.parse_message("hello"),
            Err(SysmsgError::NotSystemMessage(_))
        ));
        assert!(matches!(
            m.parse_message("@99"),
            Err(SysmsgError::UnknownCode { revision: 7, .. })
        ));
        assert!(matches!(
            m.build_message("SMT_C", &[]),
            Err(SysmsgError::UnknownName { .. })
        ));
        assert_eq!(m.parse_message("@item:5").unwrap().id, "item:5");
        assert_eq!(
            m.parse_message("@10\u{b}Cut").unwrap().tokens,
            [("Cut".to_owned(), String::new())]
        );
    }
}
