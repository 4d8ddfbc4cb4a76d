//! Where `decode`, `encode` and `list` find packets: the ones compiled into
//! the binary, or, with `--defs DIR`, defs loaded at run time through
//! `tera-dynamic` (the same front end and wire plans, the same JSON).

use std::collections::HashMap;
use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use tera_data::{AnyPacket, ProtocolMap};
use tera_dynamic::{Catalog, Schema};

use crate::defname::{self, DefRef};
use crate::fail::Fail;
use crate::input;

/// `--defs` and `--map`, shared by the commands that read packets.
#[derive(Debug, Args)]
pub struct DefsArgs {
    /// Load defs at run time from this tera-data checkout (its
    /// `definitions/` and `maps/`) or folder of .def files, instead of the
    /// compiled-in packets. Repeatable; a later folder's def replaces an
    /// earlier one of the same name and version. Defs with errors are
    /// reported on stderr and left out.
    #[arg(long = "defs", value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

/// A def found by name (and version): compiled in, or loaded.
#[derive(Debug, Clone)]
pub enum Def {
    /// A compiled-in packet.
    Compiled(DefRef),
    /// A def loaded with `--defs`.
    Loaded(Arc<Schema>),
}

impl Def {
    /// The packet name.
    pub fn name(&self) -> &str {
        match self {
            Def::Compiled(d) => d.name,
            Def::Loaded(s) => s.name(),
        }
    }
}

impl fmt::Display for Def {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Def::Compiled(d) => d.fmt(f),
            Def::Loaded(s) => write!(f, "{}.{}", s.name(), s.version()),
        }
    }
}

/// The packets a command works with, and the defs of `--jsonl` lines
/// resolved once each (only names that resolve are kept, so that a stream
/// of garbage names cannot grow the cache).
pub struct Packets {
    catalog: Option<Catalog>,
    cache: HashMap<Box<str>, Def>,
}

impl Packets {
    /// The compiled-in packets, or the defs of `--defs` (and the protocol
    /// map of `map`, when given). Load problems go to stderr as `check`
    /// prints them; loading nothing at all is a usage error.
    pub fn new(args: &DefsArgs, map: Option<&Path>) -> Result<Packets, Fail> {
        if args.dirs.is_empty() {
            return Ok(Packets {
                catalog: None,
                cache: HashMap::new(),
            });
        }
        let mut catalog = Catalog::new();
        for dir in &args.dirs {
            if !dir.exists() {
                return Err(Fail::Usage(format!(
                    "--defs {}: no such file or folder",
                    dir.display()
                )));
            }
            catalog.load_dir(dir);
        }
        if let Some(path) = map {
            catalog
                .load_map(path)
                .map_err(|report| Fail::Usage(report.render(false)))?;
        }
        let color = std::io::stderr().is_terminal();
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        for report in catalog.problems() {
            let _ = err.write_all(report.render(color).as_bytes());
        }
        if catalog.is_empty() {
            return Err(Fail::Usage("--defs: no def loaded".into()));
        }
        Ok(Packets {
            catalog: Some(catalog),
            cache: HashMap::new(),
        })
    }

    /// The loaded defs, when `--defs` was given.
    pub fn catalog(&self) -> Option<&Catalog> {
        self.catalog.as_ref()
    }

    /// Resolves a `--def` value; `version` (from `--version`) applies when
    /// the spec has none. Without any version the highest one is taken.
    pub fn resolve(&self, spec: &str, version: Option<u32>) -> Result<Def, Fail> {
        let Some(catalog) = &self.catalog else {
            return defname::resolve(spec, version).map(Def::Compiled);
        };
        let (name, version) = defname::spec_version(spec, version)?;
        lookup(catalog, &name, version).map_err(Fail::Usage)
    }

    /// Resolves the `def` of a `--jsonl` line (`S_CHAT.4.def`, `S_CHAT.4`
    /// or `S_CHAT`).
    pub fn resolve_line(&mut self, def: &str) -> Result<Def, String> {
        if let Some(found) = self.cache.get(def) {
            return Ok(found.clone());
        }
        let Some((name, version)) = defname::split(def) else {
            return Err(format!(
                "`{def}` is not a def: expected NAME.VERSION.def, NAME.VERSION or NAME"
            ));
        };
        let found = match &self.catalog {
            Some(catalog) => lookup(catalog, &name, version)?,
            None => Def::Compiled(defname::lookup(&name, version)?),
        };
        self.cache.insert(def.into(), found.clone());
        Ok(found)
    }

