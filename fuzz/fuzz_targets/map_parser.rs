//! The map parsers on arbitrary text and file names: tera-defs-front's
//! `parse_map` (build time, with diagnostics; the well-formed lines kept)
//! and the runtime's `ProtocolMap::parse`. Errors are fine; panics are not.
//! When both accept a protocol map they must agree on every entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_defs_front::MapKind;
use tera_packets::ProtocolMap;

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
    let build_time = checked.into_result();
    let runtime = ProtocolMap::parse(source);
    if let (Ok(file), Ok(map)) = (&build_time, &runtime)
        && file.kind == MapKind::Protocol
    {
        for entry in &file.entries {
            let code = u16::try_from(entry.code).ok();
            assert!(code.is_some(), "protocol code {} > 65535", entry.code);
            assert_eq!(map.code(&entry.name), code, "{}", entry.name);
        }
    }
});
