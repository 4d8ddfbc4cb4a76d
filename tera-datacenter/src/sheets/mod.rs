//! Data center sheets: the XML files and XSD schemas people edit, one folder
//! per child of `__root__`, and the way between them and a data center.
//!
//! - [`read_sheets`] finds every `.xml` file below each folder of a sheets
//!   folder (in ordinal order of their paths), reads them on every core and
//!   checks each against its folder's schema `NAME/NAME.xsd` ([`Schema`]);
//!   every problem of the run is a [`Diagnostic`] with file, line, column
//!   and what was expected. [`validate_sheets`] only checks.
//! - [`Sheets::write_dec`] packs what was read: types and keys from the
//!   schemas, an element's text as the `__value__` attribute, the root's
//!   children in file order, children sorted by name, then by key values.
//! - [`write_sheets`] unpacks a data center into a sheets folder with a
//!   schema per folder inferred from the data, which packs again to the
//!   same content.

mod diagnostic;
mod error;
mod files;
mod infer;
mod keys;
mod schema;
mod sheet;
mod source;
mod unpack;
mod xml_read;
mod xsd;

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

pub use diagnostic::Diagnostic;
pub use error::SheetsError;
pub use keys::KeysNamespace;
pub use schema::{AttributeDecl, AttributeType, ComplexType, ElementDecl, Schema};
pub use unpack::{UnpackStats, write_schemas, write_sheets};

use crate::write::{Encoded, WriteOptions};
use diagnostic::{FileDiagnostics, whole_file};
use sheet::Sheet;

/// Sheets read and checked: ready to pack.
#[derive(Debug)]
pub struct Sheets {
    sheets: Vec<Sheet>,
}

impl Sheets {
    /// Number of sheet files.
    pub fn file_count(&self) -> usize {
        self.sheets.len()
    }

    /// Number of elements in all sheets (without `__root__`).
    pub fn element_count(&self) -> usize {
        self.sheets.iter().map(|s| s.nodes.len()).sum()
    }

    /// Lays out the data center, then drops the sheets before anything is
    /// serialized: what was read is not held beside what is written.
    fn encode(self, options: &WriteOptions) -> Result<Encoded, SheetsError> {
        let source = source::SheetsSource::new(&self.sheets)?;
        Ok(crate::write::encode(&source, options)?)
    }

    /// Writes the data center (`.dec` bytes) to `out` (buffer it: it is
    /// written in many small pieces).
    pub fn write_dec(self, options: &WriteOptions, out: &mut dyn Write) -> Result<(), SheetsError> {
        self.encode(options)?
            .serialize(out)
            .map_err(|e| SheetsError::io(Path::new("output"), e))
    }

    /// The data center (`.dec` bytes).
    pub fn into_dec(self, options: &WriteOptions) -> Result<Vec<u8>, SheetsError> {
        Ok(self.encode(options)?.into_bytes())
    }
}

/// What a check of sheets found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetsStats {
    /// Schema folders.
    pub folders: usize,
    /// Sheet files.
    pub files: usize,
    /// Elements in all sheets.
    pub elements: usize,
}

