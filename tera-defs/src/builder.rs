//! [`Builder`]: the build-script entry point, in the style of prost-build.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use tera_defs_front::{Def, MapFile, Report, find_files, load_def_file, load_map_file};

use crate::emit::{EmitOptions, Serde, emit_file, format};
use crate::warnings::rust_name_warnings;

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Defs or maps have errors; each report renders its diagnostics.
    #[error("{}", render(.0))]
    Schema(Vec<Report>),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Neither `out_dir` nor `OUT_DIR` is set.
    #[error("no output folder: set `Builder::out_dir` or run from a build script (OUT_DIR)")]
    NoOutDir,
    /// The emitted tokens did not parse as Rust (a bug in the emitter).
    #[error("generated code does not parse: {0}")]
    Emit(syn::Error),
}

fn render(reports: &[Report]) -> String {
    let errors: usize = reports.iter().map(Report::error_count).sum();
    let mut out: String = reports.iter().map(|r| r.render(false)).collect();
    let plural = if errors == 1 { "" } else { "s" };
    out.push_str(&format!(
        "{errors} error{plural} in the packet definitions\n"
    ));
    out
}

/// Compiles `.def` and `.map` files into Rust source, for a build script:
///
/// ```no_run
/// // in build.rs's `main`:
/// if let Err(e) = tera_defs::Builder::new().defs_dir("defs").maps_dir("maps").compile() {
///     eprintln!("{e}");
///     std::process::exit(1);
/// }
/// ```
///
/// and in the crate: `include!(concat!(env!("OUT_DIR"), "/tera_packets.rs"));`
/// inside a module. The crate depends on `tera-packets`; the generated code
/// uses nothing else unless asked: [`Builder::serde`] for serde derives,
/// [`Builder::arbitrary_feature`] for `Arbitrary`.
#[derive(Clone, Default)]
pub struct Builder {
    defs: Vec<PathBuf>,
    maps: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
    only: Option<BTreeSet<String>>,
    latest_only: bool,
    /// Warnings reviewed as deliberate: (def file name, code).
    expected: Vec<(String, String)>,
    opts: EmitOptions,
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("defs", &self.defs)
            .field("maps", &self.maps)
            .field("out_dir", &self.out_dir)
            .field("only", &self.only)
            .field("latest_only", &self.latest_only)
            .field("expected", &self.expected)
            .finish_non_exhaustive()
    }
}

impl Builder {
    /// A builder with no inputs, writing `tera_packets.rs` to `OUT_DIR`.
    pub fn new() -> Self {
        Builder::default()
    }

    /// Adds a folder (searched recursively) or a single `.def` file.
    pub fn defs_dir(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.defs.push(path.into());
        self
    }

    /// Adds a folder of `protocol.REV.map` / `sysmsg.REV.map` files, or one
    /// such file.
    pub fn maps_dir(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.maps.push(path.into());
        self
    }

    /// Where [`Builder::compile`] writes (default: `OUT_DIR`).
    pub fn out_dir(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(path.into());
        self
    }

