//! The state a simulated session keeps consistent across its packets: the
//! player (ids, name, position, skills), what is in sight (NPCs, other
//! players, dropped items), the inventory, the zone and the clock.

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use serde_json::{Value as Json, json};

/// The player.
#[derive(Debug, Clone)]
pub(crate) struct Me {
    pub(crate) game_id: u64,
    pub(crate) player_id: u32,
    pub(crate) server_id: u32,
    pub(crate) template_id: u32,
    pub(crate) name: String,
    pub(crate) skills: Vec<u64>,
    pub(crate) loc: [f64; 3],
    pub(crate) heading: f64,
    pub(crate) level: u32,
}

impl Me {
    /// One of the player's skills (a packed skill id of type 1).
    pub(crate) fn skill(&self) -> u64 {
        self.skills[0]
    }
}

/// Something in sight.
#[derive(Debug, Clone)]
pub(crate) struct Entity {
    pub(crate) game_id: u64,
    pub(crate) template_id: u32,
    pub(crate) zone: u32,
    pub(crate) loc: [f64; 3],
    pub(crate) name: String,
    pub(crate) player_id: u32,
}

/// The whole state.
#[derive(Debug)]
pub(crate) struct World {
    pub(crate) rng: XorShiftRng,
    pub(crate) me: Me,
    pub(crate) npcs: Vec<Entity>,
    pub(crate) users: Vec<Entity>,
    pub(crate) items: Vec<(u32, u64)>,
    pub(crate) zone: u32,
    /// Values of identifier fields, by field name: the game's ids recur
    /// (a quest, a dialog, a guild), so each name keeps a few.
    pools: std::collections::HashMap<String, Vec<u64>>,
    /// Nanoseconds since the Unix epoch.
    pub(crate) time: i64,
    next_id: u64,
    /// Values of fields no scene sets are drawn without their names.
    pub(crate) independent: bool,
}

const NAMES: &[&str] = &[
    "Aerinth",
    "Kaelric",
    "Mistwalker",
    "Lunaria",
    "Torvald",
    "Seraphine",
    "Grimbold",
    "Elowen",
    "Vexxa",
    "Dorian",
    "Nyssa",
    "Bramblefoot",
    "Ysolde",
    "Kazimir",
    "Thalia",
    "Orrin",
];

const WORDS: &[&str] = &[
    "anyone for Shattered Fleet?",
    "lf healer",
    "gg",
    "thanks!",
    "wtb noctenium",
    "selling crafting mats",
    "brb",
    "guild quest today?",
    "where is the vanguard npc",
    "<FONT>need 2 more for RK-9</FONT>",
    "lol",
    "ty for the run",
    "on my way",
];

impl World {
    /// A new world: the player at a starting point, the clock at `start`.
    pub(crate) fn new(seed: u64, start: i64, independent: bool) -> World {
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let game_id =
            (u64::from(rng.random::<u16>()) << 32) | u64::from(rng.random::<u32>()) | (1 << 48);
        let skills = (0..6)
            .map(|k| 0x0400_0000 | u64::from(10_000 + 100 * k + rng.random_range(0..30u32)))
            .collect();
        let name = NAMES
            .choose(&mut rng)
            .copied()
            .unwrap_or("Aerinth")
            .to_owned();
        let me = Me {
            game_id,
            player_id: rng.random_range(1_000_000..9_000_000),
            server_id: rng.random_range(27..40),
            template_id: 10_101 + rng.random_range(0..12u32) * 100,
            name,
            skills,
            loc: [
                f64::from(rng.random_range(-60_000..60_000i32)),
                f64::from(rng.random_range(-60_000..60_000i32)),
                f64::from(rng.random_range(-2_000..4_000i32)),
            ],
            heading: 0.0,
            level: 70,
        };
        let items = (0..24)
            .map(|_| {
                (
                    rng.random_range(100..200_000u32),
                    rng.random_range(1u64 << 40..1u64 << 44),
                )
            })
            .collect();
        World {
            rng,
            me,
            npcs: Vec::new(),
            users: Vec::new(),
            items,
            zone: 7_001,
            pools: std::collections::HashMap::new(),
            time: start,
            next_id: game_id + 1000,
            independent,
        }
    }

    /// Moves the clock on by `min..max` milliseconds.
    pub(crate) fn wait(&mut self, min: i64, max: i64) {
        self.time += self.rng.random_range(min..max) * 1_000_000;
    }

    /// A fresh game id for something that spawns.
    pub(crate) fn new_id(&mut self) -> u64 {
        self.next_id += u64::from(self.rng.random_range(1..50u32));
        self.next_id
    }

    /// The id of someone in sight, or the player.
    pub(crate) fn someone(&mut self) -> u64 {
        let pick = self.rng.random_range(0..3);
        match pick {
            0 => self.npcs.choose(&mut self.rng).map(|e| e.game_id),
            1 => self.users.choose(&mut self.rng).map(|e| e.game_id),
            _ => None,
        }
        .unwrap_or(self.me.game_id)
    }

    /// A value for identifier field `name`: one of the few the session
    /// has used for that name, now and then a new one.
    pub(crate) fn pooled(&mut self, name: &str) -> u64 {
        let pool = self.pools.entry(name.to_owned()).or_default();
        if pool.is_empty() || (pool.len() < 6 && self.rng.random_bool(0.3)) {
            let v = self.rng.random_range(1_000..5_000_000u64);
            pool.push(v);
            v
        } else {
            pool.choose(&mut self.rng).copied().unwrap_or(1_000)
        }
    }

    /// The database id of one of the player's items.
    pub(crate) fn item_dbid(&mut self) -> u64 {
        self.items.choose(&mut self.rng).map_or(1, |i| i.1)
    }

    /// A position within `spread` of the player.
    pub(crate) fn near_me(&mut self, spread: f64) -> Json {
        let mut d = || (f64::from(self.rng.random_range(-1000..1000i32)) / 1000.0 * spread).round();
        let (dx, dy) = (d(), d());
        loc(&[self.me.loc[0] + dx, self.me.loc[1] + dy, self.me.loc[2]])
    }

    /// A string for field `name`: a character name, a chat line, a word.
    pub(crate) fn text_for(&mut self, name: &str) -> String {
        let lower = name.to_ascii_lowercase();
        if lower.contains("name") {
            NAMES
                .choose(&mut self.rng)
                .copied()
                .unwrap_or("Orrin")
                .to_owned()
        } else if lower.contains("message") || lower.contains("text") || lower.contains("body") {
            WORDS
                .choose(&mut self.rng)
                .copied()
                .unwrap_or("gg")
                .to_owned()
        } else if self.rng.random_bool(0.5) {
            String::new()
        } else {
            WORDS
                .choose(&mut self.rng)
                .copied()
                .unwrap_or("ok")
                .to_owned()
        }
    }

    /// A character name other than the player's.
    pub(crate) fn other_name(&mut self) -> String {
        loop {
            let n = NAMES.choose(&mut self.rng).copied().unwrap_or("Orrin");
            if n != self.me.name {
                return n.to_owned();
            }
        }
    }

    /// A chat line.
    pub(crate) fn chat_line(&mut self) -> String {
        WORDS
            .choose(&mut self.rng)
            .copied()
            .unwrap_or("gg")
            .to_owned()
    }
}

/// A position as JSON.
pub(crate) fn loc(at: &[f64; 3]) -> Json {
    json!({"x": at[0] as f32, "y": at[1] as f32, "z": at[2] as f32})
}
