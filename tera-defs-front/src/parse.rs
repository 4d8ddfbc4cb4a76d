//! From source text to a list of classified lines (the syntax layer).
//!
//! Every line of the file becomes one [`Line`]: blank, comment only, an entry
//! (field or meta line) or a syntax error. Syntax errors of all lines are
//! collected, so that a file with several bad lines reports all of them.

use codespan_reporting::diagnostic::Diagnostic;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

use crate::codes;
use crate::grammar::{DefParser, Rule, rule_name};
use crate::model::Span;
use crate::report;

/// Maps byte offsets to lines and columns.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex<'a> {
    source: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(source: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { source, starts }
    }

    /// A span from byte offsets, with 1-based line and character column.
    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        let line = self.starts.partition_point(|&s| s <= start).max(1);
        let line_start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .source
            .get(line_start..start)
            .map_or(0, |prefix| prefix.chars().count())
            + 1;
        Span {
            start,
            end,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}

/// The keyword of a meta line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaKind {
    Ref,
    Offset,
    Count,
}

impl MetaKind {
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            MetaKind::Ref => "ref",
            MetaKind::Offset => "offset",
            MetaKind::Count => "count",
        }
    }
}

/// A word with its place.
#[derive(Debug, Clone)]
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// What an entry line declares.
#[derive(Debug, Clone)]
pub(crate) enum EntryKind {
    Meta {
        kind: MetaKind,
        path: Word,
    },
    Field {
        ty: Word,
        subtype: Option<Word>,
        flags: Vec<Word>,
        /// The type with subtype and flags.
        type_span: Span,
        name: Word,
    },
}

/// A field or meta line.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Number of `-`.
    pub(crate) depth: usize,
    pub(crate) kind: EntryKind,
    /// From the first `-` (or the first word) to the end of the last word.
    pub(crate) span: Span,
    /// The trailing comment, `#` and surrounding whitespace stripped.
    pub(crate) comment: Option<String>,
}

/// One line of the file.
#[derive(Debug, Clone)]
pub(crate) enum Line {
    Blank,
    /// A comment-only line; the text without `#` and surrounding whitespace.
    Comment(String),
    Entry(Box<Entry>),
    /// A syntax error (already reported).
    Bad,
}

/// Strips the `#` and the surrounding whitespace of a comment.
fn comment_text(raw: &str) -> String {
    raw.strip_prefix('#')
        .unwrap_or(raw)
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .to_string()
}

fn word(pair: &Pair<'_, Rule>, index: &LineIndex<'_>) -> Word {
    let s = pair.as_span();
    Word {
        text: pair.as_str().to_string(),
        span: index.span(s.start(), s.end()),
    }
}

fn entry(pair: Pair<'_, Rule>, index: &LineIndex<'_>) -> Option<Entry> {
    let span = pair.as_span();
    let mut depth = 0;
    let mut kind = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::depth => depth = part.into_inner().count(),
            Rule::meta => {
                let mut meta_kind = MetaKind::Ref;
                let mut path = None;
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::meta_kw => {
                            meta_kind = match p.as_str() {
                                "offset" => MetaKind::Offset,
                                "count" => MetaKind::Count,
                                _ => MetaKind::Ref,
                            }
                        }
                        Rule::path => path = Some(word(&p, index)),
                        _ => {}
                    }
                }
                kind = path.map(|path| EntryKind::Meta {
                    kind: meta_kind,
                    path,
                });
            }
            Rule::field => {
                let field_span = part.as_span();
                let mut ty = None;
                let mut subtype = None;
                let mut flags = Vec::new();
                let mut name = None;
                let mut type_end = field_span.start();
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::type_name => {
                            type_end = p.as_span().end();
                            ty = Some(word(&p, index));
                        }
                        Rule::subtype => {
                            type_end = p.as_span().end();
                            subtype = p
                                .into_inner()
                                .find(|i| i.as_rule() == Rule::ident)
                                .map(|i| word(&i, index));
                        }
                        Rule::flags => {
                            type_end = p.as_span().end();
                            flags.extend(
                                p.into_inner()
                                    .filter(|i| i.as_rule() == Rule::flag)
                                    .map(|i| word(&i, index)),
                            );
                        }
                        Rule::name => name = Some(word(&p, index)),
                        _ => {}
                    }
                }
                if let (Some(ty), Some(name)) = (ty, name) {
                    kind = Some(EntryKind::Field {
                        type_span: index.span(ty.span.start, type_end),
                        ty,
                        subtype,
                        flags,
                        name,
                    });
                }
            }
            _ => {}
        }
    }
    Some(Entry {
        depth,
        kind: kind?,
        span: index.span(span.start(), span.end()),
        comment: None,
    })
}

