//! A set of defs and an opcode map loaded at run time, looked up by name
//! and version, by opcode, or as the latest version of a name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tera_defs_front::{
    Checked, Diagnostic, Report, find_files, load_def_file, load_map_file, parse_def,
};
use tera_packets::ProtocolMap;

use crate::protocol_map::{LoadedMap, load_protocol_map, parse_protocol_map, protocol_map_of};
use crate::schema::Schema;

/// Defs and a protocol map read at run time.
///
/// A def with errors is reported ([`Catalog::problems`]) and left out; the
/// others load. A def loaded again (same name, version and platform, e.g.
/// from a later folder) replaces the earlier one, so that a folder of
/// patch-day defs can override a checkout.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Defs without a platform infix, each name's versions in ascending order.
    by_name: HashMap<Arc<str>, Vec<Arc<Schema>>>,
    /// Defs with a platform infix (`NAME.VERSION.PLATFORM.def`).
    platform: Vec<Arc<Schema>>,
    protocol: Option<ProtocolMap>,
    /// Whether `protocol` was named by the user (it is then kept).
    map_chosen: bool,
    problems: Vec<Report>,
    warnings: Vec<Report>,
}

/// The first of `names` under `root` that is a folder.
fn first_dir(root: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| root.join(n)).find(|p| p.is_dir())
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Catalog::default()
    }

    /// Loads by the rules of the generated crate's build: `TERA_DATA_DIR`
    /// (a tera-data checkout, see [`Catalog::load_dir`]) and each folder of
    /// `TERA_EXTRA_DEFS` (separated like `PATH`). Empty when neither is set.
    pub fn from_env() -> Self {
        let mut catalog = Catalog::new();
        if let Some(root) = std::env::var_os("TERA_DATA_DIR") {
            catalog.load_dir(root);
        }
        if let Some(extra) = std::env::var_os("TERA_EXTRA_DEFS") {
            for dir in std::env::split_paths(&extra) {
                catalog.load_dir(dir);
            }
        }
        catalog
    }

    /// Loads a tera-data checkout or a folder of defs: the defs of its
    /// `definitions/` (or `protocol/`) folder, else of the folder itself,
    /// walked recursively for `*.def`; and the maps of its `maps/` (or
    /// `map/`, `map_base/`) folder. A single `.def` file loads too. Returns
    /// how many defs loaded; the files with errors are in
    /// [`Catalog::problems`].
    pub fn load_dir(&mut self, path: impl AsRef<Path>) -> usize {
        let root = path.as_ref();
        let defs = first_dir(root, &["definitions", "protocol"]).unwrap_or_else(|| root.into());
        let found = find_files(&[defs]);
        self.problems.extend(found.errors);
        let mut loaded = 0;
        for file in &found.defs {
            if self.add_checked(load_def_file(file)).is_some() {
                loaded += 1;
            }
        }
        if let Some(maps) = first_dir(root, &["maps", "map", "map_base"]) {
            for file in find_files(&[maps]).maps {
                // As tera-data-parser does: a line left out (malformed, or
                // an alias) is a problem, the map's other lines still give
                // opcodes.
                let checked = load_map_file(&file);
                if !checked.report.diagnostics.is_empty() {
                    self.problems.push(checked.report);
                }
                if let Some(map) = checked.map.as_ref().and_then(protocol_map_of) {
                    self.offer_map(map, false);
                }
            }
        }
        loaded
    }

    /// Uses the protocol map at `path` for opcodes, in place of any map
    /// found by [`Catalog::load_dir`] (see [`load_protocol_map`]: its lines
    /// that make no entry are left out and the file's report is one of
    /// [`Catalog::problems`]). An unreadable file or a sysmsg map is
    /// returned as a report and changes nothing.
    pub fn load_map(&mut self, path: impl AsRef<Path>) -> Result<(), Report> {
        let loaded = load_protocol_map(path)?;
        self.take_map(loaded);
        Ok(())
    }

    /// Uses the protocol map at `path`, whatever the file is called
    /// (`opcodes.txt`, `protocol.map`, a download's name), as the map of
    /// protocol revision `revision`: [`Catalog::load_map`] takes the
    /// revision only from a `protocol.REV.map` name, which many published
    /// maps do not have. Lines that make no entry are left out, as by
    /// [`Catalog::load_map`], and reported (naming `path`).
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn load_map_as(&mut self, path: impl AsRef<Path>, revision: u32) -> Result<(), Report> {
        let path = path.as_ref();
        let source = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                let mut report = Report::new(path.display().to_string(), String::new());
                report.push(Diagnostic::error().with_message(format!("cannot read the map: {e}")));
                return Err(report);
            }
        };
        self.add_map_as(&path.display().to_string(), &source, revision)
    }

    /// [`Catalog::load_map_as`] from a map's source; `label` names it in
    /// the report.
    ///
    /// ```
    /// # use tera_dynamic::Catalog;
    /// let mut catalog = Catalog::new();
    /// catalog.add_map_as("opcodes.txt", "S_CHAT 20522\nC_CHAT 4321\n", 376_012)
    ///     .map_err(|r| r.render(false))?;
    /// assert_eq!(catalog.protocol_map().and_then(|m| m.revision()), Some(376_012));
    /// assert_eq!(catalog.name_of(20522), Some("S_CHAT"));
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// Never for a protocol map's source (its bad lines are left out and
    /// reported in [`Catalog::problems`]); the report type is
    /// [`Catalog::load_map_as`]'s.
    pub fn add_map_as(&mut self, label: &str, source: &str, revision: u32) -> Result<(), Report> {
        // The front end reads the kind and revision off the file name; the
        // report names the file the user gave.
        let mut loaded = parse_protocol_map(&format!("protocol.{revision}.map"), source).map_err(
            |mut report| {
                label.clone_into(&mut report.file_name);
                report
            },
        )?;
        label.clone_into(&mut loaded.report.file_name);
        self.take_map(loaded);
        Ok(())
    }

    /// [`Catalog::load_map`] from a map's source; `file_name` names it (see
    /// [`parse_protocol_map`]).
    pub fn add_map(&mut self, file_name: &str, source: &str) -> Result<(), Report> {
        let loaded = parse_protocol_map(file_name, source)?;
        self.take_map(loaded);
        Ok(())
    }

    fn take_map(&mut self, loaded: LoadedMap) {
        if !loaded.is_whole() {
            self.problems.push(loaded.report);
        }
        self.offer_map(loaded.map, true);
    }

    /// Takes `map` as the protocol map when the user chose it, or when it
    /// is the highest revision found and the user chose none.
    fn offer_map(&mut self, map: ProtocolMap, chosen: bool) {
        let better = match &self.protocol {
            None => true,
            Some(_) if chosen => true,
            Some(current) => !self.map_chosen && map.revision() > current.revision(),
        };
        if better {
            self.protocol = Some(map);
            self.map_chosen |= chosen;
        }
    }

    /// Checks and adds one def from its source; `file_name` is
    /// `NAME.VERSION[.PLATFORM].def`. Its report when it has errors.
    pub fn add_def(&mut self, file_name: &str, source: &str) -> Result<Arc<Schema>, Report> {
        let checked = parse_def(file_name, source);
        let report = checked.report.clone();
        self.add_checked(checked).ok_or(report)
    }

    fn add_checked(&mut self, checked: Checked) -> Option<Arc<Schema>> {
        let Checked { def, report } = checked;
        let Some(def) = def else {
            self.problems.push(report);
            return None;
        };
        let schema = match Schema::new(&def) {
            Ok(schema) => Arc::new(schema),
            Err(e) => {
                let mut report = report;
                report
                    .push(Diagnostic::error().with_message(format!("cannot lay out the def: {e}")));
                self.problems.push(report);
                return None;
            }
        };
        if report.warning_count() > 0 {
            self.warnings.push(report);
        }
        if schema.platform.is_some() {
            let same = |s: &Arc<Schema>| {
                s.name == schema.name
                    && s.version == schema.version
                    && s.platform == schema.platform
            };
            self.platform.retain(|s| !same(s));
            self.platform.push(Arc::clone(&schema));
        } else {
            let versions = self.by_name.entry(Arc::clone(&schema.name)).or_default();
            match versions.binary_search_by_key(&schema.version, |s| s.version) {
                Ok(k) => versions[k] = Arc::clone(&schema),
                Err(k) => versions.insert(k, Arc::clone(&schema)),
            }
        }
        Some(schema)
    }

    /// Version `version` of packet `name` (a def without platform infix).
    pub fn get(&self, name: &str, version: u32) -> Option<&Arc<Schema>> {
        let versions = self.by_name.get(name)?;
        let k = versions
            .binary_search_by_key(&version, |s| s.version)
            .ok()?;
        versions.get(k)
    }

    /// Version `version` of packet `name` for `platform` (`console`, ...).
    pub fn get_platform(&self, name: &str, version: u32, platform: &str) -> Option<&Arc<Schema>> {
        self.platform.iter().find(|s| {
            &*s.name == name && s.version == version && s.platform.as_deref() == Some(platform)
        })
    }

    /// The highest version of packet `name`.
    pub fn latest(&self, name: &str) -> Option<&Arc<Schema>> {
        self.by_name.get(name)?.last()
    }

    /// The versions of packet `name` that `packet` fits exactly
    /// ([`Schema::fit`]: no byte left, the same bytes again), highest
    /// first. A folder holds every version a packet had and a session of
    /// an older build plays an older one: the latest may not read it, or
    /// may decode it with bytes to spare.
    ///
    /// ```
    /// # use tera_dynamic::Catalog;
    /// let mut catalog = Catalog::new();
    /// catalog.add_def("S_HP.1.def", "uint32 hp\nuint32 max\n").unwrap();
    /// catalog.add_def("S_HP.2.def", "uint32 hp\n").unwrap();
    /// let packet = [12, 0, 0x2a, 0x50, 100, 0, 0, 0, 7, 0, 0, 0];
    /// let fits: Vec<u32> = catalog.fitting("S_HP", &packet).map(|s| s.version()).collect();
    /// assert_eq!(fits, [1]);
    /// ```
    pub fn fitting<'c>(
        &'c self,
        name: &str,
        packet: &'c [u8],
    ) -> impl Iterator<Item = &'c Arc<Schema>> + 'c {
        self.by_name
            .get(name)
            .into_iter()
            .flat_map(|versions| versions.iter().rev())
            .filter(move |schema| schema.fit(packet).is_ok())
    }

    /// The packet the protocol map names `opcode`: version `version`, or
    /// the latest when `None` (which may not be the version a session
    /// plays: see [`Catalog::fitting`]).
    pub fn by_opcode(&self, opcode: u16, version: Option<u32>) -> Option<&Arc<Schema>> {
        let name = self.name_of(opcode)?;
        match version {
            Some(v) => self.get(name, v),
            None => self.latest(name),
        }
    }

    /// The opcode of packet `name` in the protocol map.
    pub fn opcode(&self, name: &str) -> Option<u16> {
        self.protocol.as_ref()?.code(name)
    }

    /// The name the protocol map gives `opcode`.
    pub fn name_of(&self, opcode: u16) -> Option<&str> {
        self.protocol.as_ref()?.name(opcode)
    }

    /// The protocol map in use, if any.
    pub fn protocol_map(&self) -> Option<&ProtocolMap> {
        self.protocol.as_ref()
    }

    /// Every usable def: by name, then version, then the platform defs.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Schema>> {
        let mut names: Vec<&Arc<str>> = self.by_name.keys().collect();
        names.sort();
        names
            .into_iter()
            .flat_map(|n| self.by_name.get(n).into_iter().flatten())
            .chain(&self.platform)
    }

    /// The number of usable defs.
    pub fn len(&self) -> usize {
        self.by_name.values().map(Vec::len).sum::<usize>() + self.platform.len()
    }

    /// Whether no def loaded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The files that did not load, or not whole (defs with errors, maps
    /// with lines left out, unreadable paths), each with every diagnostic
    /// of the file.
    pub fn problems(&self) -> &[Report] {
        &self.problems
    }

    /// The warnings of the defs that loaded.
    pub fn warnings(&self) -> &[Report] {
        &self.warnings
    }
}
