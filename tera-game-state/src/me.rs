//! `me`: the player's character while in game.

use std::collections::HashMap;
use std::sync::Arc;

use crate::class::{ChannelType, Class, Gender, Race};
use crate::clock::Clock;
use crate::data::GameData;
use crate::event::GameEvent;
use crate::rows::AbnormalityData;

/// The player's character (tera-game-state's `mod.game.me`). Every
/// property is `None` until a packet has said it, and again after leaving
/// the game.
#[derive(Debug, Clone, Default)]
pub struct Me {
    game_id: Option<u64>,
    player_id: Option<u32>,
    server_id: Option<u32>,
    template_id: Option<i32>,
    class: Option<Class>,
    race: Option<Race>,
    gender: Option<Gender>,
    name: Option<String>,
    level: Option<u32>,
    zone: Option<i32>,
    channel: Option<ChannelType>,
    alive: Option<bool>,
    mount: Option<(u32, u32)>,
    status: Option<i32>,
    abnormalities: Option<HashMap<u32, Abnormality>>,
    connection: Connection,
}

/// What `me` knows of the connection, kept when leaving the game: its
/// server, its clock and the data center.
#[derive(Debug, Clone, Default)]
pub(crate) struct Connection {
    pub server_id: Option<u32>,
    pub clock: Clock,
    pub data: Arc<GameData>,
}

/// An abnormality on the player (`me.abnormalities[id]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Abnormality {
    /// The abnormality.
    pub id: u32,
    /// Its stacks.
    pub stacks: i32,
    /// When it ends (`until`), in wall-clock milliseconds since the Unix
    /// epoch (JavaScript's `Date.now()`): when the packet arrived by
    /// [`GameConfig::clock`](crate::GameConfig::clock), plus its duration.
    pub until: i64,
    /// Its data center row (`data`), when a data center was given and has
    /// it.
    pub data: Option<Arc<AbnormalityData>>,
}

impl Abnormality {
    /// Milliseconds left at `now_ms` (`remaining`; read the time with
    /// [`GameState::now_ms`](crate::GameState::now_ms)), zero once ended.
    /// An abnormality stays until `S_ABNORMALITY_END`, ended or not, as in
    /// tera-game-state.
    #[must_use]
    pub fn remaining(&self, now_ms: i64) -> i64 {
        self.until.saturating_sub(now_ms).max(0)
    }
}

impl Me {
    /// `gameId`: constant until logging out or returning to the lobby.
    #[must_use]
    pub fn game_id(&self) -> Option<u64> {
        self.game_id
    }

    /// `playerId`: the character on its server.
    #[must_use]
    pub fn player_id(&self) -> Option<u32> {
        self.player_id
    }

    /// `serverId`: the server played on. As tera-game-state, the
    /// connection's ([`GameConfig::server_id`](crate::GameConfig::server_id),
    /// toolbox's `mod.serverId`), before login and after leaving too;
    /// without one, the server `S_LOGIN` named while in game.
    #[must_use]
    pub fn server_id(&self) -> Option<u32> {
        self.connection.server_id.or(self.server_id)
    }

    /// `templateId` (see `UserData` in the data center).
    #[must_use]
    pub fn template_id(&self) -> Option<i32> {
        self.template_id
    }

    /// `class`, by the data center's names.
    #[must_use]
    pub fn class(&self) -> Option<Class> {
        self.class
    }

    /// `race`.
    #[must_use]
    pub fn race(&self) -> Option<Race> {
        self.race
    }

    /// `gender`.
    #[must_use]
    pub fn gender(&self) -> Option<Gender> {
        self.gender
    }

    /// `name`.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `level`.
    #[must_use]
    pub fn level(&self) -> Option<u32> {
        self.level
    }

    /// `zone`.
    #[must_use]
    pub fn zone(&self) -> Option<i32> {
        self.zone
    }

    /// The zone's channel type, when the data center says it.
    #[must_use]
    pub fn channel_type(&self) -> Option<ChannelType> {
        self.channel
    }

    /// `alive`.
    #[must_use]
    pub fn alive(&self) -> Option<bool> {
        self.alive
    }

