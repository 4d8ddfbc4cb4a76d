//! Def names on the command line (`S_CHAT`, `S_CHAT.4`, `S_CHAT.4.def`),
//! resolved against the compiled-in packets, with suggestions for typos.

use tera_data::{PACKETS, PacketInfo};
use tera_defs_front::{DefSpec, suggest};

use crate::fail::Fail;

/// A packet name and version that is compiled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefRef {
    /// The packet name.
    pub name: &'static str,
    /// The def version.
    pub version: u32,
}

impl std::fmt::Display for DefRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.name, self.version)
    }
}

/// Splits `S_CHAT.4.def`, `S_CHAT.4` or `S_CHAT` into name and version
/// ([`tera_defs_front::parse_def_spec`]). `None` when the text has another shape,
/// or a platform infix (the commands look up defs without one).
pub fn split(spec: &str) -> Option<(String, Option<u32>)> {
    match tera_defs_front::parse_def_spec(spec) {
        Ok(DefSpec {
            name,
            version,
            platform: None,
        }) => Some((name, version)),
        _ => None,
    }
}

/// Resolves a `--def` value; `version` (from `--version`) applies when the
/// spec has none. Without any version the highest one is taken.
pub fn resolve(spec: &str, version: Option<u32>) -> Result<DefRef, Fail> {
    let (name, version) = spec_version(spec, version)?;
    lookup(&name, version).map_err(Fail::Usage)
}

/// The name and version a `--def` value and `--version` ask for.
pub fn spec_version(spec: &str, version: Option<u32>) -> Result<(String, Option<u32>), Fail> {
    let Some((name, spec_version)) = split(spec) else {
        return Err(Fail::Usage(format!(
            "`{spec}` is not a def: expected NAME, NAME.VERSION or NAME.VERSION.def \
             (e.g. S_CHAT.2)"
        )));
    };
    match (spec_version, version) {
        (Some(a), Some(b)) if a != b => Err(Fail::Usage(format!(
            "`{spec}` names version {a} but --version says {b}"
        ))),
        (a, b) => Ok((name, a.or(b))),
    }
}

/// Finds `name` (at `version`, or its highest version) in [`PACKETS`]; the
/// error says what exists instead.
pub fn lookup(name: &str, version: Option<u32>) -> Result<DefRef, String> {
    let versions = versions_of(name);
    let Some(&highest) = versions.iter().max() else {
        return Err(unknown_name(name));
    };
    let info = PACKETS
        .iter()
        .find(|p| p.name == name)
        .expect("a name with versions is in PACKETS");
    match version {
        None => Ok(DefRef {
            name: info.name,
            version: highest,
        }),
        Some(v) if versions.contains(&v) => Ok(DefRef {
            name: info.name,
            version: v,
        }),
        Some(v) => Err(format!(
            "{name} has no version {v}; compiled in: {}",
            join(&versions)
        )),
    }
}

/// The compiled-in versions of `name` (without platform defs), ascending.
pub fn versions_of(name: &str) -> Vec<u32> {
    PACKETS
        .iter()
        .filter(|p| p.name == name && p.platform.is_none())
        .map(|p: &PacketInfo| p.version)
        .collect()
}

fn join(versions: &[u32]) -> String {
    versions
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The message for a name that is not compiled in, with suggestions.
pub fn unknown_name(name: &str) -> String {
    let mut names: Vec<&str> = PACKETS.iter().map(|p| p.name).collect();
    names.dedup();
    unknown_message(
        name,
        &nearest(name, &names),
        "`tera-defs list` shows the compiled-in packets",
    )
}

/// The message for an unknown packet name: the names `near` it, or `hint`.
pub fn unknown_message(name: &str, near: &[&str], hint: &str) -> String {
    let mut message = format!("unknown packet `{name}`");
    match near {
        [] => message.push_str(&format!(" ({hint})")),
        [one] => message.push_str(&format!(": did you mean {one}?")),
        many => message.push_str(&format!(": did you mean one of {}?", many.join(", "))),
    }
    message
}

/// Up to three names closest to `name` (case-insensitive edit distance),
/// closest first, within a distance that still looks like a typo.
pub fn nearest<'a>(name: &str, names: &[&'a str]) -> Vec<&'a str> {
    let limit = suggest::typo_limit(name.chars().count(), 2);
    suggest::nearest(name, names, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_forms() {
        let some = |v: Option<u32>| Some(("S_CHAT".to_string(), v));
        assert_eq!(split("S_CHAT"), some(None));
        assert_eq!(split("S_CHAT.4"), some(Some(4)));
        assert_eq!(split("S_CHAT.4.def"), some(Some(4)));
        assert_eq!(split("S_CHAT.x"), None);
        assert_eq!(split("S_CHAT.4.console"), None);
    }

    #[test]
    fn nearest_names() {
        let names = ["S_CHAT", "C_CHAT", "S_LOGIN", "S_WHISPER"];
        assert_eq!(nearest("S_CAHT", &names), ["S_CHAT"]);
        assert_eq!(nearest("s_chat", &names), ["S_CHAT", "C_CHAT"]);
        assert!(nearest("NOTHING_LIKE_IT", &names).is_empty());
    }

    #[test]
    fn compiled_in_chat() {
        // S_CHAT is in the project's own defs and in the corpus.
        let found = lookup("S_CHAT", None).unwrap();
        assert_eq!(found.version, *versions_of("S_CHAT").last().unwrap());
        assert!(
            lookup("S_CHAT", Some(9999))
                .unwrap_err()
                .contains("no version 9999")
        );
        assert!(unknown_name("S_CAHT").contains("did you mean S_CHAT?"));
    }
}
