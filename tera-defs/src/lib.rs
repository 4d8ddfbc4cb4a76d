//! Code generation for tera-data packet definitions: the Rust [`emit`]ter
//! (prettyplease), the build-script [`Builder`] in the style of prost-build,
//! the naming authority of generated files ([`crate_names`]) and [`diff`](mod@diff)
//! (two defs compared field by field and by wire layout).
//!
//! The front end (grammar, model, validation, diagnostics, maps, wire plans)
//! is the crate `tera-defs-front`; this crate re-exports its API, so
//! `tera_defs::parse_def`, `tera_defs::model::Def` and the rest work here too.
//!
//! ```
//! use tera_defs::{FieldType, parse_def};
//!
//! let checked = parse_def("S_CHAT.4.def", "uint32 channel\nstring message\n");
//! assert!(checked.is_ok(), "{}", checked.report.render(false));
//! let def = checked.def.expect("no errors");
//! assert_eq!(def.root.field("message").expect("field").ty, FieldType::String);
//!
//! // The two-line def, as Rust (what `Builder` writes for each def):
//! let options = tera_defs::emit::EmitOptions::default();
//! let tokens = tera_defs::emit::emit_file(&[def], &[], &options);
//! let text = tera_defs::emit::format(tokens).expect("parses as Rust");
//! assert!(text.contains("pub struct V4"));
//! ```

#![warn(missing_docs)]

mod builder;
pub mod crate_names;
pub mod diff;
pub mod emit;

pub use builder::{BuildError, Builder};
pub use crate_names::CrateNames;
pub use diff::{Change, Diff, DiffError, Wire, diff};
pub use emit::Serde;

// The front end, under the paths users of `tera_defs` know.
pub use tera_defs_front::{
    Block, Checked, Def, DefFileName, DefSpec, Diagnostic, ElemType, Field, FieldType,
    FileNameError, FoundFiles, Item, Label, MAX_DEPTH, MapEntry, MapFile, MapKind, NestedType,
    NestedTypeNames, RefLine, Report, Scalar, Severity, Span, check_paths, codes, file_names,
    files, find_files, load_def_file, load_map_file, map, model, names, nested, nested_type_names,
    parse_def, parse_def_file_name, parse_def_spec, parse_map, plan, report, suggest,
};
