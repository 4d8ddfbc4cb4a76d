//! In-game commands, as tera-toolbox's `command` module: a built-in mod on
//! ordinary hooks. It gives the client a private chat channel of its own
//! (on `S_LOAD_CLIENT_USER_SETTING`); a line typed there, or a line
//! `!name args` in any chat, is blocked (it never reaches the server) and
//! runs the command `name`, with the state of the mod that registered it;
//! the command's replies arrive as lines of that channel.

use tera_data::packets::{c_chat, s_join_private_channel, s_private_chat};
use tera_net::Direction;

use crate::event::{Call, Event, Input};
use crate::hooks::{Hook, call_fn};
use crate::id::HookId;
use crate::meta::{HookKind, HookMeta};
use crate::verdict::Verdict;

/// The private channel slot the proxy's channel takes (of the client's 8).
pub const CHANNEL_INDEX: i32 = 7;
/// The id of the proxy's channel: one no server hands out.
pub const CHANNEL_ID: i32 = -2;
/// The name of the proxy's channel in the client.
pub const CHANNEL_NAME: &str = "Proxy";
/// The `C_CHAT` channel of private channel slot `CHANNEL_INDEX`.
const CHAT_CHANNEL: u32 = 11 + CHANNEL_INDEX as u32;

/// A command being run, by a handler of mod `M`: its arguments, and
/// replies to the player.
pub struct Command<'c, 'e, M = ()> {
    event: &'c mut Event<'e, M>,
    line: &'c str,
}

impl<M> core::fmt::Debug for Command<'_, '_, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Command")
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

impl<'e, M> Command<'_, 'e, M> {
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
        reply(self.event, text.into());
    }

    /// The event of the chat line: send packets, add hooks and timers of
    /// the mod.
    pub fn event(&mut self) -> &mut Event<'e, M> {
        self.event
    }
}

/// A command hook of mod `M`: `handler` runs on the lines of command
/// `name` ([`Mod::command`](crate::Mod::command)).
pub(crate) fn command_hook<M: 'static>(
    name: &str,
    mut handler: impl FnMut(&mut M, &mut Command<'_, '_, M>) + Send + 'static,
) -> Hook<M> {
    let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
        if let Input::Line(line) = input {
            handler(me, &mut Command { event, line });
        }
        Some((Verdict::Pass, None))
    });
    Hook::from_parts(
        HookMeta::new(Some(name.to_lowercase()), HookKind::Command),
        f,
    )
}

/// The state of the built-in command mod: the commands of the connection
/// by name, in the order they were added (when two mods add the same name,
/// the first added runs).
#[derive(Debug, Default)]
pub(crate) struct Commands {
    table: Vec<(String, HookId)>,
}

impl Commands {
    pub(crate) fn register(&mut self, name: &str, hook: HookId) {
        self.table.push((name.to_owned(), hook));
    }

    pub(crate) fn unregister(&mut self, hook: HookId) {
        self.table.retain(|(_, h)| *h != hook);
    }

    fn find(&self, name: &str) -> Option<HookId> {
        self.table.iter().find(|(n, _)| n == name).map(|(_, h)| *h)
    }
}

/// The hooks of the built-in command mod: the command lines, first of every
/// hook, and the channel's join.
pub(crate) fn builtin_hooks() -> [Hook<Commands>; 2] {
    let lines = Hook::on_state::<c_chat::V1>(|commands: &mut Commands, event, chat| {
        let text = strip_tags(&chat.message.to_string());
        let in_channel = chat.channel == CHAT_CHANNEL;
        let line = if in_channel {
            text.trim()
        } else {
            match text.trim().strip_prefix('!') {
                Some(rest) if !rest.starts_with('!') => rest,
                _ => return Verdict::Pass,
            }
        };
        let name = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_lowercase();
        match commands.find(&name) {
            Some(hook) => {
                event.cx.changes.calls.push_back(Call::Command {
                    hook,
                    line: line.to_owned(),
                });
                Verdict::Block
            }
            None if in_channel => {
                reply(event, format!("unknown command: {name}"));
                Verdict::Block
            }
            // `!word` that no mod owns is an ordinary chat line.
            None => Verdict::Pass,
        }
    })
    .order(i32::MIN);
    let join = Hook::raw_state(
        "S_LOAD_CLIENT_USER_SETTING",
        |_: &mut Commands, event, _| {
            join_channel(event);
            Verdict::Pass
        },
    );
    [lines, join]
}

impl<M> Event<'_, M> {
    /// Sends `text` to the player as a line of the proxy's channel, from
    /// any hook, timer or subscriber (tera-toolbox's `command.message`).
    pub fn message(&mut self, text: impl Into<String>) {
        reply(self, text.into());
    }
}

/// Sends `text` to the player as a line of the proxy's channel.
fn reply<M>(event: &mut Event<'_, M>, text: String) {
    let line = s_private_chat::V1 {
        channel: CHANNEL_ID as u32,
        author_id: 0,
        author_name: "".into(),
        message: text.into(),
    };
    if let Err(e) = event.send_to(Direction::ServerToClient, &line) {
        tracing::warn!(error = %e, "cannot send a command's reply");
    }
}

/// Joins the client to the proxy's channel (the server has sent the
/// client's settings: the client is ready for channels).
fn join_channel<M>(event: &mut Event<'_, M>) {
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
