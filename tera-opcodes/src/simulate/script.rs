//! The scenes of a session, played in the order a game client and server
//! play them: the login, the character list, entering the world, then
//! moving, chatting, fighting (skills, their results, abnormalities),
//! spawns and despawns, the inventory, NPC dialogs, a party, a dungeon,
//! and back to the lobby. Each scene sets the fields that tie its packets
//! to the world; the fill gives the rest.

use rand::RngExt;
use rand::seq::IndexedRandom;
use serde_json::{Value as Json, json};

use super::Play;
use super::world::{Entity, loc};

/// A 64-bit id as the JSON form writes it.
fn id(v: u64) -> Json {
    Json::String(v.to_string())
}

impl Play<'_> {
    /// The login, up to the player standing in the world.
    pub(crate) fn login(&mut self) {
        let me = self.world.me.clone();
        self.send("C_CHECK_VERSION", &[(
            "version",
            json!([{"index": 0, "value": self.protocol.revision as i32}, {"index": 1, "value": 0x0102_0304}]),
        )]);
        self.send("S_CHECK_VERSION", &[("ok", json!(1))]);
        self.send(
            "C_LOGIN_ARBITER",
            &[
                ("name", json!("account1234")),
                ("language", json!(2)),
                ("patchVersion", json!(10002)),
            ],
        );
        let mut burst: Vec<(&str, Vec<(&str, Json)>)> = vec![
            ("S_LOADING_SCREEN_CONTROL_INFO", vec![]),
            ("S_REMAIN_PLAY_TIME", vec![]),
            ("S_LOGIN_ARBITER", vec![("success", json!(true))]),
            (
                "S_LOGIN_ACCOUNT_INFO",
                vec![("serverName", json!("PlanetDB_27"))],
            ),
            ("S_ACCOUNT_PACKAGE_LIST", vec![]),
        ];
        self.shuffle_burst(&mut burst);
        for (name, set) in burst {
            self.send(name, &set);
        }
        self.wait(200, 900);
        self.character_list();
        self.wait(1_000, 4_000);
        self.send(
            "C_SELECT_USER",
            &[("id", json!(me.player_id)), ("unk", json!(0))],
        );
        self.send(
            "S_LOGIN",
            &[
                ("gameId", id(me.game_id)),
                ("playerId", json!(me.player_id)),
                ("serverId", json!(me.server_id)),
                ("templateId", json!(me.template_id)),
                ("name", json!(me.name)),
                ("level", json!(me.level)),
                ("loc", loc(&me.loc)),
            ],
        );
        self.enter_zone(false);
    }

    /// The lobby asks for the character list, and the server sends it.
    fn character_list(&mut self) {
        let me = self.world.me.clone();
        self.send("C_GET_USER_LIST", &[]);
        let characters: Vec<Json> = (0..3)
            .map(|k| {
                if k == 0 {
                    json!({"id": me.player_id, "name": me.name, "level": me.level, "serverId": me.server_id})
                } else {
                    json!({"id": me.player_id + k, "name": self.world.other_name(), "level": 60 + k})
                }
            })
            .collect();
        self.send(
            "S_GET_USER_LIST",
            &[("characters", Json::Array(characters))],
        );
    }

    /// A zone loads: the topology, what the client needs, the spawn.
    fn enter_zone(&mut self, quick: bool) {
        let me = self.world.me.clone();
        self.send(
            "S_LOAD_TOPO",
            &[
                ("zone", json!(self.world.zone)),
                ("loc", loc(&me.loc)),
                ("quick", json!(quick)),
            ],
        );
        if !quick {
            let items: Vec<Json> = self
                .world
                .items
                .clone()
                .iter()
                .enumerate()
                .map(|(k, (item, dbid))| json!({"id": item, "dbid": id(*dbid), "ownerId": me.player_id, "slot": k, "amount": 1}))
                .collect();
            self.send(
                "S_ITEMLIST",
                &[("gameId", id(me.game_id)), ("items", Json::Array(items))],
            );
            let skills: Vec<Json> = me
                .skills
                .iter()
                .map(|s| json!({"id": id(*s), "active": true}))
                .collect();
            self.send("S_SKILL_LIST", &[("skills", Json::Array(skills))]);
            // The rest of the burst, in the order the game sends it.
            // Discovery's login order (`GameRules`) is a real session's,
            // not read from here, and this burst does not follow it: the
            // rule says nothing on these sessions, for or against.
            let mut burst = [
                "S_AVAILABLE_SOCIAL_LIST",
                "S_CREST_INFO",
                "S_F2P_PremiumUser_Permission",
                "S_LOAD_CLIENT_ACCOUNT_SETTING",
                "S_LOAD_CLIENT_USER_SETTING",
                "S_USER_BLOCK_LIST",
                "S_FRIEND_LIST",
                "S_LOAD_EP_INFO",
                "S_LOAD_ACHIEVEMENT_LIST",
                "S_DUNGEON_COOL_TIME_LIST",
                "S_LOAD_TELEPORT_TO_POS_LIST",
                "S_VILLAGE_LIST_TO_TELEPORT",
                "S_PREMIUM_SLOT_DATALIST",
                "S_FONT_SWAP_INFO",
                "S_SHOW_USER_EP_INFO",
            ];
            self.shuffle_burst(&mut burst);
            for name in burst {
                self.send(name, &[]);
            }
            self.stats();
        }
        self.wait(2_000, 8_000);
        self.send("C_LOAD_TOPO_FIN", &[]);
        self.send(
            "S_SPAWN_ME",
            &[
                ("gameId", id(me.game_id)),
                ("loc", loc(&me.loc)),
                ("alive", json!(true)),
            ],
        );
        self.send(
            "S_CURRENT_CHANNEL",
            &[("zone", json!(self.world.zone)), ("channel", json!(1))],
        );
        self.send(
            "C_VISIT_NEW_SECTION",
            &[("mapId", json!(self.world.zone / 1000))],
        );
        self.send(
            "S_VISIT_NEW_SECTION",
            &[("mapId", json!(self.world.zone / 1000))],
        );
    }

    fn stats(&mut self) {
        let me = self.world.me.clone();
        self.send("S_PLAYER_STAT_UPDATE", &[("level", json!(me.level))]);
        self.send("S_PLAYER_CHANGE_MP", &[("target", id(me.game_id))]);
    }

    /// One scene of play, chosen at random.
    pub(crate) fn scene(&mut self) {
        let pick = self.world.rng.random_range(0..100);
        match pick {
            0..=29 => self.walk(),
            30..=44 => self.fight(),
            45..=54 => self.spawns(),
            55..=61 => self.chat(),
            62..=67 => self.inventory(),
            68..=72 => self.npc_dialog(),
            73..=77 => self.party(),
            78..=81 => self.ping(),
            82..=85 => self.social(),
            86..=88 => self.dungeon(),
            _ => self.misc(),
        }
    }

    /// The player moves: client positions every 100 ms or so, the same
    /// path continued; others in sight move too.
    fn walk(&mut self) {
        let steps = self.world.rng.random_range(5..30);
        let heading = f64::from(self.world.rng.random_range(-3141..3141i32)) / 1000.0;
        for _ in 0..steps {
            let me = &mut self.world.me;
            me.heading = heading;
            me.loc[0] += 20.0 * heading.cos();
            me.loc[1] += 20.0 * heading.sin();
            let here = me.loc;
            let dest = [
                here[0] + 20.0 * heading.cos(),
                here[1] + 20.0 * heading.sin(),
                here[2],
            ];
            let kind = if self.world.rng.random_bool(0.8) {
                0
            } else {
                7
            };
            self.send(
                "C_PLAYER_LOCATION",
                &[
                    ("loc", loc(&here)),
                    ("dest", loc(&dest)),
                    ("w", json!(heading)),
                    ("lookDirection", json!(heading)),
                    ("type", json!(kind)),
                    ("time", json!((self.world.time / 1_000_000) as u32)),
                ],
            );
            if let Some(user) = self.world.users.choose(&mut self.world.rng).cloned()
                && self.world.rng.random_bool(0.4)
            {
                self.send(
                    "S_USER_LOCATION",
                    &[
                        ("gameId", id(user.game_id)),
                        ("loc", loc(&user.loc)),
                        ("dest", loc(&user.loc)),
                    ],
                );
            }
            if let Some(npc) = self.world.npcs.choose(&mut self.world.rng).cloned()
                && self.world.rng.random_bool(0.4)
            {
                self.send(
                    "S_NPC_LOCATION",
                    &[
                        ("gameId", id(npc.game_id)),
                        ("loc", loc(&npc.loc)),
                        ("dest", loc(&npc.loc)),
                    ],
                );
            }
            self.wait(80, 160);
        }
        if self.world.rng.random_bool(0.2) {
            self.send(
                "S_CREATURE_ROTATE",
                &[("gameId", id(self.world.me.game_id)), ("w", json!(heading))],
            );
        }
    }

    fn spawn_npc(&mut self) -> Entity {
        let game_id = self.world.new_id();
        let template_id = self.world.rng.random_range(1000..3000);
        let at = [
            self.world.me.loc[0] + f64::from(self.world.rng.random_range(-800..800i32)),
            self.world.me.loc[1] + f64::from(self.world.rng.random_range(-800..800i32)),
            self.world.me.loc[2],
        ];
        let npc = Entity {
            game_id,
            template_id,
            zone: self.world.zone,
            loc: at,
            name: String::new(),
            player_id: 0,
        };
        self.send(
            "S_SPAWN_NPC",
            &[
                ("gameId", id(game_id)),
                ("loc", loc(&at)),
                ("templateId", json!(template_id)),
                ("huntingZoneId", json!(npc.zone % 1000)),
                ("visible", json!(true)),
                ("npcName", json!("")),
            ],
        );
        self.world.npcs.push(npc.clone());
        npc
    }

    fn spawns(&mut self) {
        for _ in 0..self.world.rng.random_range(1..4) {
            self.spawn_npc();
            self.wait(10, 200);
        }
        if self.world.rng.random_bool(0.6) {
            let game_id = self.world.new_id();
            let user = Entity {
                game_id,
                template_id: 10_101,
                zone: self.world.zone,
                loc: self.world.me.loc,
                name: self.world.other_name(),
                player_id: self.world.rng.random_range(1_000_000..9_000_000),
            };
            self.send(
                "S_SPAWN_USER",
                &[
                    ("gameId", id(game_id)),
                    ("playerId", json!(user.player_id)),
                    ("serverId", json!(self.world.me.server_id)),
                    ("loc", loc(&user.loc)),
                    ("name", json!(user.name)),
                    ("alive", json!(true)),
                    ("visible", json!(true)),
                ],
            );
            self.world.users.push(user);
        }
        if self.world.npcs.len() > 6 {
            let npc = self.world.npcs.remove(0);
            self.send(
                "S_DESPAWN_NPC",
                &[
                    ("gameId", id(npc.game_id)),
                    ("loc", loc(&npc.loc)),
                    ("type", json!(1)),
                ],
            );
        }
        if self.world.users.len() > 4 {
            let user = self.world.users.remove(0);
            self.send(
                "S_DESPAWN_USER",
                &[("gameId", id(user.game_id)), ("type", json!(0))],
            );
        }
    }

    /// A skill used on an NPC: the request, the stages, the hits, the HP,
    /// the cooldown, an abnormality now and then; the NPC may die and drop
    /// loot, which the player picks up.
    fn fight(&mut self) {
        let npc = match self.world.npcs.choose(&mut self.world.rng).cloned() {
            Some(n) => n,
            None => self.spawn_npc(),
        };
        let me = self.world.me.clone();
        let skill = *me
            .skills
            .choose(&mut self.world.rng)
            .unwrap_or(&me.skills[0]);
        let action = u32::try_from(self.world.new_id() & 0xffff_ffff).unwrap_or(1);
        self.send(
            "C_START_SKILL",
            &[
                ("skill", json!({"raw": skill.to_string()})),
                ("w", json!(me.heading)),
                ("loc", loc(&me.loc)),
                ("dest", loc(&npc.loc)),
                ("target", id(npc.game_id)),
            ],
        );
        let stage = &[
            ("gameId", id(me.game_id)),
            ("loc", loc(&me.loc)),
            ("w", json!(me.heading)),
            ("templateId", json!(me.template_id)),
            ("skill", json!({"raw": skill.to_string()})),
            ("id", json!(action)),
            ("target", id(npc.game_id)),
            ("speed", json!(1.2)),
            ("projectileSpeed", json!(1.0)),
            ("effectScale", json!(1.0)),
        ];
        self.send("S_ACTION_STAGE", stage);
        let cooldown = self.world.rng.random_range(1000..12000);
        self.send_sometimes(
            "S_START_COOLTIME_SKILL",
            &[
                ("skill", json!({"raw": skill.to_string()})),
                ("cooldown", json!(cooldown)),
            ],
        );
        self.hits(&npc, skill, action);
        self.send(
            "S_ACTION_END",
            &[
                ("gameId", id(me.game_id)),
                ("loc", loc(&me.loc)),
                ("w", json!(me.heading)),
                ("templateId", json!(me.template_id)),
                ("skill", json!({"raw": skill.to_string()})),
                ("id", json!(action)),
            ],
        );
        if self.world.rng.random_bool(0.3) {
            self.abnormality();
        }
        if self.world.rng.random_bool(0.3) {
            self.send(
                "S_CREATURE_LIFE",
                &[
                    ("gameId", id(npc.game_id)),
                    ("loc", loc(&npc.loc)),
                    ("alive", json!(false)),
                ],
            );
            self.world.npcs.retain(|n| n.game_id != npc.game_id);
            self.send(
                "S_DESPAWN_NPC",
                &[
                    ("gameId", id(npc.game_id)),
                    ("loc", loc(&npc.loc)),
                    ("type", json!(5)),
                ],
            );
            self.loot(&npc);
        }
        self.wait(200, 1200);
    }

    /// A skill's hits on an NPC: each result and the HP it takes.
    fn hits(&mut self, npc: &Entity, skill: u64, action: u32) {
        let me = self.world.me.clone();
        let hits = self.world.rng.random_range(1..4);
        for _ in 0..hits {
            self.wait(100, 400);
            let damage = self.world.rng.random_range(10_000..900_000u64);
            self.send(
                "S_EACH_SKILL_RESULT",
                &[
                    ("source", id(me.game_id)),
                    ("owner", id(me.game_id)),
                    ("target", id(npc.game_id)),
                    ("templateId", json!(me.template_id)),
                    ("skill", json!({"raw": skill.to_string()})),
                    ("id", json!(action)),
                    ("value", id(damage)),
                    ("type", json!(1)),
                ],
            );
            self.send(
                "S_CREATURE_CHANGE_HP",
                &[
                    ("target", id(npc.game_id)),
                    ("source", id(me.game_id)),
                    ("diff", Json::String(format!("-{damage}"))),
                ],
            );
        }
    }

    /// A buff on the player: it begins, may be refreshed, and ends.
    fn abnormality(&mut self) {
        let me = self.world.me.clone();
        let abnormality = self.world.rng.random_range(100_000..999_999u32);
        self.send(
            "S_ABNORMALITY_BEGIN",
            &[
                ("target", id(me.game_id)),
                ("source", id(me.game_id)),
                ("id", json!(abnormality)),
                ("duration", id(5000)),
            ],
        );
        self.wait(500, 3000);
        if self.world.rng.random_bool(0.5) {
            self.send(
                "S_ABNORMALITY_REFRESH",
                &[
                    ("target", id(me.game_id)),
                    ("id", json!(abnormality)),
                    ("duration", id(5000)),
                ],
            );
        }
        self.send(
            "S_ABNORMALITY_END",
            &[("target", id(me.game_id)), ("id", json!(abnormality))],
        );
    }

    fn loot(&mut self, npc: &Entity) {
        let drop = self.world.new_id();
        let item = self.world.rng.random_range(100..200_000u32);
        let me = self.world.me.clone();
        self.send(
            "S_SPAWN_DROPITEM",
            &[
                ("gameId", id(drop)),
                ("loc", loc(&npc.loc)),
                ("item", json!(item)),
                ("amount", json!(1)),
                ("source", id(npc.game_id)),
                ("owners", json!([me.player_id])),
            ],
        );
        self.wait(300, 2000);
        self.send("C_TRY_LOOT_DROPITEM", &[("gameId", id(drop))]);
        self.send_sometimes("S_DESPAWN_DROPITEM", &[("gameId", id(drop))]);
        self.send(
            "S_SYSTEM_MESSAGE_LOOT_ITEM",
            &[("item", json!(item)), ("amount", json!(1))],
        );
        let dbid = self.world.rng.random_range(1u64 << 40..1u64 << 44);
        self.world.items.push((item, dbid));
        // A full bag: the oldest item is sold.
        if self.world.items.len() > 40 {
            self.world.items.remove(0);
        }
    }

    fn chat(&mut self) {
        let me = self.world.me.clone();
        let line = self.world.chat_line();
        let channel = *[0u32, 1, 2, 3].choose(&mut self.world.rng).unwrap_or(&0);
        self.send(
            "C_CHAT",
            &[("channel", json!(channel)), ("message", json!(line))],
        );
        self.send(
            "S_CHAT",
            &[
                ("channel", json!(channel)),
                ("gameId", id(me.game_id)),
                ("playerId", json!(me.player_id)),
                ("serverId", json!(me.server_id)),
                ("name", json!(me.name)),
                ("message", json!(line)),
            ],
        );
        if self.world.rng.random_bool(0.5)
            && let Some(user) = self.world.users.choose(&mut self.world.rng).cloned()
        {
            let line = self.world.chat_line();
            self.send(
                "S_CHAT",
                &[
                    ("channel", json!(channel)),
                    ("gameId", id(user.game_id)),
                    ("playerId", json!(user.player_id)),
                    ("serverId", json!(me.server_id)),
                    ("name", json!(user.name)),
                    ("message", json!(line)),
                ],
            );
        }
        if self.world.rng.random_bool(0.3) {
            let to = self.world.other_name();
            let line = self.world.chat_line();
            self.send(
                "C_WHISPER",
                &[("target", json!(to)), ("message", json!(line))],
            );
            self.send(
                "S_WHISPER",
                &[
                    ("gameId", id(me.game_id)),
                    ("name", json!(me.name)),
                    ("recipient", json!(to)),
                    ("message", json!(line)),
                ],
            );
        }
        self.wait(500, 5000);
    }

    fn inventory(&mut self) {
        let me = self.world.me.clone();
        self.send(
            "C_SHOW_ITEMLIST",
            &[
                ("gameId", id(me.game_id)),
                ("container", json!(0)),
                ("pocket", json!(0)),
                ("requested", json!(true)),
            ],
        );
        let items: Vec<Json> = self
            .world
            .items
            .clone()
            .iter()
            .enumerate()
            .map(|(k, (item, dbid))| json!({"id": item, "dbid": id(*dbid), "ownerId": me.player_id, "slot": k, "amount": 1}))
            .collect();
        self.send(
            "S_ITEMLIST",
            &[
                ("gameId", id(me.game_id)),
                ("items", Json::Array(items)),
                ("requested", json!(true)),
            ],
        );
        if let Some(&(item, dbid)) = self.world.items.choose(&mut self.world.rng) {
            self.wait(500, 3000);
            self.send(
                "C_USE_ITEM",
                &[
                    ("gameId", id(me.game_id)),
                    ("id", json!(item)),
                    ("dbid", id(dbid)),
                    ("loc", loc(&me.loc)),
                    ("w", json!(me.heading)),
                    ("amount", json!(1)),
                ],
            );
            self.send_sometimes(
                "S_START_COOLTIME_ITEM",
                &[("item", json!(item)), ("cooldown", json!(30))],
            );
        }
        if self.world.rng.random_bool(0.3) {
            self.send(
                "C_MERGE_ITEM",
                &[
                    ("pocketFrom", json!(0)),
                    ("slotFrom", json!(3)),
                    ("pocketTo", json!(0)),
                    ("slotTo", json!(7)),
                ],
            );
        }
        if self.world.rng.random_bool(0.2) && self.world.items.len() > 4 {
            let (_, dbid) = self.world.items.remove(0);
            self.send(
                "C_DEL_ITEM",
                &[
                    ("gameId", id(me.game_id)),
                    ("pocket", json!(0)),
                    ("slot", json!(0)),
                    ("amount", json!(1)),
                ],
            );
            let _ = dbid;
        }
        self.wait(500, 3000);
    }

    fn npc_dialog(&mut self) {
        let npc = self.spawn_npc();
        let me = self.world.me.clone();
        self.send("C_NPC_CONTACT", &[("gameId", id(npc.game_id))]);
        let dialog = self.world.rng.random_range(1..100_000u32);
        self.send(
            "S_DIALOG",
            &[("gameId", id(npc.game_id)), ("id", json!(dialog))],
        );
        self.wait(1000, 4000);
        self.send("C_DIALOG", &[("id", json!(dialog)), ("index", json!(1))]);
        if self.world.rng.random_bool(0.5) {
            self.send("S_STORE_SELL_LIST", &[("cid", id(me.game_id))]);
        }
    }

    fn party(&mut self) {
        let me = self.world.me.clone();
        let Some(user) = self.world.users.choose(&mut self.world.rng).cloned() else {
            return;
        };
        self.send(
            "C_REQUEST_PARTY_INFO",
            &[
                ("playerId", json!(user.player_id)),
                ("serverId", json!(me.server_id)),
            ],
        );
        self.send("S_PARTY_INFO", &[]);
        self.send(
            "C_REQUEST_USER_PAPERDOLL_INFO",
            &[
                ("serverId", json!(me.server_id)),
                ("name", json!(user.name)),
            ],
        );
        self.send(
            "S_USER_PAPERDOLL_INFO",
            &[
                ("gameId", id(user.game_id)),
                ("playerId", json!(user.player_id)),
                ("serverId", json!(me.server_id)),
                ("name", json!(user.name)),
            ],
        );
        if self.world.rng.random_bool(0.5) {
            self.send("S_PARTY_MEMBER_LIST", &[]);
            self.send(
                "S_PARTY_MEMBER_CHANGE_HP",
                &[
                    ("playerId", json!(user.player_id)),
                    ("serverId", json!(me.server_id)),
                ],
            );
        }
        self.wait(500, 3000);
    }

    fn ping(&mut self) {
        self.send("C_REQUEST_GAMESTAT_PING", &[]);
        self.wait(20, 90);
        self.send("S_RESPONSE_GAMESTAT_PONG", &[]);
        self.stats();
    }

    fn social(&mut self) {
        let me = self.world.me.clone();
        let emote = self.world.rng.random_range(1..40);
        self.send("C_SOCIAL", &[("emote", json!(emote))]);
        self.send(
            "S_SOCIAL",
            &[("target", id(me.game_id)), ("animation", json!(emote))],
        );
    }

    /// A dungeon: the zone changes, a boss spawns and is fought.
    fn dungeon(&mut self) {
        let me = self.world.me.clone();
        self.send(
            "S_DUNGEON_EVENT_MESSAGE",
            &[("message", json!("@dungeon:9777"))],
        );
        self.world.zone = 9_000 + self.world.rng.random_range(700..800u32);
        self.world.npcs.clear();
        self.world.users.clear();
        self.enter_zone(true);
        self.send_sometimes("S_DUNGEON_CAMERA_SET", &[("enabled", json!(true))]);
        let boss = self.spawn_npc();
        self.send(
            "S_BOSS_GAGE_INFO",
            &[
                ("id", id(boss.game_id)),
                ("templateId", json!(boss.template_id)),
                ("target", id(me.game_id)),
            ],
        );
        for _ in 0..3 {
            self.fight();
        }
        self.send(
            "S_DUNGEON_CLEAR_COUNT_LIST",
            &[("pid", json!(me.player_id))],
        );
    }

    fn misc(&mut self) {
        let me = self.world.me.clone();
        match self.world.rng.random_range(0..6) {
            0 => self.send(
                "S_SYSTEM_MESSAGE",
                &[("message", json!("@1234\u{b}UserName\u{b}Kaelric"))],
            ),
            1 => self.send(
                "S_USER_STATUS",
                &[("gameId", id(me.game_id)), ("status", json!(1))],
            ),
            2 => self.send("S_PLAYER_CHANGE_EXP", &[]),
            3 => self.send("S_UPDATE_FRIEND_INFO", &[]),
            4 => self.send("C_SET_VISIBLE_RANGE", &[("range", json!(2500))]),
            _ => self.send("S_USER_EXTERNAL_CHANGE", &[("gameId", id(me.game_id))]),
        }
    }

    /// Back to the character list: the server counts down (the world
    /// goes on meanwhile), sends the player back, and the lobby asks for
    /// the list again.
    pub(crate) fn logout(&mut self) {
        self.send("C_RETURN_TO_LOBBY", &[]);
        self.send("S_PREPARE_RETURN_TO_LOBBY", &[]);
        self.wait(1_000, 2_500);
        if self.world.rng.random_bool(0.5) {
            self.spawns();
        }
        self.wait(1_000, 2_500);
        self.send("S_RETURN_TO_LOBBY", &[]);
        self.wait(500, 1_500);
        self.character_list();
    }
}

