//! A whole scripted session: every packet game state reads, the events it
//! must cause, in order, and what must hold after it.

use tera_game_state::{
    Class, ContractEnd, EntityKind, GameEvent, GameState, Gender, Inventory, LeftMember,
    PartyMember, PerkChange, Race, SessionState,
};

use super::packets::*;

/// One packet of the script.
pub struct Step {
    /// The packet's name.
    pub name: &'static str,
    /// The whole packet (opcode 0: set it from the map).
    pub packet: Vec<u8>,
    /// The events it causes, in order.
    pub events: Vec<GameEvent>,
    /// What must hold after it.
    pub check: fn(&GameState),
}

fn step(
    name: &'static str,
    packet: Vec<u8>,
    events: Vec<GameEvent>,
    check: fn(&GameState),
) -> Step {
    Step {
        name,
        packet,
        events,
        check,
    }
}

fn none(_: &GameState) {}

const OTHER: u64 = 0x0200_0000_0000_0002;
const CID: u64 = 0x0300_0000_0000_0003;
const CID2: u64 = 0x0300_0000_0000_0004;
const DEE: u64 = 0x0300_0000_0000_0005;
const NPC: u64 = 0x0400_0000_0000_0006;
const NODE: u64 = 0x0500_0000_0000_0007;

fn member(game_id: u64, player_id: u32, server_id: u32, name: &str, class: u32) -> PartyMember {
    PartyMember {
        game_id,
        player_id,
        server_id,
        name: name.into(),
        class,
    }
}

/// Login, lobby, the game and back: me, session, abnormalities, party,
/// inventory in several packets, contract, glyphs, talents, position and
/// entities (every submodule on, no data center).
pub fn session() -> Vec<Step> {
    let mut s = login_and_zone();
    s.extend(me_changes());
    s.extend(party_and_inventory());
    s.extend(glyphs_talents_entities());
    s.extend(zone_change_and_leave());
    s
}

