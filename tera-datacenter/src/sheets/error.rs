//! Why sheets could not be read, packed or written.

use std::io;
use std::path::{Path, PathBuf};

use super::diagnostic::Diagnostic;
use crate::write::WriteError;

/// Why sheets could not be read, packed or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SheetsError {
    /// Sheets or schemas have problems: all of them, in file order.
    #[error("{} problem(s) in the sheets", diagnostics.len())]
    Invalid {
        /// Every problem.
        diagnostics: Vec<Diagnostic>,
        /// The problems rendered with source snippets.
        rendered: String,
    },
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The sheets do not fit in a data center.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A data center cannot be written as sheets.
    #[error("{0}")]
    Unrepresentable(String),
}

impl SheetsError {
    pub(crate) fn io(path: &Path, source: io::Error) -> Self {
        SheetsError::Io {
            path: path.to_owned(),
            source,
        }
    }
}
