//! The writer: a valid, deterministic file from a tree.
//!
//! - `options`: how to write ([`WriteOptions`]);
//! - `source`: what the writer reads a tree through ([`Source`]), and the
//!   [`OwnedElement`] tree as one (`owned_source`);
//! - `layout`: the tree laid out into records, children before their
//!   parent, with `order` sorting children and `dedup` storing identical
//!   runs of records once;
//! - `intern`: each string added once to its table;
//! - `regions`: the regions filled, and the file serialized from them.

mod dedup;
mod error;
mod intern;
mod layout;
mod options;
mod order;
mod owned_source;
mod regions;
mod source;

pub use error::WriteError;
pub(crate) use layout::encode;
pub use options::WriteOptions;
pub(crate) use regions::Encoded;
pub(crate) use source::{Source, ValueRef};

use crate::owned::OwnedElement;

/// Writes the decompressed (`.dec`) bytes of a tree whose root is a
/// `__root__` element without attributes.
///
/// Names are indexed in [`name_order`](crate::name_order), attributes and
/// children are stored sorted by name index (children stably), children are
/// laid out before their parent (the root at 0:0), identical attribute runs
/// and child runs are stored once unless [`WriteOptions::dedup`] is off, one
/// key (all zero) is defined, and every region's capacity equals its used
/// count: the same tree always gives the same bytes.
pub fn write_dec(root: &OwnedElement, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    if root.name != "__root__" {
        return Err(WriteError::RootName(root.name.clone()));
    }
    if !root.attributes.is_empty() {
        return Err(WriteError::RootAttributes);
    }
    let source = owned_source::OwnedSource::new(root)?;
    Ok(encode(&source, options)?.into_bytes())
}