fn login_and_zone() -> Vec<Step> {
    vec![
        step(
            "C_LOGIN_ARBITER",
            login_arbiter("account", 2),
            vec![],
            |g| {
                assert_eq!(g.session().account_name(), Some("account"));
                assert_eq!(g.session().language(), Some(2));
                assert_eq!(g.session().state(), SessionState::Invalid);
            },
        ),
        step("S_LOGIN_ACCOUNT_INFO", account_info(77), vec![], |g| {
            assert_eq!(g.session().account_id(), Some(77));
        }),
        step(
            "S_GET_USER_LIST",
            empty(),
            vec![GameEvent::EnterCharacterLobby],
            |g| {
                assert_eq!(g.session().state(), SessionState::CharacterLobby);
                assert!(!g.is_ingame());
                assert_eq!(g.me().game_id(), None);
            },
        ),
        step("S_TBA_SELECT_USER", empty(), vec![], |g| {
            assert!(g.session().is_tba())
        }),
        step("S_SELECT_USER", empty(), vec![], |g| {
            assert!(!g.session().is_tba())
        }),
        step("S_TBA_SELECT_USER", empty(), vec![], |g| {
            assert!(g.session().is_tba())
        }),
        step(
            "S_LOGIN",
            login(10106, "Ann", 64, 0, true),
            vec![
                GameEvent::ChangeTemplate {
                    template_id: 10106,
                    class: Some(Class::Archer),
                    race: Some(Race::Human),
                    gender: Some(Gender::Male),
                },
                GameEvent::EnterLoadingScreen,
                GameEvent::LeaveCharacterLobby,
                GameEvent::EnterGame,
            ],
            |g| {
                let me = g.me();
                assert_eq!(me.game_id(), Some(ME));
                assert!(me.is(ME) && !me.is(OTHER));
                assert_eq!(
                    (me.player_id(), me.server_id()),
                    (Some(PLAYER), Some(SERVER))
                );
                assert_eq!(
                    (me.name(), me.level(), me.template_id()),
                    (Some("Ann"), Some(64), Some(10106))
                );
                assert_eq!(me.class(), Some(Class::Archer));
                assert_eq!((me.alive(), me.status()), (Some(true), Some(0)));
                assert!(g.is_ingame() && g.is_in_loading_screen());
                assert!(!me.in_combat() && !me.mounted() && !me.on_pegasus());
            },
        ),
        step(
            "S_LOAD_TOPO",
            load_topo(7031, v(1.0, 2.0, 3.0), false),
            vec![GameEvent::ChangeZone {
                zone: 7031,
                quick: false,
            }],
            |g| {
                assert_eq!(g.me().zone(), Some(7031));
                // Without a data center the channel type is unknown.
                assert_eq!(g.me().in_open_world(), None);
                assert_eq!(g.me().in_dungeon(), None);
                assert_eq!(g.position().unwrap().loc(), Some(v(1.0, 2.0, 3.0)));
            },
        ),
        step(
            "S_SPAWN_ME",
            spawn_me(v(4.0, 5.0, 6.0), 100, true),
            vec![GameEvent::LeaveLoadingScreen],
            |g| {
                assert!(!g.is_in_loading_screen());
                let pos = g.position().unwrap();
                assert_eq!(
                    (pos.loc(), pos.w().map(|w| w.0)),
                    (Some(v(4.0, 5.0, 6.0)), Some(100))
                );
            },
        ),
        step(
            "C_PLAYER_LOCATION",
            player_location(v(10.0, 20.0, 30.0), 200, v(11.0, 20.0, 30.0)),
            vec![],
            |g| {
                let pos = g.position().unwrap();
                assert_eq!(pos.loc(), Some(v(10.0, 20.0, 30.0)));
                assert_eq!(pos.dest(), Some(v(11.0, 20.0, 30.0)));
                assert_eq!(pos.distance_to(v(13.0, 24.0, 30.0)), Some(5.0));
            },
        ),
        step(
            "S_INSTANT_MOVE",
            instant_move(ME, v(50.0, 60.0, 70.0), -300),
            vec![GameEvent::PositionCorrected {
                loc: v(50.0, 60.0, 70.0),
                w: tera_data::Angle(-300),
            }],
            |g| assert_eq!(g.position().unwrap().loc(), Some(v(50.0, 60.0, 70.0))),
        ),
        step(
            "S_INSTANT_MOVE",
            instant_move(OTHER, v(0.0, 0.0, 0.0), 0),
            vec![],
            |g| {
                assert_eq!(g.position().unwrap().loc(), Some(v(50.0, 60.0, 70.0)));
            },
        ),
    ]
}

