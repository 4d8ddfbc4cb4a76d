//! The routing table: every packet game state reads, each def version of
//! it with the patch it is read from and how it is read, and how the
//! packet is read from a def loaded at run time. A new def version of a
//! packet is one line of `versions` here.
//!
//! The patch boundaries are tera-game-state's (`majorPatchVersion`) and,
//! for the versions before them, those of the build's own defs (build
//! 376012, patch 100, for the versions marked `cfg(not(tera_corpus))`:
//! the real tera-data corpus no longer holds them, so a build of the corpus
//! reads them only from defs loaded at run time).

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

use crate::dispatch::{NpcSpawn, UserSpawn};
use crate::event::{ContractEnd, PerkChange};
use crate::fields::Fields;
use crate::game::GameState;
use crate::items;
use crate::me::Login;
use crate::member::PartyMember;
use crate::submodule::Submodules;
use crate::table::{Route, Version, versions_match_routes};

const SESSION: Submodules = Submodules::SESSION;
const ME: Submodules = Submodules::ME;
const ABN: Submodules = Submodules::ABNORMALITIES;
const PARTY: Submodules = Submodules::PARTY;
const INV: Submodules = Submodules::INVENTORY;
const CONTRACT: Submodules = Submodules::CONTRACT;
const GLYPHS: Submodules = Submodules::GLYPHS;
const TALENTS: Submodules = Submodules::TALENTS;
const POS: Submodules = Submodules::POSITION;
const ENT: Submodules = Submodules::ENTITIES;

/// A compiled-in def version, read from patch `since` on: `$p` is the
/// decoded packet, `$apply` what it does to the state `$g`.
macro_rules! compiled {
    ($packet:ty, $since:literal, |$g:ident, $p:ident| $apply:expr) => {
        Version {
            name: <$packet as Packet>::NAME,
            version: <$packet as Packet>::VERSION,
            since: $since,
            read: |$g, bytes| {
                let $p = <$packet>::decode(bytes)?;
                $apply;
                Ok(())
            },
        }
    };
}

/// A packet read by its name only (nothing decoded), from patch `since`.
macro_rules! named {
    ($since:literal, |$g:ident| $apply:expr) => {
        Version {
            name: "",
            version: 0,
            since: $since,
            read: |$g, _| {
                $apply;
                Ok(())
            },
        }
    };
}

/// How the packet is read from a def loaded at run time: `$f` are its
/// fields by def name.
macro_rules! loaded {
    (|$g:ident, $f:ident| $apply:expr) => {
        Some(|$g, $f| {
            $apply;
            Ok(())
        })
    };
}

/// `S_LOGIN`'s fields, whatever the version, to `$g.login`.
macro_rules! login {
    ($g:expr, $p:expr) => {{
        let p = &$p;
        let name = p.name.to_string_lossy();
        $g.login(Login {
            game_id: p.game_id,
            player_id: p.player_id,
            server_id: p.server_id,
            template_id: p.template_id,
            name: &name,
            level: p.level,
            status: p.status,
            alive: p.alive,
        })
    }};
}

/// `S_SPAWN_USER`'s fields, whatever the version.
macro_rules! user {
    ($p:expr) => {{
        let p = &$p;
        UserSpawn {
            server_id: p.server_id,
            player_id: p.player_id,
            game_id: p.game_id,
            template_id: p.template_id,
            loc: p.loc,
            w: p.w,
            alive: p.alive,
            name: p.name.to_string_lossy(),
        }
    }};
}

/// `S_SPAWN_NPC`'s fields, whatever the version.
macro_rules! npc {
    ($p:expr) => {{
        let p = &$p;
        NpcSpawn {
            game_id: p.game_id,
            loc: p.loc,
            w: p.w,
            template_id: p.template_id,
            hunting_zone_id: u32::from(p.hunting_zone_id),
            relation: p.relation,
            status: p.status,
        }
    }};
}

/// `S_PARTY_MEMBER_LIST`'s members, whatever the version.
macro_rules! members {
    ($p:expr) => {
        $p.members
            .iter()
            .map(|m| PartyMember {
                game_id: m.game_id,
                player_id: m.player_id,
                server_id: m.server_id,
                name: m.name.to_string_lossy(),
                class: m.class,
            })
            .collect()
    };
}

// A version filed under another packet's route does not compile.
const _: () = assert!(versions_match_routes(ROUTES));

