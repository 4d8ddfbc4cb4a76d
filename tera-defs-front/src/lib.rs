//! Front end for tera-data packet definitions: parses `.def` files (the
//! language of `docs/def-language.md`) into a typed [`model`], validates them,
//! reports every problem of a file as rustc-style diagnostics with file,
//! line, column and a source snippet, and lowers a def into the wire plans of
//! `tera-wire-plan` ([`plan`]). Also parses `protocol.REV.map` and
//! `sysmsg.REV.map` files ([`map`]) and compares two defs ([`diff`](mod@diff)).
//!
//! It describes `.def` files and nothing else: no target language. Field
//! and type names are the def's own (`fooBar` and `foo_bar` are two fields,
//! as for the JS reader); what a name becomes in Rust, and what happens when
//! two become one, is the business of the Rust emitter (`tera-defs`). So a
//! program that reads defs at run time depends on this crate alone, with no
//! code-emitter dependencies (syn, quote, prettyplease).
//!
//! Errors are values: no input makes these functions panic.
//!
//! ```
//! use tera_defs_front::{FieldType, Scalar, parse_def};
//!
//! let source = "# sent when a player logs in\n\
//!               uint32 id   # the id\n\
//!               array  items\n\
//!               - int32 count\n\
//!               - string name\n";
//! let checked = parse_def("S_EXAMPLE.2.def", source);
//! assert!(checked.is_ok(), "{}", checked.report.render(false));
//! let def = checked.def.expect("no errors, so there is a def");
//! assert_eq!((def.name.as_str(), def.version), ("S_EXAMPLE", 2));
//! assert_eq!(def.doc.as_deref(), Some("sent when a player logs in"));
//!
//! let id = def.root.field("id").expect("field id");
//! assert_eq!(id.ty, FieldType::Scalar(Scalar::UInt32));
//! assert_eq!(id.doc.as_deref(), Some("the id"));
//! assert_eq!(id.span.line, 2);
//!
//! let items = def.root.field("items").expect("field items");
//! let element = items.ty.block().expect("array with fields");
//! assert_eq!(element.fields().count(), 2);
//! assert!(items.ty.is_variable());
//!
//! // Problems are diagnostics, all of them at once:
//! let bad = parse_def("S_BAD.1.def", "uint32 id\nint33 x\nstring id\n");
//! assert_eq!(bad.report.error_count(), 2);
//! assert!(bad.def.is_none());
//! assert!(bad.report.render(false).contains("unknown type `int33`"));
//! ```
//!
//! Layers, one file each, each depending only on the ones before it:
//! [`file_names`] (def and map file names, a leaf), `def.pest` (grammar),
//! `parse` (lines), `tree` (nesting, types, docs),
//! [`validate`](crate#validation) (block checks), [`model`], [`plan`],
//! [`map`], [`report`], [`files`] (reading files and walking folders),
//! [`suggest`] ("did you mean" for types, flags and packet names),
//! [`diff`](mod@diff) (two defs compared).
//!
//! # Validation
//!
//! Every diagnostic has a code, listed in [`codes`]. Errors make
//! [`Checked::def`] `None`; warnings do not.

#![warn(missing_docs)]

pub mod codes;
pub mod diff;
pub mod file_names;
pub mod files;
mod grammar;
pub mod map;
pub mod model;
mod parse;
pub mod plan;
pub mod report;
pub mod suggest;
mod tree;
mod validate;

pub use diff::{Change, Diff, DiffError, Wire, diff};
pub use file_names::{
    DefFileName, DefSpec, FileNameError, MapKind, PLATFORMS, parse_def_file_name, parse_def_spec,
    parse_map_file_name,
};
pub use files::{FoundFiles, check_paths, find_files, load_def_file, load_map_file};
pub use map::{CheckedMap, MapEntry, MapFile, parse_map, parse_map_as};
pub use model::{Block, Def, ElemType, Field, FieldType, Item, RefLine, Scalar, Span};
pub use report::{Checked, Report};
pub use tree::MAX_DEPTH;

/// Re-export of the diagnostic types used in [`Report`].
pub use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};

use codespan_reporting::diagnostic::Diagnostic as Diag;

/// Parses and validates the source of one def file.
///
/// `file_name` must be `NAME.VERSION.def` or `NAME.VERSION.PLATFORM.def`
/// (only the name, not a path); it gives [`Def::name`], [`Def::version`] and
/// [`Def::platform`] and is shown in diagnostics. Every error and warning of
/// the file is in [`Checked::report`]; [`Checked::def`] is `Some` if and only
/// if there is no error.
pub fn parse_def(file_name: &str, source: &str) -> Checked {
    let mut report = Report::new(file_name, source);
    let header = match parse_def_file_name(file_name) {
        Ok(h) => Some(h),
        Err(message) => {
            report.push(
                Diag::error()
                    .with_code(codes::FILE_NAME)
                    .with_message(format!("bad def file name `{file_name}`: {message}"))
                    .with_notes(vec![
                        "expected `NAME.VERSION.def` or `NAME.VERSION.PLATFORM.def` \
                         (platform: pc, console or classic)"
                            .to_string(),
                    ]),
            );
            None
        }
    };
    let mut diagnostics = Vec::new();
    let lines = parse::lines(source, &mut diagnostics);
    let tree = tree::build(&lines, &mut diagnostics);
    validate::validate(
        &tree.root,
        tree.explicit_refs,
        &tree.unresolved,
        &mut diagnostics,
    );
    report.diagnostics.extend(diagnostics);
    report.sort();
    let def = match header {
        Some(h) if report.is_ok() => Some(Def {
            file_name: file_name.to_string(),
            name: h.name,
            version: h.version,
            platform: h.platform,
            doc: tree.doc,
            explicit_refs: tree.explicit_refs,
            root: tree.root,
        }),
        _ => None,
    };
    Checked { def, report }
}

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