fn me_changes() -> Vec<Step> {
    vec![
        step(
            "S_USER_STATUS",
            user_status(ME, 1),
            vec![GameEvent::EnterCombat],
            |g| {
                assert!(g.me().in_combat());
                assert_eq!(g.me().status(), Some(1));
            },
        ),
        step("S_USER_STATUS", user_status(OTHER, 0), vec![], |g| {
            assert!(g.me().in_combat())
        }),
        step(
            "S_USER_STATUS",
            user_status(ME, 0),
            vec![GameEvent::LeaveCombat],
            |g| assert!(!g.me().in_combat()),
        ),
        step(
            "S_USER_STATUS",
            user_status(ME, 3),
            vec![GameEvent::StartPegasus],
            |g| assert!(g.me().on_pegasus()),
        ),
        step(
            "S_USER_STATUS",
            user_status(ME, 1),
            vec![GameEvent::FinishPegasus, GameEvent::EnterCombat],
            |g| {
                assert!(g.me().in_combat() && !g.me().on_pegasus());
            },
        ),
        step(
            "S_USER_STATUS",
            user_status(ME, 0),
            vec![GameEvent::LeaveCombat],
            none,
        ),
        step(
            "S_MOUNT_VEHICLE",
            mount(ME, 100, 12200),
            vec![GameEvent::Mount {
                id: 100,
                skill: 12200,
            }],
            |g| {
                assert!(g.me().mounted());
                assert_eq!(
                    (g.me().mount_id(), g.me().mount_skill()),
                    (Some(100), Some(12200))
                );
            },
        ),
        step("S_MOUNT_VEHICLE", mount(OTHER, 101, 1), vec![], |g| {
            assert_eq!(g.me().mount_id(), Some(100))
        }),
        step(
            "S_UNMOUNT_VEHICLE",
            unmount(ME),
            vec![GameEvent::Dismount],
            |g| {
                assert!(!g.me().mounted());
                assert_eq!(g.me().mount_id(), None);
            },
        ),
        step(
            "S_REQUEST_CONTRACT",
            request_contract(4, 9),
            vec![GameEvent::ContractBegin { kind: 4, id: 9 }],
            |g| {
                let c = g.contract().unwrap();
                assert!(c.active());
                assert_eq!((c.kind(), c.id()), (Some(4), Some(9)));
            },
        ),
        step(
            "S_CREATURE_LIFE",
            creature_life(ME, false),
            vec![GameEvent::Die],
            |g| {
                assert_eq!(g.me().alive(), Some(false));
                // Death ends the contract, without an event.
                assert!(!g.contract().unwrap().active());
            },
        ),
        step("S_CREATURE_LIFE", creature_life(ME, false), vec![], none),
        step(
            "S_CREATURE_LIFE",
            creature_life(ME, true),
            vec![GameEvent::Resurrect],
            |g| {
                assert_eq!(g.me().alive(), Some(true));
            },
        ),
        step(
            "S_REQUEST_CONTRACT",
            request_contract(4, 10),
            vec![GameEvent::ContractBegin { kind: 4, id: 10 }],
            none,
        ),
        step(
            "S_ACCEPT_CONTRACT",
            empty(),
            vec![GameEvent::ContractEnd {
                how: ContractEnd::Accept,
            }],
            |g| {
                assert!(!g.contract().unwrap().active());
            },
        ),
        step(
            "S_REQUEST_CONTRACT",
            request_contract(9, 11),
            vec![GameEvent::ContractBegin { kind: 9, id: 11 }],
            none,
        ),
        step(
            "S_REJECT_CONTRACT",
            empty(),
            vec![GameEvent::ContractEnd {
                how: ContractEnd::Reject,
            }],
            none,
        ),
        step(
            "S_REQUEST_CONTRACT",
            request_contract(9, 12),
            vec![GameEvent::ContractBegin { kind: 9, id: 12 }],
            none,
        ),
        step(
            "S_CANCEL_CONTRACT",
            empty(),
            vec![GameEvent::ContractEnd {
                how: ContractEnd::Cancel,
            }],
            |g| {
                assert_eq!(g.contract().unwrap().id(), None);
            },
        ),
        step(
            "S_USER_LEVELUP",
            levelup(ME, 65),
            vec![GameEvent::ChangeLevel { level: 65 }],
            |g| {
                assert_eq!(g.me().level(), Some(65));
            },
        ),
        step("S_USER_LEVELUP", levelup(OTHER, 70), vec![], |g| {
            assert_eq!(g.me().level(), Some(65))
        }),
        step(
            "S_USER_CHANGE_NAME",
            change_name(ME, "Bea"),
            vec![GameEvent::ChangeName { name: "Bea".into() }],
            |g| {
                assert_eq!(g.me().name(), Some("Bea"));
            },
        ),
        step(
            "TTB_S_CHANGE_HERO",
            change_hero(ME, 10211),
            vec![GameEvent::ChangeTemplate {
                template_id: 10211,
                class: Some(Class::Fighter),
                race: Some(Race::Human),
                gender: Some(Gender::Female),
            }],
            |g| assert_eq!(g.me().class(), Some(Class::Fighter)),
        ),
        step(
            "S_ABNORMALITY_BEGIN",
            abnormality_begin(ME, 4000, 60_000, 1),
            vec![GameEvent::AbnormalityBegin {
                id: 4000,
                stacks: 1,
                duration: 60_000,
            }],
            |g| {
                let a = g.me().abnormality(4000).expect("tracked");
                assert_eq!(a.stacks, 1);
                let left = a.remaining(g.now_ms());
                assert!(left > 50_000 && left <= 60_000, "{left}");
            },
        ),
        step(
            "S_ABNORMALITY_BEGIN",
            abnormality_begin(OTHER, 4001, 1000, 1),
            vec![],
            |g| {
                assert!(g.me().abnormality(4001).is_none());
            },
        ),
        step(
            "S_ABNORMALITY_REFRESH",
            abnormality_refresh(ME, 4000, 30_000, 2),
            vec![GameEvent::AbnormalityRefresh {
                id: 4000,
                stacks: 2,
                duration: 30_000,
            }],
            |g| assert_eq!(g.me().abnormality(4000).map(|a| a.stacks), Some(2)),
        ),
        step(
            "S_ABNORMALITY_END",
            abnormality_end(ME, 4000),
            vec![GameEvent::AbnormalityEnd { id: 4000 }],
            |g| {
                assert!(g.me().abnormalities().unwrap().is_empty());
            },
        ),
    ]
}