fn good_line(pair: Pair<'_, Rule>, index: &LineIndex<'_>) -> Line {
    let mut found = None;
    let mut comment = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::entry => found = entry(part, index),
            Rule::comment => comment = Some(comment_text(part.as_str())),
            _ => {}
        }
    }
    match (found, comment) {
        (Some(mut e), comment) => {
            e.comment = comment.filter(|c| !c.is_empty());
            Line::Entry(Box::new(e))
        }
        (None, Some(c)) => Line::Comment(c),
        (None, None) => Line::Blank,
    }
}

/// "expected a, b or c" from pest's list of expected rules.
fn expected_message(positives: &[Rule]) -> String {
    let mut names: Vec<&str> = Vec::new();
    // After a type, a name is expected too (but whitespace is not reported).
    if positives
        .iter()
        .any(|r| matches!(r, Rule::subtype | Rule::flags | Rule::lt | Rule::lbracket))
    {
        names.push("a field name");
    }
    for &rule in positives {
        let name = rule_name(rule);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.as_slice() {
        [] => "unexpected text".to_string(),
        [one] => format!("expected {one}"),
        [init @ .., last] => format!("expected {} or {last}", init.join(", ")),
    }
}

/// Diagnoses one bad line: parses it again with the strict rule to find
/// where and why it fails.
fn bad_line(text: &str, start: usize, index: &LineIndex<'_>) -> Diagnostic<()> {
    let (offset, message) = match DefParser::parse(Rule::strict_line, text) {
        Ok(_) => (0, "unexpected text".to_string()),
        Err(e) => {
            let offset = match e.location {
                InputLocation::Pos(p) => p,
                InputLocation::Span((s, _)) => s,
            };
            let message = match &e.variant {
                ErrorVariant::ParsingError { positives, .. } => expected_message(positives),
                ErrorVariant::CustomError { message } => message.clone(),
            };
            (offset, message)
        }
    };
    let at = start + offset.min(text.len());
    // Underline one character (or nothing at the end of the line).
    let end = text
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(at, |c| at + c.len_utf8());
    let found = text
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .filter(|c| *c != '\r')
        .map_or_else(
            || "end of line".to_string(),
            |c| format!("`{}`", c.escape_debug()),
        );
    report::error(
        codes::SYNTAX,
        format!("syntax error: {message}"),
        index.span(at, end),
        format!("{message}, found {found}"),
    )
}

/// Splits a def source into classified lines; syntax errors go to
/// `diagnostics`.
pub(crate) fn lines(source: &str, diagnostics: &mut Vec<Diagnostic<()>>) -> Vec<Line> {
    let index = LineIndex::new(source);
    let file = match DefParser::parse(Rule::file, source) {
        Ok(mut pairs) => pairs.next(),
        Err(_) => None,
    };
    let Some(file) = file else {
        // The `file` rule accepts any text; this is only a safety net.
        diagnostics.push(report::error(
            codes::SYNTAX,
            "syntax error: the file could not be parsed",
            index.span(0, 0),
            "here",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in file.into_inner().filter(|p| p.as_rule() == Rule::line) {
        let Some(inner) = line.into_inner().next() else {
            out.push(Line::Blank);
            continue;
        };
        match inner.as_rule() {
            Rule::good_line => out.push(good_line(inner, &index)),
            _ => {
                let span = inner.as_span();
                diagnostics.push(bad_line(inner.as_str(), span.start(), &index));
                out.push(Line::Bad);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(source: &str) -> (Vec<Line>, Vec<Diagnostic<()>>) {
        let mut d = Vec::new();
        let l = lines(source, &mut d);
        (l, d)
    }

    fn entries(source: &str) -> Vec<Entry> {
        let (lines, diags) = parse(source);
        assert!(diags.is_empty(), "{diags:?}");
        lines
            .into_iter()
            .filter_map(|l| match l {
                Line::Entry(e) => Some(*e),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn empty_and_blank() {
        assert!(entries("").is_empty());
        assert!(entries("\n\n  \n\t\n").is_empty());
        assert_eq!(parse("\n\n").0.len(), 3);
    }

    #[test]
    fn boms_anywhere_at_line_start() {
        let e = entries("\u{feff}\u{feff}int32 a\n \u{feff} int32 b\u{feff}\n\u{feff}\n");
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].span.column, 4);
    }

    #[test]
    fn crlf_tabs_no_final_newline() {
        let e = entries("int32\ta\t# c\r\n- uint16 b\r\nstring\t\ts");
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].comment.as_deref(), Some("c"));
        assert_eq!(e[2].span.line, 3);
    }

    #[test]
    fn depth_forms() {
        let e = entries("--uint32 a\n- - uint32 b\n-\t-  -uint32 c\nuint32 d\n");
        let depths: Vec<usize> = e.iter().map(|e| e.depth).collect();
        assert_eq!(depths, [2, 2, 3, 0]);
    }

    #[test]
    fn array_of_with_flags() {
        let e = entries("array<vec3>[interleaved] endpoints\narray < int32 > [ a , b ] x");
        match &e[0].kind {
            EntryKind::Field {
                ty,
                subtype,
                flags,
                name,
                ..
            } => {
                assert_eq!(ty.text, "array");
                assert_eq!(subtype.as_ref().map(|s| s.text.as_str()), Some("vec3"));
                assert_eq!(flags.len(), 1);
                assert_eq!(name.text, "endpoints");
            }
            other => panic!("{other:?}"),
        }
        match &e[1].kind {
            EntryKind::Field { flags, .. } => assert_eq!(flags.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn meta_lines() {
        let e = entries("count list\noffset list\nref o.s\n- ref x\nrefx y\n");
        let kinds: Vec<String> = e
            .iter()
            .map(|e| match &e.kind {
                EntryKind::Meta { kind, path } => format!("{}:{}", kind.keyword(), path.text),
                EntryKind::Field { ty, name, .. } => format!("field {}:{}", ty.text, name.text),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "count:list",
                "offset:list",
                "ref:o.s",
                "ref:x",
                "field refx:y"
            ]
        );
    }

    #[test]
    fn comments_everywhere() {
        let (l, d) = parse("# top\n  # indented\nint32 a# tight\n#\n\u{feff}# bom\n");
        assert!(d.is_empty());
        assert!(matches!(&l[0], Line::Comment(c) if c == "top"));
        assert!(matches!(&l[1], Line::Comment(c) if c == "indented"));
        assert!(matches!(&l[2], Line::Entry(e) if e.comment.as_deref() == Some("tight")));
        assert!(matches!(&l[3], Line::Comment(c) if c.is_empty()));
        assert!(matches!(&l[4], Line::Comment(c) if c == "bom"));
    }

    #[test]
    fn every_bad_line_is_reported() {
        let (l, d) = parse("int32\nint32 a b\nuint16 ok\n- <x> y\n");
        assert_eq!(d.len(), 3);
        assert!(matches!(l[2], Line::Entry(_)));
        let lines: Vec<usize> = d
            .iter()
            .filter_map(|d| d.labels.first().map(|l| l.range.start))
            .collect();
        assert_eq!(lines, [5, 14, 28]);
    }
}
