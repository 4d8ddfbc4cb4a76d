//! In-game commands, as tera-toolbox's `command` module: the proxy gives
//! the client a private chat channel of its own; a line typed there, or a
//! line `!name args` in any chat, runs the mod's command `name` instead of
//! reaching the server, and the command's replies arrive as lines of that
//! channel.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tera_data::packets::{c_chat, s_join_private_channel, s_private_chat};
use tera_net::Direction;
use tera_packets::Packet;

use crate::event::{Changes, Event, Injection, Scene};
use crate::faults::{Fault, panic_message};
use crate::id::{HookId, ModId};
use crate::slot::{ModInfo, ModSlot};

/// The private channel slot the proxy's channel takes (of the client's 8).
pub const CHANNEL_INDEX: i32 = 7;
/// The id of the proxy's channel: one no server hands out.
pub const CHANNEL_ID: i32 = -2;
/// The name of the proxy's channel in the client.
pub const CHANNEL_NAME: &str = "Proxy";
/// The `C_CHAT` channel of private channel slot `CHANNEL_INDEX`.
const CHAT_CHANNEL: u32 = 11 + CHANNEL_INDEX as u32;

/// A command being run: its arguments, and replies to the player.
pub struct Command<'c, 'e> {
    pub(crate) event: &'c mut Event<'e>,
    pub(crate) line: &'c str,
}

impl core::fmt::Debug for Command<'_, '_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Command")
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

impl<'e> Command<'_, 'e> {
    /// The words typed after the command's name.
    #[must_use]
    pub fn args(&self) -> Vec<&str> {
        self.line.split_whitespace().skip(1).collect()
    }

    /// The whole line typed, the command's name first (without `!`).
    #[must_use]
    pub fn line(&self) -> &str {
        self.line
    }

    /// Sends `text` to the player, as a line of the proxy's channel.
    pub fn reply(&mut self, text: impl Into<String>) {
        let line = s_private_chat::V1 {
            channel: CHANNEL_ID as u32,
            author_id: 0,
            author_name: "".into(),
            message: text.into().into(),
        };
        if let Err(e) = self.event.send_to(Direction::ServerToClient, &line) {
            tracing::warn!(error = %e, "cannot send a command's reply");
        }
    }

    /// The event of the chat line: send packets, add hooks.
    pub fn event(&mut self) -> &mut Event<'e> {
        self.event
    }
}

/// A command handler, as [`Mod::command`](crate::Mod::command) wraps it.
type Handler = Box<dyn FnMut(&mut Command<'_, '_>) + Send>;

/// An in-game command to register ([`Mod::command`](crate::Mod::command)).
pub struct CommandSpec {
    pub(crate) name: String,
    pub(crate) handler: Handler,
}

impl core::fmt::Debug for CommandSpec {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CommandSpec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl CommandSpec {
    pub(crate) fn new(name: &str, handler: Handler) -> CommandSpec {
        CommandSpec {
            name: name.to_lowercase(),
            handler,
        }
    }
}

/// A registered command.
pub(crate) struct CommandEntry {
    pub(crate) id: HookId,
    pub(crate) owner: ModInfo,
    pub(crate) spec: CommandSpec,
}

/// What the commands did with a packet.
pub(crate) enum Dispatch {
    /// Not a command line: the hooks see it.
    Pass,
    /// A command line: run (or answered as unknown), and blocked.
    Handled,
    /// A command line whose handler (of that mod) panicked (blocked too).
    Panicked(Fault, ModInfo),
}

/// The commands of a connection.
#[derive(Default)]
pub(crate) struct Commands {
    entries: Vec<CommandEntry>,
}

impl Commands {
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn add(&mut self, entry: CommandEntry) {
        self.entries.push(entry);
    }

    pub(crate) fn remove_mod(&mut self, id: ModId) {
        self.entries.retain(|c| c.owner.id != id);
    }

