//! `contract`: the contract (trade, dialog, ...) in progress.

use crate::event::{ContractEnd, GameEvent};

/// The active contract (tera-game-state's `mod.game.contract`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Contract {
    active: Option<(i32, i32)>,
}

impl Contract {
    /// `active`: a contract is in progress.
    #[must_use]
    pub fn active(&self) -> bool {
        self.active.is_some()
    }

    /// `id`.
    #[must_use]
    pub fn id(&self) -> Option<i32> {
        self.active.map(|a| a.1)
    }

    /// `type`.
    #[must_use]
    pub fn kind(&self) -> Option<i32> {
        self.active.map(|a| a.0)
    }

    pub(crate) fn reset(&mut self) {
        self.active = None;
    }

    pub(crate) fn begin(&mut self, kind: i32, id: i32, events: &mut Vec<GameEvent>) {
        // tera-game-state's `active` is `!!id`: a contract of id 0 is none.
        self.active = (id != 0).then_some((kind, id));
        events.push(GameEvent::ContractBegin { kind, id });
    }

    pub(crate) fn end(&mut self, how: ContractEnd, events: &mut Vec<GameEvent>) {
        self.reset();
        events.push(GameEvent::ContractEnd { how });
    }
}
