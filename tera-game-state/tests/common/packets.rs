//! Packets of a game session, built from the generated types.

use tera_data::packets::*;
use tera_data::{Angle, Packet, Str, Vec3};

pub const ME: u64 = 0x0100_0000_0000_0001;
pub const SERVER: u32 = 27;
pub const PLAYER: u32 = 5;

pub fn bytes<'a, P: Packet<'a>>(p: &P) -> Vec<u8> {
    p.encode().expect("encodes")
}

/// A packet seen by name only (no def): the header alone.
pub fn empty() -> Vec<u8> {
    vec![4, 0, 0, 0]
}

pub fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3 { x, y, z }
}

pub fn login_arbiter(name: &str, language: u32) -> Vec<u8> {
    bytes(&c_login_arbiter::V2 {
        language,
        name: Str::from(name),
        patch_version: 11402,
        ..Default::default()
    })
}

pub fn account_info(account_id: u64) -> Vec<u8> {
    bytes(&s_login_account_info::V3 {
        account_id,
        ..Default::default()
    })
}

pub fn login(template_id: i32, name: &str, level: u16, status: i32, alive: bool) -> Vec<u8> {
    bytes(&s_login::V15 {
        game_id: ME,
        player_id: PLAYER,
        server_id: SERVER,
        template_id,
        name: Str::from(name),
        level,
        status,
        alive,
        ..Default::default()
    })
}

pub fn login_v14(template_id: i32, name: &str, level: u16) -> Vec<u8> {
    bytes(&s_login::V14 {
        game_id: ME,
        player_id: PLAYER,
        server_id: SERVER,
        template_id,
        name: Str::from(name),
        level,
        alive: true,
        ..Default::default()
    })
}

pub fn load_topo(zone: i32, loc: Vec3, quick: bool) -> Vec<u8> {
    bytes(&s_load_topo::V3 { zone, loc, quick })
}

pub fn spawn_me(loc: Vec3, w: i16, alive: bool) -> Vec<u8> {
    bytes(&s_spawn_me::V3 {
        game_id: ME,
        loc,
        w: Angle(w),
        alive,
        is_lord: false,
    })
}

pub fn player_location(loc: Vec3, w: i16, dest: Vec3) -> Vec<u8> {
    bytes(&c_player_location::V5 {
        loc,
        w: Angle(w),
        dest,
        ..Default::default()
    })
}

pub fn instant_move(game_id: u64, loc: Vec3, w: i16) -> Vec<u8> {
    bytes(&s_instant_move::V3 {
        game_id,
        loc,
        w: Angle(w),
    })
}

pub fn user_status(game_id: u64, status: i32) -> Vec<u8> {
    bytes(&s_user_status::V4 {
        game_id,
        status,
        ..Default::default()
    })
}

pub fn mount(game_id: u64, id: u32, skill: u32) -> Vec<u8> {
    bytes(&s_mount_vehicle::V2 {
        game_id,
        id,
        skill,
        unk: false,
    })
}

pub fn unmount(game_id: u64) -> Vec<u8> {
    bytes(&s_unmount_vehicle::V2 { game_id, skill: 0 })
}

pub fn request_contract(kind: i32, id: i32) -> Vec<u8> {
    bytes(&s_request_contract::V2 {
        r#type: kind,
        id,
        sender_name: Str::from("Ann"),
        ..Default::default()
    })
}

pub fn creature_life(game_id: u64, alive: bool) -> Vec<u8> {
    bytes(&s_creature_life::V3 {
        game_id,
        alive,
        ..Default::default()
    })
}

pub fn levelup(game_id: u64, level: u32) -> Vec<u8> {
    bytes(&s_user_levelup::V2 { game_id, level })
}

pub fn change_name(game_id: u64, name: &str) -> Vec<u8> {
    bytes(&s_user_change_name::V1 {
        game_id,
        name: Str::from(name),
    })
}

pub fn change_hero(game_id: u64, template_id: u32) -> Vec<u8> {
    bytes(&ttb_s_change_hero::V1 {
        game_id,
        template_id,
        hero_skin: 0,
    })
}