    /// `mounted`: on a vehicle (tera-game-state's `!!mountId`: a vehicle
    /// id 0 is none).
    #[must_use]
    pub fn mounted(&self) -> bool {
        self.mount.is_some_and(|(id, _)| id != 0)
    }

    /// `mountId`.
    #[must_use]
    pub fn mount_id(&self) -> Option<u32> {
        self.mount.map(|m| m.0)
    }

    /// `mountSkill`.
    #[must_use]
    pub fn mount_skill(&self) -> Option<u32> {
        self.mount.map(|m| m.1)
    }

    /// `status` (as `S_USER_STATUS`: 1 in combat, 3 on a pegasus).
    #[must_use]
    pub fn status(&self) -> Option<i32> {
        self.status
    }

    /// `inCombat`.
    #[must_use]
    pub fn in_combat(&self) -> bool {
        self.status == Some(1)
    }

    /// `onPegasus`.
    #[must_use]
    pub fn on_pegasus(&self) -> bool {
        self.status == Some(3)
    }

    /// `inOpenWorld`: the zone's channel type is `none`, `field` or
    /// `channelingZone` (`None` when the channel type is unknown).
    #[must_use]
    pub fn in_open_world(&self) -> Option<bool> {
        self.channel.map(|c| {
            matches!(
                c,
                ChannelType::None | ChannelType::Field | ChannelType::ChannelingZone
            )
        })
    }

    /// `inDungeon`.
    #[must_use]
    pub fn in_dungeon(&self) -> Option<bool> {
        self.channel.map(|c| c == ChannelType::Dungeon)
    }

    /// `inBattleground`.
    #[must_use]
    pub fn in_battleground(&self) -> Option<bool> {
        self.channel.map(|c| c == ChannelType::BattleField)
    }

    /// `inCivilUnrest`.
    #[must_use]
    pub fn in_civil_unrest(&self) -> Option<bool> {
        self.channel.map(|c| c == ChannelType::CityWar)
    }

    /// `is(gameId)`: whether `game_id` is the player's (false when not in
    /// game).
    #[must_use]
    pub fn is(&self, game_id: u64) -> bool {
        self.game_id == Some(game_id)
    }

    /// `abnormalities` (the `me.abnormalities` feature; `None` when off).
    #[must_use]
    pub fn abnormalities(&self) -> Option<&HashMap<u32, Abnormality>> {
        self.abnormalities.as_ref()
    }

    /// The abnormality `id` on the player, if the feature is on and it is.
    #[must_use]
    pub fn abnormality(&self, id: u32) -> Option<&Abnormality> {
        self.abnormalities.as_ref()?.get(&id)
    }

    pub(crate) fn track_abnormalities(&mut self) {
        self.abnormalities.get_or_insert_with(HashMap::new);
    }

    pub(crate) fn connect(&mut self, connection: Connection) {
        self.connection = connection;
    }

    pub(crate) fn clock(&self) -> &Clock {
        &self.connection.clock
    }

    /// Forgets everything (leaving the game), keeping features on and the
    /// connection.
    pub(crate) fn reset(&mut self) {
        let abnormalities = self.abnormalities.take().map(|_| HashMap::new());
        let connection = std::mem::take(&mut self.connection);
        *self = Me {
            abnormalities,
            connection,
            ..Me::default()
        };
    }

    /// `S_LOGIN`. A template the data center lacks stops it after the ids
    /// and the template id, as tera-game-state's hook throws there
    /// (`Invalid user template ID`): name, level, status and life keep
    /// what they were, and no `change_template` is emitted.
    pub(crate) fn login(&mut self, login: Login<'_>, data: &GameData, events: &mut Vec<GameEvent>) {
        self.game_id = Some(login.game_id);
        self.player_id = Some(login.player_id);
        self.server_id = Some(login.server_id);
        if !self.set_template(login.template_id, data, events) {
            return;
        }
        self.set_name(login.name, events);
        self.set_level(u32::from(login.level), events);
        self.set_status(login.status, events);
        self.set_alive(login.alive, events);
    }

