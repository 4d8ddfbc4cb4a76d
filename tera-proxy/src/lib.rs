//! A TERA game proxy on the generated packets of [`tera_data`], written as
//! tera-toolbox's mods are.
//!
//! A [`Connection`] relays one game client to its server over the
//! [`tera_net`] transport (handshake, PIKE cipher, framing) and runs
//! [hooks](Hook) on every packet; a [`Proxy`] listens and makes one per
//! client, with a new value of each [`Mod`].
//!
//! * [`Hook::on::<P>`](Hook::on) hooks a packet by its Rust type (a
//!   generated packet such as `tera_data::packets::s_chat::V4`, or a
//!   `#[derive(Packet)]` struct) and gets it decoded zero-copy; name and
//!   version come from the type. [`Hook::typed`] and [`Hook::raw`] take a
//!   name chosen at run time; [`Hook::once`] runs once.
//! * Each answers a [`Verdict`]: pass, pass changed (re-encoded in place;
//!   the length may change) or block. Hooks run by [order](Hook::order),
//!   then in the order they were added; a [`Filter`] says whether a hook
//!   sees injected, changed or blocked packets.
//! * [`Event::send`] and [`ConnectionHandle::send`] send any packet value
//!   the way its name says (`C_` to the server, `S_` and `I_` to the
//!   client); `send_to` takes a direction, `send_raw` bytes.
//! * A [`Mod`] is a type with its own state, one value per connection.
//!   Everything it registers is typed by it: its hooks ([`Mod::on`],
//!   [`Mod::typed`], [`Mod::dynamic`], [`Mod::raw`]), in-game commands
//!   ([`Mod::command`]: `!name args` in any chat, or a line in the proxy's
//!   private channel, run by a built-in mod on ordinary hooks), timers
//!   ([`Event::set_timeout`], [`Event::set_interval`]) and [`Signal`]
//!   subscribers get `&mut` that value; [`Setup<M>`](Setup) and
//!   [`Event<M>`](Event) take only `Hook<M>`, so a hook reaching another
//!   mod's state does not compile.
//! * A mod's [`Settings`] (a serde type with a version and a migration,
//!   [`ModSettings`]) are loaded from [`ProxyConfig::settings_dir`] when it
//!   is installed, saved when changed and when it leaves; a file that does
//!   not load is reported, kept beside and the defaults used.
//! * Hooks add and remove hooks and mods from inside hooks, through their
//!   [`Event`] or a [`ConnectionHandle`], without deadlock.
//! * A hook (command, timer, subscriber) that panics disables its mod on
//!   that connection, reported once
//!   ([`ConnectionHandle::faults`]), and the relay goes on
//!   ([`FaultPolicy`]). A hook on a name the connection's map lacks is an
//!   error, or reported once the map is known
//!   ([`ConnectionHandle::unknown_names`]).
//! * The protocol map (name <-> opcode) is given, or chosen from a folder of
//!   `protocol.REV.map` files (a tera-data checkout's:
//!   [`MapSource::tera_data`]) by the revision the client announces in its
//!   first packet, `C_CHECK_VERSION` ([`MapSource`]).
//! * What every mod of a connection shares: a [`ConnectionContext`] that
//!   the proxy's [`ConnectionSetup`]s fill before the mods install (game
//!   state, in one line), read with [`Setup::need`] and
//!   [`Event::context`].
//! * What else tera-toolbox gives a mod: [`Event::log`], [`Mod::unload`],
//!   hooks by the client's patch ([`Hook::patches`], [`Event::patch`]),
//!   system messages ([`Event::parse_system_message`]), command arguments
//!   with their chat links ([`Command::raw_args`]), and defs a mod ships
//!   for packets the project does not compile in ([`PacketDef`]).
//! * A mod's tests: `harness::TestPeers` (feature `harness`), a scripted
//!   client and server.
//!
//! Memory stays bounded: each side's queue holds at most
//! [`ProxyConfig::queue_bytes`], and a side that stops reading stops the
//! relay reading from the other.
//!
//! # Example
//!
//! ```no_run
//! use tera_data::packets::{s_chat, s_system_message};
//! use tera_proxy::{Hook, MapSource, Proxy, ProxyConfig, Verdict};
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let proxy = Proxy::new("127.0.0.1:9251")
//!     // Each client's map by the revision it announces, from a tera-data checkout.
//!     .config(ProxyConfig { maps: MapSource::tera_data("tera-data"), ..ProxyConfig::default() })
//!     .on_connection(|_, connection| {
//!         // Every chat line from the server, changed.
//!         let chat = Hook::on::<s_chat::V4>(|_, chat| {
//!             chat.message = format!("{}!", chat.message).into();
//!             Verdict::Changed
//!         });
//!         // No system messages.
//!         let quiet = Hook::on::<s_system_message::V1>(|_, _| Verdict::Block);
//!         for hook in [chat, quiet] {
//!             connection.add_hook(hook).expect("both are in the map");
//!         }
//!     })
//!     .bind("127.0.0.1:9250")
//!     .await?;
//! proxy.run_until(std::future::pending()).await?;
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
mod chat_link;
pub mod commands;
mod config;
mod context;
mod dispatch;
mod dynamic;
mod encode;
mod error;
mod event;
mod faults;
mod handle;
mod handshake;
#[cfg(feature = "harness")]
#[cfg_attr(docsrs, doc(cfg(feature = "harness")))]
pub mod harness;
mod hooks;
mod id;
mod log;
mod meta;
mod mods;
mod proxy;
mod queue;
mod raw;
mod registry;
mod relay;
mod session_log;
mod settings;
mod settings_owner;
mod setup;
mod shared;
mod shipped;
mod signal;
mod slot;
mod stats;
mod sysmsg;
mod timers;
mod verdict;
mod version;

pub use commands::Command;
pub use config::ProxyConfig;
pub use context::ConnectionContext;
pub use dynamic::{DefSource, DefsError, DynamicError};
pub use error::{HookError, HookFailure, PacketError, ProxyError, SendError};
pub use event::Event;
pub use faults::{Fault, FaultPolicy, UnknownName};
pub use handle::ConnectionHandle;
pub use hooks::Hook;
pub use id::{HookId, ModId, SignalId, TimerId};
pub use meta::Version;
pub use mods::{Mod, Setup};
pub use proxy::{Listening, Proxy};
pub use raw::RawPacket;
pub use relay::Connection;
pub use session_log::{SessionLog, SessionLogError};
pub use settings::{ModSettings, Settings, SettingsFile, SettingsProblem};
pub use setup::ConnectionSetup;
pub use shipped::PacketDef;
pub use signal::Signal;
pub use stats::{DirectionStats, RelayStats};
pub use sysmsg::{SysmsgError, SysmsgMap, SystemMessage, TOKEN_SEPARATOR};
pub use tera_dynamic::{self, Catalog, Record, Value};
pub use tera_net::Direction;
pub use tera_sessions::direction_of;
pub use verdict::{Filter, Verdict};
pub use version::{C_CHECK_VERSION_OPCODE, MapFolder, MapLoadError, MapSource, announced_revision};

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