pub fn abnormality_begin(target: u64, id: u32, duration: i64, stacks: i32) -> Vec<u8> {
    bytes(&s_abnormality_begin::V5 {
        target,
        source: target,
        id,
        duration,
        stacks,
        ..Default::default()
    })
}

pub fn abnormality_refresh(target: u64, id: u32, duration: i64, stacks: i32) -> Vec<u8> {
    bytes(&s_abnormality_refresh::V2 {
        target,
        id,
        duration,
        stacks,
    })
}

pub fn abnormality_end(target: u64, id: u32) -> Vec<u8> {
    bytes(&s_abnormality_end::V1 { target, id })
}

/// (gameId, playerId, serverId, name, class)
pub fn party_list(members: &[(u64, u32, u32, &str, u32)]) -> Vec<u8> {
    let members: Vec<s_party_member_list::v9::Members<'_>> = members
        .iter()
        .map(
            |&(game_id, player_id, server_id, name, class)| s_party_member_list::v9::Members {
                game_id,
                player_id,
                server_id,
                name: Str::from(name),
                class,
                online: true,
                ..Default::default()
            },
        )
        .collect();
    bytes(&s_party_member_list::V9 {
        members: members.into(),
        ..Default::default()
    })
}

pub fn spawn_user(game_id: u64, server_id: u32, player_id: u32, name: &str, loc: Vec3) -> Vec<u8> {
    bytes(&s_spawn_user::V17 {
        game_id,
        server_id,
        player_id,
        name: Str::from(name),
        loc,
        alive: true,
        template_id: 10101,
        ..Default::default()
    })
}

pub fn leave_party_member(server_id: u32, player_id: u32, name: &str) -> Vec<u8> {
    bytes(&s_leave_party_member::V2 {
        server_id,
        player_id,
        name: Str::from(name),
    })
}

pub fn ban_party_member(server_id: u32, player_id: u32, name: &str) -> Vec<u8> {
    bytes(&s_ban_party_member::V1 {
        server_id,
        player_id,
        unk1: 0,
        name: Str::from(name),
    })
}

pub fn inven_userdata(item_level: f32, inventory: f32, tcat: i64) -> Vec<u8> {
    bytes(&s_inven_userdata::V2 {
        game_id: ME,
        item_level,
        item_level_inventory: inventory,
        tcat,
        ..Default::default()
    })
}

/// One item: (slot, id, amount).
pub fn item(slot: u32, id: i32, amount: i32) -> s_itemlist::v7::Items<'static> {
    s_itemlist::v7::Items {
        slot,
        id,
        amount,
        dbid: u64::from(slot) * 1000 + u64::try_from(id).unwrap_or(0),
        ..Default::default()
    }
}

pub struct ListPart {
    pub container: i32,
    pub pocket: i32,
    pub num_pockets: i32,
    pub money: i64,
    pub first: bool,
    pub more: bool,
    pub last_in_batch: bool,
}

pub fn itemlist(part: ListPart, items: Vec<s_itemlist::v7::Items<'static>>) -> Vec<u8> {
    bytes(&s_itemlist::V7 {
        game_id: ME,
        container: part.container,
        pocket: part.pocket,
        num_pockets: part.num_pockets,
        size: 40,
        money: part.money,
        first: part.first,
        more: part.more,
        last_in_batch: part.last_in_batch,
        items: items.into(),
        ..Default::default()
    })
}

pub fn weapon() -> s_itemlist::v7::Items<'static> {
    let set = |index: u32, passivities: Vec<i32>| s_itemlist::v7::PassivitySets {
        index,
        passivities: passivities.into(),
        ..Default::default()
    };
    s_itemlist::v7::Items {
        crystals: vec![0, 3001].into(),
        passivity_set: 1,
        passivity_sets: vec![set(0, vec![5, 0]), set(1, vec![6, 0])].into(),
        merged_passivities: vec![7].into(),
        ..item(1, 10001, 1)
    }
}