    /// Joins the client to the proxy's channel when the server sends the
    /// client's settings (the client is then ready for channels), and runs
    /// the command of a chat line.
    pub(crate) fn dispatch(
        &mut self,
        scene: Scene<'_>,
        packet: &[u8],
        mods: &mut [ModSlot],
        injected: &mut Vec<Injection>,
        changes: &mut Changes,
    ) -> Dispatch {
        if self.entries.is_empty() || scene.fake {
            return Dispatch::Pass;
        }
        match scene.name {
            Some("S_LOAD_CLIENT_USER_SETTING") => {
                let mut event = Event::new(scene, HookId(u64::MAX), None, injected, changes, None);
                join_channel(&mut event);
                Dispatch::Pass
            }
            Some("C_CHAT") => match c_chat::V1::decode(packet) {
                Ok(chat) => {
                    let text = strip_tags(&chat.message.to_string());
                    self.run_line(scene, chat.channel, &text, mods, injected, changes)
                }
                Err(_) => Dispatch::Pass,
            },
            _ => Dispatch::Pass,
        }
    }

    fn run_line(
        &mut self,
        scene: Scene<'_>,
        channel: u32,
        text: &str,
        mods: &mut [ModSlot],
        injected: &mut Vec<Injection>,
        changes: &mut Changes,
    ) -> Dispatch {
        let in_channel = channel == CHAT_CHANNEL;
        let line = if in_channel {
            text.trim()
        } else {
            match text.trim().strip_prefix('!') {
                Some(rest) if !rest.starts_with('!') => rest,
                _ => return Dispatch::Pass,
            }
        };
        let name = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let Some(entry) = self.entries.iter_mut().find(|c| c.spec.name == name) else {
            if in_channel {
                let mut event = Event::new(scene, HookId(u64::MAX), None, injected, changes, None);
                let mut command = Command {
                    event: &mut event,
                    line,
                };
                command.reply(format!("unknown command: {name}"));
                return Dispatch::Handled;
            }
            // `!word` that no mod owns is an ordinary chat line.
            return Dispatch::Pass;
        };
        let state = mods
            .iter_mut()
            .find(|m| m.info.id == entry.owner.id)
            .map(|m| &mut *m.state);
        let mut event = Event::new(scene, entry.id, Some(entry.owner), injected, changes, state);
        let handler = &mut entry.spec.handler;
        let result = catch_unwind(AssertUnwindSafe(|| {
            handler(&mut Command {
                event: &mut event,
                line,
            });
        }));
        match result {
            Ok(()) => Dispatch::Handled,
            Err(payload) => Dispatch::Panicked(
                Fault {
                    module: Some(entry.owner.name.to_owned()),
                    hook: entry.id,
                    target: format!("command {name}"),
                    packet: "C_CHAT".to_owned(),
                    dir: scene.dir,
                    message: panic_message(&*payload),
                },
                entry.owner,
            ),
        }
    }
}

/// Injects the proxy's channel to the client.
fn join_channel(event: &mut Event<'_>) {
    let join = s_join_private_channel::V2 {
        index: CHANNEL_INDEX,
        channel_id: CHANNEL_ID,
        unk: Default::default(),
        name: CHANNEL_NAME.into(),
    };
    if let Err(e) = event.send_to(Direction::ServerToClient, &join) {
        tracing::warn!(error = %e, "cannot join the client to the proxy's channel");
    }
}

/// The text of a chat line without its markup (the client wraps what the
/// player types in `<FONT>` tags) and with `&amp;`-style entities read.
fn strip_tags(message: &str) -> String {
    let mut text = String::with_capacity(message.len());
    let mut in_tag = false;
    for c in message.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::strip_tags;

    #[test]
    fn tags_are_stripped_and_entities_read() {
        assert_eq!(strip_tags("<FONT>!afk on</FONT>"), "!afk on");
        assert_eq!(strip_tags("a &lt;b&gt; &amp; c"), "a <b> & c");
        assert_eq!(strip_tags("plain"), "plain");
    }
}
