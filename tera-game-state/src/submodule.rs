//! The submodules of game state, each on only when a mod asks for it
//! (tera-game-state's `initialize`).

use std::str::FromStr;

bitflags::bitflags! {
    /// A set of submodules. The session and `me` are always on.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct Submodules: u16 {
        /// Lobby, game and loading screen (always on).
        const SESSION = 1;
        /// `me` (always on).
        const ME = 1 << 1;
        /// `me.abnormalities`.
        const ABNORMALITIES = 1 << 2;
        /// `party`.
        const PARTY = 1 << 3;
        /// `inventory`.
        const INVENTORY = 1 << 4;
        /// `contract`.
        const CONTRACT = 1 << 5;
        /// `glyphs`.
        const GLYPHS = 1 << 6;
        /// `talents`.
        const TALENTS = 1 << 7;
        /// The player's position and heading (past tera-game-state).
        const POSITION = 1 << 8;
        /// The users, NPCs and gathering nodes in sight (past
        /// tera-game-state).
        const ENTITIES = 1 << 9;
    }
}

impl Submodules {
    /// What is on before any mod asks: the session and `me`.
    pub const DEFAULT: Submodules = Submodules::SESSION.union(Submodules::ME);
}

/// A submodule name game state does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no game state submodule `{0}` (known: me, me.abnormalities, party, inventory, contract, glyphs, talents, position, entities)"
)]
pub struct UnknownSubmodule(pub String);

impl FromStr for Submodules {
    type Err = UnknownSubmodule;

    /// tera-game-state's names: `"me"`, `"me.abnormalities"`, `"party"`,
    /// `"inventory"`, `"contract"`, `"glyphs"`, `"talents"`; and
    /// `"position"`, `"entities"`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Ok(match name {
            "me" => Submodules::ME,
            "me.abnormalities" => Submodules::ABNORMALITIES,
            "party" => Submodules::PARTY,
            "inventory" => Submodules::INVENTORY,
            "contract" => Submodules::CONTRACT,
            "glyphs" => Submodules::GLYPHS,
            "talents" => Submodules::TALENTS,
            "position" => Submodules::POSITION,
            "entities" => Submodules::ENTITIES,
            _ => return Err(UnknownSubmodule(name.to_owned())),
        })
    }
}
