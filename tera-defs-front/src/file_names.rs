//! File names of defs and maps: `NAME.VERSION[.PLATFORM].def`,
//! `protocol.REV.map`, `sysmsg.REV.map`, and the looser `NAME[.VERSION]`
//! people type on a command line. A leaf: it depends on nothing else in the
//! crate, so that reading files ([`crate::files`]) and parsing maps
//! ([`crate::map`]) both build on it without depending on each other.

use std::fmt;

/// The parts of a def file name `NAME.VERSION[.PLATFORM].def`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefFileName {
    /// Packet name (ASCII letters, digits and `_`), e.g. `S_LOGIN`.
    pub name: String,
    /// Version, e.g. `15`.
    pub version: u32,
    /// Optional platform: `pc`, `console` or `classic`.
    pub platform: Option<String>,
}

/// Why a def or map file name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileNameError {
    /// The name does not end in the expected extension.
    #[error("a {kind} file name must end in `.{kind}`")]
    Extension {
        /// `def` or `map`.
        kind: &'static str,
    },
    /// The name does not have the expected number of dot-separated parts.
    #[error("expected {0}")]
    Shape(&'static str),
    /// The packet name has characters other than ASCII letters, digits, `_`.
    #[error("packet name `{0}` must be ASCII letters, digits and `_`, not starting with a digit")]
    PacketName(String),
    /// The version or revision is not a decimal number.
    #[error("{what} `{text}` is not a decimal number")]
    NotANumber {
        /// `version` or `revision`.
        what: &'static str,
        /// The offending text.
        text: String,
    },
    /// The version or revision does not fit in a u32.
    #[error("{what} `{text}` does not fit in 32 bits")]
    TooLarge {
        /// `version` or `revision`.
        what: &'static str,
        /// The offending text.
        text: String,
    },
    /// The platform infix is not one of [`PLATFORMS`].
    #[error("unknown platform `{0}`: expected one of pc, console, classic")]
    Platform(String),
    /// The map kind is not `protocol` or `sysmsg`.
    #[error("unknown map kind `{0}`: expected `protocol` or `sysmsg`")]
    MapKind(String),
}

/// Parses a decimal u32 (version or revision) of a file name.
pub(crate) fn parse_number(what: &'static str, text: &str) -> Result<u32, FileNameError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FileNameError::NotANumber {
            what,
            text: text.to_string(),
        });
    }
    text.parse::<u32>().map_err(|_| FileNameError::TooLarge {
        what,
        text: text.to_string(),
    })
}

/// Platforms allowed as the optional infix of a def file name.
pub const PLATFORMS: [&str; 3] = ["pc", "console", "classic"];

/// Parses `NAME.VERSION.def` or `NAME.VERSION.PLATFORM.def`.
pub fn parse_def_file_name(file_name: &str) -> Result<DefFileName, FileNameError> {
    let stem = file_name
        .strip_suffix(".def")
        .ok_or(FileNameError::Extension { kind: "def" })?;
    let spec = parse_parts(stem, true)?;
    Ok(DefFileName {
        name: spec.name,
        version: spec.version.unwrap_or_default(),
        platform: spec.platform,
    })
}

/// A def named the way people name one on a command line: a packet name
/// with an optional version and platform (`S_CHAT`, `S_CHAT.4`,
/// `S_CHAT.4.console`), or a whole file name (`S_CHAT.4.def`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefSpec {
    /// Packet name, e.g. `S_CHAT`.
    pub name: String,
    /// Version, if given.
    pub version: Option<u32>,
    /// Platform infix, if given (only after a version).
    pub platform: Option<String>,
}

/// Parses `NAME`, `NAME.VERSION` or `NAME.VERSION.PLATFORM`, each with or
/// without a trailing `.def`, by the same rules as [`parse_def_file_name`].
pub fn parse_def_spec(spec: &str) -> Result<DefSpec, FileNameError> {
    parse_parts(spec.strip_suffix(".def").unwrap_or(spec), false)
}

