//! Packets to state: each packet game state reads, decoded at its def
//! version and handed to the submodules it feeds.

use tera_data::Packet;
use tera_data::packets::{
    c_login_arbiter, c_notify_location_in_action, c_notify_location_in_dash, c_player_location,
    s_abnormality_begin, s_abnormality_end, s_abnormality_refresh, s_action_end,
    s_ban_party_member, s_boss_gage_info, s_creature_change_hp, s_creature_life, s_crest_apply,
    s_crest_info, s_despawn_collection, s_despawn_npc, s_despawn_user, s_instant_dash,
    s_instant_move, s_inven_userdata, s_itemlist, s_learn_ep_perk, s_leave_party_member,
    s_load_ep_info, s_load_topo, s_login, s_login_account_info, s_mount_vehicle, s_npc_location,
    s_party_member_list, s_request_contract, s_reset_ep_perk, s_spawn_collection, s_spawn_me,
    s_spawn_npc, s_spawn_user, s_unmount_vehicle, s_user_change_name, s_user_levelup,
    s_user_location, s_user_status, ttb_s_change_hero, ttb_s_load_ep_page,
};
use tera_packets::{Angle, Vec3};

use crate::entities::Entity;
use crate::entity_kind::EntityKind;
use crate::event::{ContractEnd, PerkChange};
use crate::game::GameState;
use crate::me::Login;
use crate::member::PartyMember;
use crate::session::SessionState;
use crate::submodule::Submodules;
use crate::table::Kind;

type Result = std::result::Result<(), tera_packets::Error>;

/// `S_LOGIN.14` and `.15` differ after the fields game state reads.
macro_rules! login {
    ($game:expr, $p:expr) => {{
        let p = $p;
        let name = p.name.to_string_lossy();
        let data = std::sync::Arc::clone(&$game.data);
        let from = $game.events.len();
        $game.me.login(
            Login {
                game_id: p.game_id,
                player_id: p.player_id,
                server_id: p.server_id,
                template_id: p.template_id,
                name: &name,
                level: p.level,
                status: p.status,
                alive: p.alive,
            },
            &data,
            &mut $game.events,
        );
        $game.contract_follows_life(from);
        $game.set_loading_screen(true);
        $game.set_state(SessionState::InGame);
    }};
}

