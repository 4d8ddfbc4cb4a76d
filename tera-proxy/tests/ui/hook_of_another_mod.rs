//! A hook made with mod `Other`'s state, registered by mod `Mine`: the
//! setup of `Mine` takes `Hook<Mine>` only.

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
        setup.hook(Other::on::<s_chat::V4>(|other, _, _| {
            other.lines += 1;
            Verdict::Pass
        }));
        Ok(())
    }
}

fn main() {}