    /// A new template: false when the data center lacks it (the template
    /// id is kept, class, race and gender are not changed, nothing is
    /// emitted: tera-game-state throws there).
    pub(crate) fn set_template(
        &mut self,
        template_id: i32,
        data: &GameData,
        events: &mut Vec<GameEvent>,
    ) -> bool {
        if self.template_id == Some(template_id) {
            return true;
        }
        self.template_id = Some(template_id);
        let Some(template) = data.template(template_id) else {
            return false;
        };
        self.class = template.class;
        self.race = template.race;
        self.gender = template.gender;
        events.push(GameEvent::ChangeTemplate {
            template_id,
            class: self.class,
            race: self.race,
            gender: self.gender,
        });
        true
    }

    pub(crate) fn set_zone(
        &mut self,
        zone: i32,
        quick: bool,
        data: &GameData,
        events: &mut Vec<GameEvent>,
    ) {
        if self.zone != Some(zone) {
            self.zone = Some(zone);
            self.channel = data.channel_type(zone);
            events.push(GameEvent::ChangeZone { zone, quick });
        }
    }

    pub(crate) fn set_alive(&mut self, alive: bool, events: &mut Vec<GameEvent>) {
        let old = self.alive.replace(alive);
        if old.is_some_and(|old| old != alive) {
            events.push(if alive {
                GameEvent::Resurrect
            } else {
                GameEvent::Die
            });
        }
    }

    pub(crate) fn set_mount(&mut self, mount: Option<(u32, u32)>, events: &mut Vec<GameEvent>) {
        if self.mount == mount {
            return;
        }
        self.mount = mount;
        // As tera-game-state, which says `dismount` whenever the new vehicle
        // id is falsy.
        events.push(match mount {
            Some((id, skill)) if id != 0 => GameEvent::Mount { id, skill },
            _ => GameEvent::Dismount,
        });
    }

    pub(crate) fn set_name(&mut self, name: &str, events: &mut Vec<GameEvent>) {
        if self.name.as_deref() == Some(name) {
            return;
        }
        let old = self.name.replace(name.to_owned());
        if old.is_some() {
            events.push(GameEvent::ChangeName {
                name: name.to_owned(),
            });
        }
    }

    pub(crate) fn set_level(&mut self, level: u32, events: &mut Vec<GameEvent>) {
        let old = self.level.replace(level);
        if old.is_some_and(|old| old != level) {
            events.push(GameEvent::ChangeLevel { level });
        }
    }

    pub(crate) fn set_status(&mut self, status: i32, events: &mut Vec<GameEvent>) {
        let old = self.status.replace(status);
        if old == Some(status) {
            return;
        }
        match old {
            Some(1) => events.push(GameEvent::LeaveCombat),
            Some(3) => events.push(GameEvent::FinishPegasus),
            _ => {}
        }
        match status {
            1 => events.push(GameEvent::EnterCombat),
            3 => events.push(GameEvent::StartPegasus),
            _ => {}
        }
    }

    pub(crate) fn abnormality_begin(
        &mut self,
        id: u32,
        stacks: i32,
        duration: i64,
        refresh: bool,
        events: &mut Vec<GameEvent>,
    ) {
        let Some(abnormalities) = self.abnormalities.as_mut() else {
            return;
        };
        let until = self.connection.clock.now_ms().saturating_add(duration);
        let data = self.connection.data.abnormality(id).cloned();
        abnormalities.insert(
            id,
            Abnormality {
                id,
                stacks,
                until,
                data,
            },
        );
        events.push(if refresh {
            GameEvent::AbnormalityRefresh {
                id,
                stacks,
                duration,
            }
        } else {
            GameEvent::AbnormalityBegin {
                id,
                stacks,
                duration,
            }
        });
    }

    pub(crate) fn abnormality_end(&mut self, id: u32, events: &mut Vec<GameEvent>) {
        if let Some(abnormalities) = self.abnormalities.as_mut()
            && abnormalities.remove(&id).is_some()
        {
            events.push(GameEvent::AbnormalityEnd { id });
        }
    }
}

/// What `S_LOGIN` says of the player.
pub(crate) struct Login<'a> {
    pub game_id: u64,
    pub player_id: u32,
    pub server_id: u32,
    pub template_id: i32,
    pub name: &'a str,
    pub level: u16,
    pub status: i32,
    pub alive: bool,
}
