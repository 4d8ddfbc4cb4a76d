//! Opcode discovery for a new TERA protocol version.
//!
//! Every patch reshuffles the opcodes, and without a `protocol.N.map` no
//! tool can name a packet. This crate proposes the map from sessions of
//! the new version (any source `tera-sessions` reads, as [`Samples`]) and
//! the packet defs ([`DefSet`], from a `tera_dynamic::Catalog`), with a
//! confidence and the evidence for every entry ([`Report`]):
//!
//! - the fixed opcodes ([`FIXED`]) and the direction of each packet (a
//!   `C_` def never explains a server packet);
//! - exact fit: every distinct packet of an opcode decodes strictly under
//!   the def and encodes back to the same bytes; many packets of varied
//!   lengths pin down more than one packet of a fixed length;
//! - values that tie packets together across the session: the player's
//!   ids in same-named fields, positions near the player's, a request
//!   answered by its response, the order of a login;
//! - the previous version's map as a prior that breaks ties only.
//!
//! The assignment is one-to-one and chosen as a whole: a maximum-weight
//! bipartite matching (the Hungarian algorithm) between opcodes and names
//! over the candidates' weights in bits. An entry's margin is what the
//! whole assignment loses without it; entries below the threshold are
//! listed as candidates, not written.
//!
//! ```
//! use tera_dynamic::Catalog;
//! use tera_opcodes::{DefSet, Discovery, Samples};
//! use tera_sessions::{Direction, SessionId, Timestamp};
//!
//! let mut catalog = Catalog::new();
//! catalog.add_def("S_CHAT.4.def", "uint32 channel\nstring message\n").unwrap();
//! catalog.add_def("S_PING.1.def", "").unwrap();
//!
//! // A session in which opcode 4242 carries chat lines of every length.
//! let mut samples = Samples::new();
//! let schema = catalog.get("S_CHAT", 4).unwrap();
//! for (k, text) in ["hi", "hello there", "ok then", "anyone for a dungeon?", "lf healer", "brb"].iter().enumerate() {
//!     let value = schema
//!         .deserialize(serde_json::json!({ "channel": 1, "message": text }))
//!         .unwrap();
//!     let packet = schema.encode(&value, 4242).unwrap();
//!     let time = Timestamp::from_unix_millis(k as i64 * 1000);
//!     samples.push_packet(SessionId(0), time, Direction::ServerToClient, &packet);
//! }
//!
//! let report = Discovery::new(DefSet::from_catalog(&catalog)).run(&mut samples);
//! assert_eq!(report.map().code("S_CHAT"), Some(4242));
//! assert!(report.map().to_text().contains("S_CHAT = 4242\n"));
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod align;
mod base_rates;
mod check;
mod defset;
mod discover;
mod field_names;
mod fit;
mod layout_rates;
mod leaves;
mod links;
mod lives;
mod login_alignment;
mod matching;
mod pair_alignment;
mod places_order;
mod plausible;
mod report;
mod samples;
mod scenes;
mod semantics;
mod sequence;
#[cfg(feature = "simulate")]
#[cfg_attr(docsrs, doc(cfg(feature = "simulate")))]
pub mod simulate;

pub use check::{Check, CheckReport, Misfitting, Moved};
pub use defset::DefSet;
pub use discover::{DEFAULT_THRESHOLD, Discovery, FIXED};
pub use fit::Misfit;
pub use report::{Entry, Evidence, Report, Unexplained, direction_name};
pub use samples::{Group, Samples};
pub use scenes::{Cited, GameRules};
/// The runtime's protocol map, in which discovery reads and writes maps
/// (`tera_dynamic::load_protocol_map` reads a file).
pub use tera_dynamic::ProtocolMap;
/// The direction a packet's name says it travels.
pub use tera_sessions::direction_of;

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
