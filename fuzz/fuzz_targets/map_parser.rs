//! The map parser on arbitrary text and file names: tera-defs-front's
//! `parse_map` (with diagnostics; the well-formed lines kept) and
//! `tera_dynamic::parse_protocol_map`, which turns it into the runtime's
//! `ProtocolMap`. Errors are fine; panics are not. When both take a
//! protocol map they agree on every entry, both ways.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_defs_front::MapKind;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (file_name, source) = match text.split_once('\0') {
        Some((name, source)) => (name, source),
        None => ("protocol.1.map", &*text),
    };
    let checked = tera_defs_front::parse_map(file_name, source);
    let _ = checked.report.render(false);
    if let Some(map) = &checked.map {
        assert!(map.entries.len() <= source.split('\n').count(), "more entries than lines");
    }
    let front = checked.map.filter(|m| m.kind == MapKind::Protocol);
    let runtime = tera_dynamic::parse_protocol_map(file_name, source);
    if let (Some(file), Ok(loaded)) = (&front, &runtime) {
        assert_eq!(loaded.map.len(), file.entries.len(), "entries lost or made up");
        for entry in &file.entries {
            let code = u16::try_from(entry.code).ok();
            assert!(code.is_some(), "protocol code {} > 65535", entry.code);
            assert_eq!(loaded.map.code(&entry.name), code, "{}", entry.name);
            assert_eq!(code.and_then(|c| loaded.map.name(c)), Some(&*entry.name));
        }
    }
});
