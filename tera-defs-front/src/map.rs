//! Opcode and system-message map files: `protocol.REV.map`,
//! `sysmsg.REV.map`.
//!
//! One entry a line, `NAME = CODE` or `NAME CODE` (decimal code); `#` starts a
//! comment; blank lines, byte-order marks, tabs and CRLF are fine. Names are
//! made of ASCII letters, digits and `_`.
//!
//! As tera-data-parser does, a malformed line is reported and skipped: the
//! well-formed lines still make a map ([`CheckedMap`]), so that a reader
//! keeps its opcodes and a checker can still compare it with the defs. A
//! second name on a code (an alias, often a typo) is a warning: the line is
//! skipped and the first name keeps the code.

use std::collections::HashMap;

use codespan_reporting::diagnostic::Diagnostic;

use crate::codes;
pub use crate::file_names::MapKind;
use crate::file_names::parse_map_file_name;
use crate::model::{Def, Span};
use crate::parse::LineIndex;
use crate::report::{self, Report, secondary};
use crate::suggest;

/// One `NAME = CODE` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapEntry {
    /// The packet or message name.
    pub name: String,
    /// Its code (fits u16 for protocol maps).
    pub code: u32,
    /// The whole entry (name to code).
    pub span: Span,
}

/// The result of parsing and checking one map file.
#[derive(Debug, Clone)]
pub struct CheckedMap {
    /// The entries of the well-formed lines; `None` only when the file name
    /// is not a map's (`protocol.REV.map`, `sysmsg.REV.map`).
    pub map: Option<MapFile>,
    /// Every problem of the file: each malformed line, out-of-range code
    /// or repeated name (errors), each repeated code (a warning); the line
    /// is skipped, the first use kept.
    pub report: Report,
}

impl CheckedMap {
    /// `true` when the file has no error.
    pub fn is_ok(&self) -> bool {
        self.report.is_ok()
    }

    /// The map when the file has no error, else its report: for callers
    /// that refuse a map with problems (a build).
    pub fn into_result(self) -> Result<MapFile, Report> {
        match self.map {
            Some(map) if self.report.is_ok() => Ok(map),
            _ => Err(self.report),
        }
    }
}

/// A parsed map file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapFile {
    /// Protocol or sysmsg.
    pub kind: MapKind,
    /// The revision from the file name (`365100` in `protocol.365100.map`).
    pub revision: u32,
    /// Entries in file order.
    pub entries: Vec<MapEntry>,
}

impl MapFile {
    /// The code of a name.
    pub fn code(&self, name: &str) -> Option<u32> {
        self.entries.iter().find(|e| e.name == name).map(|e| e.code)
    }

    /// The name of a code.
    pub fn name(&self, code: u32) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.code == code)
            .map(|e| e.name.as_str())
    }

    /// A warning for `def` when this is a protocol map without its packet
    /// name: on patch day, the defs a new map lacks (or that lack a typo's
    /// worth of spelling). `None` when the map has the name, or is a sysmsg
    /// map. The warning belongs in the def's report.
    pub fn missing_def(&self, def: &Def) -> Option<Diagnostic<()>> {
        if self.kind != MapKind::Protocol || self.code(&def.name).is_some() {
            return None;
        }
        let map_name = format!("protocol.{}.map", self.revision);
        let names: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).collect();
        let near = suggest::nearest(&def.name, &names, suggest::typo_limit(def.name.len(), 1));
        let mut notes = vec![format!(
            "the packet has no opcode in this client build: it can be neither sent nor \
             recognised with {map_name}"
        )];
        if !near.is_empty() {
            notes.push(format!("did you mean {}?", near.join(", ")));
        }
        Some(
            report::warning(
                codes::MISSING_FROM_MAP,
                format!("`{}` is not in {map_name}", def.name),
                Span::default(),
                format!("no opcode for `{}`", def.name),
            )
            .with_notes(notes),
        )
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A well-formed entry line: offsets are relative to the line start.
#[derive(Clone, Copy)]
struct ParsedLine<'a> {
    name_at: usize,
    name: &'a str,
    code_at: usize,
    code: &'a str,
}