/// The parts of a def name without `.def`: what both parsers share.
fn parse_parts(stem: &str, version_required: bool) -> Result<DefSpec, FileNameError> {
    let parts: Vec<&str> = stem.split('.').collect();
    let (name, version, platform) = match parts.as_slice() {
        [name] if !version_required => (*name, None, None),
        [name, version] => (*name, Some(*version), None),
        [name, version, platform] => (*name, Some(*version), Some(*platform)),
        _ if version_required => {
            return Err(FileNameError::Shape(
                "`NAME.VERSION.def` or `NAME.VERSION.PLATFORM.def`",
            ));
        }
        _ => {
            return Err(FileNameError::Shape(
                "NAME, NAME.VERSION or NAME.VERSION.PLATFORM, optionally ending in `.def`",
            ));
        }
    };
    if name.is_empty()
        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(FileNameError::PacketName(name.to_string()));
    }
    let version = version.map(|v| parse_number("version", v)).transpose()?;
    if let Some(p) = platform
        && !PLATFORMS.contains(&p)
    {
        return Err(FileNameError::Platform(p.to_string()));
    }
    Ok(DefSpec {
        name: name.to_string(),
        version,
        platform: platform.map(str::to_string),
    })
}

/// Which kind of map a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapKind {
    /// `protocol.REV.map`: packet name -> opcode (u16).
    Protocol,
    /// `sysmsg.REV.map`: system message name -> code (u32).
    Sysmsg,
}

impl MapKind {
    /// The largest code a map of this kind may hold.
    pub fn max_code(self) -> u32 {
        match self {
            MapKind::Protocol => u32::from(u16::MAX),
            MapKind::Sysmsg => u32::MAX,
        }
    }

    /// The file name prefix (`protocol` or `sysmsg`).
    pub fn prefix(self) -> &'static str {
        match self {
            MapKind::Protocol => "protocol",
            MapKind::Sysmsg => "sysmsg",
        }
    }
}

impl fmt::Display for MapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())
    }
}

/// Parses a map file name: `protocol.REV.map` or `sysmsg.REV.map`.
pub fn parse_map_file_name(file_name: &str) -> Result<(MapKind, u32), FileNameError> {
    let rest = file_name
        .strip_suffix(".map")
        .ok_or(FileNameError::Extension { kind: "map" })?;
    let (prefix, revision) = rest.split_once('.').ok_or(FileNameError::Shape(
        "`protocol.REVISION.map` or `sysmsg.REVISION.map`",
    ))?;
    let kind = match prefix {
        "protocol" => MapKind::Protocol,
        "sysmsg" => MapKind::Sysmsg,
        other => return Err(FileNameError::MapKind(other.to_string())),
    };
    Ok((kind, parse_number("revision", revision)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn def_file_names() {
        let n = parse_def_file_name("S_F2P_PremiumUser_Permission.1.def");
        assert_eq!(
            n,
            Ok(DefFileName {
                name: "S_F2P_PremiumUser_Permission".into(),
                version: 1,
                platform: None
            })
        );
        let n = parse_def_file_name("S_LOGIN.15.console.def");
        assert_eq!(n.map(|n| n.platform), Ok(Some("console".to_string())));
        for bad in [
            "S_LOGIN.def",
            "S_LOGIN.x.def",
            "S_LOGIN.15.ps4.def",
            "S_LOGIN.15",
            ".1.def",
            "S-LOGIN.1.def",
            "S_LOGIN.99999999999.def",
            "A.1.pc.x.def",
        ] {
            assert!(parse_def_file_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn def_specs() {
        let spec = |name: &str, version: Option<u32>, platform: Option<&str>| DefSpec {
            name: name.to_string(),
            version,
            platform: platform.map(str::to_string),
        };
        assert_eq!(parse_def_spec("S_CHAT"), Ok(spec("S_CHAT", None, None)));
        assert_eq!(parse_def_spec("S_CHAT.def"), Ok(spec("S_CHAT", None, None)));
        assert_eq!(
            parse_def_spec("S_CHAT.4"),
            Ok(spec("S_CHAT", Some(4), None))
        );
        assert_eq!(
            parse_def_spec("S_CHAT.4.def"),
            Ok(spec("S_CHAT", Some(4), None))
        );
        assert_eq!(
            parse_def_spec("S_CHAT.4.console"),
            Ok(spec("S_CHAT", Some(4), Some("console")))
        );
        for bad in [
            "S_CHAT.x",
            "S_CHAT.4.ps4",
            "S-CHAT",
            "",
            "A.1.pc.x",
            "S_CHAT..def",
        ] {
            assert!(parse_def_spec(bad).is_err(), "{bad}");
        }
        // What a file name must have, a spec may leave out; the rest agrees.
        assert!(parse_def_file_name("S_CHAT.def").is_err());
        for good in ["S_CHAT.4.def", "S_F2P_PremiumUser_Permission.1.console.def"] {
            let file = parse_def_file_name(good).unwrap();
            let spec = parse_def_spec(good).unwrap();
            assert_eq!(
                (file.name, Some(file.version), file.platform),
                (spec.name, spec.version, spec.platform)
            );
        }
    }
}
