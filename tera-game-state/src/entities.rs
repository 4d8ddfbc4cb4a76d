//! The users, NPCs and gathering nodes in sight (past tera-game-state).

use std::collections::HashMap;

use tera_packets::{Angle, Vec3};

use crate::entity_kind::EntityKind;
use crate::event::GameEvent;

/// An entity in sight.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// Its game id.
    pub game_id: u64,
    /// What it is.
    pub kind: EntityKind,
    /// Its template: a user's `templateId`, an NPC's `templateId`, a
    /// node's `id`.
    pub template_id: i64,
    /// An NPC's hunting zone (0 for others).
    pub hunting_zone_id: u32,
    /// A user's server and player id.
    pub user: Option<(u32, u32)>,
    /// A user's name.
    pub name: Option<String>,
    /// Where it was last seen.
    pub loc: Vec3,
    /// Its heading.
    pub w: Angle,
    /// Where it was last heading to.
    pub dest: Option<Vec3>,
    /// Alive, as far as the packets said.
    pub alive: bool,
    /// HP and maximum HP, when a packet said them.
    pub hp: Option<(i64, i64)>,
    /// An NPC's relation to the player (`S_SPAWN_NPC`'s `relation`).
    pub relation: i32,
}

impl Entity {
    pub(crate) fn new(game_id: u64, kind: EntityKind, loc: Vec3, w: Angle) -> Self {
        Entity {
            game_id,
            kind,
            template_id: 0,
            hunting_zone_id: 0,
            user: None,
            name: None,
            loc,
            w,
            dest: None,
            alive: true,
            hp: None,
            relation: 0,
        }
    }
}

/// The entities in sight, by game id.
#[derive(Debug, Clone, Default)]
pub struct Entities {
    by_id: HashMap<u64, Entity>,
}

impl Entities {
    /// The entity `game_id`, if in sight.
    #[must_use]
    pub fn get(&self, game_id: u64) -> Option<&Entity> {
        self.by_id.get(&game_id)
    }

    /// Every entity in sight, in no order.
    pub fn iter(&self) -> impl Iterator<Item = &Entity> + '_ {
        self.by_id.values()
    }

    /// The entities of one kind.
    pub fn of_kind(&self, kind: EntityKind) -> impl Iterator<Item = &Entity> + '_ {
        self.iter().filter(move |e| e.kind == kind)
    }

    /// How many are in sight.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// None in sight.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Everything leaves sight (a new zone), without events.
    pub(crate) fn reset(&mut self) {
        self.by_id.clear();
    }

    pub(crate) fn spawn(&mut self, entity: Entity, events: &mut Vec<GameEvent>) {
        let (game_id, kind) = (entity.game_id, entity.kind);
        self.by_id.insert(game_id, entity);
        events.push(GameEvent::Spawn { game_id, kind });
    }

    pub(crate) fn despawn(&mut self, game_id: u64, events: &mut Vec<GameEvent>) {
        if let Some(e) = self.by_id.remove(&game_id) {
            events.push(GameEvent::Despawn {
                game_id,
                kind: e.kind,
            });
        }
    }

    pub(crate) fn moved(&mut self, game_id: u64, loc: Vec3, w: Angle, dest: Option<Vec3>) {
        if let Some(e) = self.by_id.get_mut(&game_id) {
            e.loc = loc;
            e.w = w;
            e.dest = dest;
        }
    }

    pub(crate) fn hp(&mut self, game_id: u64, hp: i64, max_hp: i64, events: &mut Vec<GameEvent>) {
        if let Some(e) = self.by_id.get_mut(&game_id) {
            e.hp = Some((hp, max_hp));
            events.push(GameEvent::Hp {
                game_id,
                hp,
                max_hp,
            });
        }
    }

    pub(crate) fn life(
        &mut self,
        game_id: u64,
        alive: bool,
        loc: Vec3,
        events: &mut Vec<GameEvent>,
    ) {
        if let Some(e) = self.by_id.get_mut(&game_id) {
            e.loc = loc;
            if e.alive != alive {
                e.alive = alive;
                events.push(GameEvent::Life { game_id, alive });
            }
        }
    }
}