/// Parses one line (without its line end). Returns `Ok(None)` for blank and
/// comment lines, `Err((offset, message))` for malformed ones.
fn parse_line(text: &str) -> Result<Option<ParsedLine<'_>>, (usize, String)> {
    let content = text.split('#').next().unwrap_or("");
    let is_pad = |c: char| c == ' ' || c == '\t' || c == '\u{feff}' || c == '\r';
    let trimmed_start = content.trim_start_matches(is_pad);
    let start = content.len() - trimmed_start.len();
    let body = trimmed_start.trim_end_matches(is_pad);
    if body.is_empty() {
        return Ok(None);
    }
    let name_len = body.find(|c: char| !is_name_char(c)).unwrap_or(body.len());
    if name_len == 0 {
        return Err((
            start,
            "expected a name (letters, digits and `_`)".to_string(),
        ));
    }
    let name = body.get(..name_len).unwrap_or("");
    let after = body.get(name_len..).unwrap_or("");
    let sep = after.trim_start_matches([' ', '\t']);
    let (sep, had_eq) = match sep.strip_prefix('=') {
        Some(rest) => (rest.trim_start_matches([' ', '\t']), true),
        None => (sep, false),
    };
    let code_at = start + body.len() - sep.len();
    if !had_eq && !after.is_empty() && sep.len() == after.len() {
        return Err((
            start + name_len,
            "expected `=` or whitespace after the name".to_string(),
        ));
    }
    if sep.is_empty() {
        return Err((code_at, "expected a code after the name".to_string()));
    }
    if !sep.bytes().all(|b| b.is_ascii_digit()) {
        let bad = sep.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        return Err((code_at + bad, "expected a decimal code".to_string()));
    }
    Ok(Some(ParsedLine {
        name_at: start,
        name,
        code_at,
        code: sep,
    }))
}

/// Parses and checks a map file: every problem of the file is in
/// [`CheckedMap::report`], and the well-formed lines make
/// [`CheckedMap::map`] (see the module doc). The kind and revision come
/// from the file name, `protocol.REV.map` or `sysmsg.REV.map`.
pub fn parse_map(file_name: &str, source: &str) -> CheckedMap {
    let (kind, revision) = match parse_map_file_name(file_name) {
        Ok(header) => header,
        Err(message) => {
            let mut report = Report::new(file_name, source);
            report.push(
                Diagnostic::error()
                    .with_code(codes::FILE_NAME)
                    .with_message(format!("bad map file name `{file_name}`: {message}")),
            );
            check_lines(None, &mut report, source);
            return CheckedMap { map: None, report };
        }
    };
    parse_map_as(kind, revision, file_name, source)
}

/// [`parse_map`] for a map whose kind and revision the caller knows,
/// whatever its file's name (`file_name` only names it in the report).
pub fn parse_map_as(kind: MapKind, revision: u32, file_name: &str, source: &str) -> CheckedMap {
    let mut report = Report::new(file_name, source);
    let entries = check_lines(Some(kind), &mut report, source);
    CheckedMap {
        map: Some(MapFile {
            kind,
            revision,
            entries,
        }),
        report,
    }
}

/// Checks every line of a map of `kind` (unknown: codes up to `u32::MAX`)
/// into `report` (sorted after), and returns the entries of the
/// well-formed lines.
fn check_lines(kind: Option<MapKind>, report: &mut Report, source: &str) -> Vec<MapEntry> {
    let index = LineIndex::new(source);
    let mut entries = Entries {
        max: kind.map_or(u32::MAX, MapKind::max_code),
        kind: kind.map_or("this map", MapKind::prefix),
        ..Entries::default()
    };
    let mut line_start = 0;
    for raw in source.split('\n') {
        let here = line_start;
        line_start += raw.len() + 1;
        match parse_line(raw) {
            Ok(None) => {}
            Err((offset, message)) => {
                let at = here + offset;
                let end = raw
                    .get(offset..)
                    .and_then(|r| r.chars().next())
                    .map_or(at, |c| at + c.len_utf8());
                report.push(report::error(
                    codes::MAP_SYNTAX,
                    format!("malformed map line: {message}"),
                    index.span(at, end),
                    message,
                ));
            }
            Ok(Some(line)) => {
                if let Err(problem) =
                    entries.add(&line, |from, to| index.span(here + from, here + to))
                {
                    report.push(problem);
                }
            }
        }
    }
    report.sort();
    entries.entries
}

/// The entries of a map so far, with what a new line is checked against.
#[derive(Default)]
struct Entries {
    entries: Vec<MapEntry>,
    /// Entry index by name and by code: the first use of each.
    names: HashMap<String, usize>,
    codes: HashMap<u32, usize>,
    /// The largest code of the map's kind, and the kind's name.
    max: u32,
    kind: &'static str,
}

