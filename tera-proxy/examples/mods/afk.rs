//! An away-from-keyboard mod: `!afk on|off` in chat; while on, every
//! whisper is answered once per sender with an injected reply.

use tera_data::packets::{c_whisper, s_whisper};
use tera_proxy::{HookError, Mod, Setup, Verdict};

/// The mod's state on one connection.
#[derive(Debug, Default)]
pub struct Afk {
    /// Whether whispers are answered.
    pub on: bool,
    /// Who was answered since `!afk on`.
    pub answered: Vec<String>,
}

impl Mod for Afk {
    const NAME: &'static str = "afk";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("afk", |me, cmd| {
            match cmd.args().as_slice() {
                ["on"] => me.on = true,
                ["off"] => me.on = false,
                _ => return cmd.reply("usage: !afk on|off"),
            }
            me.answered.clear();
            cmd.reply(format!("afk is {}", if me.on { "on" } else { "off" }));
        }));
        setup.hook(Self::on::<s_whisper::V4>(|me, event, whisper| {
            let (from, to) = (whisper.name.to_string(), whisper.recipient.to_string());
            // The server echoes our own replies: their recipient was answered.
            if !me.on || me.answered.contains(&from) || me.answered.contains(&to) {
                return Verdict::Pass;
            }
            let reply = c_whisper::V2 {
                target_server: whisper.sender_server_id,
                target: from.clone().into(),
                message: "I am away from the keyboard.".into(),
            };
            if let Err(e) = event.send(&reply) {
                eprintln!("afk: {e}");
            }
            me.answered.push(from);
            Verdict::Pass
        }));
        Ok(())
    }
}
