//! `glyphs`: known and enabled glyphs.

use std::collections::BTreeMap;

use crate::event::GameEvent;

/// Glyphs (tera-game-state's `mod.game.glyphs`).
///
/// Glyph ids are numbers (`i32`), as `S_CREST_INFO` and `S_CREST_APPLY`
/// carry them; tera-game-state's are strings, the keys of its `known`
/// object, so its `enabled` lists `"10001"` where this lists `10001`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Glyphs {
    known: BTreeMap<i32, bool>,
}

impl Glyphs {
    /// `known`: glyph id -> enabled.
    #[must_use]
    pub fn known(&self) -> &BTreeMap<i32, bool> {
        &self.known
    }

    /// `enabled`: the ids of the enabled glyphs, in order.
    pub fn enabled(&self) -> impl Iterator<Item = i32> + '_ {
        self.known.iter().filter(|(_, on)| **on).map(|(id, _)| *id)
    }

    /// `isKnown(id)`.
    #[must_use]
    pub fn is_known(&self, id: i32) -> bool {
        self.known.contains_key(&id)
    }

    /// `isEnabled(id)`.
    #[must_use]
    pub fn is_enabled(&self, id: i32) -> bool {
        self.known.get(&id).copied().unwrap_or(false)
    }

    pub(crate) fn reset(&mut self) {
        self.known.clear();
    }

    pub(crate) fn set_all(
        &mut self,
        known: impl IntoIterator<Item = (i32, bool)>,
        events: &mut Vec<GameEvent>,
    ) {
        self.known = known.into_iter().collect();
        events.push(GameEvent::GlyphsChange);
    }

    pub(crate) fn apply(&mut self, id: i32, enable: bool, events: &mut Vec<GameEvent>) {
        self.known.insert(id, enable);
        events.push(GameEvent::GlyphsChange);
    }
}
