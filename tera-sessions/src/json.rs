//! A decoded packet's JSON, appended to a buffer.

use serde::Serialize;

use crate::def::{CodecError, Def};

/// Appends `value`'s JSON to `out` (indented when `pretty`); on an error,
/// `out` is left as it was.
pub(crate) fn write_value(
    out: &mut Vec<u8>,
    def: &Def,
    value: &impl Serialize,
    pretty: bool,
) -> Result<(), CodecError> {
    let start = out.len();
    let written = if pretty {
        serde_json::to_writer_pretty(&mut *out, value)
    } else {
        serde_json::to_writer(&mut *out, value)
    };
    written.map_err(|source| {
        out.truncate(start);
        CodecError::ToJson {
            def: def.clone(),
            source,
        }
    })
}
