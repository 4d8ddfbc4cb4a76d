//! Typed, zero-copy Rust structs for TERA network packets, generated at
//! build time from tera-data `.def` files.
//!
//! Every def `NAME.VERSION.def` becomes `packets::name::VVERSION`, with its
//! nested objects and array elements in `packets::name::vVERSION`. By default
//! the crate compiles its own `defs/` folder; set `TERA_DATA_DIR` to a
//! tera-data checkout at build time to compile that instead.
//!
//! The runtime (`Packet`, `Str`, `Array`, ...) is re-exported from
//! [`tera_packets`].
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use tera_packets::*;

/// The generated packets, one module per packet name.
pub mod packets {
    include!(concat!(env!("OUT_DIR"), "/tera_packets.rs"));
}

pub use packets::{AnyPacket, PACKETS, PROTOCOL_MAPS, SYSMSG_MAPS};

/// The compiled-in protocol map of the highest revision, if any.
pub fn protocol_map() -> Option<ProtocolMap> {
    PROTOCOL_MAPS
        .iter()
        .max_by_key(|m| m.revision)
        .map(ProtocolMap::from_static)
}

/// The README's examples, run as doc tests. They use the project's own
/// defs, so they are compiled only when the crate is built from `defs/`.
#[cfg(all(doctest, not(tera_corpus)))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