/// Reads and checks every sheet below `dir` (see the [module](self) doc).
/// `progress(done, total)` is called from the reading threads as files are
/// done. All problems are returned at once as [`SheetsError::Invalid`].
pub fn read_sheets(
    dir: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Sheets, SheetsError> {
    read(dir, progress, true).map(|(sheets, _)| sheets)
}

/// Checks every sheet below `dir` against its schema without keeping what
/// was read; like [`read_sheets`] otherwise.
pub fn validate_sheets(
    dir: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<SheetsStats, SheetsError> {
    read(dir, progress, false).map(|(_, stats)| stats)
}

/// Diagnostics and their rendering.
type Rendered = (Vec<Diagnostic>, String);

/// What reading one file gave.
struct FileResult {
    sheet: Option<Sheet>,
    elements: usize,
    diagnostics: Vec<Diagnostic>,
    rendered: String,
}

fn read(
    dir: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
    keep: bool,
) -> Result<(Sheets, SheetsStats), SheetsError> {
    let folders = files::list(dir)?;
    let schemas: Vec<Result<Option<Schema>, Rendered>> = folders
        .par_iter()
        .map(|f| {
            let Some(path) = &f.schema else {
                return Ok(None);
            };
            let rel = files::relative(dir, path);
            let text = match read_text(path, &rel) {
                Ok(t) => t,
                Err(d) => return Err((vec![d.clone()], diagnostic::render(&rel, "", &[d]))),
            };
            let mut diags = FileDiagnostics::new(rel, &text);
            match schema::parse_schema(&text, &mut diags) {
                Some(s) if diags.is_empty() => Ok(Some(s)),
                _ => Err(diags.finish()),
            }
        })
        .collect();
    let jobs: Vec<(&Path, String, FolderSchema<'_>)> = folders
        .iter()
        .zip(&schemas)
        .flat_map(|(f, s)| {
            f.files.iter().map(move |p| {
                let schema = match s {
                    Ok(Some(s)) => FolderSchema::Read(s),
                    Ok(None) => FolderSchema::Missing(format!("{}/{}.xsd", f.name, f.name)),
                    Err(_) => FolderSchema::Broken,
                };
                (p.as_path(), files::relative(dir, p), schema)
            })
        })
        .collect();
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let results: Vec<FileResult> = jobs
        .par_iter()
        .map(|(path, rel, schema)| {
            let result = read_file(path, rel, schema, keep);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            result
        })
        .collect();
    let mut diagnostics = Vec::new();
    let mut rendered = String::new();
    for (d, r) in schemas.into_iter().filter_map(Result::err) {
        diagnostics.extend(d);
        rendered.push_str(&r);
    }
    let mut sheets = Vec::with_capacity(if keep { results.len() } else { 0 });
    let mut elements = 0;
    for r in results {
        diagnostics.extend(r.diagnostics);
        rendered.push_str(&r.rendered);
        elements += r.elements;
        sheets.extend(r.sheet);
    }
    if !diagnostics.is_empty() {
        return Err(SheetsError::Invalid {
            diagnostics,
            rendered,
        });
    }
    let stats = SheetsStats {
        folders: folders.len(),
        files: total,
        elements,
    };
    Ok((Sheets { sheets }, stats))
}

/// The text of a file, or a diagnostic saying why there is none.
fn read_text(path: &Path, rel: &str) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| {
        whole_file(
            rel.into(),
            format!("cannot read the file: {e}"),
            "a readable file",
        )
    })?;
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .map(<[u8]>::to_vec)
        .unwrap_or(bytes);
    String::from_utf8(bytes).map_err(|e| {
        whole_file(
            rel.into(),
            format!("invalid UTF-8 at byte {}", e.utf8_error().valid_up_to()),
            "UTF-8 text",
        )
    })
}

/// The schema of a sheet's folder.
enum FolderSchema<'s> {
    /// Read without a problem.
    Read(&'s Schema),
    /// Read with problems, which are reported once, for the schema.
    Broken,
    /// There is none; the path where it was looked for.
    Missing(String),
}

fn read_file(path: &Path, rel: &str, schema: &FolderSchema<'_>, keep: bool) -> FileResult {
    let fail = |d: Diagnostic| FileResult {
        sheet: None,
        elements: 0,
        rendered: diagnostic::render(rel, "", std::slice::from_ref(&d)),
        diagnostics: vec![d],
    };
    let schema = match schema {
        FolderSchema::Read(s) => *s,
        FolderSchema::Broken => {
            return FileResult {
                sheet: None,
                elements: 0,
                diagnostics: Vec::new(),
                rendered: String::new(),
            };
        }
        FolderSchema::Missing(wanted) => {
            return fail(whole_file(rel.into(), "no schema for this sheet", wanted));
        }
    };
    let text = match read_text(path, rel) {
        Ok(t) => t,
        Err(d) => return fail(d),
    };
    let mut diags = FileDiagnostics::new(rel.into(), &text);
    let sheet = sheet::read_sheet(&text, schema, &mut diags);
    let elements = sheet.nodes.len();
    let ok = diags.is_empty();
    let (diagnostics, rendered) = diags.finish();
    FileResult {
        sheet: (ok && keep).then_some(sheet),
        elements,
        diagnostics,
        rendered,
    }
}

/// The schema of [`fuzz_sheet`] inputs without their own.
#[cfg(feature = "fuzzing")]
const FUZZ_SCHEMA: &str = r#"<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:dc="https://tera-arise.io/dc">
<xsd:complexType name="A"><xsd:sequence>
<xsd:element name="B" type="B" minOccurs="0" maxOccurs="unbounded" />
<xsd:element name="T" type="T" minOccurs="0" />
</xsd:sequence><xsd:attribute name="i" type="xsd:int" /></xsd:complexType>
<xsd:complexType name="B" dc:keys="s i"><xsd:sequence>
<xsd:element name="B" type="B" minOccurs="0" maxOccurs="unbounded" />
</xsd:sequence>
<xsd:attribute name="i" type="xsd:int" /><xsd:attribute name="f" type="xsd:float" />
<xsd:attribute name="b" type="xsd:boolean" /><xsd:attribute name="s" type="xsd:string" use="required" />
</xsd:complexType>
<xsd:complexType name="T"><xsd:simpleContent><xsd:extension base="xsd:string" /></xsd:simpleContent></xsd:complexType>
<xsd:element name="A" type="A" />
</xsd:schema>"#;

#[cfg(feature = "fuzzing")]
pub(crate) fn fuzz_sheet(bytes: &[u8]) {
    let (schema_text, sheet_text) = match bytes.iter().position(|&b| b == 0) {
        Some(at) => (
            String::from_utf8_lossy(&bytes[..at]),
            String::from_utf8_lossy(&bytes[at + 1..]),
        ),
        None => (FUZZ_SCHEMA.into(), String::from_utf8_lossy(bytes)),
    };
    let mut diags = FileDiagnostics::new("fuzz.xsd".into(), &schema_text);
    let Some(schema) = schema::parse_schema(&schema_text, &mut diags) else {
        let _ = diags.finish();
        return;
    };
    let mut diags = FileDiagnostics::new("fuzz.xml".into(), &sheet_text);
    let sheet = sheet::read_sheet(&sheet_text, &schema, &mut diags);
    let ok = diags.is_empty();
    let _ = diags.finish();
    if !ok {
        return;
    }
    let sheets = Sheets {
        sheets: vec![sheet],
    };
    // Too many names or keys are errors, not panics.
    if let Ok(dec) = sheets.into_dec(&WriteOptions::default()) {
        let report = crate::verify::verify(&dec, None);
        assert!(
            report.is_ok(),
            "a valid sheet packed into a file with problems: {:?}",
            report.problems
        );
    }
}
