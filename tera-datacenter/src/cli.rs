//! What the `tera-defs dc` subcommands do, as functions writing to a `Write`
//! (the binary adds argument parsing and progress bars).

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

use crate::sheets::{self, SheetsError, SheetsStats, UnpackStats};
use crate::{
    Arch, DatKey, DataCenter, Error, ExportError, ExportOptions, ExportStats, Report, WriteOptions,
    unpack, verify, verify_dat,
};

/// Why a subcommand failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The file could not be opened or unpacked.
    #[error(transparent)]
    Open(#[from] Error),
    /// The export failed.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// Writing the output failed.
    #[error("writing: {0}")]
    Io(#[from] io::Error),
    /// The path selects nothing.
    #[error("no element at path {0:?}")]
    NoMatch(String),
    /// `pack` refuses a file that does not verify.
    #[error("{0} problems: not packing (verify for the list)")]
    NotValid(usize),
    /// Sheets could not be read, checked, packed or written.
    #[error(transparent)]
    Sheets(#[from] SheetsError),
}

/// `dc verify`: checks a `.dat` (with its key) or a `.dec` (without) and
/// writes a summary line and one line per problem. Returns the report;
/// the exit status should be non-zero when it is not [`Report::is_ok`].
pub fn verify_file(
    bytes: &[u8],
    key: Option<&DatKey>,
    arch: Option<Arch>,
    out: &mut dyn Write,
) -> io::Result<Report> {
    let report = match key {
        Some(key) => verify_dat(bytes, key, arch),
        None => verify(bytes, arch),
    };
    let layout = match (report.arch, report.version) {
        (Some(a), Some(v)) => format!("{a:?} v{}", v.number()),
        _ => "unreadable".into(),
    };
    writeln!(
        out,
        "{layout}: {} nodes, {} attributes reached; {} problem(s)",
        report.nodes,
        report.attributes,
        report.problems.len()
    )?;
    for p in &report.problems {
        writeln!(out, "  {p}")?;
    }
    Ok(report)
}

/// `dc export`: writes the elements at `path` (`""` for the whole tree,
/// `"AreaList/Area"` for a sub-tree) of a `.dat` (with its key) or `.dec` as
/// XML or JSON. `progress(done, total)` is called while writing (`total` is
/// the node count of the file, an upper bound).
pub fn export_file(
    bytes: &[u8],
    key: Option<&DatKey>,
    arch: Option<Arch>,
    path: &str,
    options: ExportOptions,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<ExportStats, CliError> {
    let dec = decrypted(bytes, key)?;
    let dc = DataCenter::parse_as(&dec, arch)?;
    let total = dc.node_count() as u64;
    let roots = dc.root().select(path);
    if roots.is_empty() {
        return Err(CliError::NoMatch(path.into()));
    }
    Ok(crate::export_all(&roots, out, options, &mut |done| {
        progress(done, total)
    })?)
}

/// `dc pack`: compresses and encrypts a `.dec` into a `.dat`, after checking
/// it with the strict verifier (unless `force`).
pub fn pack_file(dec: &[u8], key: &DatKey, force: bool) -> Result<Vec<u8>, CliError> {
    if !force {
        let report = verify(dec, None);
        if !report.is_ok() {
            return Err(CliError::NotValid(report.problems.len()));
        }
    }
    Ok(crate::pack(dec, key))
}

/// `dc unpack`: decrypts and inflates a `.dat` into `.dec` bytes.
pub fn unpack_file(dat: &[u8], key: &DatKey) -> Result<Vec<u8>, CliError> {
    Ok(unpack(dat, key)?)
}

/// `dc validate DIR`: checks every sheet of a sheets folder against its
/// folder's schema. Without problems, returns what was checked; otherwise
/// [`SheetsError::Invalid`] holds every problem, rendered.
/// `progress(done, total)` counts files, from several threads.
pub fn validate_sheets(
    dir: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<SheetsStats, CliError> {
    Ok(sheets::validate_sheets(dir, progress)?)
}

/// `dc pack DIR OUT`: reads and checks the sheets of `dir`, then writes the
/// data center to `out`: `.dec` bytes, or with a key the `.dat` bytes.
/// `progress(done, total)` counts the files read; `writing()` is called
/// once they are all read.
pub fn pack_sheets(
    dir: &Path,
    key: Option<&DatKey>,
    options: &WriteOptions,
    out: &mut dyn Write,
    progress: &(dyn Fn(usize, usize) + Sync),
    writing: &mut dyn FnMut(),
) -> Result<PackedSheets, CliError> {
    let sheets = sheets::read_sheets(dir, progress)?;
    writing();
    let stats = PackedSheets {
        files: sheets.file_count(),
        elements: sheets.element_count(),
    };
    match key {
        None => sheets.write_dec(options, out)?,
        Some(key) => {
            let dec = sheets.to_dec(options)?;
            drop(sheets);
            out.write_all(&crate::pack(&dec, key))?;
        }
    }
    Ok(stats)
}

/// What [`pack_sheets`] packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedSheets {
    /// Sheet files read.
    pub files: usize,
    /// Elements packed (without `__root__`).
    pub elements: usize,
}

/// `dc unpack IN DIR`: writes a `.dec` (or a `.dat` with its key) as sheets
/// with inferred schemas into `dir`. `progress(done, total)` counts
/// elements, from several threads.
pub fn unpack_sheets(
    bytes: &[u8],
    key: Option<&DatKey>,
    arch: Option<Arch>,
    dir: &Path,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<UnpackStats, CliError> {
    let dec = decrypted(bytes, key)?;
    let dc = DataCenter::parse_as(&dec, arch)?;
    Ok(sheets::write_sheets(&dc, dir, progress)?)
}

/// The `.dec` bytes of a file: `bytes` as they are, or decrypted and
/// inflated with `key` for a `.dat`.
fn decrypted<'b>(bytes: &'b [u8], key: Option<&DatKey>) -> Result<Cow<'b, [u8]>, CliError> {
    Ok(match key {
        Some(key) => Cow::Owned(unpack(bytes, key)?),
        None => Cow::Borrowed(bytes),
    })
}