fn party_and_inventory() -> Vec<Step> {
    let three = vec![
        member(ME, PLAYER, SERVER, "Bea", 10),
        member(CID, 6, SERVER, "Cid", 0),
        member(DEE, 7, 28, "Dee", 6),
    ];
    let mut fixed = three.clone();
    fixed[1].game_id = CID2;
    let two = vec![fixed[0].clone(), fixed[2].clone()];
    let one = vec![fixed[0].clone()];
    let bag = |first, more, last| ListPart {
        container: 0,
        pocket: 0,
        num_pockets: 2,
        money: 123_456,
        first,
        more,
        last_in_batch: last,
    };
    vec![
        step(
            "S_PARTY_MEMBER_LIST",
            party_list(&[
                (ME, PLAYER, SERVER, "Bea", 10),
                (CID, 6, SERVER, "Cid", 0),
                (DEE, 7, 28, "Dee", 6),
            ]),
            vec![GameEvent::PartyList { members: three }],
            |g| {
                let p = g.party().unwrap();
                assert!(p.in_party() && p.is_member(CID) && !p.is_member(OTHER));
                assert_eq!(p.member(DEE).map(|m| m.name.as_str()), Some("Dee"));
            },
        ),
        step(
            "S_SPAWN_USER",
            spawn_user(CID2, SERVER, 6, "Cid", v(1.0, 1.0, 1.0)),
            vec![
                GameEvent::PartyList { members: fixed },
                GameEvent::Spawn {
                    game_id: CID2,
                    kind: EntityKind::User,
                },
            ],
            |g| {
                assert!(g.party().unwrap().is_member(CID2));
                let e = g.entities().unwrap().get(CID2).expect("in sight");
                assert_eq!(
                    (e.name.as_deref(), e.user),
                    (Some("Cid"), Some((SERVER, 6)))
                );
            },
        ),
        step(
            "S_LEAVE_PARTY_MEMBER",
            leave_party_member(SERVER, 6, "Cid"),
            vec![
                GameEvent::PartyMemberLeave(LeftMember {
                    server_id: SERVER,
                    player_id: 6,
                    name: "Cid".into(),
                    class: Some(0),
                }),
                GameEvent::PartyList { members: two },
            ],
            |g| {
                let p = g.party().unwrap();
                assert!(!p.is_member(CID2) && p.is_member(ME) && p.is_member(DEE));
            },
        ),
        step(
            "S_BAN_PARTY_MEMBER",
            ban_party_member(28, 7, "Dee"),
            vec![
                GameEvent::PartyMemberKick(LeftMember {
                    server_id: 28,
                    player_id: 7,
                    name: "Dee".into(),
                    class: Some(6),
                }),
                GameEvent::PartyList { members: one },
            ],
            |g| assert_eq!(g.party().unwrap().members().len(), 1),
        ),
        step("S_LEAVE_PARTY", empty(), vec![GameEvent::PartyLeave], |g| {
            assert!(!g.party().unwrap().in_party())
        }),
        step(
            "S_INVEN_USERDATA",
            inven_userdata(450.5, 460.0, 12),
            vec![],
            |g| {
                let inv = g.inventory().unwrap();
                assert_eq!(
                    (
                        inv.equipment_item_level(),
                        inv.total_item_level(),
                        inv.tcat()
                    ),
                    (Some(450.5), Some(460.0), Some(12))
                );
            },
        ),
        step(
            "S_ITEMLIST",
            itemlist(
                ListPart {
                    container: 14,
                    pocket: 0,
                    num_pockets: 0,
                    money: 0,
                    first: true,
                    more: false,
                    last_in_batch: false,
                },
                vec![weapon(), item(3, 20001, 1)],
            ),
            vec![],
            |g| {
                let inv = g.inventory().unwrap();
                assert!(inv.weapon_equipped());
                assert_eq!(inv.equipment_items().count(), 2);
                assert_eq!(inv.equipment_passivities(), vec![6, 7]);
                assert_eq!(inv.equipment_crystals(), vec![3001]);
                assert_eq!(inv.money(), None);
            },
        ),
        step(
            "S_ITEMLIST",
            itemlist(
                bag(true, true, false),
                vec![item(0, 6550, 5), item(1, 6551, 1)],
            ),
            vec![],
            |g| {
                // Half a list: nothing is replaced yet.
                assert!(g.inventory().unwrap().bag().is_none());
            },
        ),
        step(
            "S_ITEMLIST",
            itemlist(bag(false, false, false), vec![item(2, 6550, 7)]),
            vec![],
            |g| {
                let inv = g.inventory().unwrap();
                assert_eq!(inv.bag().map(|b| b.slots.len()), Some(3));
                assert_eq!(inv.total_amount_in_bag(&[6550]), 12);
                assert_eq!(inv.total_amount_in_bag(&[6550, 6551]), 13);
                assert_eq!(inv.money(), Some(123_456));
                assert_eq!(
                    inv.find_in_bag(&[6551])
                        .map(|i| (i.slot, i.pocket, i.container)),
                    Some((1, 0, 0))
                );
            },
        ),
        step(
            "S_ITEMLIST",
            itemlist(
                ListPart {
                    pocket: 1,
                    ..bag(true, false, true)
                },
                vec![item(0, 6550, 3)],
            ),
            vec![GameEvent::InventoryUpdate],
            |g| {
                let inv = g.inventory().unwrap();
                assert_eq!(inv.pocket_count(), 2);
                assert_eq!(inv.total_amount_in_pocket(1, &[6550]), 3);
                assert_eq!(inv.total_amount_in_pockets(&[6550]), 3);
                assert_eq!(inv.total_amount_in_bag_or_pockets(&[6550]), 15);
                assert_eq!(inv.total_amount(&[6550, 10001]), 16);
                assert_eq!(inv.find_in_pockets(&[6550]).map(|i| i.pocket), Some(1));
                assert_eq!(inv.by_dbid(1000 + 10001).map(|i| i.id), Some(10001));
                assert_eq!(inv.find_in_equipment(&[6550]), None);
                let in_pocket = inv.find_in_pockets(&[6550]).expect("in pocket 1");
                assert!(
                    Inventory::is_in_pockets(in_pocket) && Inventory::is_in_pocket(in_pocket, 1)
                );
                assert!(
                    Inventory::is_in_bag_or_pockets(in_pocket) && !Inventory::is_in_bag(in_pocket)
                );
                let weapon = inv.find_in_equipment(&[10001]).expect("equipped");
                assert!(
                    Inventory::is_in_equipment(weapon) && !Inventory::is_in_bag_or_pockets(weapon)
                );
                assert_eq!(Inventory::find_all(inv.items(), &[6550]).count(), 3);
            },
        ),
    ]
}

