//! What each packet game state reads does to the state, by meaning: the
//! readers of the routing table (compiled-in defs, or defs loaded at run
//! time) call these with the fields they read, whatever the def version.

use std::sync::Arc;

use tera_packets::{Angle, Vec3};

use crate::entities::Entity;
use crate::entity_kind::EntityKind;
use crate::event::{ContractEnd, PerkChange};
use crate::game::GameState;
use crate::inventory::ItemList;
use crate::me::Login;
use crate::member::PartyMember;
use crate::session::SessionState;
use crate::submodule::Submodules;

/// An NPC that appears (`S_SPAWN_NPC`): the fields game state keeps.
pub(crate) struct NpcSpawn {
    pub game_id: u64,
    pub loc: Vec3,
    pub w: Angle,
    pub template_id: u32,
    pub hunting_zone_id: u32,
    pub relation: i32,
    /// `status` 4 is dead.
    pub status: i16,
}

/// A user in sight (`S_SPAWN_USER`): who, where, and the name.
pub(crate) struct UserSpawn {
    pub server_id: u32,
    pub player_id: u32,
    pub game_id: u64,
    pub template_id: i32,
    pub loc: Vec3,
    pub w: Angle,
    pub alive: bool,
    pub name: String,
}

impl GameState {
    fn on(&self, submodule: Submodules) -> bool {
        self.enabled.contains(submodule)
    }

    /// `C_LOGIN_ARBITER`: the account's name and language.
    pub(crate) fn arbiter(&mut self, language: u32, account_name: String) {
        self.session.language = Some(language);
        self.session.account_name = Some(account_name);
    }

    /// `S_LOGIN_ACCOUNT_INFO`.
    pub(crate) fn account_info(&mut self, account_id: u64) {
        self.session.account_id = Some(account_id);
    }

    /// `S_GET_USER_LIST`.
    pub(crate) fn user_list(&mut self) {
        self.set_state(SessionState::CharacterLobby);
    }

    /// `S_RETURN_TO_LOBBY`.
    pub(crate) fn return_to_lobby(&mut self) {
        self.set_state(SessionState::CharacterLobby);
        self.session.tba = false;
    }

    /// `S_EXIT`.
    pub(crate) fn exit(&mut self) {
        self.set_state(SessionState::Invalid);
    }

    /// `S_SELECT_USER` (`tba` false) or `S_TBA_SELECT_USER` (true).
    pub(crate) fn select_user(&mut self, tba: bool) {
        self.session.tba = tba;
    }

    /// `S_LOGIN`: the player enters the game.
    pub(crate) fn login(&mut self, login: Login<'_>) {
        let data = Arc::clone(&self.data);
        let from = self.events.len();
        self.me.login(login, &data, &mut self.events);
        self.contract_follows_life(from);
        self.set_loading_screen(true);
        self.set_state(SessionState::InGame);
    }

    /// `S_LOAD_TOPO`: a new zone, behind a loading screen.
    pub(crate) fn load_topo(&mut self, zone: i32, quick: bool, loc: Vec3) {
        self.me.set_mount(None, &mut self.events);
        let data = Arc::clone(&self.data);
        self.me.set_zone(zone, quick, &data, &mut self.events);
        self.set_loading_screen(true);
        self.position.moved(loc, None, None);
        self.entities.reset();
    }

    /// `S_SPAWN_ME`: the loading screen ends.
    pub(crate) fn spawn_me(&mut self, game_id: u64, loc: Vec3, w: Angle, alive: bool) {
        self.set_alive(alive);
        self.set_loading_screen(false);
        if self.on(Submodules::POSITION) && self.me.is(game_id) {
            self.position.moved(loc, Some(w), None);
        }
    }

    /// `TTB_S_CHANGE_HERO`.
    pub(crate) fn change_hero(&mut self, game_id: u64, template_id: u32) {
        if self.me.is(game_id) {
            let data = Arc::clone(&self.data);
            let template = i32::try_from(template_id).unwrap_or(i32::MAX);
            self.me.set_template(template, &data, &mut self.events);
        }
    }

