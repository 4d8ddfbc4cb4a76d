//! diep.io's wire protocol (build 6f59094d): its encodings, jump tables,
//! messages and the table-driven Update message. Exact, strict and
//! zero-copy.
//!
//! The encodings are types ([`Vu`], [`Vi`], [`Vf`], [`Fixed64`],
//! [`StringNt`], [`EntId`], [`Color`], [`Tank`], [`InputFlags`],
//! [`JumpTable`]; `u8`, `u32` and `f32` are TERA's little-endian ones), each
//! carrying its read and write through `tera_packets::Codec`. The messages
//! are structs of them with the same derive as TERA packets; [`Serverbound`]
//! and [`Clientbound`] dispatch on the id byte. The Update message is read
//! through a [`FieldTable`] loaded at run time ([`FieldTable::from_json`]),
//! this build's compiled in ([`FieldTable::builtin`]).
//!
//! Reading is strict: a varint longer than 5 bytes or whose 5th byte is
//! above `0x0f`, the end of the message inside a field, a string without
//! NUL or with invalid UTF-8, bytes after the last field, an index past the
//! field table or an array, an unknown id: each is an [`Error`] saying what
//! and at which byte, never a panic.
//!
//! ```
//! use diep_packets::{InputFlags, InputMessage, Serverbound};
//!
//! let msg = [0x01, 0x99, 0x10, 0x88, 0x81, 0x85, 0x02, 0x8a, 0xa7, 0x81, 0x0f];
//! let Serverbound::Input(InputMessage { input, joystick }) = Serverbound::decode(&msg)? else {
//!     unreachable!()
//! };
//! assert_eq!(input.flags.bits(), 2073);
//! assert!(input.flags.contains(InputFlags::LEFT_CLICK));
//! assert_eq!((input.mouse_x.0, input.mouse_y.0), (1281.0, -2719.0));
//! assert_eq!(joystick, None);
//!
//! // One more byte is an error that says what and where.
//! let mut longer = msg.to_vec();
//! longer.push(0);
//! let err = Serverbound::decode(&longer).unwrap_err();
//! assert_eq!(err.to_string(), "1 bytes left after the last field at byte 11");
//! # Ok::<(), diep_packets::Error>(())
//! ```
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
#![forbid(unsafe_code)]

/// Implements `IntoOwned` for types that own all their data.
macro_rules! owned_is_self {
    ($($ty:ty),*) => {$(
        impl tera_packets::IntoOwned for $ty {
            type Owned = $ty;
            #[inline]
            fn into_owned(self) -> Self {
                self
            }
        }
    )*};
}
pub(crate) use owned_is_self;

mod color;
mod compressed;
mod entid;
mod error;
mod field_table;
mod float;
mod input_flags;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
pub mod jump_table;
mod messages;
mod side;
mod string_nt;
mod tank;
pub mod update;
mod varint;

pub use color::Color;
pub use compressed::{COMPRESSED_ID, Compressed, DEFAULT_INFLATE_CAP, compress_into};
pub use entid::{EntId, Entity};
pub use error::DiepErrorKind;
pub(crate) use error::check_end;
pub use field_table::{Encoding, FieldDef, FieldTable, GroupDef, MAX_GROUPS, TableError};
pub use float::{Fixed64, Vf};
pub use input_flags::InputFlags;
pub use jump_table::{JumpTable, NoValue};
pub use messages::{
    Accept, Heartbeat, Input, Joystick, Notification, OutdatedClient, PlayerCount, ServerInfo,
    Spawn, TakeTank, TankUpgrade, ToRespawn,
};
pub use side::{Clientbound, InputMessage, Serverbound, Side};
pub use string_nt::StringNt;
pub use tank::Tank;
pub use tera_packets::{Codec, Error, ErrorKind, Result};
pub use update::{FieldData, FieldEntry, Upcreate, UpcreateKind, Update, UpdateView, Value};
pub use varint::{MAX_VARINT_LEN, Vi, Vu, read_vu, unzigzag, vu_len, write_vu, zigzag};

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
