//! `talents`: learned perks.

use std::collections::BTreeMap;

use crate::event::{GameEvent, PerkChange};

/// Talents (tera-game-state's `mod.game.talents`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Talents {
    perks: BTreeMap<u32, u32>,
}

impl Talents {
    /// `perks`: perk id -> learned level.
    #[must_use]
    pub fn perks(&self) -> &BTreeMap<u32, u32> {
        &self.perks
    }

    /// `getPerkLevel(id)`: 0 when not learned.
    #[must_use]
    pub fn perk_level(&self, id: u32) -> u32 {
        self.perks.get(&id).copied().unwrap_or(0)
    }

    /// `hasPerk(id)`.
    #[must_use]
    pub fn has_perk(&self, id: u32) -> bool {
        self.perks.contains_key(&id)
    }

    pub(crate) fn reset(&mut self) {
        self.perks.clear();
    }

    pub(crate) fn set(
        &mut self,
        perks: impl IntoIterator<Item = (u32, u32)>,
        how: PerkChange,
        events: &mut Vec<GameEvent>,
    ) {
        self.perks = perks.into_iter().collect();
        events.push(GameEvent::ChangePerks { how });
    }
}
