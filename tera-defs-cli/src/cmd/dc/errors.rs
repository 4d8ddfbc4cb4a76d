//! How the `dc` commands report a bad input file.

use std::path::Path;

use crate::fail::Fail;

/// A data error about `file`.
pub(super) fn data_error(file: &Path, e: impl std::fmt::Display) -> Fail {
    Fail::Data(format!("{}: {e}", file.display()))
}

/// A data error about `file` from a library error, with the errors that
/// caused it (the inflater's own message under a `.dat` that does not
/// inflate, say).
pub(super) fn error_chain(file: &Path, e: &dyn std::error::Error) -> Fail {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    data_error(file, message)
}
