//! A port of seraphinush-gaming/auto-vanguard: completes Vanguard
//! Initiative quests as soon as the server says they are done (hiding its
//! notice), and the daily and weekly extra rewards half a second later;
//! in a battleground it waits for the next zone change. `!vg` toggles
//! it, `!vg add` / `!vg rm` exclude the current character or include it
//! again.
//!
//! Driven by game state's events: entering the game starts a new list of
//! quests, each zone change completes the waiting ones. The character's
//! name and whether it is in a battleground come from game state too.

use std::collections::BTreeSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tera_data::packets::{
    c_complete_daily_event, c_complete_extra_event, s_complete_event_matching_quest,
};
use tera_game_state::{Game, GameEvent};
use tera_proxy::{Event, HookError, Mod, ModSettings, Settings, SettingsFile, Setup, Verdict};

/// The extra rewards are asked for this long after the quests.
const EXTRA_DELAY: Duration = Duration::from_millis(500);

/// The settings, in `auto-vanguard.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Options {
    /// Whether quests are completed.
    pub enable: bool,
    /// Characters whose quests are left alone.
    pub exclude: BTreeSet<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enable: true,
            exclude: BTreeSet::new(),
        }
    }
}

impl ModSettings for Options {}

/// The mod on one connection.
#[derive(Debug)]
pub struct AutoVanguard {
    game: Game,
    settings: Settings<Options>,
    quests: Vec<i32>,
}

impl AutoVanguard {
    /// The mod, reading `game`.
    pub fn new(game: Game) -> Self {
        AutoVanguard {
            game,
            settings: Settings::default(),
            quests: Vec::new(),
        }
    }

    fn name(&self) -> String {
        self.game.state().me().name().unwrap_or_default().to_owned()
    }

    fn excluded(&self) -> bool {
        self.settings.exclude.contains(&self.name())
    }

    /// Without a data center, whether a zone is a battleground is unknown:
    /// taken as not.
    fn in_battleground(&self) -> bool {
        self.game.state().me().in_battleground().unwrap_or(false)
    }

    fn complete(&mut self, event: &mut Event<'_, Self>) {
        while let Some(id) = self.quests.pop() {
            send(event, &c_complete_daily_event::V1 { id });
        }
        for r#type in [0, 1] {
            event.set_timeout(EXTRA_DELAY, move |_, event| {
                send(event, &c_complete_extra_event::V1 { r#type });
            });
        }
    }
}

fn send<'a, P: tera_data::Packet<'a>>(event: &mut Event<'_, AutoVanguard>, packet: &P) {
    if let Err(e) = event.send(packet) {
        eprintln!("auto-vanguard: {e}");
    }
}

impl Mod for AutoVanguard {
    const NAME: &'static str = "auto-vanguard";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("vg", |me, cmd| {
            let name = me.name();
            match cmd.args().as_slice() {
                [] => {
                    me.settings.enable = !me.settings.enable;
                    let on = if me.settings.enable { "En" } else { "Dis" };
                    cmd.reply(format!("{on}abled"));
                }
                ["add"] => {
                    me.settings.exclude.insert(name.clone());
                    cmd.reply(format!("{name} is excluded from auto-vanguard."));
                }
                ["rm"] if me.settings.exclude.remove(&name) => {
                    cmd.reply(format!("{name} is included in auto-vanguard again."));
                }
                ["rm"] => cmd.reply(format!("{name} was not excluded.")),
                _ => cmd.reply("usage: !vg [add|rm]"),
            }
        }));
        setup.hook(
            self.game
                .on_event(|me: &mut Self, event, game_event| match game_event {
                    GameEvent::EnterGame => {
                        me.quests.clear();
                        if me.excluded() {
                            let name = me.name();
                            event.message(format!("{name} is excluded from auto-vanguard."));
                        }
                    }
                    GameEvent::ChangeZone { .. }
                        if me.settings.enable && !me.in_battleground() && !me.quests.is_empty() =>
                    {
                        me.complete(event);
                    }
                    _ => {}
                }),
        );
        setup.hook(Self::on::<s_complete_event_matching_quest::V1>(
            |me, event, quest| {
                if !me.settings.enable || me.excluded() {
                    return Verdict::Pass;
                }
                me.quests.push(quest.id);
                if !me.in_battleground() {
                    me.complete(event);
                }
                Verdict::Block
            },
        ));
        Ok(())
    }
}