    /// `S_CREATURE_LIFE`: the player's or an entity's.
    pub(crate) fn creature_life(&mut self, game_id: u64, alive: bool, loc: Vec3) {
        if self.me.is(game_id) {
            self.set_alive(alive);
        } else if self.on(Submodules::ENTITIES) {
            self.entities.life(game_id, alive, loc, &mut self.events);
        }
    }

    /// `S_MOUNT_VEHICLE` (`Some((id, skill))`) and `S_UNMOUNT_VEHICLE`.
    pub(crate) fn mount(&mut self, game_id: u64, mount: Option<(u32, u32)>) {
        if self.me.is(game_id) {
            self.me.set_mount(mount, &mut self.events);
        }
    }

    /// `S_USER_CHANGE_NAME`.
    pub(crate) fn change_name(&mut self, game_id: u64, name: &str) {
        if self.me.is(game_id) {
            self.me.set_name(name, &mut self.events);
        }
    }

    /// `S_USER_LEVELUP`.
    pub(crate) fn level_up(&mut self, game_id: u64, level: u32) {
        if self.me.is(game_id) {
            self.me.set_level(level, &mut self.events);
        }
    }

    /// `S_USER_STATUS`.
    pub(crate) fn user_status(&mut self, game_id: u64, status: i32) {
        if self.me.is(game_id) {
            self.me.set_status(status, &mut self.events);
        }
    }

    /// `S_ABNORMALITY_BEGIN` (`refresh` false) and `S_ABNORMALITY_REFRESH`.
    pub(crate) fn abnormality(
        &mut self,
        target: u64,
        id: u32,
        stacks: i32,
        duration: i64,
        refresh: bool,
    ) {
        if self.me.is(target) {
            self.me
                .abnormality_begin(id, stacks, duration, refresh, &mut self.events);
        }
    }

    /// `S_ABNORMALITY_END`.
    pub(crate) fn abnormality_end(&mut self, target: u64, id: u32) {
        if self.me.is(target) {
            self.me.abnormality_end(id, &mut self.events);
        }
    }

    /// `S_PARTY_MEMBER_LIST`.
    pub(crate) fn party_list(&mut self, members: Vec<PartyMember>) {
        self.party.set_list(members, &mut self.events);
    }

    /// `S_LEAVE_PARTY_MEMBER` (`ban` false) and `S_BAN_PARTY_MEMBER`.
    pub(crate) fn party_remove(&mut self, server_id: u32, player_id: u32, name: &str, ban: bool) {
        self.party
            .remove(server_id, player_id, name, ban, &mut self.events);
    }

    /// `S_LEAVE_PARTY`.
    pub(crate) fn party_leave(&mut self) {
        self.party.leave(&mut self.events);
    }

    /// `S_SPAWN_USER`: a party member in sight, and an entity.
    pub(crate) fn spawn_user(&mut self, user: UserSpawn) {
        if self.on(Submodules::PARTY) {
            self.party.spawn_user(
                user.server_id,
                user.player_id,
                user.game_id,
                &mut self.events,
            );
        }
        if self.on(Submodules::ENTITIES) {
            let mut entity = Entity::new(user.game_id, EntityKind::User, user.loc, user.w);
            entity.template_id = i64::from(user.template_id);
            entity.user = Some((user.server_id, user.player_id));
            entity.name = Some(user.name);
            entity.alive = user.alive;
            self.entities.spawn(entity, &mut self.events);
        }
    }

    /// `S_INVEN_USERDATA`.
    pub(crate) fn inventory_user_data(
        &mut self,
        game_id: u64,
        item_level: f32,
        item_level_inventory: f32,
        tcat: i64,
    ) {
        if self.me.is(game_id) {
            self.inventory
                .user_data(item_level, item_level_inventory, tcat);
        }
    }

    /// `S_ITEMLIST`: one part of a container's items.
    pub(crate) fn item_list(&mut self, game_id: u64, list: ItemList) {
        if self.me.is(game_id) {
            self.inventory.item_list(list, &mut self.events);
        }
    }

