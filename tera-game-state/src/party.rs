//! `party`: the player's party.

use crate::event::GameEvent;
use crate::member::{LeftMember, PartyMember};

/// The party (tera-game-state's `mod.game.party`).
#[derive(Debug, Clone, Default)]
pub struct Party {
    members: Vec<PartyMember>,
}

impl Party {
    /// The members (the `list` event's list), the player among them.
    #[must_use]
    pub fn members(&self) -> &[PartyMember] {
        &self.members
    }

    /// `inParty`.
    #[must_use]
    pub fn in_party(&self) -> bool {
        !self.members.is_empty()
    }

    /// `isMember(gameId)`.
    #[must_use]
    pub fn is_member(&self, game_id: u64) -> bool {
        self.member(game_id).is_some()
    }

    /// `getMemberData(gameId)`.
    #[must_use]
    pub fn member(&self, game_id: u64) -> Option<&PartyMember> {
        self.members.iter().find(|m| m.game_id == game_id)
    }

    pub(crate) fn reset(&mut self) {
        self.members.clear();
    }

    pub(crate) fn set_list(&mut self, members: Vec<PartyMember>, events: &mut Vec<GameEvent>) {
        self.members = members;
        events.push(GameEvent::PartyList {
            members: self.members.clone(),
        });
    }

    /// A member left (`kicked`: was kicked): removed by server and player
    /// id, both events emitted.
    pub(crate) fn remove(
        &mut self,
        server_id: u32,
        player_id: u32,
        name: &str,
        kicked: bool,
        events: &mut Vec<GameEvent>,
    ) {
        let same = |m: &PartyMember| m.server_id == server_id && m.player_id == player_id;
        let class = self.members.iter().find(|m| same(m)).map(|m| m.class);
        self.members.retain(|m| !same(m));
        let left = LeftMember {
            server_id,
            player_id,
            name: name.to_owned(),
            class,
        };
        events.push(if kicked {
            GameEvent::PartyMemberKick(left)
        } else {
            GameEvent::PartyMemberLeave(left)
        });
        events.push(GameEvent::PartyList {
            members: self.members.clone(),
        });
    }

    pub(crate) fn leave(&mut self, events: &mut Vec<GameEvent>) {
        self.reset();
        events.push(GameEvent::PartyLeave);
    }

    /// A user came into sight: a member's game id may have changed.
    pub(crate) fn spawn_user(
        &mut self,
        server_id: u32,
        player_id: u32,
        game_id: u64,
        events: &mut Vec<GameEvent>,
    ) {
        let mut fixed = false;
        for m in &mut self.members {
            if m.server_id == server_id && m.player_id == player_id && m.game_id != game_id {
                m.game_id = game_id;
                fixed = true;
            }
        }
        if fixed {
            events.push(GameEvent::PartyList {
                members: self.members.clone(),
            });
        }
    }
}
