//! TODO
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]
#![warn(missing_docs)]

pub mod pike;
pub mod session;
pub mod sha0;

/// Which way bytes travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the game client to the server (cipher A).
    ClientToServer,
    /// From the server to the game client (cipher B).
    ServerToClient,
}
