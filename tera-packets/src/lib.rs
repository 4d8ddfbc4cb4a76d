//! Runtime of [tera-defs]: the wire format of TERA network packets as Rust
//! traits and types.
//!
//! A packet is `u16 length, u16 opcode` and a block of fields; strings, bytes
//! and arrays sit behind offsets. Decoding validates every offset, count,
//! string and list up front and allocates nothing: [`Str`], [`Bytes`] and
//! [`Array`] borrow from the packet. The same types own their data when
//! built, so values can be made and encoded. Encoding computes the exact
//! size first and writes straight into the caller's buffer.
//!
//! The wire code of a struct comes from `#[derive(Packet)]` (a whole packet)
//! or `#[derive(Block)]` (an array element or an object), which call the
//! [`Wire`] impls of the field types.
//!
//! ```
//! use tera_packets::{Array, Packet, Str};
//!
//! /// `int32 number; string name; array list { int16 value }`
//! #[derive(Debug, Clone, PartialEq, Packet)]
//! #[tera(name = "S_EXAMPLE", version = 1)]
//! struct Example<'a> {
//!     number: i32,
//!     name: Str<'a>,
//!     list: Array<'a, Item>,
//! }
//!
//! #[derive(Debug, Clone, PartialEq, tera_packets::Block)]
//! struct Item {
//!     value: i16,
//! }
//!
//! let packet = Example {
//!     number: 7,
//!     name: Str::from("hi"),
//!     list: vec![Item { value: 1 }, Item { value: -1 }].into(),
//! };
//! let bytes = packet.encode()?;
//! assert_eq!(bytes.len(), packet.encoded_len());
//!
//! let decoded = Example::decode(&bytes)?; // borrows from `bytes`
//! assert_eq!(decoded.name, "hi");
//! assert_eq!(decoded.list.iter().map(|i| i.value).collect::<Vec<_>>(), [1, -1]);
//! assert_eq!(decoded, packet);
//!
//! // A hostile packet is an error, never a panic.
//! let mut bad = bytes.clone();
//! bad[6] = 0xff; // the string's offset now points past the end
//! assert!(Example::decode(&bad).is_err());
//! # Ok::<(), tera_packets::Error>(())
//! ```
//!
//! [tera-defs]: https://docs.rs/tera-defs
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// One reviewed exception (`utf16`): a `String`'s bytes written directly,
// with ASCII bytes and `char::encode_utf8` only.
#![deny(unsafe_code)]

#[cfg(feature = "arbitrary")]
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
mod arbitrary;
mod array;
mod bytes;
mod codec;
mod error;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod json;
mod protocol_error;
mod protocol_map;
mod reader;
mod registry;
mod scalars;
mod string;
pub mod utf16;
mod values;
mod visit;
mod wire;
mod writer;

pub use array::{Array, Chain, Elem, Iter};
pub use bytes::Bytes;
pub use codec::Codec;
pub use error::{Error, ErrorKind, Result};
pub use protocol_error::{ProtocolError, ProtocolErrorKind};
pub use protocol_map::{ProtocolMap, StaticMap};
pub use reader::{HEADER_LEN, Reader};
pub use registry::{AnyError, PacketInfo, latest_version, opcode_of};
pub use string::Str;
pub use values::{Angle, Customize, RADIANS_PER_UNIT, SkillId, SkillId32, Vec3, Vec3fa};
pub use visit::{Visit, Visitor};
pub use wire::{
    __private, Block, IntoOwned, MAX_PACKET_LEN, Packet, PacketType, Parts, Wire, set_opcode,
};
pub use writer::Writer;

#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tera_defs_macros::{Block, Packet};
