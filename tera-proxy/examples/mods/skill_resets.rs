//! A port of tera-toolbox-mods' `skill-resets`: when a skill's cooldown is
//! reset, say so in the middle of the screen and hide the game's message
//! (unless the settings say to show it too).

use serde::{Deserialize, Serialize};
use tera_data::packets::{s_crest_message, s_dungeon_event_message};
use tera_proxy::{HookError, Mod, ModSettings, Settings, SettingsFile, Setup, Verdict};

/// The `S_CREST_MESSAGE` type of a skill reset.
const RESET: u32 = 6;

/// The mod's settings, kept in `skill-resets.json`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Options {
    /// Let the game's own reset message through too.
    pub show_system_message: bool,
}

impl ModSettings for Options {}

/// The mod's settings and what it saw on one connection.
#[derive(Debug, Default)]
pub struct SkillResets {
    /// The settings.
    pub settings: Settings<Options>,
    /// Resets seen so far.
    pub resets: u32,
}

impl Mod for SkillResets {
    const NAME: &'static str = "skill-resets";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_crest_message::V2>(|me, event, crest| {
            if crest.r#type != RESET {
                return Verdict::Pass;
            }
            me.resets += 1;
            let icon = format!(
                "<img src=\"img://skill__0__{}\" width=\"48\" height=\"48\"/>",
                crest.skill
            );
            let notice = s_dungeon_event_message::V2 {
                r#type: 2,
                chat: false,
                channel: 0,
                message: format!("{icon}<font size=\"24\">&nbsp;Reset</font>").into(),
            };
            if let Err(e) = event.send(&notice) {
                eprintln!("skill-resets: {e}");
            }
            if me.settings.show_system_message {
                Verdict::Pass
            } else {
                Verdict::Block
            }
        }));
        Ok(())
    }
}
