//! Problems of sheets and schemas: where (file, line, column) and what was
//! expected, rendered with source snippets.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Rendered, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

/// One problem of a sheet or a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file, relative to the sheets folder, with `/` separators.
    pub file: String,
    /// One-based line (0 when the problem is about the file as a whole).
    pub line: usize,
    /// One-based column, in characters (0 with `line` 0).
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What was expected there.
    pub expected: String,
    /// The bytes of the file it points at (`None`: the whole file).
    pub range: Option<Range<usize>>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {} ({})", self.file, self.message, self.expected)
        } else {
            write!(
                f,
                "{}:{}:{}: {} ({})",
                self.file, self.line, self.column, self.message, self.expected
            )
        }
    }
}

/// The diagnostics of one file, collected with the file's text at hand so
/// that they are rendered with snippets once.
pub(crate) struct FileDiagnostics<'s> {
    file: String,
    source: &'s str,
    pub(crate) items: Vec<Diagnostic>,
}

impl<'s> FileDiagnostics<'s> {
    pub(crate) fn new(file: String, source: &'s str) -> Self {
        FileDiagnostics {
            file,
            source,
            items: Vec::new(),
        }
    }

    /// Adds a problem at the bytes `range` of the file.
    pub(crate) fn at(
        &mut self,
        range: Range<usize>,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) {
        let start = range.start.min(self.source.len());
        let end = range.end.clamp(start, self.source.len());
        let (line, column) = line_column(self.source, start);
        self.items.push(Diagnostic {
            file: self.file.clone(),
            line,
            column,
            message: message.into(),
            expected: expected.into(),
            range: Some(start..end),
        });
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The diagnostics and their rendering.
    pub(crate) fn finish(mut self) -> (Vec<Diagnostic>, String) {
        self.items
            .sort_by_key(|d| d.range.as_ref().map_or(0, |r| r.start));
        let rendered = render(&self.file, self.source, &self.items);
        (self.items, rendered)
    }
}

/// A problem about a whole file (no snippet).
pub(crate) fn whole_file(
    file: String,
    message: impl Into<String>,
    expected: impl Into<String>,
) -> Diagnostic {
    Diagnostic {
        file,
        line: 0,
        column: 0,
        message: message.into(),
        expected: expected.into(),
        range: None,
    }
}

/// One-based line and character column of byte `at`.
fn line_column(source: &str, at: usize) -> (usize, usize) {
    let before = &source.as_bytes()[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// Renders diagnostics of one file like rustc does (no colors).
pub(crate) fn render(file: &str, source: &str, items: &[Diagnostic]) -> String {
    let files = SimpleFile::new(file, source);
    let config = Config::default();
    let mut out = String::new();
    for d in items {
        let mut rendered = Rendered::error().with_message(&d.message);
        match &d.range {
            Some(range) => {
                rendered = rendered.with_labels(vec![
                    Label::primary((), range.clone()).with_message(&d.expected),
                ]);
            }
            None => rendered = rendered.with_notes(vec![format!("expected {}", d.expected)]),
        }
        match &d.range {
            Some(_) => match term::emit_into_string(&config, &files, &rendered) {
                Ok(text) => out.push_str(&text),
                Err(_) => out.push_str(&format!("error: {d}\n\n")),
            },
            None => out.push_str(&format!(
                "error: {}\n  --> {}\n  = expected {}\n\n",
                d.message, d.file, d.expected
            )),
        }
    }
    out
}