/// Every packet game state reads.
pub(crate) const ROUTES: &[Route<GameState>] = &[
    Route {
        name: "C_LOGIN_ARBITER",
        needs: SESSION,
        versions: &[compiled!(c_login_arbiter::V2, 0, |g, p| g
            .arbiter(p.language, p.name.to_string_lossy()))],
        loaded: loaded!(|g, f| g.arbiter(f.u32("language")?, f.string("name")?)),
    },
    Route {
        name: "S_LOGIN_ACCOUNT_INFO",
        needs: SESSION,
        versions: &[compiled!(s_login_account_info::V3, 100, |g, p| g
            .account_info(p.account_id))],
        loaded: loaded!(|g, f| g.account_info(f.u64("accountId")?)),
    },
    Route {
        name: "S_GET_USER_LIST",
        needs: SESSION,
        versions: &[named!(0, |g| g.user_list())],
        loaded: None,
    },
    Route {
        name: "S_RETURN_TO_LOBBY",
        needs: SESSION,
        versions: &[named!(0, |g| g.return_to_lobby())],
        loaded: None,
    },
    Route {
        name: "S_EXIT",
        needs: SESSION,
        versions: &[named!(0, |g| g.exit())],
        loaded: None,
    },
    Route {
        name: "S_SELECT_USER",
        needs: SESSION,
        versions: &[named!(99, |g| g.select_user(false))],
        loaded: None,
    },
    Route {
        name: "S_TBA_SELECT_USER",
        needs: SESSION,
        versions: &[named!(99, |g| g.select_user(true))],
        loaded: None,
    },
    Route {
        name: "S_LOGIN",
        needs: SESSION,
        versions: &[
            compiled!(s_login::V14, 86, |g, p| login!(g, p)),
            compiled!(s_login::V15, 114, |g, p| login!(g, p)),
        ],
        loaded: loaded!(|g, f| {
            let name = f.string("name")?;
            g.login(Login {
                game_id: f.u64("gameId")?,
                player_id: f.u32("playerId")?,
                server_id: f.u32("serverId")?,
                template_id: f.i32("templateId")?,
                name: &name,
                level: f.u16("level")?,
                status: f.i32("status")?,
                alive: f.bool("alive")?,
            });
        }),
    },
    Route {
        name: "TTB_S_CHANGE_HERO",
        needs: ME,
        versions: &[compiled!(ttb_s_change_hero::V1, 99, |g, p| g
            .change_hero(p.game_id, p.template_id))],
        loaded: loaded!(|g, f| g.change_hero(f.u64("gameId")?, f.u32("templateId")?)),
    },
    Route {
        name: "S_LOAD_TOPO",
        needs: SESSION,
        versions: &[compiled!(s_load_topo::V3, 0, |g, p| g
            .load_topo(p.zone, p.quick, p.loc))],
        loaded: loaded!(|g, f| g.load_topo(f.i32("zone")?, f.bool("quick")?, f.vec3("loc")?)),
    },
    Route {
        name: "S_SPAWN_ME",
        needs: SESSION,
        versions: &[compiled!(s_spawn_me::V3, 0, |g, p| g
            .spawn_me(p.game_id, p.loc, p.w, p.alive))],
        loaded: loaded!(|g, f| g.spawn_me(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            f.bool("alive")?
        )),
    },
    Route {
        name: "S_CREATURE_LIFE",
        needs: ME.union(ENT),
        versions: &[compiled!(s_creature_life::V3, 0, |g, p| g
            .creature_life(p.game_id, p.alive, p.loc))],
        loaded: loaded!(|g, f| g.creature_life(f.u64("gameId")?, f.bool("alive")?, f.vec3("loc")?)),
    },
    Route {
        name: "S_MOUNT_VEHICLE",
        needs: ME,
        versions: &[compiled!(s_mount_vehicle::V2, 0, |g, p| g
            .mount(p.game_id, Some((p.id, p.skill))))],
        loaded: loaded!(|g, f| g.mount(f.u64("gameId")?, Some((f.u32("id")?, f.u32("skill")?)))),
    },
    Route {
        name: "S_UNMOUNT_VEHICLE",
        needs: ME,
        versions: &[compiled!(s_unmount_vehicle::V2, 0, |g, p| g.mount(p.game_id, None))],
        loaded: loaded!(|g, f| g.mount(f.u64("gameId")?, None)),
    },
    Route {
        name: "S_USER_CHANGE_NAME",
        needs: ME,
        versions: &[compiled!(s_user_change_name::V1, 0, |g, p| g
            .change_name(p.game_id, &p.name.to_string_lossy()))],
        loaded: loaded!(|g, f| g.change_name(f.u64("gameId")?, &f.string("name")?)),
    },
    Route {
        name: "S_USER_LEVELUP",
        needs: ME,
        versions: &[compiled!(s_user_levelup::V2, 0, |g, p| g.level_up(p.game_id, p.level))],
        loaded: loaded!(|g, f| g.level_up(f.u64("gameId")?, f.u32("level")?)),
    },
    Route {
        name: "S_USER_STATUS",
        needs: ME,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_user_status::V3, 0, |g, p| g
                .user_status(p.game_id, p.status)),
            compiled!(s_user_status::V4, 108, |g, p| g
                .user_status(p.game_id, p.status)),
        ],
        loaded: loaded!(|g, f| g.user_status(f.u64("gameId")?, f.i32("status")?)),
    },
    Route {
        name: "S_ABNORMALITY_BEGIN",
        needs: ABN,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_abnormality_begin::V4, 75, |g, p| g
                .abnormality(p.target, p.id, p.stacks, p.duration, false)),
            compiled!(s_abnormality_begin::V5, 107, |g, p| g
                .abnormality(p.target, p.id, p.stacks, p.duration, false)),
        ],
        loaded: loaded!(|g, f| g.abnormality(
            f.u64("target")?,
            f.u32("id")?,
            f.i32("stacks")?,
            f.i64("duration")?,
            false
        )),
    },
    Route {
        name: "S_ABNORMALITY_REFRESH",
        needs: ABN,
        versions: &[
            compiled!(s_abnormality_refresh::V1, 0, |g, p| g.abnormality(
                p.target,
                p.id,
                p.stacks,
                i64::from(p.duration),
                true
            )),
            compiled!(s_abnormality_refresh::V2, 107, |g, p| g
                .abnormality(p.target, p.id, p.stacks, p.duration, true)),
        ],
        loaded: loaded!(|g, f| g.abnormality(
            f.u64("target")?,
            f.u32("id")?,
            f.i32("stacks")?,
            f.i64("duration")?,
            true
        )),
    },
    Route {
        name: "S_ABNORMALITY_END",
        needs: ABN,
        versions: &[compiled!(s_abnormality_end::V1, 0, |g, p| g
            .abnormality_end(p.target, p.id))],
        loaded: loaded!(|g, f| g.abnormality_end(f.u64("target")?, f.u32("id")?)),
    },
    Route {
        name: "S_PARTY_MEMBER_LIST",
        needs: PARTY,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_party_member_list::V8, 69, |g, p| g
                .party_list(members!(p))),
            compiled!(s_party_member_list::V9, 106, |g, p| g
                .party_list(members!(p))),
        ],
        loaded: loaded!(|g, f| {
            let members = f
                .records("members")?
                .iter()
                .map(|m| {
                    Ok(PartyMember {
                        game_id: m.u64("gameId")?,
                        player_id: m.u32("playerId")?,
                        server_id: m.u32("serverId")?,
                        name: m.string("name")?,
                        class: m.u32("class")?,
                    })
                })
                .collect::<Result<_, crate::ReadError>>()?;
            g.party_list(members);
        }),
    },
    Route {
        name: "S_LEAVE_PARTY_MEMBER",
        needs: PARTY,
        versions: &[compiled!(s_leave_party_member::V2, 0, |g, p| g
            .party_remove(
                p.server_id,
                p.player_id,
                &p.name.to_string_lossy(),
                false
            ))],
        loaded: loaded!(|g, f| g.party_remove(
            f.u32("serverId")?,
            f.u32("playerId")?,
            &f.string("name")?,
            false
        )),
    },
    Route {
        name: "S_BAN_PARTY_MEMBER",
        needs: PARTY,
        versions: &[compiled!(s_ban_party_member::V1, 0, |g, p| g.party_remove(
            p.server_id,
            p.player_id,
            &p.name.to_string_lossy(),
            true
        ))],
        loaded: loaded!(|g, f| g.party_remove(
            f.u32("serverId")?,
            f.u32("playerId")?,
            &f.string("name")?,
            true
        )),
    },
    Route {
        name: "S_LEAVE_PARTY",
        needs: PARTY,
        versions: &[named!(0, |g| g.party_leave())],
        loaded: None,
    },
    Route {
        name: "S_SPAWN_USER",
        needs: PARTY.union(ENT),
        versions: &[
            compiled!(s_spawn_user::V16, 96, |g, p| g.spawn_user(user!(p))),
            compiled!(s_spawn_user::V17, 101, |g, p| g.spawn_user(user!(p))),
        ],
        loaded: loaded!(|g, f| g.spawn_user(UserSpawn {
            server_id: f.u32("serverId")?,
            player_id: f.u32("playerId")?,
            game_id: f.u64("gameId")?,
            template_id: f.i32("templateId")?,
            loc: f.vec3("loc")?,
            w: f.angle("w")?,
            alive: f.bool("alive")?,
            name: f.string("name")?,
        })),
    },
    Route {
        name: "S_INVEN_USERDATA",
        needs: INV,
        versions: &[compiled!(s_inven_userdata::V2, 0, |g, p| g
            .inventory_user_data(
                p.game_id,
                p.item_level,
                p.item_level_inventory,
                p.tcat
            ))],
        loaded: loaded!(|g, f| g.inventory_user_data(
            f.u64("gameId")?,
            f.f32("itemLevel")?,
            f.f32("itemLevelInventory")?,
            f.i64("tcat")?
        )),
    },
    Route {
        name: "S_ITEMLIST",
        needs: INV,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_itemlist::V4, 96, |g, p| g
                .item_list(p.game_id, items::list_v4(&p))),
            compiled!(s_itemlist::V6, 109, |g, p| g
                .item_list(p.game_id, items::list_v6(&p))),
            compiled!(s_itemlist::V7, 114, |g, p| g
                .item_list(p.game_id, items::list_v7(&p))),
        ],
        loaded: loaded!(|g, f| g.item_list(f.u64("gameId")?, items::list_loaded(f)?)),
    },
    Route {
        name: "S_REQUEST_CONTRACT",
        needs: CONTRACT,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_request_contract::V1, 0, |g, p| g
                .contract_begin(p.r#type, p.id)),
            compiled!(s_request_contract::V2, 108, |g, p| g
                .contract_begin(p.r#type, p.id)),
        ],
        loaded: loaded!(|g, f| g.contract_begin(f.i32("type")?, f.i32("id")?)),
    },
    Route {
        name: "S_ACCEPT_CONTRACT",
        needs: CONTRACT,
        versions: &[named!(0, |g| g.contract_end(ContractEnd::Accept))],
        loaded: None,
    },
    Route {
        name: "S_REJECT_CONTRACT",
        needs: CONTRACT,
        versions: &[named!(0, |g| g.contract_end(ContractEnd::Reject))],
        loaded: None,
    },
    Route {
        name: "S_CANCEL_CONTRACT",
        needs: CONTRACT,
        versions: &[named!(0, |g| g.contract_end(ContractEnd::Cancel))],
        loaded: None,
    },
    Route {
        name: "S_CREST_INFO",
        needs: GLYPHS,
        versions: &[compiled!(s_crest_info::V2, 0, |g, p| g
            .crests(p.crests.iter().map(|c| (c.id, c.enable))))],
        loaded: loaded!(|g, f| {
            let crests = f
                .records("crests")?
                .iter()
                .map(|c| Ok((c.i32("id")?, c.bool("enable")?)))
                .collect::<Result<Vec<_>, crate::ReadError>>()?;
            g.crests(crests);
        }),
    },
    Route {
        name: "S_CREST_APPLY",
        needs: GLYPHS,
        versions: &[compiled!(s_crest_apply::V2, 0, |g, p| g.crest_apply(p.id, p.enable))],
        loaded: loaded!(|g, f| g.crest_apply(f.i32("id")?, f.bool("enable")?)),
    },
    Route {
        name: "S_LOAD_EP_INFO",
        needs: TALENTS,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_load_ep_info::V2, 96, |g, p| g
                .perks(p.perks.iter().map(|k| (k.id, k.level)), PerkChange::Init)),
            compiled!(s_load_ep_info::V3, 105, |g, p| g
                .perks(p.perks.iter().map(|k| (k.id, k.level)), PerkChange::Init)),
        ],
        loaded: loaded!(|g, f| g.perks(perks(f)?, PerkChange::Init)),
    },
    Route {
        name: "S_LEARN_EP_PERK",
        needs: TALENTS,
        versions: &[compiled!(s_learn_ep_perk::V1, 0, |g, p| if p.success {
            g.perks(p.perks.iter().map(|k| (k.id, k.level)), PerkChange::Learn);
        })],
        loaded: loaded!(|g, f| if f.bool("success")? {
            g.perks(perks(f)?, PerkChange::Learn);
        }),
    },
    Route {
        name: "TTB_S_LOAD_EP_PAGE",
        needs: TALENTS,
        versions: &[compiled!(ttb_s_load_ep_page::V1, 96, |g, p| g.perks(
            p.perks.iter().map(|k| (k.id, k.level)),
            PerkChange::ChangePreset
        ))],
        loaded: loaded!(|g, f| g.perks(perks(f)?, PerkChange::ChangePreset)),
    },
    Route {
        name: "S_RESET_EP_PERK",
        needs: TALENTS,
        versions: &[compiled!(s_reset_ep_perk::V1, 0, |g, p| if p.success {
            g.perks([], PerkChange::Reset);
        })],
        loaded: loaded!(|g, f| if f.bool("success")? {
            g.perks([], PerkChange::Reset);
        }),
    },
    Route {
        name: "C_PLAYER_LOCATION",
        needs: POS,
        versions: &[compiled!(c_player_location::V5, 0, |g, p| g.player_moved(
            p.loc,
            p.w,
            Some(p.dest)
        ))],
        loaded: loaded!(|g, f| g.player_moved(
            f.vec3("loc")?,
            f.angle("w")?,
            Some(f.vec3("dest")?)
        )),
    },
    Route {
        name: "C_NOTIFY_LOCATION_IN_ACTION",
        needs: POS,
        versions: &[compiled!(c_notify_location_in_action::V4, 0, |g, p| g
            .player_moved(p.loc, p.w, None))],
        loaded: loaded!(|g, f| g.player_moved(f.vec3("loc")?, f.angle("w")?, None)),
    },
    Route {
        name: "C_NOTIFY_LOCATION_IN_DASH",
        needs: POS,
        versions: &[compiled!(c_notify_location_in_dash::V4, 0, |g, p| g
            .player_moved(p.loc, p.w, None))],
        loaded: loaded!(|g, f| g.player_moved(f.vec3("loc")?, f.angle("w")?, None)),
    },
    Route {
        name: "S_INSTANT_MOVE",
        needs: POS.union(ENT),
        versions: &[compiled!(s_instant_move::V3, 0, |g, p| g
            .moved_by_server(p.game_id, p.loc, p.w, true))],
        loaded: loaded!(|g, f| g.moved_by_server(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            true
        )),
    },
    Route {
        name: "S_INSTANT_DASH",
        needs: POS.union(ENT),
        versions: &[compiled!(s_instant_dash::V3, 0, |g, p| g
            .moved_by_server(p.game_id, p.loc, p.w, true))],
        loaded: loaded!(|g, f| g.moved_by_server(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            true
        )),
    },
    Route {
        name: "S_ACTION_END",
        needs: POS.union(ENT),
        versions: &[compiled!(s_action_end::V5, 0, |g, p| g
            .moved_by_server(p.game_id, p.loc, p.w, false))],
        loaded: loaded!(|g, f| g.moved_by_server(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            false
        )),
    },
    Route {
        name: "S_DESPAWN_USER",
        needs: ENT,
        versions: &[compiled!(s_despawn_user::V3, 0, |g, p| g.despawn(p.game_id))],
        loaded: loaded!(|g, f| g.despawn(f.u64("gameId")?)),
    },
    Route {
        name: "S_USER_LOCATION",
        needs: ENT,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_user_location::V5, 0, |g, p| g
                .entity_moved(p.game_id, p.loc, p.w, p.dest)),
            compiled!(s_user_location::V6, 105, |g, p| g
                .entity_moved(p.game_id, p.loc, p.w, p.dest)),
        ],
        loaded: loaded!(|g, f| g.entity_moved(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            f.vec3("dest")?
        )),
    },
    Route {
        name: "S_SPAWN_NPC",
        needs: ENT,
        versions: &[
            #[cfg(not(tera_corpus))]
            compiled!(s_spawn_npc::V11, 79, |g, p| g.spawn_npc(npc!(p))),
            compiled!(s_spawn_npc::V12, 101, |g, p| g.spawn_npc(npc!(p))),
        ],
        loaded: loaded!(|g, f| g.spawn_npc(NpcSpawn {
            game_id: f.u64("gameId")?,
            loc: f.vec3("loc")?,
            w: f.angle("w")?,
            template_id: f.u32("templateId")?,
            hunting_zone_id: f.u32("huntingZoneId")?,
            relation: f.i32("relation")?,
            status: f.i16("status")?,
        })),
    },
    Route {
        name: "S_DESPAWN_NPC",
        needs: ENT,
        versions: &[compiled!(s_despawn_npc::V3, 0, |g, p| g.despawn(p.game_id))],
        loaded: loaded!(|g, f| g.despawn(f.u64("gameId")?)),
    },
    Route {
        name: "S_NPC_LOCATION",
        needs: ENT,
        versions: &[compiled!(s_npc_location::V3, 0, |g, p| g
            .entity_moved(p.game_id, p.loc, p.w, p.dest))],
        loaded: loaded!(|g, f| g.entity_moved(
            f.u64("gameId")?,
            f.vec3("loc")?,
            f.angle("w")?,
            f.vec3("dest")?
        )),
    },
    Route {
        name: "S_SPAWN_COLLECTION",
        needs: ENT,
        versions: &[compiled!(s_spawn_collection::V4, 0, |g, p| g
            .spawn_collection(p.game_id, p.id, p.loc, p.w))],
        loaded: loaded!(|g, f| g.spawn_collection(
            f.u64("gameId")?,
            f.i32("id")?,
            f.vec3("loc")?,
            f.angle("w")?
        )),
    },
    Route {
        name: "S_DESPAWN_COLLECTION",
        needs: ENT,
        versions: &[compiled!(s_despawn_collection::V2, 0, |g, p| g.despawn(p.game_id))],
        loaded: loaded!(|g, f| g.despawn(f.u64("gameId")?)),
    },
    Route {
        name: "S_CREATURE_CHANGE_HP",
        needs: ENT,
        versions: &[compiled!(s_creature_change_hp::V6, 0, |g, p| g.entity_hp(
            p.target,
            i64::try_from(p.cur_hp).unwrap_or(i64::MAX),
            i64::try_from(p.max_hp).unwrap_or(i64::MAX)
        ))],
        loaded: loaded!(|g, f| g.entity_hp(
            f.u64("target")?,
            f.i64_saturating("curHp")?,
            f.i64_saturating("maxHp")?
        )),
    },
    Route {
        name: "S_BOSS_GAGE_INFO",
        needs: ENT,
        versions: &[compiled!(s_boss_gage_info::V3, 0, |g, p| g
            .entity_hp(p.id, p.cur_hp, p.max_hp))],
        loaded: loaded!(|g, f| g.entity_hp(
            f.u64("id")?,
            f.i64_saturating("curHp")?,
            f.i64_saturating("maxHp")?
        )),
    },
];

