//! A TERA game proxy on the generated packets of [`tera_data`].
//!
//! A [`Connection`] relays one game client to its server over the
//! [`tera_net`] transport (handshake, PIKE cipher, framing) and runs
//! [hooks](Hook) on every packet, as tera-toolbox's mods do:
//!
//! * a **typed** hook is registered by packet name and [`Version`] and sees
//!   the packet decoded zero-copy as the generated struct, in its
//!   [`AnyPacket`](tera_data::AnyPacket) variant; a **raw** hook sees the
//!   bytes, of one packet name or of every packet (`"*"`);
//! * each answers a [`Verdict`]: pass, pass changed (re-encoded in place;
//!   the length may change) or block;
//! * hooks run by [order](Hook::order), then in the order they were added; a
//!   [`Filter`] says whether a hook sees injected (`fake`), changed
//!   (`modified`) or blocked (`silenced`) packets;
//! * hooks and [`ConnectionHandle`]s inject packets, typed or raw, to either
//!   side, encrypted in stream order with the relayed ones;
//! * hooks are added and removed while the connection runs;
//! * the protocol map (name <-> opcode) is given, or chosen from a folder of
//!   `protocol.REV.map` files by the revision the client announces in its
//!   first packet, `C_CHECK_VERSION` ([`MapSource`]). A packet the map does
//!   not name passes as raw.
//!
//! Memory stays bounded: each side has a bounded queue, and a side that
//! stops reading stops the relay reading from the other
//! ([`ProxyConfig::queue_capacity`]). A hook that panics ends its own
//! connection with [`ProxyError::HookPanicked`]; other connections go on.
//!
//! # Example
//!
//! ```no_run
//! use tera_proxy::{Connection, Filter, Hook, MapSource, ProxyConfig, Verdict, Version};
//! use tokio::net::{TcpListener, TcpStream};
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let listener = TcpListener::bind("127.0.0.1:9250").await?;
//! let (client, _) = listener.accept().await?;
//! let server = TcpStream::connect("127.0.0.1:9251").await?;
//!
//! let connection = Connection::new(ProxyConfig {
//!     maps: MapSource::folder("maps"),
//!     ..ProxyConfig::default()
//! });
//! // Every packet, as bytes.
//! connection.add_hook(Hook::raw("*", |event, packet| {
//!     println!("{} {} bytes", event.direction(), packet.bytes().len());
//!     Verdict::Pass
//! }));
//! // The newest S_CHAT compiled in, typed (`packet` is its `AnyPacket`
//! // variant, decoded zero-copy); injected chat lines too.
//! connection.add_hook(
//!     Hook::typed("S_CHAT", Version::Latest, |event, packet| {
//!         println!("{}.{} fake={}", packet.name(), packet.version(), event.is_fake());
//!         Verdict::Pass
//!     })?
//!     .filter(Filter { fake: None, ..Filter::default() }),
//! );
//! let stats = connection.run(client, server).await?;
//! println!("{} packets from the client", stats.client_to_server.packets_read);
//! # Ok(())
//! # }
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod chain;
mod error;
mod event;
mod handshake;
#[cfg(feature = "harness")]
#[cfg_attr(docsrs, doc(cfg(feature = "harness")))]
pub mod harness;
mod hooks;
mod relay;
mod stats;
mod version;

pub use error::{HookError, PacketError, ProxyError, SendError};
pub use event::Event;
pub use hooks::{Filter, Hook, HookId, RawFn, RawPacket, TypedFn, Verdict, Version};
pub use relay::{Connection, ConnectionHandle, ProxyConfig};
pub use stats::{DirectionStats, RelayStats};
pub use tera_net::Direction;
pub use version::{C_CHECK_VERSION_OPCODE, MapFolder, MapLoadError, MapSource, announced_revision};

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
