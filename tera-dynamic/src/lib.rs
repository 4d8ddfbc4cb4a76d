//! TERA packets whose defs and opcode maps are read at run time: the
//! dynamic twin of the generated packets, as prost-reflect's
//! `DynamicMessage` is of prost's structs.
//!
//! A [`Catalog`] loads `.def` files and a `protocol.REV.map` through the
//! same front end as the code generator (`tera-defs-front`: parser,
//! validation, diagnostics) and lowers each def into the same wire plans
//! (`tera-wire-plan`), each walk lowered once into a flat list of
//! operations. A [`Schema`] decodes a packet into a [`View`] (every value
//! in one vector, the fastest way to read; in a [`ViewBuf`] kept from
//! packet to packet, without allocating) or a [`Record`] of named
//! [`Value`]s (to change), and encodes a record back, with the checks and
//! the bytes of the generated packets; serde gives their JSON.
//!
//! ```
//! use tera_dynamic::{Catalog, Value};
//!
//! let mut catalog = Catalog::new();
//! catalog
//!     .add_def("S_CHAT.4.def", "uint32 channel\nstring message\n")
//!     .map_err(|report| report.render(false))?;
//! let schema = catalog.get("S_CHAT", 4).expect("loaded");
//!
//! // length, opcode, the string's offset, channel, "h" and NUL in UTF-16LE
//! let packet = [14, 0, 0x2a, 0x50, 10, 0, 1, 0, 0, 0, b'h', 0, 0, 0];
//! let value = schema.decode(&packet)?;
//! assert_eq!(value.get("channel"), Some(&Value::UInt32(1)));
//! let json = serde_json::to_string(&value)?;
//! assert_eq!(json, r#"{"channel":1,"message":"h"}"#);
//!
//! // The same packet as a view: no vector per record.
//! let view = schema.view(&packet)?;
//! assert_eq!(serde_json::to_string(&view)?, json);
//!
//! // JSON back to a value, and to the same bytes:
//! let read = schema.deserialize(&mut serde_json::Deserializer::from_str(&json))?;
//! assert_eq!(schema.encode(&read, 0x502a)?, packet);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Files, one job each, each importing only those above it: `scalars`
//! (the one list of scalar types), `error`, `slot` (one value of a view),
//! `program` (a walk as a list of operations), `schema` (a def's structs,
//! fields and their kinds), `lower` (a def's wire plan lowered into
//! them), `value` (the value tree), `scalar` (each scalar as its runtime
//! type), `check` (the type rule of values, and the checked setter),
//! `view` (a decoded packet in one vector), `access` (accessors, paths,
//! `Index`, `From`), `decode`, `encode`, `json` (serde), `protocol_map`
//! (map files into the runtime's `ProtocolMap`), `catalog` (loading and
//! lookup).

#![warn(missing_docs)]

mod access;
mod catalog;
mod check;
mod decode;
mod encode;
mod error;
mod field;
mod fit;
mod json;
mod lower;
mod program;
mod protocol_map;
mod scalar;
mod scalars;
mod schema;
mod slot;
mod value;
mod view;

pub use access::ValueIndex;
pub use catalog::Catalog;
pub use error::{DecodeError, EncodeError, EncodeErrorKind, SetError};
pub use field::FieldError;
pub use fit::Misfit;
pub use protocol_map::{LoadedMap, load_protocol_map, parse_protocol_map, protocol_map_of};
pub use schema::{ElementKind, FieldSchema, Kind, Schema, StructSchema};
pub use value::{Record, Value};
pub use view::{ArrayView, RecordView, View, ViewBuf, ViewValue};

/// The def language's simple and value types, as [`Kind::Scalar`] and
/// [`Value::scalar`] name them.
pub use tera_defs_front::model::Scalar;

/// Re-exports of the front end's report type, in which load problems come.
pub use tera_defs_front::Report;

/// The runtime's protocol map, which [`load_protocol_map`] and
/// [`Catalog::protocol_map`] give.
pub use tera_packets::ProtocolMap;

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
