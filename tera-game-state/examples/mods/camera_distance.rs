//! A port of seraphinush-gaming/camera-distance: sets the camera's distance
//! a second after each loading screen, to a distance of the character's
//! own or the default. `!cam` toggles it; `!cam N` sets the distance now;
//! `!cam set N` sets the default; `!cam add N` / `!cam rm` give the current
//! character a distance of its own or take it back (from the next
//! loading screen on).
//!
//! Game state gives it the character's name (the original read `S_LOGIN`
//! itself); its settings file replaces the original's rewritten
//! `config.json`.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tera_data::packets::{s_dungeon_camera_set, s_spawn_me};
use tera_game_state::Game;
use tera_proxy::{Event, HookError, Mod, ModSettings, Settings, SettingsFile, Setup, Verdict};

/// The client needs this long after `S_SPAWN_ME` before a camera change
/// holds.
const AFTER_SPAWN: Duration = Duration::from_secs(1);

/// The settings, in `camera-distance.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Options {
    /// Whether the distance is set after loading screens.
    pub enable: bool,
    /// The distance of characters without one of their own.
    pub default_distance: u32,
    /// Distances of characters, by name.
    pub characters: BTreeMap<String, u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enable: true,
            default_distance: 800,
            characters: BTreeMap::new(),
        }
    }
}

impl ModSettings for Options {}

/// The mod on one connection.
#[derive(Debug)]
pub struct CameraDistance {
    game: Game,
    settings: Settings<Options>,
}

impl CameraDistance {
    /// The mod, reading `game`.
    pub fn new(game: Game) -> Self {
        CameraDistance {
            game,
            settings: Settings::default(),
        }
    }

    fn name(&self) -> String {
        self.game.state().me().name().unwrap_or_default().to_owned()
    }

    /// The current character's distance.
    fn distance(&self) -> u32 {
        let own = self.settings.characters.get(&self.name()).copied();
        own.unwrap_or(self.settings.default_distance)
    }
}

fn set_camera(event: &mut Event<'_, CameraDistance>, distance: u32) {
    let camera = s_dungeon_camera_set::V1 {
        enabled: true,
        default: distance,
        max: distance,
    };
    if let Err(e) = event.send(&camera) {
        eprintln!("camera-distance: {e}");
    }
}

impl Mod for CameraDistance {
    const NAME: &'static str = "camera-distance";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("cam", |me, cmd| {
            let args = cmd.args();
            let number = |i: usize| args.get(i).and_then(|a| a.parse::<u32>().ok());
            match (args.first().copied(), number(0), number(1)) {
                (None, ..) => {
                    me.settings.enable = !me.settings.enable;
                    let on = if me.settings.enable { "En" } else { "Dis" };
                    cmd.reply(format!("{on}abled"));
                }
                (Some("add"), _, Some(distance)) => {
                    let name = me.name();
                    me.settings.characters.insert(name.clone(), distance);
                    cmd.reply(format!("Distance of {name} set at {distance}."));
                }
                (Some("rm"), ..) => {
                    let name = me.name();
                    if me.settings.characters.remove(&name).is_some() {
                        cmd.reply(format!("Removed the distance of {name}."));
                    }
                }
                (Some("set"), _, Some(distance)) => {
                    me.settings.default_distance = distance;
                    cmd.reply(format!("Default distance set at {distance}."));
                }
                (_, Some(distance), None) => {
                    set_camera(cmd.event(), distance);
                    cmd.reply(format!("Distance set at {distance}."));
                }
                _ => cmd.reply("usage: !cam [N|add N|rm|set N]"),
            }
        }));
        setup.hook(Self::on::<s_spawn_me::V3>(|me, event, _| {
            if me.settings.enable {
                event.set_timeout(AFTER_SPAWN, |me, event| set_camera(event, me.distance()));
            }
            Verdict::Pass
        }));
        Ok(())
    }
}
