//! Where a command's output goes: a file named on the command line, or
//! stdout.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use crate::fail::Fail;

/// A write error on `path`, named in the message.
fn named(path: &Path, e: io::Error) -> Fail {
    Fail::Output(io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// Writes `bytes` to the file `path`.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Fail> {
    std::fs::write(path, bytes).map_err(|e| named(path, e))
}

/// Runs `write` on the file `path` (created or truncated) or, without a
/// path, on stdout. A file left half-written by a failure is removed, so
/// that a failed export never looks like a finished one.
pub fn to<T>(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<T, Fail>,
) -> Result<T, Fail> {
    let Some(path) = path else {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let value = write(&mut out)?;
        out.flush()?;
        return Ok(value);
    };
    let mut file = File::create(path).map_err(|e| named(path, e))?;
    let result = write(&mut file).and_then(|value| {
        file.flush()?;
        Ok(value)
    });
    if result.is_err() {
        drop(file);
        let _ = std::fs::remove_file(path);
    }
    result.map_err(|fail| match fail {
        Fail::Output(e) => named(path, e),
        other => other,
    })
}
