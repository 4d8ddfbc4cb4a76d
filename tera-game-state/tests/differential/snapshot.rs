//! Game state as the traces write tera-game-state's: after each packet,
//! its events (name and arguments, as `emit` passes them) and every
//! property, 64-bit integers as "<digits>n" (the traces' BigInts).

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};
use tera_game_state::{
    AbnormalityData, ContractEnd, GameEvent, GameState, Item, ItemData, LeftMember, PartyMember,
    PerkChange, Pocket,
};

fn big(v: impl std::fmt::Display) -> Json {
    Json::String(format!("{v}n"))
}

fn opt<T: Into<Json>>(v: Option<T>) -> Json {
    v.map_or(Json::Null, Into::into)
}

/// An event as tera-game-state emits it; `None` for the events past it
/// (abnormalities, position, entities).
pub fn event(e: &GameEvent) -> Option<Json> {
    let args = match e {
        GameEvent::AbnormalityBegin { .. }
        | GameEvent::AbnormalityRefresh { .. }
        | GameEvent::AbnormalityEnd { .. }
        | GameEvent::PositionCorrected { .. }
        | GameEvent::Spawn { .. }
        | GameEvent::Despawn { .. }
        | GameEvent::Hp { .. }
        | GameEvent::Life { .. } => return None,
        GameEvent::ChangeTemplate {
            template_id,
            class,
            race,
            gender,
        } => json!([
            template_id,
            class.map(|c| c.as_str()),
            race.map(|r| r.as_str()),
            gender.map(|g| g.as_str())
        ]),
        GameEvent::ChangeZone { zone, quick } => json!([zone, quick]),
        GameEvent::Mount { id, skill } => json!([id, skill]),
        GameEvent::ChangeName { name } => json!([name]),
        GameEvent::ChangeLevel { level } => json!([level]),
        GameEvent::PartyList { members } => json!([members.iter().map(member).collect::<Vec<_>>()]),
        GameEvent::PartyMemberLeave(left) | GameEvent::PartyMemberKick(left) => {
            json!([left_member(left)])
        }
        GameEvent::ContractBegin { kind, id } => json!([kind, id]),
        GameEvent::ContractEnd { how } => json!([match how {
            ContractEnd::Accept => "accept",
            ContractEnd::Reject => "reject",
            ContractEnd::Cancel => "cancel",
        }]),
        GameEvent::ChangePerks { how } => json!([match how {
            PerkChange::Init => "init",
            PerkChange::Learn => "learn",
            PerkChange::ChangePreset => "change_preset",
            PerkChange::Reset => "reset",
        }]),
        _ => json!([]),
    };
    Some(json!({ "name": e.name(), "args": args }))
}

fn member(m: &PartyMember) -> Json {
    json!({
        "class": m.class, "gameId": big(m.game_id), "name": m.name,
        "playerId": m.player_id, "serverId": m.server_id,
    })
}

fn left_member(m: &LeftMember) -> Json {
    json!({ "class": m.class, "name": m.name, "playerId": m.player_id, "serverId": m.server_id })
}

/// Every property of the state, as the traces' `state`.
pub fn state(game: &GameState) -> Json {
    let mut state = json!({
        "game": {
            "isIngame": game.is_ingame(),
            "isInLoadingScreen": game.is_in_loading_screen(),
            "language": opt(game.session().language()),
            "accountId": opt(game.session().account_id().map(big)),
            "accountName": opt(game.session().account_name()),
            "isTBA": game.session().is_tba(),
            "serverId": opt(game.server_id()),
        },
        "me": me(game),
    });
    let out = state.as_object_mut().expect("an object");
    if let Some(party) = game.party() {
        let members: Vec<Json> = party.members().iter().map(member).collect();
        out.insert(
            "party".into(),
            json!({ "inParty": party.in_party(), "members": members }),
        );
    }
    if game.inventory().is_some() {
        out.insert("inventory".into(), inventory(game));
    }
    if let Some(c) = game.contract() {
        out.insert(
            "contract".into(),
            json!({ "active": c.active(), "id": c.id(), "type": c.kind() }),
        );
    }
    if let Some(g) = game.glyphs() {
        let known: BTreeMap<String, bool> = g
            .known()
            .iter()
            .map(|(id, on)| (id.to_string(), *on))
            .collect();
        out.insert(
            "glyphs".into(),
            json!({ "known": known, "enabled": g.enabled().collect::<Vec<_>>() }),
        );
    }
    if let Some(t) = game.talents() {
        let perks: BTreeMap<String, u32> = t
            .perks()
            .iter()
            .map(|(id, l)| (id.to_string(), *l))
            .collect();
        out.insert("talents".into(), json!({ "perks": perks }));
    }
    state
}

