//! A port of seraphinush-gaming/EnrageNotifier: says when a boss enrages,
//! counts the last seconds of the enrage down and, when it ends, at which
//! HP the next one comes (every 10%); silent in Harrowhold. `!enrage`
//! toggles it, `!enrage notice` puts the messages on screen rather than in
//! chat, `!enrage status` shows both.
//!
//! Game state gives it the zone (`me().zone()`), the boss's HP as the
//! entities hold it (boss HP bars and HP changes alike) and the bosses'
//! despawns, which the original hooked itself.

use std::collections::HashSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tera_data::packets::{s_boss_gage_info, s_dungeon_event_message, s_npc_status};
use tera_game_state::{Game, GameEvent};
use tera_proxy::{
    Event, HookError, Mod, ModSettings, Settings, SettingsFile, Setup, TimerId, Verdict,
};

/// Harrowhold, whose bosses enrage on a schedule of their own.
const HARROWHOLD: i32 = 9950;
/// The countdown starts this long before the enrage ends.
const COUNTDOWN: Duration = Duration::from_secs(10);

/// The settings, in `enrage-notifier.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Options {
    /// Whether the mod says anything.
    pub enable: bool,
    /// Count the enrage's last seconds down (added in version 2).
    pub countdown: bool,
    /// On screen rather than in the proxy's chat channel.
    pub notice: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enable: true,
            countdown: true,
            notice: false,
        }
    }
}

impl ModSettings for Options {
    const VERSION: u32 = 2;

    fn migrate(version: u32, data: serde_json::Value) -> Result<Self, String> {
        #[derive(Deserialize)]
        struct V1 {
            enable: bool,
            notice: bool,
        }
        match version {
            1 => {
                let old: V1 = serde_json::from_value(data).map_err(|e| e.to_string())?;
                Ok(Options {
                    enable: old.enable,
                    countdown: true,
                    notice: old.notice,
                })
            }
            _ => Err(format!("no migration from version {version}")),
        }
    }
}

/// The mod on one connection.
#[derive(Debug)]
pub struct EnrageNotifier {
    game: Game,
    settings: Settings<Options>,
    bosses: HashSet<u64>,
    enraged: bool,
    timers: Vec<TimerId>,
}

impl EnrageNotifier {
    /// The mod, reading `game`.
    pub fn new(game: Game) -> Self {
        EnrageNotifier {
            game,
            settings: Settings::default(),
            bosses: HashSet::new(),
            enraged: false,
            timers: Vec::new(),
        }
    }

    fn active(&self) -> bool {
        self.settings.enable && self.game.state().me().zone() != Some(HARROWHOLD)
    }

    fn say(&self, event: &mut Event<'_, Self>, text: &str) {
        if !self.settings.notice {
            return event.message(text);
        }
        let notice = s_dungeon_event_message::V2 {
            r#type: 31,
            chat: false,
            channel: 27,
            message: text.into(),
        };
        if let Err(e) = event.send(&notice) {
            eprintln!("enrage-notifier: {e}");
        }
    }

    fn clear_timers(&mut self, event: &mut Event<'_, Self>) {
        for id in self.timers.drain(..) {
            event.clear_timer(id);
        }
    }

    /// The boss's HP in percent, as game state last saw it.
    fn hp_percent(&self, boss: u64) -> Option<i64> {
        let game = self.game.state();
        let (hp, max) = game.entities()?.get(boss)?.hp?;
        (max > 0).then(|| hp * 100 / max)
    }

    fn on_status(&mut self, event: &mut Event<'_, Self>, status: &s_npc_status::V2) {
        if !self.active() || !self.bosses.contains(&status.game_id) {
            return;
        }
        if status.enraged && !self.enraged {
            self.enraged = true;
            self.say(event, "Boss enraged");
            if self.settings.countdown {
                let left = u64::try_from(status.remaining_enrage_time).unwrap_or(0);
                let wait = Duration::from_millis(left).saturating_sub(COUNTDOWN);
                let id = event.set_timeout(wait, |me, event| me.count_down(event));
                self.timers.push(id);
            }
        } else if !status.enraged && self.enraged {
            let hp = self.hp_percent(status.game_id).unwrap_or(0);
            if hp == 100 {
                return;
            }
            self.enraged = false;
            let next = if hp > 10 { hp - 10 } else { 0 };
            self.say(event, &format!("Next enrage at {next}%."));
            self.clear_timers(event);
        }
    }

    fn count_down(&mut self, event: &mut Event<'_, Self>) {
        let mut left = 9;
        let id = event.set_interval(Duration::from_millis(990), move |me, event| {
            if me.enraged && left > 0 {
                me.say(event, &format!("Seconds remaining : {left}"));
                left -= 1;
            } else {
                me.clear_timers(event);
            }
        });
        self.timers.push(id);
    }
}

impl Mod for EnrageNotifier {
    const NAME: &'static str = "enrage-notifier";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("enrage", |me, cmd| {
            let on = |b: bool| if b { "enabled" } else { "disabled" };
            match cmd.args().as_slice() {
                [] => {
                    me.settings.enable = !me.settings.enable;
                    cmd.reply(format!("Enrage notifier {}", on(me.settings.enable)));
                }
                ["notice"] => {
                    me.settings.notice = !me.settings.notice;
                    cmd.reply(format!("Notice to screen {}", on(me.settings.notice)));
                }
                ["status"] => cmd.reply(format!(
                    "Enrage message {}, notice to screen {}",
                    on(me.settings.enable),
                    on(me.settings.notice)
                )),
                _ => cmd.reply("usage: !enrage [notice|status]"),
            }
        }));
        setup.hook(
            self.game
                .on_event(|me: &mut Self, event, game_event| match game_event {
                    GameEvent::ChangeZone { .. } => me.clear_timers(event),
                    GameEvent::Despawn { game_id, .. } if me.bosses.remove(game_id) => {
                        me.enraged = false;
                        me.clear_timers(event);
                    }
                    _ => {}
                }),
        );
        setup.hook(Self::on::<s_boss_gage_info::V3>(|me, _, gage| {
            if me.active() {
                me.bosses.insert(gage.id);
            }
            Verdict::Pass
        }));
        setup.hook(Self::on::<s_npc_status::V2>(|me, event, status| {
            me.on_status(event, status);
            Verdict::Pass
        }));
        Ok(())
    }
}
