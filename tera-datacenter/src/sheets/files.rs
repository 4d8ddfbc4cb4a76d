//! Finding the sheet folders, their schemas and their files.

use std::path::{Path, PathBuf};

use super::error::SheetsError;

/// A sheet folder: its name, its schema `NAME/NAME.xsd` if present, and its
/// `.xml` files (recursively), in ordinal order of their paths.
#[derive(Debug)]
pub(crate) struct Folder {
    pub(crate) name: String,
    pub(crate) schema: Option<PathBuf>,
    pub(crate) files: Vec<PathBuf>,
}

/// The folders of `dir` in ordinal order of their names.
pub(crate) fn list(dir: &Path) -> Result<Vec<Folder>, SheetsError> {
    let mut folders = Vec::new();
    for entry in read_dir(dir)? {
        if !entry.is_dir() {
            continue;
        }
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let schema = entry.join(format!("{name}.xsd"));
        let mut files = Vec::new();
        collect_xml(&entry, &mut files)?;
        files.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
        folders.push(Folder {
            name,
            schema: schema.is_file().then_some(schema),
            files,
        });
    }
    folders.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(folders)
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, SheetsError> {
    std::fs::read_dir(dir)
        .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
        .map_err(|e| SheetsError::io(dir, e))
}

fn collect_xml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), SheetsError> {
    for path in read_dir(dir)? {
        if path.is_dir() {
            collect_xml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "xml") {
            out.push(path);
        }
    }
    Ok(())
}

/// `path` relative to `dir`, with `/` separators, for diagnostics.
pub(crate) fn relative(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