    /// `S_REQUEST_CONTRACT`.
    pub(crate) fn contract_begin(&mut self, kind: i32, id: i32) {
        self.contract.begin(kind, id, &mut self.events);
    }

    /// `S_ACCEPT_CONTRACT`, `S_REJECT_CONTRACT`, `S_CANCEL_CONTRACT`.
    pub(crate) fn contract_end(&mut self, how: ContractEnd) {
        self.contract.end(how, &mut self.events);
    }

    /// `S_CREST_INFO`: every glyph and whether it is on.
    pub(crate) fn crests(&mut self, known: impl IntoIterator<Item = (i32, bool)>) {
        self.glyphs.set_all(known, &mut self.events);
    }

    /// `S_CREST_APPLY`.
    pub(crate) fn crest_apply(&mut self, id: i32, enable: bool) {
        self.glyphs.apply(id, enable, &mut self.events);
    }

    /// `S_LOAD_EP_INFO`, `S_LEARN_EP_PERK`, `TTB_S_LOAD_EP_PAGE`,
    /// `S_RESET_EP_PERK`: perks and their levels.
    pub(crate) fn perks(&mut self, perks: impl IntoIterator<Item = (u32, u32)>, how: PerkChange) {
        self.talents.set(perks, how, &mut self.events);
    }

    /// The player's own movement (`C_PLAYER_LOCATION`,
    /// `C_NOTIFY_LOCATION_IN_*`).
    pub(crate) fn player_moved(&mut self, loc: Vec3, w: Angle, dest: Option<Vec3>) {
        self.position.moved(loc, Some(w), dest);
    }

    /// The server placed `game_id` (`S_INSTANT_MOVE`, `S_INSTANT_DASH`:
    /// `correction`; `S_ACTION_END`): the player or an entity in sight.
    pub(crate) fn moved_by_server(&mut self, game_id: u64, loc: Vec3, w: Angle, correction: bool) {
        if self.me.is(game_id) {
            if !self.on(Submodules::POSITION) {
                return;
            }
            if correction {
                self.position.corrected(loc, w, &mut self.events);
            } else {
                self.position.moved(loc, Some(w), None);
            }
        } else if self.on(Submodules::ENTITIES) {
            self.entities.moved(game_id, loc, w, None);
        }
    }

    /// An entity moves towards `dest` (`S_USER_LOCATION`,
    /// `S_NPC_LOCATION`).
    pub(crate) fn entity_moved(&mut self, game_id: u64, loc: Vec3, w: Angle, dest: Vec3) {
        self.entities.moved(game_id, loc, w, Some(dest));
    }

    /// `S_DESPAWN_USER`, `S_DESPAWN_NPC`, `S_DESPAWN_COLLECTION`.
    pub(crate) fn despawn(&mut self, game_id: u64) {
        self.entities.despawn(game_id, &mut self.events);
    }

    /// `S_SPAWN_NPC`.
    pub(crate) fn spawn_npc(&mut self, spawn: NpcSpawn) {
        let mut npc = Entity::new(spawn.game_id, EntityKind::Npc, spawn.loc, spawn.w);
        npc.template_id = i64::from(spawn.template_id);
        npc.hunting_zone_id = spawn.hunting_zone_id;
        npc.relation = spawn.relation;
        npc.alive = spawn.status != 4;
        self.entities.spawn(npc, &mut self.events);
    }

    /// `S_SPAWN_COLLECTION`: a gathering node.
    pub(crate) fn spawn_collection(&mut self, game_id: u64, id: i32, loc: Vec3, w: Angle) {
        let mut node = Entity::new(game_id, EntityKind::Collection, loc, w);
        node.template_id = i64::from(id);
        self.entities.spawn(node, &mut self.events);
    }

    /// `S_CREATURE_CHANGE_HP`, `S_BOSS_GAGE_INFO`.
    pub(crate) fn entity_hp(&mut self, game_id: u64, hp: i64, max_hp: i64) {
        self.entities.hp(game_id, hp, max_hp, &mut self.events);
    }
}