/// The `perks` of an EP packet loaded at run time: id and level.
fn perks(f: Fields<'_, '_>) -> Result<Vec<(u32, u32)>, crate::ReadError> {
    f.records("perks")?
        .iter()
        .map(|k| Ok((k.u32("id")?, k.u32("level")?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::route;

    #[test]
    fn each_version_is_of_its_route_and_each_route_is_listed_once() {
        for (k, route) in ROUTES.iter().enumerate() {
            assert!(
                ROUTES.iter().skip(k + 1).all(|r| r.name != route.name),
                "{} twice",
                route.name
            );
            assert!(!route.versions.is_empty(), "{}", route.name);
            // Read by name only: no def to load; else a reader of loaded defs.
            let by_name = route.versions.iter().all(|v| v.version == 0);
            assert_eq!(by_name, route.loaded.is_none(), "{}", route.name);
            let mut since: Vec<u32> = route.versions.iter().map(|v| v.since).collect();
            since.dedup();
            assert_eq!(since.len(), route.versions.len(), "{}", route.name);
        }
    }

    #[test]
    fn the_patch_picks_the_newest_version_not_after_it() {
        let login = route(ROUTES, "S_LOGIN").expect("a route");
        assert_eq!(login.version_at(Some(100)).map(|v| v.version), Some(14));
        assert_eq!(login.version_at(Some(114)).map(|v| v.version), Some(15));
        assert_eq!(login.version_at(None).map(|v| v.version), Some(15));
        assert!(login.version_at(Some(85)).is_none());
    }
}