pub fn crest_info(crests: &[(i32, bool)]) -> Vec<u8> {
    let crests: Vec<s_crest_info::v2::Crests> = crests
        .iter()
        .map(|&(id, enable)| s_crest_info::v2::Crests { id, enable })
        .collect();
    bytes(&s_crest_info::V2 {
        crests: crests.into(),
        ..Default::default()
    })
}

pub fn crest_apply(id: i32, enable: bool) -> Vec<u8> {
    bytes(&s_crest_apply::V2 { id, enable })
}

pub fn load_ep_info(perks: &[(u32, u32)]) -> Vec<u8> {
    let perks: Vec<s_load_ep_info::v3::Perks> = perks
        .iter()
        .map(|&(id, level)| s_load_ep_info::v3::Perks { id, level })
        .collect();
    bytes(&s_load_ep_info::V3 {
        perks: perks.into(),
        ..Default::default()
    })
}

pub fn learn_ep_perk(success: bool, perks: &[(u32, u32)]) -> Vec<u8> {
    let perks: Vec<s_learn_ep_perk::v1::Perks> = perks
        .iter()
        .map(|&(id, level)| s_learn_ep_perk::v1::Perks { id, level })
        .collect();
    bytes(&s_learn_ep_perk::V1 {
        success,
        used_points: 0,
        perks: perks.into(),
    })
}

pub fn load_ep_page(perks: &[(u32, u32)]) -> Vec<u8> {
    let perks: Vec<ttb_s_load_ep_page::v1::Perks> = perks
        .iter()
        .map(|&(id, level)| ttb_s_load_ep_page::v1::Perks { id, level })
        .collect();
    bytes(&ttb_s_load_ep_page::V1 {
        perks: perks.into(),
        ..Default::default()
    })
}

pub fn reset_ep_perk(success: bool) -> Vec<u8> {
    bytes(&s_reset_ep_perk::V1 { success })
}

pub fn spawn_npc(game_id: u64, template_id: u32, hunting_zone_id: u16, loc: Vec3) -> Vec<u8> {
    bytes(&s_spawn_npc::V12 {
        game_id,
        template_id,
        hunting_zone_id,
        loc,
        max_hp: 1000,
        visible: true,
        npc_name: Str::from("boss"),
        ..Default::default()
    })
}

pub fn npc_location(game_id: u64, loc: Vec3, dest: Vec3) -> Vec<u8> {
    bytes(&s_npc_location::V3 {
        game_id,
        loc,
        dest,
        ..Default::default()
    })
}

pub fn change_hp(target: u64, cur_hp: u64, max_hp: u64) -> Vec<u8> {
    bytes(&s_creature_change_hp::V6 {
        target,
        cur_hp,
        max_hp,
        ..Default::default()
    })
}

pub fn boss_gage(id: u64, cur_hp: i64, max_hp: i64) -> Vec<u8> {
    bytes(&s_boss_gage_info::V3 {
        id,
        cur_hp,
        max_hp,
        ..Default::default()
    })
}

pub fn despawn_npc(game_id: u64) -> Vec<u8> {
    bytes(&s_despawn_npc::V3 {
        game_id,
        ..Default::default()
    })
}

pub fn spawn_collection(game_id: u64, id: i32, loc: Vec3) -> Vec<u8> {
    bytes(&s_spawn_collection::V4 {
        game_id,
        id,
        amount: 1,
        loc,
        ..Default::default()
    })
}

pub fn despawn_collection(game_id: u64) -> Vec<u8> {
    bytes(&s_despawn_collection::V2 {
        game_id,
        collected: true,
    })
}

pub fn user_location(game_id: u64, loc: Vec3, dest: Vec3) -> Vec<u8> {
    bytes(&s_user_location::V6 {
        game_id,
        loc,
        dest,
        ..Default::default()
    })
}

pub fn despawn_user(game_id: u64) -> Vec<u8> {
    bytes(&s_despawn_user::V3 { game_id, r#type: 1 })
}
