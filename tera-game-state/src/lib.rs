//! What TERA proxy mods know of the game, as tera-toolbox's
//! tera-game-state gives it (`mod.game`), and past it: fed every packet of
//! a connection, it keeps the state and yields typed events.
//!
//! * [`GameState`]: one per connection. [`GameState::feed`] takes each
//!   packet (opcode and bytes, after [`GameState::bind`] to the
//!   connection's protocol map) or [`GameState::feed_named`] (by name) and
//!   returns the [`GameEvent`]s it caused, in order.
//! * Submodules under tera-game-state's names: [`me`](GameState::me) with
//!   `me.abnormalities`, [`party`](GameState::party),
//!   [`inventory`](GameState::inventory), [`contract`](GameState::contract),
//!   [`glyphs`](GameState::glyphs), [`talents`](GameState::talents), the
//!   [session](GameState::session); past it, the player's
//!   [`position`](GameState::position) and the [`entities`](GameState::entities)
//!   in sight. Each but the session and `me` costs nothing until
//!   [initialized](GameState::initialize).
//! * The def version of each packet is chosen by the client's patch
//!   ([`GameConfig::patch`]), as tera-game-state switches them.
//! * Class, race, gender and the zone's channel type come from the client's
//!   data center ([`GameData::load`]: a `.dat` with key and IV, a `.dec`, or
//!   sheets); without one, [`GameData::unknown`] says what is unknown.
//!
//! On a `tera-proxy` connection, [`Game`] holds the connection's state:
//! its [`feeder`](Game::feeder) mod reads every packet first, and mods
//! read the state and subscribe to its events with their own state.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]
#![warn(missing_docs)]

mod class;
mod clock;
mod contract;
mod data;
mod dispatch;
mod entities;
mod entity_kind;
mod event;
mod fields;
mod game;
mod glyphs;
mod inventory;
mod items;
mod me;
mod member;
mod party;
mod position;
mod proxy;
mod read_error;
mod routes;
mod routing;
mod rows;
mod session;
mod submodule;
mod table;
mod talents;

pub use class::{ChannelType, Class, Gender, Race, Template};
pub use clock::{Clock, ManualClock};
pub use contract::Contract;
pub use data::{DataCenterSource, DataError, DataOrigin, GameData};
pub use entities::{Entities, Entity};
pub use entity_kind::EntityKind;
pub use event::{ContractEnd, GameEvent, PerkChange};
pub use game::{DecodeFailure, GameConfig, GameState};
pub use glyphs::Glyphs;
pub use inventory::{CONTAINER_BAG, CONTAINER_EQUIPMENT, Inventory, Item, Pocket};
pub use me::{Abnormality, Me};
pub use member::{LeftMember, PartyMember};
pub use party::Party;
pub use position::{Position, distance};
pub use proxy::{FEED_ORDER, Game, GameFeeder, GameSetup};
pub use read_error::ReadError;
pub use rows::{AbnormalityData, AbnormalityEffect, ItemData};
pub use session::{Session, SessionState};
pub use submodule::{Submodules, UnknownSubmodule};

/// The README's example, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
