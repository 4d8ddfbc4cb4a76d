//! Protocol maps read at run time: the def front end parses and checks the
//! file (`tera_defs_front::parse_map`), and its entries become the
//! runtime's one map type, [`ProtocolMap`].

use std::path::Path;

use tera_defs_front::{
    CheckedMap, Diagnostic, MapFile, MapKind, Report, codes, parse_map_as, parse_map_file_name,
};
use tera_packets::ProtocolMap;

/// A protocol map read from a file, with what the front end said of it.
///
/// As tera-data-parser reads maps, a line that cannot be an entry is
/// reported and left out, and the other lines still make the map: a
/// malformed line, a code out of range, a name used again (errors), a
/// second name on a code (a warning: the first name keeps it).
#[derive(Debug, Clone)]
pub struct LoadedMap {
    /// The map of the well-formed lines.
    pub map: ProtocolMap,
    /// Every diagnostic of the file, each line left out among them; empty
    /// for a clean file.
    pub report: Report,
}

impl LoadedMap {
    /// Whether every line of the file made an entry (no diagnostic).
    pub fn is_whole(&self) -> bool {
        self.report.diagnostics.is_empty()
    }
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
/// The report, when the file cannot be read or is a sysmsg map. Lines
/// left out are in [`LoadedMap::report`].
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

/// The map of a checked file's well-formed lines, or the report that
/// refuses it (a sysmsg map).
fn loaded(
    checked: CheckedMap,
    file_name: &str,
    revision: Option<u32>,
) -> Result<LoadedMap, Report> {
    let CheckedMap { map, mut report } = checked;
    let Some(file) = map else {
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
    fn sysmsg_maps_and_unreadable_files_are_refused() {
        let sysmsg = parse_protocol_map("sysmsg.1.map", "SMT_X 1\n");
        let report = sysmsg.err().map(|r| r.render(false)).unwrap_or_default();
        assert!(report.contains("is a sysmsg map"), "{report}");
        let missing = load_protocol_map("/nonexistent/protocol.1.map");
        let report = missing.err().map(|r| r.render(false)).unwrap_or_default();
        assert!(report.contains("cannot read"), "{report}");
    }

    #[test]
    fn lines_that_make_no_entry_are_reported_and_the_rest_kept() {
        let source = "C_CANCEL_SKILL_STRICTLY 5216\nC_CANCEL_SKILL_STRICTLYY 5216\n\
                      S_X = 70000\nS_Y = = 1\nS_A 1\nS_A 2\nS_B 3\n";
        let loaded = parse_protocol_map("protocol.376012.map", source);
        let loaded = loaded.unwrap_or_else(|r| panic!("{}", r.render(false)));
        assert!(!loaded.is_whole());
        assert_eq!(loaded.report.warning_count(), 1);
        assert_eq!(loaded.report.error_count(), 3);
        let rendered = loaded.report.render(false);
        assert!(
            rendered.contains("warning[W007]: duplicate code 5216"),
            "{rendered}"
        );
        assert!(rendered.contains("protocol.376012.map:2:26"), "{rendered}");
        let map = &loaded.map;
        assert_eq!(map.name(5216), Some("C_CANCEL_SKILL_STRICTLY"));
        assert_eq!(map.code("C_CANCEL_SKILL_STRICTLYY"), None);
        assert_eq!(map.code("S_A"), Some(1));
        assert_eq!(map.code("S_B"), Some(3));
        assert_eq!(map.len(), 3);
        let clean = parse_protocol_map("protocol.1.map", "S_A 1\n");
        assert!(clean.is_ok_and(|l| l.is_whole()));
    }
}