/// Every name a scene sends (the others are the packets no scene plays,
/// interleaved by `Perturbation::unknown_packets`); a name added to a
/// scene goes here too.
pub(crate) const PLAYED: &[&str] = &[
    "C_CHAT",
    "C_CHECK_VERSION",
    "C_DEL_ITEM",
    "C_DIALOG",
    "C_GET_USER_LIST",
    "C_LOAD_TOPO_FIN",
    "C_LOGIN_ARBITER",
    "C_MERGE_ITEM",
    "C_NPC_CONTACT",
    "C_PLAYER_LOCATION",
    "C_REQUEST_GAMESTAT_PING",
    "C_REQUEST_PARTY_INFO",
    "C_REQUEST_USER_PAPERDOLL_INFO",
    "C_RETURN_TO_LOBBY",
    "C_SELECT_USER",
    "C_SET_VISIBLE_RANGE",
    "C_SHOW_ITEMLIST",
    "C_SOCIAL",
    "C_START_SKILL",
    "C_TRY_LOOT_DROPITEM",
    "C_USE_ITEM",
    "C_VISIT_NEW_SECTION",
    "C_WHISPER",
    "S_ABNORMALITY_BEGIN",
    "S_ABNORMALITY_END",
    "S_ABNORMALITY_REFRESH",
    "S_ACTION_END",
    "S_ACTION_STAGE",
    "S_AVAILABLE_SOCIAL_LIST",
    "S_BOSS_GAGE_INFO",
    "S_CHAT",
    "S_CHECK_VERSION",
    "S_CREATURE_CHANGE_HP",
    "S_CREATURE_LIFE",
    "S_CREATURE_ROTATE",
    "S_CREST_INFO",
    "S_CURRENT_CHANNEL",
    "S_DESPAWN_DROPITEM",
    "S_DESPAWN_NPC",
    "S_DESPAWN_USER",
    "S_DIALOG",
    "S_DUNGEON_CAMERA_SET",
    "S_DUNGEON_CLEAR_COUNT_LIST",
    "S_DUNGEON_COOL_TIME_LIST",
    "S_DUNGEON_EVENT_MESSAGE",
    "S_EACH_SKILL_RESULT",
    "S_F2P_PremiumUser_Permission",
    "S_FONT_SWAP_INFO",
    "S_FRIEND_LIST",
    "S_GET_USER_LIST",
    "S_ITEMLIST",
    "S_LOAD_ACHIEVEMENT_LIST",
    "S_LOAD_CLIENT_ACCOUNT_SETTING",
    "S_LOAD_CLIENT_USER_SETTING",
    "S_LOAD_EP_INFO",
    "S_LOAD_TELEPORT_TO_POS_LIST",
    "S_LOAD_TOPO",
    "S_LOGIN",
    "S_LOGIN_ACCOUNT_INFO",
    "S_NPC_LOCATION",
    "S_PARTY_INFO",
    "S_PARTY_MEMBER_CHANGE_HP",
    "S_PARTY_MEMBER_LIST",
    "S_PLAYER_CHANGE_EXP",
    "S_PLAYER_CHANGE_MP",
    "S_PLAYER_STAT_UPDATE",
    "S_PREMIUM_SLOT_DATALIST",
    "S_PREPARE_RETURN_TO_LOBBY",
    "S_RESPONSE_GAMESTAT_PONG",
    "S_RETURN_TO_LOBBY",
    "S_SHOW_USER_EP_INFO",
    "S_SKILL_LIST",
    "S_SOCIAL",
    "S_SPAWN_DROPITEM",
    "S_SPAWN_ME",
    "S_SPAWN_NPC",
    "S_SPAWN_USER",
    "S_START_COOLTIME_ITEM",
    "S_START_COOLTIME_SKILL",
    "S_STORE_SELL_LIST",
    "S_SYSTEM_MESSAGE",
    "S_SYSTEM_MESSAGE_LOOT_ITEM",
    "S_UPDATE_FRIEND_INFO",
    "S_USER_BLOCK_LIST",
    "S_USER_EXTERNAL_CHANGE",
    "S_USER_LOCATION",
    "S_USER_PAPERDOLL_INFO",
    "S_USER_STATUS",
    "S_VILLAGE_LIST_TO_TELEPORT",
    "S_VISIT_NEW_SECTION",
    "S_WHISPER",
];
