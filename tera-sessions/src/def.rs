//! What a packet set hands out: a def's name and version ([`Def`]), the
//! facts a listing shows ([`DefInfo`]), and the errors of looking a def up
//! ([`ResolveError`]) or of reading and writing a packet ([`CodecError`]).

use std::fmt;
use std::sync::Arc;

/// A def of a packet set: a packet name and a def version (a def without
/// platform infix). Cheap to clone; displayed as `NAME.VERSION`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Def {
    name: Arc<str>,
    version: u32,
}

impl Def {
    /// Version `version` of packet `name` (whether a set holds it is the
    /// set's to say: see [`PacketSet::get`](crate::PacketSet::lookup)).
    pub fn new(name: impl Into<Arc<str>>, version: u32) -> Def {
        Def {
            name: name.into(),
            version,
        }
    }

    /// The packet name (`S_CHAT`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The def version (`4` for `S_CHAT.4.def`).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.version
    }
}

impl fmt::Display for Def {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.name, self.version)
    }
}

/// One def of a set as a listing shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefInfo<'a> {
    /// The packet name.
    pub name: &'a str,
    /// The def version.
    pub version: u32,
    /// The platform infix of the def's file name (`console`), if any.
    pub platform: Option<&'a str>,
    /// The packet's length when it never varies, header included.
    pub fixed_len: Option<usize>,
}

/// Why a name, version or opcode does not give a def.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The text is not `NAME`, `NAME.VERSION` or `NAME.VERSION.def`.
    #[error("`{0}` is not a def: expected NAME, NAME.VERSION or NAME.VERSION.def (e.g. S_CHAT.2)")]
    NotADef(String),
    /// No def of the set has this name.
    #[error("unknown packet `{name}`{}", suggestion(near, hint))]
    UnknownName {
        /// The name asked for.
        name: String,
        /// Up to three names of the set close to it (typos), closest first.
        near: Vec<String>,
        /// How to see the names the set holds.
        hint: &'static str,
    },
    /// The name is known, the version is not.
    #[error("{name} has no version {version}; {what}: {}", join(known))]
    UnknownVersion {
        /// The packet name.
        name: String,
        /// The version asked for.
        version: u32,
        /// The versions the set holds, ascending.
        known: Vec<u32>,
        /// What the set is ("compiled in", "loaded").
        what: &'static str,
    },
    /// The protocol map has no name for the opcode.
    #[error("opcode {0} is not in the protocol map")]
    UnknownOpcode(u16),
    /// The map names the opcode, but the set has no such def.
    #[error("opcode {opcode} is {name} in the map, but {source}")]
    MappedButUnknown {
        /// The opcode.
        opcode: u16,
        /// The name the map gives it.
        name: String,
        /// Why the name gives no def.
        source: Box<ResolveError>,
    },
}

fn suggestion(near: &[String], hint: &str) -> String {
    match near {
        [] => format!(" ({hint})"),
        [one] => format!(": did you mean {one}?"),
        many => format!(": did you mean one of {}?", many.join(", ")),
    }
}

fn join(versions: &[u32]) -> String {
    let text: Vec<String> = versions.iter().map(u32::to_string).collect();
    text.join(", ")
}

/// Why a packet does not read as its def, or a JSON value does not encode.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The set has no such def.
    #[error("{0} is not in the packet set")]
    Unknown(Def),
    /// The bytes do not decode as the def.
    #[error("{def} does not decode: {source}")]
    Decode {
        /// The def.
        def: Def,
        /// What the decoder found, and where.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The decoded value does not serialize to JSON.
    #[error("{def} does not convert to JSON: {source}")]
    ToJson {
        /// The def.
        def: Def,
        /// What serde found.
        source: serde_json::Error,
    },
    /// The JSON is not a value of the def.
    #[error("the JSON is not a value of {def}: {source}")]
    NotAValue {
        /// The def.
        def: Def,
        /// What serde found, and where.
        source: serde_json::Error,
    },
    /// The value does not encode (too long, a count past its field).
    #[error("{def} does not encode: {source}")]
    Encode {
        /// The def.
        def: Def,
        /// What the encoder found.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}
