//! Reading what the commands work on: text or bytes from an argument, stdin
//! or a file, and protocol maps.

use std::io::{IsTerminal, Read};
use std::path::Path;

use tera_data::ProtocolMap;

use crate::fail::Fail;

/// The text of `arg`, or all of stdin when `arg` is `None` or `-`.
pub fn text(arg: Option<&str>) -> Result<String, Fail> {
    match arg {
        Some(text) if text != "-" => Ok(text.to_owned()),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Fail::Data(format!("cannot read stdin: {e}")))?;
            Ok(text)
        }
    }
}

/// The bytes of a file named on the command line.
pub fn file(path: &Path) -> Result<Vec<u8>, Fail> {
    std::fs::read(path).map_err(|e| Fail::Usage(format!("cannot read {}: {e}", path.display())))
}

/// The text of a file named on the command line.
pub fn file_text(path: &Path) -> Result<String, Fail> {
    String::from_utf8(file(path)?)
        .map_err(|_| Fail::Usage(format!("{} is not UTF-8 text", path.display())))
}

/// Reads and checks a protocol map file (`protocol.REV.map`, or any name:
/// a map without a revision). Lines that make no entry (malformed, or an
/// alias of another name's code) are reported on stderr and left out; an
/// unreadable file or a sysmsg map is a usage error.
pub fn map(path: &Path) -> Result<ProtocolMap, Fail> {
    let loaded = tera_dynamic::load_protocol_map(path)
        .map_err(|report| Fail::Usage(report.render(false)))?;
    if !loaded.is_whole() {
        eprint!("{}", loaded.report.render(std::io::stderr().is_terminal()));
    }
    Ok(loaded.map)
}
