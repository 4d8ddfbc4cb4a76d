//! Code generation for tera-data packet definitions: the Rust [`emit`]ter
//! (prettyplease), the build-script [`Builder`] in the style of prost-build,
//! and the Rust names of generated code: the naming authority of a generated
//! file ([`crate_names`]), case conversion and keywords ([`names`]), struct
//! fields ([`fields`]) and nested types ([`nested`]), with the warnings of
//! the renames that keep two def names apart ([`rust_name_warnings`]).
//!
//! The front end (grammar, model, validation, diagnostics, maps, wire plans,
//! `diff`) is the crate `tera-defs-front`, which knows nothing of Rust. The
//! types of it that this crate's API takes or returns are re-exported here
//! ([`Def`], [`MapFile`], [`Report`]); everything else is used from
//! `tera_defs_front`.
//!
//! ```
//! use tera_defs_front::{FieldType, parse_def};
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
pub mod emit;
pub mod fields;
pub mod names;
pub mod nested;
mod warnings;

pub use builder::{BuildError, Builder};
pub use crate_names::CrateNames;
pub use emit::Serde;
pub use fields::{FieldNames, field_names};
pub use nested::{NestedType, NestedTypeNames, nested_type_names};
pub use warnings::{FIELD_RENAMED, TYPE_RENAMED, rust_name_warnings};

// The front end's types that this crate's API takes or returns.
pub use tera_defs_front::{Def, MapFile, Report};
