//! TERA data center files: the game's packed database of XML-like data.
//!
//! - [`unpack`] / [`pack`] / [`pack_with`]: a `.dat` is AES-128-CFB (a
//!   per-build [`DatKey`]) over a `u32` size and a zlib stream, compressed on
//!   every core ([`Compression`]); unpacking gives the `.dec` bytes.
//! - [`DataCenter`]: a zero-copy tree over `.dec` bytes, 64- or 32-bit
//!   element layout ([`Arch`]), version 3 or 6. [`Element`]s have a name,
//!   typed [`Attribute`]s ([`Value`]: int, bool, float, string) and children;
//!   strings are UTF-16 views ([`DcStr`]).
//! - [`verify()`]: the strict checks (hashes, buckets, indexes, addresses,
//!   booleans, sizes...), every [`Problem`] with its byte offset and place.
//!   Opening a file makes the same checks on every record and refuses it
//!   with the first problem; a `.dat` that does not decrypt or inflate is a
//!   [`DatError`].
//! - [`write_dec`]: a valid, deterministic file from an [`OwnedElement`] tree,
//!   identical attribute and child runs stored once; [`repack`]: an open
//!   file laid out again.
//! - [`sheets`]: the XML sheets and XSD schemas people edit.
//! - [`export()`]: streaming XML or JSON of a tree or sub-tree.
//!
//! ```
//! use tera_datacenter::{DataCenter, OwnedElement, OwnedValue, Value, WriteOptions, write_dec};
//!
//! let tree = OwnedElement::root(vec![
//!     OwnedElement::new("AreaList").child(
//!         OwnedElement::new("Area")
//!             .attr("id", OwnedValue::Int(7))
//!             .attr("name", OwnedValue::Str("Velika".into())),
//!     ),
//! ]);
//! let bytes = write_dec(&tree, &WriteOptions::default()).unwrap();
//! assert!(tera_datacenter::verify(&bytes, None).is_ok());
//!
//! let dc = DataCenter::parse(&bytes).unwrap();
//! let area = dc.root().select("AreaList/Area")[0];
//! assert_eq!(area.attribute("id"), Some(Value::Int(7)));
//! assert!(area.attribute("name").unwrap().as_str().unwrap() == "Velika");
//! assert_eq!(dc.root().children_named("AreaList").count(), 1);
//! ```
#![warn(missing_docs)]

mod address;
mod bench_tree;
mod bytes;
mod check;
mod dat;
mod export;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod hash;
mod layout;
mod owned;
mod problem;
mod records;
mod repack;
pub mod sheets;
mod string;
mod tree;
mod verify;
mod write;
mod xml_text;

pub use address::Address;
#[doc(hidden)]
pub use bench_tree::{bench_tree, walk_all};
pub use dat::{Compression, DatError, DatKey, KeyError, pack, pack_with, unpack, unpack_lenient};
pub use export::{
    ExportError, ExportOptions, ExportStats, Format, PROGRESS_EVERY, export, export_all,
};
pub use hash::{bucket_of, string_hash, value_hash};
pub use layout::{Header, Version};
pub use owned::{OwnedElement, OwnedValue, name_order};
pub use problem::{Place, Problem, ProblemKind, Table};
pub use records::Arch;
pub use repack::repack;
pub use string::DcStr;
pub use tree::{Attribute, Attributes, Children, DataCenter, Element, Value};
pub use verify::{Report, verify, verify_dat};
pub use write::{WriteError, WriteOptions, write_dec};
