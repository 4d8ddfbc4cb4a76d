//! Protocol maps read at run time: the def front end parses and checks the
//! file (`tera_defs_front::parse_map`), and its entries become the
//! runtime's one map type, [`ProtocolMap`].

use std::path::Path;

use tera_defs_front::{
    CheckedMap, Diagnostic, MapFile, MapKind, Report, codes, parse_map_as, parse_map_file_name,
};
use tera_packets::ProtocolMap;

/// A protocol map read from a file, with what the front end said of it.
#[derive(Debug, Clone)]
pub struct LoadedMap {
    /// The map.
    pub map: ProtocolMap,
    /// Every diagnostic of the file (warnings only: a map with errors is
    /// refused).
    pub report: Report,
}

/// The map of a front-end map file: `None` for a sysmsg map, which holds
/// no opcodes. The revision is the file's.
pub fn protocol_map_of(file: &MapFile) -> Option<ProtocolMap> {
    map_with_revision(file, Some(file.revision))
}

fn map_with_revision(file: &MapFile, revision: Option<u32>) -> Option<ProtocolMap> {
    if file.kind != MapKind::Protocol {
        return None;
    }
    let entries = file
        .entries
        .iter()
        .filter_map(|e| Some((e.name.as_str(), u16::try_from(e.code).ok()?)));
    Some(ProtocolMap::from_entries(revision, entries))
}

/// Reads a protocol map file. Its revision is the file name's when the file
/// is named `protocol.REV.map`; a file of another name is read as a
/// protocol map without a revision.
///
/// # Errors
/// The report, when the file cannot be read, is a sysmsg map, or has an
/// error.
pub fn load_protocol_map(path: impl AsRef<Path>) -> Result<LoadedMap, Report> {
    let path = path.as_ref();
    let file_name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match std::fs::read(path) {
        Ok(bytes) => parse_protocol_map(&file_name, &String::from_utf8_lossy(&bytes)),
        Err(e) => {
            let mut report = Report::new(path.display().to_string(), String::new());
            report.push(
                Diagnostic::error()
                    .with_code(codes::IO)
                    .with_message(format!("cannot read `{}`: {e}", path.display())),
            );
            Err(report)
        }
    }
}

/// [`load_protocol_map`] from a map's source; `file_name` names it (and
/// gives the revision when it is `protocol.REV.map`).
///
/// # Errors
/// As [`load_protocol_map`].
pub fn parse_protocol_map(file_name: &str, source: &str) -> Result<LoadedMap, Report> {
    let (checked, revision) = match parse_map_file_name(file_name) {
        Ok((kind, revision)) => (
            parse_map_as(kind, revision, file_name, source),
            Some(revision),
        ),
        Err(_) => (parse_map_as(MapKind::Protocol, 0, file_name, source), None),
    };
    loaded(checked, file_name, revision)
}

/// The map of a checked file, or the report that refuses it.
fn loaded(
    checked: CheckedMap,
    file_name: &str,
    revision: Option<u32>,
) -> Result<LoadedMap, Report> {
    let CheckedMap { map, mut report } = checked;
    let Some(file) = map.filter(|_| report.is_ok()) else {
        return Err(report);
    };
    let Some(map) = map_with_revision(&file, revision) else {
        report.push(Diagnostic::error().with_message(format!(
            "`{file_name}` is a {} map: opcodes come from a protocol map",
            file.kind
        )));
        return Err(report);
    };
    Ok(LoadedMap { map, report })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_of_any_file_name_loads_with_the_revision_of_its_name() {
        let named = parse_protocol_map("protocol.7.map", "S_CHAT = 20\n# c\nC_CHAT 21\n");
        let named = named.unwrap_or_else(|r| panic!("{}", r.render(false)));
        assert_eq!(named.map.revision(), Some(7));
        assert_eq!(named.map.code("S_CHAT"), Some(20));
        assert_eq!(named.map.name(21), Some("C_CHAT"));
        let other = parse_protocol_map("opcodes.txt", "S_CHAT = 20\n");
        let other = other.unwrap_or_else(|r| panic!("{}", r.render(false)));
        assert_eq!(other.map.revision(), None);
        assert_eq!(other.map.code("S_CHAT"), Some(20));
        let text = named.map.to_text();
        let again = parse_protocol_map("protocol.7.map", &text).map(|l| l.map);
        assert_eq!(again.ok(), Some(named.map));
    }

    #[test]
    fn sysmsg_maps_and_bad_codes_are_refused() {
        let sysmsg = parse_protocol_map("sysmsg.1.map", "SMT_X 1\n");
        let report = sysmsg.err().map(|r| r.render(false)).unwrap_or_default();
        assert!(report.contains("is a sysmsg map"), "{report}");
        assert!(parse_protocol_map("protocol.1.map", "S_X = 70000\n").is_err());
        assert!(parse_protocol_map("m.map", "S_X = 70000\n").is_err());
        let missing = load_protocol_map("/nonexistent/protocol.1.map");
        let report = missing.err().map(|r| r.render(false)).unwrap_or_default();
        assert!(report.contains("cannot read"), "{report}");
    }
}