fn me(game: &GameState) -> Json {
    let me = game.me();
    let mut out = json!({
        "gameId": opt(me.game_id().map(big)),
        "playerId": me.player_id(),
        "serverId": me.server_id(),
        "templateId": me.template_id(),
        "name": me.name(),
        "level": me.level(),
        "class": me.class().map(|c| c.as_str()),
        "race": me.race().map(|r| r.as_str()),
        "gender": me.gender().map(|g| g.as_str()),
        "zone": me.zone(),
        "alive": me.alive(),
        "mounted": me.mounted(),
        "mountId": me.mount_id(),
        "mountSkill": me.mount_skill(),
        "status": me.status(),
        "inCombat": me.in_combat(),
        "onPegasus": me.on_pegasus(),
        "inOpenWorld": me.in_open_world(),
        "inDungeon": me.in_dungeon(),
        "inBattleground": me.in_battleground(),
        "inCivilUnrest": me.in_civil_unrest(),
    });
    if let Some(abnormalities) = me.abnormalities() {
        let now = game.now_ms();
        let map: BTreeMap<String, Json> = abnormalities
            .values()
            .map(|a| {
                // tera-game-state's `remaining` is a BigInt, or the number 0
                // once ended.
                let left = a.remaining(now);
                let remaining = if left > 0 { big(left) } else { json!(0) };
                let data = a.data.as_deref().map_or(Json::Null, abnormality_data);
                let row = json!({ "id": a.id, "stacks": a.stacks, "until": big(a.until), "remaining": remaining, "data": data });
                (a.id.to_string(), row)
            })
            .collect();
        out["abnormalities"] = json!(map);
    }
    out
}

fn abnormality_data(d: &AbnormalityData) -> Json {
    let effects: Vec<Json> = d
        .effects
        .iter()
        .map(|e| json!({ "type": e.kind, "method": e.method, "value": e.value, "tickInterval": e.tick_interval }))
        .collect();
    let mut row = json!({
        "id": d.id, "bySkillCategory": d.by_skill_category, "infinity": d.infinity, "time": d.time,
        "method": d.method, "tickInterval": d.tick_interval, "type": d.kind, "value": d.value,
        "effects": effects,
    });
    named(&mut row, "name", &d.name, "tooltip", &d.tooltip);
    row
}

fn item_data(d: &ItemData) -> Json {
    let mut row =
        json!({ "id": d.id, "combatItemType": d.combat_item_type, "rareGrade": d.rare_grade });
    named(&mut row, "name", &d.name, "tooltip", &d.tooltip);
    row
}

/// The string sheet's columns, present only when the sheet has the row
/// (tera-game-state assigns them only then).
fn named(
    row: &mut Json,
    name_key: &str,
    name: &Option<String>,
    tip_key: &str,
    tip: &Option<String>,
) {
    if let Some(name) = name {
        row[name_key] = json!(name);
    }
    if let Some(tip) = tip {
        row[tip_key] = json!(tip);
    }
}

fn item(i: &Item) -> Json {
    json!({
        "id": i.id, "dbid": big(i.dbid), "slot": i.slot, "amount": i.amount, "enchant": i.enchant,
        "soulbound": i.soulbound, "masterwork": i.masterwork, "awakened": i.awakened,
        "passivitySet": i.passivity_set, "passivitySets": i.passivity_sets,
        "mergedPassivities": i.merged_passivities, "crystals": i.crystals,
        "container": i.container, "pocket": i.pocket,
        "data": i.data.as_deref().map_or(Json::Null, item_data),
    })
}

fn slots(pocket: &Pocket) -> Json {
    let map: BTreeMap<String, Json> = pocket
        .slots
        .iter()
        .map(|(s, i)| (s.to_string(), item(i)))
        .collect();
    json!(map)
}

fn inventory(game: &GameState) -> Json {
    let inv = game.inventory().expect("initialized");
    let pockets: BTreeMap<String, Json> = inv
        .pockets()
        .iter()
        .map(|(index, p)| {
            (
                index.to_string(),
                json!({ "size": p.size, "lootPriority": p.loot_priority, "slots": slots(p) }),
            )
        })
        .collect();
    let mut dbids: Vec<String> = inv.items().map(|i| format!("{}n", i.dbid)).collect();
    dbids.sort();
    json!({
        "money": opt(inv.money().map(big)),
        "tcat": opt(inv.tcat().map(big)),
        "pocketCount": inv.pocket_count(),
        "equipmentItemLevel": inv.equipment_item_level(),
        "totalItemLevel": inv.total_item_level(),
        "weaponEquipped": inv.weapon_equipped(),
        "equipmentPassivities": inv.equipment_passivities(),
        "equipmentCrystals": inv.equipment_crystals(),
        "equipment": { "size": inv.equipment().size, "slots": slots(inv.equipment()) },
        "pockets": pockets,
        "dbids": dbids,
    })
}