    /// The generated file's name (default `tera_packets.rs`).
    pub fn file_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.file_name = Some(name.into());
        self
    }

    /// Emits only these packets (by name, e.g. `S_LOGIN`); all by default.
    pub fn packets<I, S>(&mut self, names: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Emits only the highest version of each packet.
    pub fn latest_only(&mut self, yes: bool) -> &mut Self {
        self.latest_only = yes;
        self
    }

    /// How serde derives are emitted (default [`Serde::Off`]: none). With
    /// [`Serde::feature`] they sit behind the generated crate's `serde`
    /// feature, which must enable `tera-packets/serde` and depend on
    /// `serde` with `derive`.
    pub fn serde(&mut self, mode: Serde) -> &mut Self {
        self.opts.serde = mode;
        self
    }

    /// The feature of the generated crate behind which `Arbitrary` is
    /// derived (default `None`: no `Arbitrary` code at all). The feature
    /// must enable `tera-packets/arbitrary` and depend on `arbitrary` with
    /// `derive`.
    pub fn arbitrary_feature(&mut self, feature: Option<&str>) -> &mut Self {
        self.opts.arbitrary = feature.map(str::to_owned);
        self
    }

    /// Marks warning `code` (`W002`) of def file `file` (its name,
    /// `C_JOIN_PRIVATE_CHANNEL.1.def`) as reviewed: the def is meant so,
    /// and [`Builder::compile`] does not show the warning to everyone who
    /// builds the crate, who cannot change the def. Should the def no
    /// longer have that warning, `compile` shows that instead, so that a
    /// review does not outlive its def. [`Builder::warnings`] and
    /// `tera-defs check` still list every warning.
    pub fn expect_warning(&mut self, file: &str, code: &str) -> &mut Self {
        self.expected.push((file.to_owned(), code.to_owned()));
        self
    }

    /// The runtime crate's path in generated code (default `::tera_packets`),
    /// for crates that re-export it.
    pub fn runtime_path(&mut self, path: &str) -> Result<&mut Self, syn::Error> {
        self.opts.runtime = syn::parse_str(path)?;
        Ok(self)
    }

    /// Every input file, sorted: what `cargo:rerun-if-changed` must list.
    pub fn input_files(&self) -> Vec<PathBuf> {
        let found = find_files(&self.defs);
        let maps = find_files(&self.maps);
        let mut files: Vec<PathBuf> = found.defs.into_iter().chain(maps.maps).collect();
        files.sort();
        files.dedup();
        files
    }

    /// Parses, validates and selects the defs and maps.
    pub fn load(&self) -> Result<(Vec<Def>, Vec<MapFile>), BuildError> {
        self.load_with_warnings()
            .map(|loaded| (loaded.defs, loaded.maps))
    }

    /// The warnings of the defs (every def, also those not selected) and maps,
    /// one line each, `PATH:LINE:COLUMN: warning[CODE]: message; note`, the
    /// reviewed ones ([`Builder::expect_warning`]) too.
    pub fn warnings(&self) -> Result<Vec<String>, BuildError> {
        self.load_with_warnings().map(|loaded| loaded.warnings)
    }

    /// The warnings [`Builder::compile`] shows: those not reviewed with
    /// [`Builder::expect_warning`], and each review whose warning is gone.
    pub fn unexpected_warnings(&self) -> Result<Vec<String>, BuildError> {
        self.load_with_warnings().map(|loaded| loaded.shown)
    }

    fn load_with_warnings(&self) -> Result<Loaded, BuildError> {
        let mut failed = Vec::new();
        let mut defs = Vec::new();
        let mut warnings = Vec::new();
        let mut shown = Vec::new();
        let mut met = vec![false; self.expected.len()];
        let found = find_files(&self.defs);
        failed.extend(found.errors);
        for path in &found.defs {
            let mut checked = load_def_file(path);
            match checked.def {
                Some(def) => {
                    for warning in rust_name_warnings(&def) {
                        checked.report.push(warning);
                    }
                    checked.report.sort();
                    let shown_name = path.display().to_string();
                    warnings.extend(checked.report.render_lines(&shown_name));
                    let file = path.file_name().map(|n| n.to_string_lossy());
                    checked.report.diagnostics.retain(|d| {
                        let reviewed = self.expected.iter().position(|(f, code)| {
                            file.as_deref() == Some(f) && d.code.as_deref() == Some(code)
                        });
                        if let Some(at) = reviewed {
                            met[at] = true;
                        }
                        reviewed.is_none()
                    });
                    shown.extend(checked.report.render_lines(&shown_name));
                    defs.push(def);
                }
                None => failed.push(checked.report),
            }
        }
        let mut maps = Vec::new();
        for path in find_files(&self.maps).maps {
            // A build takes a map only whole: a malformed line is an error;
            // an alias (a second name on a code) is a warning.
            let checked = load_map_file(&path);
            match checked.map {
                Some(map) if checked.report.is_ok() => {
                    warnings.extend(checked.report.render_lines(&path.display().to_string()));
                    maps.push(map);
                }
                _ => failed.push(checked.report),
            }
        }
        if !failed.is_empty() {
            return Err(BuildError::Schema(failed));
        }
        for ((file, code), _) in self.expected.iter().zip(met).filter(|(_, met)| !met) {
            shown.push(format!(
                "{file}: warning {code} was expected (Builder::expect_warning) but the def \
                 no longer has it: remove the expectation"
            ));
        }
        if let Some(only) = &self.only {
            defs.retain(|d| only.contains(&d.name));
        }
        if self.latest_only {
            let mut latest: std::collections::HashMap<String, u32> = Default::default();
            for d in defs.iter().filter(|d| d.platform.is_none()) {
                let v = latest.entry(d.name.clone()).or_insert(d.version);
                *v = (*v).max(d.version);
            }
            defs.retain(|d| d.platform.is_none() && latest.get(&d.name) == Some(&d.version));
        }
        Ok(Loaded {
            defs,
            maps,
            warnings,
            shown,
        })
    }

    /// The formatted Rust source of all selected packets.
    pub fn generate(&self) -> Result<String, BuildError> {
        let (defs, maps) = self.load()?;
        format(emit_file(&defs, &maps, &self.opts)).map_err(BuildError::Emit)
    }

    /// For build scripts: generates, writes the file only when its content
    /// changed (so an unchanged build does nothing), prints
    /// `cargo:rerun-if-changed` for every input file and folder, and
    /// `cargo:warning=` for every warning of the defs not reviewed (see
    /// [`Builder::unexpected_warnings`]), which `cargo build` shows.
    pub fn compile(&self) -> Result<(), BuildError> {
        for path in self.defs.iter().chain(&self.maps) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        for path in self.input_files() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        let loaded = self.load_with_warnings()?;
        for warning in &loaded.shown {
            println!("cargo:warning={warning}");
        }
        let source =
            format(emit_file(&loaded.defs, &loaded.maps, &self.opts)).map_err(BuildError::Emit)?;
        let path = out_dir.join(self.file_name.as_deref().unwrap_or("tera_packets.rs"));
        write_if_changed(&path, &source)
    }
}

/// What [`Builder::load_with_warnings`] found.
struct Loaded {
    defs: Vec<Def>,
    maps: Vec<MapFile>,
    /// Every warning.
    warnings: Vec<String>,
    /// The warnings `compile` shows.
    shown: Vec<String>,
}

fn write_if_changed(path: &Path, content: &str) -> Result<(), BuildError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == content) {
        return Ok(());
    }
    std::fs::write(path, content).map_err(|source| BuildError::Io {
        path: path.to_owned(),
        source,
    })
}
