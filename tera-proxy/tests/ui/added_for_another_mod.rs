//! Inside a hook of mod `Mine`, a hook, a command and a timer reaching mod
//! `Other`'s state: the event of `Mine`'s hook adds `Mine`'s only.

use std::time::Duration;

use tera_data::packets::s_chat;
use tera_proxy::{HookError, Mod, Setup, Verdict};

struct Other {
    lines: u32,
}

impl Mod for Other {
    const NAME: &'static str = "other";

    fn install(&mut self, _: &mut Setup<Self>) -> Result<(), HookError> {
        Ok(())
    }
}

struct Mine;

impl Mod for Mine {
    const NAME: &'static str = "mine";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_chat::V4>(|_, event, _| {
            let _ = event.add_hook(Other::raw("S_CHAT", |other, _, _| {
                other.lines += 1;
                Verdict::Pass
            }));
            let _ = event.add_hook(Other::command("lines", |other, cmd| {
                cmd.reply(format!("{}", other.lines));
            }));
            event.set_timeout(Duration::from_secs(1), |other: &mut Other, _| {
                other.lines = 0;
            });
            Verdict::Pass
        }));
        Ok(())
    }
}

fn main() {}