impl Entries {
    /// Adds a well-formed line, or says why it cannot be an entry: a code
    /// out of range, a name or a code used before. `span` turns offsets in
    /// the line into spans of the file.
    fn add(
        &mut self,
        line: &ParsedLine<'_>,
        span: impl Fn(usize, usize) -> Span,
    ) -> Result<(), Diagnostic<()>> {
        let ParsedLine {
            name_at,
            name,
            code_at,
            code: code_text,
        } = *line;
        let whole = span(name_at, code_at + code_text.len());
        let name_span = span(name_at, name_at + name.len());
        let code_span = span(code_at, code_at + code_text.len());
        let code = match code_text.parse::<u64>() {
            Ok(c) if c <= u64::from(self.max) => u32::try_from(c).unwrap_or(u32::MAX),
            _ => {
                return Err(report::error(
                    codes::MAP_CODE_RANGE,
                    format!("code {code_text} is out of range for a {} map", self.kind),
                    code_span,
                    format!("larger than {}", self.max),
                ));
            }
        };
        if let Some(first) = self.names.get(name).and_then(|&i| self.entries.get(i)) {
            return Err(report::error(
                codes::MAP_DUPLICATE_NAME,
                format!("duplicate name `{name}`"),
                name_span,
                "name used again",
            )
            .with_labels(vec![secondary(first.span, "first used here")]));
        }
        if let Some(first) = self.codes.get(&code).and_then(|&i| self.entries.get(i)) {
            return Err(report::warning(
                codes::MAP_DUPLICATE_CODE,
                format!("duplicate code {code} (`{}` and `{name}`)", first.name),
                code_span,
                "code used again",
            )
            .with_labels(vec![secondary(first.span, "first used here")]));
        }
        self.names.insert(name.to_string(), self.entries.len());
        self.codes.insert(code, self.entries.len());
        self.entries.push(MapEntry {
            name: name.to_string(),
            code,
            span: whole,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_bom_crlf_comments() {
        let src = "\u{feff}# head\r\nA = 1\r\n\tB\t2 # tail\r\n\r\nC=3";
        let map = parse_map("protocol.1.map", src).into_result();
        let map = map.map_err(|r| r.render(false));
        let map = map.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(map.kind, MapKind::Protocol);
        assert_eq!(map.revision, 1);
        let got: Vec<(&str, u32)> = map
            .entries
            .iter()
            .map(|e| (e.name.as_str(), e.code))
            .collect();
        assert_eq!(got, [("A", 1), ("B", 2), ("C", 3)]);
        assert_eq!(map.code("B"), Some(2));
        assert_eq!(map.name(3), Some("C"));
    }

    #[test]
    fn all_errors_reported_and_the_good_lines_kept() {
        let src = "A = 1\nA = 2\nB = 1\nC = 70000\nD = x\nE\n= 5\nF 6\n";
        let checked = parse_map("protocol.1.map", src);
        let report = &checked.report;
        assert_eq!(report.error_count(), 5, "{}", report.render(false));
        assert_eq!(report.warning_count(), 1, "the alias on line 3");
        let lines: Vec<usize> = report
            .diagnostics
            .iter()
            .filter_map(|d| d.labels.first())
            .map(|l| src[..l.range.start].matches('\n').count() + 1)
            .collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
        let map = checked.map.expect("a map of the good lines");
        let kept: Vec<(&str, u32)> = map
            .entries
            .iter()
            .map(|e| (e.name.as_str(), e.code))
            .collect();
        assert_eq!(kept, [("A", 1), ("F", 6)]);
        assert!(parse_map("sysmsg.1.map", "C = 70000\n").is_ok());
        assert!(!parse_map("sysmsg.1.map", "C = 4294967296\n").is_ok());
        let unnamed = parse_map("opcodes.map", "A = 1\n");
        assert!(!unnamed.is_ok() && unnamed.map.is_none());
    }

    #[test]
    fn an_alias_is_a_warning_and_the_first_name_keeps_the_code() {
        let src = "C_CANCEL_SKILL_STRICTLY 5216
C_CANCEL_SKILL_STRICTLYY 5216
S_X 7
";
        let checked = parse_map("protocol.376012.map", src);
        assert!(checked.is_ok(), "{}", checked.report.render(false));
        let rendered = checked.report.render(false);
        assert!(
            rendered.contains("warning[W007]: duplicate code 5216"),
            "{rendered}"
        );
        let map = checked.into_result().expect("a map without errors");
        assert_eq!(map.name(5216), Some("C_CANCEL_SKILL_STRICTLY"));
        assert_eq!(map.code("C_CANCEL_SKILL_STRICTLYY"), None);
        assert_eq!(map.code("S_X"), Some(7));
    }
}
