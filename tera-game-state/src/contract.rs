//! `contract`: the contract (trade, dialog, ...) in progress.

use crate::event::{ContractEnd, GameEvent};

/// The active contract (tera-game-state's `mod.game.contract`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Contract {
    /// The type and id of the last `S_REQUEST_CONTRACT`, until it ends.
    current: Option<(i32, i32)>,
}

impl Contract {
    /// `active`: a contract is in progress.
    #[must_use]
    pub fn active(&self) -> bool {
        // tera-game-state's `active` is `!!id`: a contract of id 0 is none,
        // though its id and type are kept.
        self.current.is_some_and(|(_, id)| id != 0)
    }

    /// `id`.
    #[must_use]
    pub fn id(&self) -> Option<i32> {
        self.current.map(|a| a.1)
    }

    /// `type`.
    #[must_use]
    pub fn kind(&self) -> Option<i32> {
        self.current.map(|a| a.0)
    }

    pub(crate) fn reset(&mut self) {
        self.current = None;
    }

    pub(crate) fn begin(&mut self, kind: i32, id: i32, events: &mut Vec<GameEvent>) {
        self.current = Some((kind, id));
        events.push(GameEvent::ContractBegin { kind, id });
    }

    pub(crate) fn end(&mut self, how: ContractEnd, events: &mut Vec<GameEvent>) {
        self.reset();
        events.push(GameEvent::ContractEnd { how });
    }
}