    /// The def of `opcode`: named by `--map`, else by the loaded checkout's
    /// map, else by the compiled-in map; at `version` or the highest.
    pub fn by_opcode(
        &self,
        map: Option<&Path>,
        opcode: u16,
        version: Option<u32>,
    ) -> Result<Def, Fail> {
        let loaded_name = self.catalog.as_ref().and_then(|c| c.name_of(opcode));
        let compiled_map: ProtocolMap;
        let name = match loaded_name {
            Some(name) => name,
            None => {
                compiled_map = input::map_or_compiled(map)?;
                compiled_map.name(opcode).ok_or_else(|| {
                    Fail::Data(format!("opcode {opcode} is not in the protocol map"))
                })?
            }
        };
        let found = match &self.catalog {
            Some(catalog) => lookup(catalog, name, version),
            None => defname::lookup(name, version).map(Def::Compiled),
        };
        found.map_err(|e| Fail::Usage(format!("opcode {opcode} is {name} in the map, but {e}")))
    }

    /// Decodes `bytes` as `def` and writes its JSON to `out`.
    pub fn decode_json(
        &self,
        def: &Def,
        bytes: &[u8],
        pretty: bool,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        let written = match def {
            Def::Compiled(d) => {
                let packet =
                    AnyPacket::decode(d.name, d.version, bytes).map_err(|e| e.to_string())?;
                write_json(out, &packet, pretty)
            }
            Def::Loaded(schema) => {
                // A view: the same JSON as a record, without a vector per
                // record.
                let view = schema.view(bytes).map_err(|e| e.to_string())?;
                write_json(out, &view, pretty)
            }
        };
        written.map_err(|e| format!("cannot write the JSON: {e}"))
    }

    /// Reads `json` as a value of `def` and encodes it with `opcode` into
    /// `buf`.
    pub fn encode_json(
        &self,
        def: &Def,
        opcode: u16,
        json: &str,
        buf: &mut Vec<u8>,
    ) -> Result<(), String> {
        let mut de = serde_json::Deserializer::from_str(json);
        let not_a_value = |e: serde_json::Error| format!("the JSON is not a value of {def}: {e}");
        let does_not_encode = |e: &dyn fmt::Display| format!("{def} does not encode: {e}");
        match def {
            Def::Compiled(d) => {
                let packet = AnyPacket::deserialize_as(d.name, d.version, &mut de)
                    .and_then(|p| de.end().map(|()| p))
                    .map_err(not_a_value)?;
                buf.clear();
                buf.resize(packet.encoded_len(), 0);
                let len = packet
                    .encode_into_with_opcode(opcode, buf)
                    .map_err(|e| does_not_encode(&e))?;
                buf.truncate(len);
            }
            Def::Loaded(schema) => {
                let value = schema
                    .deserialize(&mut de)
                    .and_then(|v| de.end().map(|()| v))
                    .map_err(not_a_value)?;
                *buf = schema
                    .encode(&value, opcode)
                    .map_err(|e| does_not_encode(&e))?;
            }
        }
        Ok(())
    }
}

fn write_json(
    out: &mut dyn Write,
    value: &impl serde::Serialize,
    pretty: bool,
) -> serde_json::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(out, value)
    } else {
        serde_json::to_writer(out, value)
    }
}

/// Finds `name` (at `version`, or its highest version) among the loaded
/// defs; the error says what exists instead.
fn lookup(catalog: &Catalog, name: &str, version: Option<u32>) -> Result<Def, String> {
    let found = match version {
        Some(v) => catalog.get(name, v),
        None => catalog.latest(name),
    };
    if let Some(schema) = found {
        return Ok(Def::Loaded(Arc::clone(schema)));
    }
    let versions: Vec<String> = catalog
        .iter()
        .filter(|s| s.name() == name && s.platform().is_none())
        .map(|s| s.version().to_string())
        .collect();
    if versions.is_empty() {
        let mut names: Vec<&str> = catalog.iter().map(|s| s.name()).collect();
        names.dedup();
        let near = defname::nearest(name, &names);
        return Err(defname::unknown_message(
            name,
            &near,
            "`tera-defs list --defs DIR` shows the loaded defs",
        ));
    }
    Err(format!(
        "{name} has no version {}; loaded: {}",
        version.unwrap_or_default(),
        versions.join(", ")
    ))
}