fn glyphs_talents_entities() -> Vec<Step> {
    vec![
        step(
            "S_CREST_INFO",
            crest_info(&[(1, true), (2, false)]),
            vec![GameEvent::GlyphsChange],
            |g| {
                let gl = g.glyphs().unwrap();
                assert!(gl.is_known(2) && !gl.is_enabled(2) && gl.is_enabled(1) && !gl.is_known(3));
            },
        ),
        step(
            "S_CREST_APPLY",
            crest_apply(2, true),
            vec![GameEvent::GlyphsChange],
            |g| {
                assert_eq!(
                    g.glyphs().unwrap().enabled().collect::<Vec<_>>(),
                    vec![1, 2]
                );
            },
        ),
        step(
            "S_LOAD_EP_INFO",
            load_ep_info(&[(10, 1), (11, 2)]),
            vec![GameEvent::ChangePerks {
                how: PerkChange::Init,
            }],
            |g| {
                let t = g.talents().unwrap();
                assert_eq!(
                    (t.perk_level(11), t.perk_level(12), t.has_perk(10)),
                    (2, 0, true)
                );
            },
        ),
        step(
            "S_LEARN_EP_PERK",
            learn_ep_perk(false, &[(99, 1)]),
            vec![],
            |g| assert!(!g.talents().unwrap().has_perk(99)),
        ),
        step(
            "S_LEARN_EP_PERK",
            learn_ep_perk(true, &[(10, 2)]),
            vec![GameEvent::ChangePerks {
                how: PerkChange::Learn,
            }],
            |g| {
                let t = g.talents().unwrap();
                assert_eq!((t.perk_level(10), t.has_perk(11)), (2, false));
            },
        ),
        step(
            "TTB_S_LOAD_EP_PAGE",
            load_ep_page(&[(12, 1)]),
            vec![GameEvent::ChangePerks {
                how: PerkChange::ChangePreset,
            }],
            |g| {
                assert_eq!(g.talents().unwrap().perks().len(), 1);
            },
        ),
        step(
            "S_RESET_EP_PERK",
            reset_ep_perk(true),
            vec![GameEvent::ChangePerks {
                how: PerkChange::Reset,
            }],
            |g| {
                assert!(g.talents().unwrap().perks().is_empty());
            },
        ),
        step(
            "S_SPAWN_NPC",
            spawn_npc(NPC, 1000, 459, v(100.0, 0.0, 0.0)),
            vec![GameEvent::Spawn {
                game_id: NPC,
                kind: EntityKind::Npc,
            }],
            |g| {
                let e = g.entities().unwrap().get(NPC).expect("in sight");
                assert_eq!(
                    (e.template_id, e.hunting_zone_id, e.alive),
                    (1000, 459, true)
                );
            },
        ),
        step(
            "S_NPC_LOCATION",
            npc_location(NPC, v(101.0, 0.0, 0.0), v(120.0, 0.0, 0.0)),
            vec![],
            |g| {
                let e = g.entities().unwrap().get(NPC).expect("in sight");
                assert_eq!(
                    (e.loc, e.dest),
                    (v(101.0, 0.0, 0.0), Some(v(120.0, 0.0, 0.0)))
                );
            },
        ),
        step(
            "S_CREATURE_CHANGE_HP",
            change_hp(NPC, 400, 1000),
            vec![GameEvent::Hp {
                game_id: NPC,
                hp: 400,
                max_hp: 1000,
            }],
            |g| {
                assert_eq!(
                    g.entities().unwrap().get(NPC).and_then(|e| e.hp),
                    Some((400, 1000))
                );
            },
        ),
        step(
            "S_BOSS_GAGE_INFO",
            boss_gage(NPC, 300, 1000),
            vec![GameEvent::Hp {
                game_id: NPC,
                hp: 300,
                max_hp: 1000,
            }],
            none,
        ),
        step(
            "S_CREATURE_LIFE",
            creature_life(NPC, false),
            vec![GameEvent::Life {
                game_id: NPC,
                alive: false,
            }],
            |g| {
                assert!(!g.entities().unwrap().get(NPC).expect("in sight").alive);
                assert_eq!(g.me().alive(), Some(true));
            },
        ),
        step(
            "S_DESPAWN_NPC",
            despawn_npc(NPC),
            vec![GameEvent::Despawn {
                game_id: NPC,
                kind: EntityKind::Npc,
            }],
            |g| {
                assert!(g.entities().unwrap().get(NPC).is_none());
            },
        ),
        step(
            "S_SPAWN_COLLECTION",
            spawn_collection(NODE, 2, v(5.0, 5.0, 5.0)),
            vec![GameEvent::Spawn {
                game_id: NODE,
                kind: EntityKind::Collection,
            }],
            |g| {
                assert_eq!(
                    g.entities()
                        .unwrap()
                        .of_kind(EntityKind::Collection)
                        .count(),
                    1
                );
            },
        ),
        step(
            "S_DESPAWN_COLLECTION",
            despawn_collection(NODE),
            vec![GameEvent::Despawn {
                game_id: NODE,
                kind: EntityKind::Collection,
            }],
            none,
        ),
        step(
            "S_USER_LOCATION",
            user_location(CID2, v(2.0, 2.0, 2.0), v(3.0, 2.0, 2.0)),
            vec![],
            |g| {
                assert_eq!(
                    g.entities().unwrap().get(CID2).map(|e| e.loc),
                    Some(v(2.0, 2.0, 2.0))
                );
            },
        ),
        step(
            "S_DESPAWN_USER",
            despawn_user(CID2),
            vec![GameEvent::Despawn {
                game_id: CID2,
                kind: EntityKind::User,
            }],
            |g| {
                assert!(g.entities().unwrap().is_empty());
            },
        ),
        step(
            "S_SPAWN_NPC",
            spawn_npc(NPC, 1000, 459, v(1.0, 0.0, 0.0)),
            vec![GameEvent::Spawn {
                game_id: NPC,
                kind: EntityKind::Npc,
            }],
            none,
        ),
    ]
}