impl GameState {
    pub(crate) fn dispatch(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::CLoginArbiter2
            | Kind::SLoginAccountInfo3
            | Kind::SGetUserList
            | Kind::SReturnToLobby
            | Kind::SExit
            | Kind::SSelectUser
            | Kind::STbaSelectUser
            | Kind::SLogin14
            | Kind::SLogin15
            | Kind::SLoadTopo3
            | Kind::SSpawnMe3 => self.session_packet(kind, packet),
            Kind::TtbSChangeHero1
            | Kind::SCreatureLife3
            | Kind::SMountVehicle2
            | Kind::SUnmountVehicle2
            | Kind::SUserChangeName1
            | Kind::SUserLevelup2
            | Kind::SUserStatus4
            | Kind::SAbnormalityBegin5
            | Kind::SAbnormalityRefresh1
            | Kind::SAbnormalityRefresh2
            | Kind::SAbnormalityEnd1 => self.me_packet(kind, packet),
            Kind::SPartyMemberList9
            | Kind::SLeavePartyMember2
            | Kind::SBanPartyMember1
            | Kind::SLeaveParty
            | Kind::SSpawnUser16
            | Kind::SSpawnUser17 => self.party_packet(kind, packet),
            Kind::SInvenUserdata2 | Kind::SItemlist6 | Kind::SItemlist7 => {
                self.inventory_packet(kind, packet)
            }
            Kind::SRequestContract2
            | Kind::SAcceptContract
            | Kind::SRejectContract
            | Kind::SCancelContract
            | Kind::SCrestInfo2
            | Kind::SCrestApply2
            | Kind::SLoadEpInfo3
            | Kind::SLearnEpPerk1
            | Kind::TtbSLoadEpPage1
            | Kind::SResetEpPerk1 => self.contract_glyphs_talents(kind, packet),
            Kind::CPlayerLocation5
            | Kind::CNotifyLocationInAction4
            | Kind::CNotifyLocationInDash4
            | Kind::SInstantMove3
            | Kind::SInstantDash3
            | Kind::SActionEnd5 => self.position_packet(kind, packet),
            Kind::SDespawnUser3
            | Kind::SUserLocation6
            | Kind::SSpawnNpc12
            | Kind::SDespawnNpc3
            | Kind::SNpcLocation3
            | Kind::SSpawnCollection4
            | Kind::SDespawnCollection2
            | Kind::SCreatureChangeHp6
            | Kind::SBossGageInfo3 => self.entity_packet(kind, packet),
        }
    }

    fn on(&self, submodule: Submodules) -> bool {
        self.enabled.contains(submodule)
    }

    fn session_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::CLoginArbiter2 => {
                let p = c_login_arbiter::V2::decode(packet)?;
                self.session.language = Some(p.language);
                self.session.account_name = Some(p.name.to_string_lossy());
            }
            Kind::SLoginAccountInfo3 => {
                let p = s_login_account_info::V3::decode(packet)?;
                self.session.account_id = Some(p.account_id);
            }
            Kind::SGetUserList => self.set_state(SessionState::CharacterLobby),
            Kind::SReturnToLobby => {
                self.set_state(SessionState::CharacterLobby);
                self.session.tba = false;
            }
            Kind::SExit => self.set_state(SessionState::Invalid),
            Kind::SSelectUser => self.session.tba = false,
            Kind::STbaSelectUser => self.session.tba = true,
            Kind::SLogin14 => login!(self, s_login::V14::decode(packet)?),
            Kind::SLogin15 => login!(self, s_login::V15::decode(packet)?),
            Kind::SLoadTopo3 => {
                let p = s_load_topo::V3::decode(packet)?;
                self.me.set_mount(None, &mut self.events);
                let data = std::sync::Arc::clone(&self.data);
                self.me.set_zone(p.zone, p.quick, &data, &mut self.events);
                self.set_loading_screen(true);
                self.position.moved(p.loc, None, None);
                self.entities.reset();
            }
            Kind::SSpawnMe3 => {
                let p = s_spawn_me::V3::decode(packet)?;
                self.set_alive(p.alive);
                self.set_loading_screen(false);
                if self.on(Submodules::POSITION) && self.me.is(p.game_id) {
                    self.position.moved(p.loc, Some(p.w), None);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn me_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::TtbSChangeHero1 => {
                let p = ttb_s_change_hero::V1::decode(packet)?;
                if self.me.is(p.game_id) {
                    let data = std::sync::Arc::clone(&self.data);
                    let template = i32::try_from(p.template_id).unwrap_or(i32::MAX);
                    self.me.set_template(template, &data, &mut self.events);
                }
            }
            Kind::SCreatureLife3 => {
                let p = s_creature_life::V3::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.set_alive(p.alive);
                } else if self.on(Submodules::ENTITIES) {
                    self.entities
                        .life(p.game_id, p.alive, p.loc, &mut self.events);
                }
            }
            Kind::SMountVehicle2 => {
                let p = s_mount_vehicle::V2::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.me.set_mount(Some((p.id, p.skill)), &mut self.events);
                }
            }
            Kind::SUnmountVehicle2 => {
                let p = s_unmount_vehicle::V2::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.me.set_mount(None, &mut self.events);
                }
            }
            Kind::SUserChangeName1 => {
                let p = s_user_change_name::V1::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.me
                        .set_name(&p.name.to_string_lossy(), &mut self.events);
                }
            }
            Kind::SUserLevelup2 => {
                let p = s_user_levelup::V2::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.me.set_level(p.level, &mut self.events);
                }
            }
            Kind::SUserStatus4 => {
                let p = s_user_status::V4::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.me.set_status(p.status, &mut self.events);
                }
            }
            Kind::SAbnormalityBegin5 => {
                let p = s_abnormality_begin::V5::decode(packet)?;
                if self.me.is(p.target) {
                    self.me
                        .abnormality_begin(p.id, p.stacks, p.duration, false, &mut self.events);
                }
            }
            Kind::SAbnormalityRefresh1 => {
                let p = s_abnormality_refresh::V1::decode(packet)?;
                if self.me.is(p.target) {
                    let duration = i64::from(p.duration);
                    self.me
                        .abnormality_begin(p.id, p.stacks, duration, true, &mut self.events);
                }
            }
            Kind::SAbnormalityRefresh2 => {
                let p = s_abnormality_refresh::V2::decode(packet)?;
                if self.me.is(p.target) {
                    self.me
                        .abnormality_begin(p.id, p.stacks, p.duration, true, &mut self.events);
                }
            }
            Kind::SAbnormalityEnd1 => {
                let p = s_abnormality_end::V1::decode(packet)?;
                if self.me.is(p.target) {
                    self.me.abnormality_end(p.id, &mut self.events);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn party_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::SPartyMemberList9 => {
                let p = s_party_member_list::V9::decode(packet)?;
                let members = p
                    .members
                    .iter()
                    .map(|m| PartyMember {
                        game_id: m.game_id,
                        player_id: m.player_id,
                        server_id: m.server_id,
                        name: m.name.to_string_lossy(),
                        class: m.class,
                    })
                    .collect();
                self.party.set_list(members, &mut self.events);
            }
            Kind::SLeavePartyMember2 => {
                let p = s_leave_party_member::V2::decode(packet)?;
                let name = p.name.to_string_lossy();
                self.party
                    .remove(p.server_id, p.player_id, &name, false, &mut self.events);
            }
            Kind::SBanPartyMember1 => {
                let p = s_ban_party_member::V1::decode(packet)?;
                let name = p.name.to_string_lossy();
                self.party
                    .remove(p.server_id, p.player_id, &name, true, &mut self.events);
            }
            Kind::SLeaveParty => self.party.leave(&mut self.events),
            Kind::SSpawnUser16 => {
                let p = s_spawn_user::V16::decode(packet)?;
                let user = (p.server_id, p.player_id, p.game_id, p.template_id);
                self.spawn_user(user, (p.loc, p.w, p.alive), &p.name.to_string_lossy());
            }
            Kind::SSpawnUser17 => {
                let p = s_spawn_user::V17::decode(packet)?;
                let user = (p.server_id, p.player_id, p.game_id, p.template_id);
                self.spawn_user(user, (p.loc, p.w, p.alive), &p.name.to_string_lossy());
            }
            _ => {}
        }
        Ok(())
    }

    fn spawn_user(
        &mut self,
        (server_id, player_id, game_id, template_id): (u32, u32, u64, i32),
        (loc, w, alive): (Vec3, Angle, bool),
        name: &str,
    ) {
        if self.on(Submodules::PARTY) {
            self.party
                .spawn_user(server_id, player_id, game_id, &mut self.events);
        }
        if self.on(Submodules::ENTITIES) {
            let mut user = Entity::new(game_id, EntityKind::User, loc, w);
            user.template_id = i64::from(template_id);
            user.user = Some((server_id, player_id));
            user.name = Some(name.to_owned());
            user.alive = alive;
            self.entities.spawn(user, &mut self.events);
        }
    }

    fn inventory_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::SInvenUserdata2 => {
                let p = s_inven_userdata::V2::decode(packet)?;
                if self.me.is(p.game_id) {
                    self.inventory
                        .user_data(p.item_level, p.item_level_inventory, p.tcat);
                }
            }
            Kind::SItemlist6 => {
                let p = s_itemlist::V6::decode(packet)?;
                if self.me.is(p.game_id) {
                    let list = crate::items::list_v6(&p);
                    self.inventory.item_list(list, &mut self.events);
                }
            }
            Kind::SItemlist7 => {
                let p = s_itemlist::V7::decode(packet)?;
                if self.me.is(p.game_id) {
                    let list = crate::items::list_v7(&p);
                    self.inventory.item_list(list, &mut self.events);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn contract_glyphs_talents(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::SRequestContract2 => {
                let p = s_request_contract::V2::decode(packet)?;
                self.contract.begin(p.r#type, p.id, &mut self.events);
            }
            Kind::SAcceptContract => self.contract.end(ContractEnd::Accept, &mut self.events),
            Kind::SRejectContract => self.contract.end(ContractEnd::Reject, &mut self.events),
            Kind::SCancelContract => self.contract.end(ContractEnd::Cancel, &mut self.events),
            Kind::SCrestInfo2 => {
                let p = s_crest_info::V2::decode(packet)?;
                let known = p.crests.iter().map(|c| (c.id, c.enable));
                self.glyphs.set_all(known, &mut self.events);
            }
            Kind::SCrestApply2 => {
                let p = s_crest_apply::V2::decode(packet)?;
                self.glyphs.apply(p.id, p.enable, &mut self.events);
            }
            Kind::SLoadEpInfo3 => {
                let p = s_load_ep_info::V3::decode(packet)?;
                let perks = p.perks.iter().map(|k| (k.id, k.level));
                self.talents.set(perks, PerkChange::Init, &mut self.events);
            }
            Kind::SLearnEpPerk1 => {
                let p = s_learn_ep_perk::V1::decode(packet)?;
                if p.success {
                    let perks = p.perks.iter().map(|k| (k.id, k.level));
                    self.talents.set(perks, PerkChange::Learn, &mut self.events);
                }
            }
            Kind::TtbSLoadEpPage1 => {
                let p = ttb_s_load_ep_page::V1::decode(packet)?;
                let perks = p.perks.iter().map(|k| (k.id, k.level));
                self.talents
                    .set(perks, PerkChange::ChangePreset, &mut self.events);
            }
            Kind::SResetEpPerk1 => {
                let p = s_reset_ep_perk::V1::decode(packet)?;
                if p.success {
                    self.talents.set([], PerkChange::Reset, &mut self.events);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn position_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::CPlayerLocation5 => {
                let p = c_player_location::V5::decode(packet)?;
                self.position.moved(p.loc, Some(p.w), Some(p.dest));
            }
            Kind::CNotifyLocationInAction4 => {
                let p = c_notify_location_in_action::V4::decode(packet)?;
                self.position.moved(p.loc, Some(p.w), None);
            }
            Kind::CNotifyLocationInDash4 => {
                let p = c_notify_location_in_dash::V4::decode(packet)?;
                self.position.moved(p.loc, Some(p.w), None);
            }
            Kind::SInstantMove3 => {
                let p = s_instant_move::V3::decode(packet)?;
                self.moved_by_server(p.game_id, p.loc, p.w, true);
            }
            Kind::SInstantDash3 => {
                let p = s_instant_dash::V3::decode(packet)?;
                self.moved_by_server(p.game_id, p.loc, p.w, true);
            }
            Kind::SActionEnd5 => {
                let p = s_action_end::V5::decode(packet)?;
                self.moved_by_server(p.game_id, p.loc, p.w, false);
            }
            _ => {}
        }
        Ok(())
    }

    /// The server placed `game_id`: the player (a correction when
    /// `correction`) or an entity in sight.
    fn moved_by_server(&mut self, game_id: u64, loc: Vec3, w: Angle, correction: bool) {
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

    fn entity_packet(&mut self, kind: Kind, packet: &[u8]) -> Result {
        match kind {
            Kind::SDespawnUser3 => {
                let p = s_despawn_user::V3::decode(packet)?;
                self.entities.despawn(p.game_id, &mut self.events);
            }
            Kind::SUserLocation6 => {
                let p = s_user_location::V6::decode(packet)?;
                self.entities.moved(p.game_id, p.loc, p.w, Some(p.dest));
            }
            Kind::SSpawnNpc12 => {
                let p = s_spawn_npc::V12::decode(packet)?;
                let mut npc = Entity::new(p.game_id, EntityKind::Npc, p.loc, p.w);
                npc.template_id = i64::from(p.template_id);
                npc.hunting_zone_id = u32::from(p.hunting_zone_id);
                npc.relation = p.relation;
                npc.alive = p.status != 4;
                self.entities.spawn(npc, &mut self.events);
            }
            Kind::SDespawnNpc3 => {
                let p = s_despawn_npc::V3::decode(packet)?;
                self.entities.despawn(p.game_id, &mut self.events);
            }
            Kind::SNpcLocation3 => {
                let p = s_npc_location::V3::decode(packet)?;
                self.entities.moved(p.game_id, p.loc, p.w, Some(p.dest));
            }
            Kind::SSpawnCollection4 => {
                let p = s_spawn_collection::V4::decode(packet)?;
                let mut node = Entity::new(p.game_id, EntityKind::Collection, p.loc, p.w);
                node.template_id = i64::from(p.id);
                self.entities.spawn(node, &mut self.events);
            }
            Kind::SDespawnCollection2 => {
                let p = s_despawn_collection::V2::decode(packet)?;
                self.entities.despawn(p.game_id, &mut self.events);
            }
            Kind::SCreatureChangeHp6 => {
                let p = s_creature_change_hp::V6::decode(packet)?;
                let hp = i64::try_from(p.cur_hp).unwrap_or(i64::MAX);
                let max = i64::try_from(p.max_hp).unwrap_or(i64::MAX);
                self.entities.hp(p.target, hp, max, &mut self.events);
            }
            Kind::SBossGageInfo3 => {
                let p = s_boss_gage_info::V3::decode(packet)?;
                self.entities.hp(p.id, p.cur_hp, p.max_hp, &mut self.events);
            }
            _ => {}
        }
        Ok(())
    }
}
