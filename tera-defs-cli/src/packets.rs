//! Where `decode`, `encode`, `list` and `capture` find packets: the ones
//! compiled into the binary, or, with `--defs DIR`, defs loaded at run time
//! through `tera-dynamic`. The lookup rules live in
//! [`tera_sessions::PacketSet`]; this file turns arguments into a set and
//! its errors into exit codes.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use tera_data::ProtocolMap;
use tera_dynamic::Catalog;
use tera_sessions::{Compiled, Def, PacketSet, ResolveError};

use crate::defname;
use crate::fail::Fail;
use crate::input;

/// `--defs`, shared by the commands that read packets.
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

/// The packets a command works with, and the defs of `--jsonl` lines
/// resolved once each (only names that resolve are kept, so that a stream
/// of garbage names cannot grow the cache).
pub struct Packets {
    set: Box<dyn PacketSet>,
    loaded: bool,
    cache: HashMap<Box<str>, Def>,
}

impl Packets {
    /// The compiled-in packets, or the defs of `--defs` (and the protocol
    /// map of `map`, when given). Load problems go to stderr as `check`
    /// prints them; loading nothing at all is a usage error.
    pub fn new(args: &DefsArgs, map: Option<&Path>) -> Result<Packets, Fail> {
        if args.dirs.is_empty() {
            return Ok(Packets {
                set: Box::new(Compiled::new()),
                loaded: false,
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
            set: Box::new(catalog),
            loaded: true,
            cache: HashMap::new(),
        })
    }

    /// The packet set.
    pub fn set(&self) -> &dyn PacketSet {
        &*self.set
    }

    /// Whether the defs were loaded with `--defs` (a `--map` is then part
    /// of the set).
    pub fn loaded(&self) -> bool {
        self.loaded
    }

    /// Resolves a `--def` value; `version` (from `--version`) applies when
    /// the spec has none. Without any version the highest one is taken.
    pub fn resolve(&self, spec: &str, version: Option<u32>) -> Result<Def, Fail> {
        let (name, version) = defname::spec_version(spec, version)?;
        self.set.resolve(&name, version).map_err(usage)
    }

    /// Resolves the `def` of a `--jsonl` line (`S_CHAT.4.def`, `S_CHAT.4`
    /// or `S_CHAT`).
    pub fn resolve_line(&mut self, def: &str) -> Result<Def, String> {
        if let Some(found) = self.cache.get(def) {
            return Ok(found.clone());
        }
        let found = self.set.resolve_spec(def).map_err(|e| e.to_string())?;
        self.cache.insert(def.into(), found.clone());
        Ok(found)
    }

    /// The protocol map that names opcodes: `--map` (part of the set when
    /// the defs were loaded), else the set's map of the highest revision.
    pub fn map(&self, map: Option<&Path>) -> Result<Arc<ProtocolMap>, Fail> {
        match map {
            Some(path) if !self.loaded => Ok(Arc::new(input::map(path)?)),
            _ => highest(self.set.protocol_maps()).ok_or_else(|| {
                Fail::Usage("no protocol map is known: give one with --map FILE".into())
            }),
        }
    }

    /// The def of `opcode` in the map of [`Packets::map`], at `version` or
    /// the highest.
    pub fn by_opcode(
        &self,
        map: Option<&Path>,
        opcode: u16,
        version: Option<u32>,
    ) -> Result<Def, Fail> {
        let map = self.map(map)?;
        self.set
            .lookup_opcode(&map, opcode, version)
            .map_err(|e| match e {
                ResolveError::UnknownOpcode(_) => Fail::Data(e.to_string()),
                e => Fail::Usage(e.to_string()),
            })
    }
}

/// The map of the highest revision (maps without one count lowest).
pub fn highest(maps: Vec<Arc<ProtocolMap>>) -> Option<Arc<ProtocolMap>> {
    maps.into_iter().max_by_key(|m| m.revision())
}

fn usage(e: ResolveError) -> Fail {
    Fail::Usage(e.to_string())
}
