//! Where the shared sheets subset is, for the tests and the sheets bench
//! alike (the bench includes this file by path).

use std::path::{Path, PathBuf};

/// The sheets folder named by `TERA_DC_SHEETS`, by default
/// `../shared/dc-sheets/sheets` beside the project; `None`, with a notice
/// saying what is skipped, when it is absent.
pub fn shared_sheets(skipped: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_DC_SHEETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/dc-sheets/sheets")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping {skipped}: no sheets at {} (set TERA_DC_SHEETS)",
            dir.display()
        );
        None
    }
}
