//! A port of seraphinush-gaming/auto-loot: picks up the items on the
//! ground within reach (120 units), one every `loot_timeout` ms while
//! there are some in reach, looking again every `loot_interval` ms; not
//! while mounted, nor in combat unless told to; never the blacklisted
//! items. `!loot` toggles it; `!loot combat` toggles looting in combat;
//! `!loot blacklist add|rm ID` (an id or the item's chat link, as the
//! original) and `!loot blacklist list`; `!loot recent` lists what it
//! picked up; `!loot set delay|interval N`.
//!
//! Game state gives it the player's position (the original tracked
//! `C_PLAYER_LOCATION` itself), whether the player is mounted or in
//! combat, and the loading screens that clear the ground.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tera_data::Vec3;
use tera_data::packets::{c_try_loot_dropitem, s_despawn_dropitem, s_spawn_dropitem};
use tera_game_state::{Game, GameEvent, distance};
use tera_proxy::commands::ChatLink;
use tera_proxy::{
    Event, HookError, Mod, ModSettings, Settings, SettingsFile, Setup, TimerId, Verdict,
};

/// How near an item must be to be picked up.
const REACH: f32 = 120.0;

/// The settings, in `auto-loot.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Options {
    /// Whether items are picked up.
    pub enabled: bool,
    /// Whether items are picked up in combat.
    pub loot_in_combat: bool,
    /// How often to look for items in reach, in ms.
    pub loot_interval: u64,
    /// How long after one pick-up the next is tried, in ms.
    pub loot_timeout: u64,
    /// Item ids never picked up.
    pub blacklist: Vec<i32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enabled: false,
            loot_in_combat: false,
            loot_interval: 300,
            loot_timeout: 120,
            // Scroll of Resurrection, the motes (Rejuvenation, HP, MP,
            // Resistance, Healing, Arun's Vitae I-XV, Arun's Tear,
            // Inversion), Argon essences.
            blacklist: [7214, 8000, 8001, 8002, 8003, 8004, 8005]
                .into_iter()
                .chain(8008..=8023)
                .chain([46701, 602172, 602173, 602174, 602175])
                .collect(),
        }
    }
}

impl ModSettings for Options {}

/// An item on the ground.
#[derive(Debug)]
struct Drop {
    item: i32,
    loc: Vec3,
    /// Tries so far: the least tried is tried first.
    tries: u32,
}

/// The mod on one connection.
#[derive(Debug)]
pub struct AutoLoot {
    game: Game,
    settings: Settings<Options>,
    drops: HashMap<u64, Drop>,
    /// Items picked up, by id: when last.
    recent: HashMap<i32, Instant>,
    interval: Option<TimerId>,
    timeout: Option<TimerId>,
}

impl AutoLoot {
    /// The mod, reading `game`.
    pub fn new(game: Game) -> Self {
        AutoLoot {
            game,
            settings: Settings::default(),
            drops: HashMap::new(),
            recent: HashMap::new(),
            interval: None,
            timeout: None,
        }
    }

    fn start_interval(&mut self, event: &mut Event<'_, Self>) {
        let period = Duration::from_millis(self.settings.loot_interval);
        self.interval = Some(event.set_interval(period, |me, event| me.loot(event)));
    }

    fn stop(&mut self, event: &mut Event<'_, Self>) {
        for id in [self.interval.take(), self.timeout.take()]
            .into_iter()
            .flatten()
        {
            event.clear_timer(id);
        }
    }

    /// The nearest-to-first item in reach, if the player may loot now.
    fn in_reach(&self) -> Option<u64> {
        let game = self.game.state();
        let me = game.me();
        if (!self.settings.loot_in_combat && me.in_combat()) || me.mounted() {
            return None;
        }
        let at = game.position()?.loc()?;
        self.drops
            .iter()
            .filter(|(_, d)| distance(at, d.loc) <= REACH)
            .min_by_key(|(id, d)| (d.tries, **id))
            .map(|(id, _)| *id)
    }

