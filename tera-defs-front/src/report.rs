//! Diagnostics of one file and how they are rendered.

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

use crate::model::{Def, Span};

/// All diagnostics (errors and warnings) of one file, with the file's text so
/// that they can be rendered with source snippets.
#[derive(Debug, Clone)]
pub struct Report {
    /// The file name shown in diagnostics.
    pub file_name: String,
    /// The full source text of the file.
    pub source: String,
    /// The diagnostics, sorted by position in the file.
    pub diagnostics: Vec<Diagnostic<()>>,
}

/// The result of parsing and validating one `.def` file.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The def, `Some` if and only if the report has no error.
    pub def: Option<Def>,
    /// Errors and warnings of the file.
    pub report: Report,
}

impl Checked {
    /// `true` when the file has no error.
    pub fn is_ok(&self) -> bool {
        self.report.is_ok()
    }
}

impl Report {
    /// An empty report for a file.
    pub fn new(file_name: impl Into<String>, source: impl Into<String>) -> Report {
        Report {
            file_name: file_name.into(),
            source: source.into(),
            diagnostics: Vec::new(),
        }
    }

    /// Number of errors (and bugs).
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity >= Severity::Error)
            .count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// `true` when there is no error (warnings are allowed).
    pub fn is_ok(&self) -> bool {
        self.error_count() == 0
    }

    /// Adds a diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic<()>) {
        self.diagnostics.push(diagnostic);
    }

    /// Sorts the diagnostics by the start of their first label (diagnostics
    /// without a label first), keeping the insertion order for ties.
    pub fn sort(&mut self) {
        self.diagnostics
            .sort_by_key(|d| d.labels.first().map_or(0, |l| l.range.start + 1));
    }

    /// Renders every diagnostic like rustc does, with source snippets; with
    /// ANSI colors when `color` is `true`.
    pub fn render(&self, color: bool) -> String {
        let file = SimpleFile::new(self.file_name.as_str(), self.source.as_str());
        let config = Config::default();
        let mut out = String::new();
        for diagnostic in &self.diagnostics {
            let rendered = if color {
                let mut buffer = term::termcolor::Ansi::new(Vec::new());
                term::emit_to_write_style(&mut buffer, &config, &file, diagnostic)
                    .map(|()| String::from_utf8_lossy(&buffer.into_inner()).into_owned())
            } else {
                term::emit_into_string(&config, &file, diagnostic)
            };
            match rendered {
                Ok(text) => out.push_str(&text),
                // A label outside the text: render at least the message.
                Err(_) => {
                    out.push_str(&format!(
                        "{}: {}\n  --> {}\n\n",
                        severity_name(diagnostic.severity),
                        diagnostic.message,
                        self.file_name
                    ));
                }
            }
        }
        out
    }
}

impl Report {
    /// Each diagnostic on one line, `FILE:LINE:COLUMN: warning[W002]:
    /// message; note`, naming the file `file` (e.g. its path): the form of
    /// a `cargo:warning=` line.
    pub fn render_lines(&self, file: &str) -> Vec<String> {
        let files = SimpleFile::new(file, self.source.as_str());
        let config = Config {
            display_style: term::DisplayStyle::Short,
            ..Config::default()
        };
        self.diagnostics
            .iter()
            .map(|diagnostic| {
                let head = term::emit_into_string(&config, &files, diagnostic)
                    .map(|text| text.trim_end().to_string())
                    .unwrap_or_else(|_| {
                        format!(
                            "{file}: {}: {}",
                            severity_name(diagnostic.severity),
                            diagnostic.message
                        )
                    });
                let mut line = head.replace('\n', " ");
                for note in &diagnostic.notes {
                    line.push_str("; ");
                    line.push_str(&note.replace('\n', " "));
                }
                line
            })
            .collect()
    }
}

fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Bug => "bug",
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
        Severity::Help => "help",
    }
}

/// Builds an error diagnostic with a code and a primary label.
pub fn error(
    code: &str,
    message: impl std::fmt::Display,
    at: Span,
    label: impl std::fmt::Display,
) -> Diagnostic<()> {
    Diagnostic::error()
        .with_code(code)
        .with_message(message)
        .with_labels(vec![Label::primary((), at.range()).with_message(label)])
}

/// Builds a warning diagnostic with a code and a primary label.
pub fn warning(
    code: &str,
    message: impl std::fmt::Display,
    at: Span,
    label: impl std::fmt::Display,
) -> Diagnostic<()> {
    Diagnostic::warning()
        .with_code(code)
        .with_message(message)
        .with_labels(vec![Label::primary((), at.range()).with_message(label)])
}

/// A secondary label.
pub fn secondary(at: Span, label: impl std::fmt::Display) -> Label<()> {
    Label::secondary((), at.range()).with_message(label)
}