fn zone_change_and_leave() -> Vec<Step> {
    vec![
        step(
            "S_MOUNT_VEHICLE",
            mount(ME, 100, 12200),
            vec![GameEvent::Mount {
                id: 100,
                skill: 12200,
            }],
            none,
        ),
        step(
            "S_LOAD_TOPO",
            load_topo(9713, v(0.0, 0.0, 0.0), false),
            vec![
                GameEvent::Dismount,
                GameEvent::ChangeZone {
                    zone: 9713,
                    quick: false,
                },
                GameEvent::EnterLoadingScreen,
            ],
            |g| {
                assert_eq!(g.me().zone(), Some(9713));
                assert!(!g.me().mounted() && g.is_in_loading_screen());
                // A new zone: nothing of the old one is in sight.
                assert!(g.entities().unwrap().is_empty());
            },
        ),
        step(
            "S_SPAWN_ME",
            spawn_me(v(0.0, 0.0, 0.0), 0, true),
            vec![GameEvent::LeaveLoadingScreen],
            none,
        ),
        step(
            "S_LOAD_TOPO",
            load_topo(9713, v(9.0, 0.0, 0.0), true),
            vec![GameEvent::EnterLoadingScreen],
            |g| {
                assert_eq!(g.me().zone(), Some(9713));
            },
        ),
        step(
            "S_SPAWN_ME",
            spawn_me(v(9.0, 0.0, 0.0), 0, false),
            vec![GameEvent::Die, GameEvent::LeaveLoadingScreen],
            |g| {
                assert_eq!(g.me().alive(), Some(false));
            },
        ),
        step(
            "S_RETURN_TO_LOBBY",
            empty(),
            vec![GameEvent::LeaveGame, GameEvent::EnterCharacterLobby],
            |g| {
                assert_eq!(g.session().state(), SessionState::CharacterLobby);
                assert_eq!(
                    (g.me().game_id(), g.me().name(), g.me().zone()),
                    (None, None, None)
                );
                assert!(!g.party().unwrap().in_party());
                assert_eq!(g.inventory().unwrap().items().count(), 0);
                assert!(g.glyphs().unwrap().known().is_empty());
                assert!(g.me().abnormalities().is_some_and(|a| a.is_empty()));
            },
        ),
        step(
            "S_LOGIN",
            login(10106, "Bea", 65, 1, false),
            vec![
                GameEvent::ChangeTemplate {
                    template_id: 10106,
                    class: Some(Class::Archer),
                    race: Some(Race::Human),
                    gender: Some(Gender::Male),
                },
                GameEvent::EnterCombat,
                GameEvent::EnterLoadingScreen,
                GameEvent::LeaveCharacterLobby,
                GameEvent::EnterGame,
            ],
            |g| assert_eq!((g.me().alive(), g.me().in_combat()), (Some(false), true)),
        ),
        step("S_EXIT", empty(), vec![GameEvent::LeaveGame], |g| {
            assert_eq!(g.session().state(), SessionState::Invalid);
            assert_eq!(g.me().game_id(), None);
        }),
    ]
}