    fn loot(&mut self, event: &mut Event<'_, Self>) {
        self.timeout = None;
        let Some(game_id) = self.in_reach() else {
            if self.interval.is_none() {
                self.start_interval(event);
            }
            return;
        };
        if let Err(e) = event.send(&c_try_loot_dropitem::V4 { game_id }) {
            eprintln!("auto-loot: {e}");
        }
        if let Some(drop) = self.drops.get_mut(&game_id) {
            drop.tries += 1;
            self.recent.insert(drop.item, Instant::now());
        }
        if let Some(id) = self.interval.take() {
            event.clear_timer(id);
        }
        let delay = Duration::from_millis(self.settings.loot_timeout);
        self.timeout = Some(event.set_timeout(delay, |me, event| me.loot(event)));
    }

    fn run_command(&mut self, args: &[&str], event: &mut Event<'_, Self>) -> String {
        let on = |b: bool| if b { "enabled" } else { "disabled" };
        match args {
            [] => {
                self.settings.enabled = !self.settings.enabled;
                if !self.settings.enabled {
                    self.stop(event);
                } else if !self.drops.is_empty() {
                    self.start_interval(event);
                }
                format!("Auto-loot {}", on(self.settings.enabled))
            }
            ["combat"] => {
                self.settings.loot_in_combat = !self.settings.loot_in_combat;
                format!("Looting in combat {}", on(self.settings.loot_in_combat))
            }
            ["blacklist", "add", id] => match id.parse::<i32>() {
                Ok(id) => {
                    self.settings.blacklist.push(id);
                    format!("Added {id} to the blacklist.")
                }
                Err(_) => "usage: !loot blacklist add <item id>".into(),
            },
            ["blacklist", "rm", id] => match id.parse::<i32>() {
                Ok(id) => {
                    self.settings.blacklist.retain(|&i| i != id);
                    format!("Removed {id} from the blacklist.")
                }
                Err(_) => "usage: !loot blacklist rm <item id>".into(),
            },
            ["blacklist", "list"] => {
                self.settings.blacklist.sort_unstable();
                self.settings.blacklist.dedup();
                format!("Blacklist: {:?}", self.settings.blacklist)
            }
            ["recent"] => {
                let mut recent: Vec<_> = self.recent.iter().collect();
                recent.sort_by_key(|(_, at)| std::cmp::Reverse(**at));
                let lines: Vec<String> = recent
                    .iter()
                    .map(|(id, at)| format!("{id} ({} min ago)", at.elapsed().as_secs() / 60))
                    .collect();
                format!("Recently looted: {}", lines.join(", "))
            }
            ["set", what @ ("delay" | "interval"), n] => match n.parse() {
                Ok(ms) if *what == "delay" => {
                    self.settings.loot_timeout = ms;
                    format!("Loot delay set to {ms} ms.")
                }
                Ok(ms) => {
                    self.settings.loot_interval = ms;
                    format!("Scan interval set to {ms} ms.")
                }
                Err(_) => format!("usage: !loot set {what} <ms>"),
            },
            _ => "usage: !loot [blacklist|combat|recent|set]".into(),
        }
    }
}

impl Mod for AutoLoot {
    const NAME: &'static str = "auto-loot";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("loot", |me, cmd| {
            // An item shift-clicked into the line counts as its id.
            let args: Vec<String> = (cmd.raw_args().into_iter())
                .map(
                    |arg| match ChatLink::find_all(arg).first().and_then(ChatLink::id) {
                        Some(id) => id.to_string(),
                        None => arg.to_owned(),
                    },
                )
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let reply = me.run_command(&args, cmd.event());
            cmd.reply(reply);
        }));
        setup.hook(self.game.on_event(|me: &mut Self, event, game_event| {
            if *game_event == GameEvent::EnterLoadingScreen {
                me.stop(event);
                me.drops.clear();
            }
        }));
        setup.hook(Self::on::<s_spawn_dropitem::V9>(|me, event, drop| {
            if me.settings.blacklist.contains(&drop.item) {
                return Verdict::Pass;
            }
            let (item, loc) = (drop.item, drop.loc);
            me.drops.insert(
                drop.game_id,
                Drop {
                    item,
                    loc,
                    tries: 0,
                },
            );
            if me.settings.enabled && me.interval.is_none() && me.timeout.is_none() {
                me.start_interval(event);
            }
            Verdict::Pass
        }));
        setup.hook(Self::on::<s_despawn_dropitem::V4>(|me, event, drop| {
            me.drops.remove(&drop.game_id);
            if me.settings.enabled && me.drops.is_empty() {
                me.stop(event);
            }
            Verdict::Pass
        }));
        Ok(())
    }
}
