//! Reading what the commands work on: text or bytes from an argument, stdin
//! or a file, and protocol maps.

use std::io::Read;
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

/// Reads and parses a `protocol.REV.map` file.
pub fn map(path: &Path) -> Result<ProtocolMap, Fail> {
    let text = file_text(path)?;
    ProtocolMap::parse(&text).map_err(|e| Fail::Usage(format!("{}: {e}", path.display())))
}
