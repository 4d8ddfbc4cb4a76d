//! Reading def and map files and walking folders.

use std::fs;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::Diagnostic;

use crate::codes;
use crate::map::{CheckedMap, parse_map};
use crate::report::{Checked, Report};

fn file_name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn io_report(path: &Path, error: &std::io::Error) -> Report {
    let mut report = Report::new(path.display().to_string(), String::new());
    report.push(
        Diagnostic::error()
            .with_code(codes::IO)
            .with_message(format!("cannot read `{}`: {error}", path.display())),
    );
    report
}

/// Reads and checks one def file. Diagnostics name the file by its file
/// name; an I/O error becomes an error diagnostic.
pub fn load_def_file(path: &Path) -> Checked {
    match fs::read(path) {
        Ok(bytes) => {
            let source = String::from_utf8_lossy(&bytes);
            crate::parse_def(&file_name_of(path), &source)
        }
        Err(e) => Checked {
            def: None,
            report: io_report(path, &e),
        },
    }
}

/// Reads and checks one map file (see [`parse_map`]); an I/O error is a
/// report without a map.
pub fn load_map_file(path: &Path) -> CheckedMap {
    match fs::read(path) {
        Ok(bytes) => parse_map(&file_name_of(path), &String::from_utf8_lossy(&bytes)),
        Err(e) => CheckedMap {
            map: None,
            report: io_report(path, &e),
        },
    }
}

/// Files found under a list of paths.
#[derive(Debug, Clone, Default)]
pub struct FoundFiles {
    /// `.def` files, sorted by file name (then path).
    pub defs: Vec<PathBuf>,
    /// `.map` files, sorted by file name (then path).
    pub maps: Vec<PathBuf>,
    /// Paths that are neither a readable folder nor a file; as reports.
    pub errors: Vec<Report>,
}

fn walk(dir: &Path, found: &mut FoundFiles) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            found.errors.push(io_report(dir, &e));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else {
            match path.extension().and_then(|e| e.to_str()) {
                Some("def") => found.defs.push(path),
                Some("map") => found.maps.push(path),
                _ => {}
            }
        }
    }
}

fn sort_by_file_name(paths: &mut [PathBuf]) {
    paths.sort_by(|a, b| a.file_name().cmp(&b.file_name()).then_with(|| a.cmp(b)));
}

/// Collects the files to check: a file is taken as it is (`.map` files as
/// maps, anything else as a def); a folder is walked recursively for `*.def`
/// and `*.map`.
pub fn find_files(paths: &[PathBuf]) -> FoundFiles {
    let mut found = FoundFiles::default();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut found);
        } else if path.extension().is_some_and(|e| e == "map") {
            found.maps.push(path.clone());
        } else {
            found.defs.push(path.clone());
        }
    }
    sort_by_file_name(&mut found.defs);
    sort_by_file_name(&mut found.maps);
    found
}

/// Checks every def found under `paths` (files, or folders walked for
/// `*.def`), sorted by file name. Map files are ignored; a path that cannot
/// be read gives a [`Checked`] with an I/O error.
pub fn check_paths(paths: &[PathBuf]) -> Vec<Checked> {
    let found = find_files(paths);
    let mut out: Vec<Checked> = found
        .errors
        .into_iter()
        .map(|report| Checked { def: None, report })
        .collect();
    out.extend(found.defs.iter().map(|p| load_def_file(p)));
    out
}
