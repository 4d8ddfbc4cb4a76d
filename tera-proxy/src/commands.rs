//! In-game commands, as tera-toolbox's `command` module: a built-in mod on
//! ordinary hooks. It gives the client a private chat channel of its own
//! (on `S_LOAD_CLIENT_USER_SETTING`); a line typed there, or a line
//! `!name args` in any chat, is blocked (it never reaches the server) and
//! runs the command `name`, with the state of the mod that registered it;
//! the command's replies arrive as lines of that channel.

use tera_data::packets::{c_chat, s_join_private_channel, s_private_chat};
use tera_net::Direction;

pub use crate::chat_link::ChatLink;
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
    /// The line as text (markup removed, entities read).
    line: &'c str,
    /// The line as typed (the chat line's outer tags removed).
    raw: &'c str,
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

    /// The arguments as tera-toolbox gives them to commands: split at
    /// spaces outside tags, with their markup; a chat link (an item, a
    /// quest, a location the player shift-clicked in) is one argument,
    /// `<ChatLinkAction param="1#####12345@...">&lt;Name&gt;</ChatLinkAction>`.
    /// [`links`](Command::links) reads them.
    #[must_use]
    pub fn raw_args(&self) -> Vec<&str> {
        crate::chat_link::split_outside_tags(self.raw)
            .into_iter()
            .skip(1)
            .collect()
    }

    /// The line as typed, the command's name first: the chat line's outer
    /// tags removed, links and entities kept.
    #[must_use]
    pub fn raw_line(&self) -> &str {
        self.raw
    }

    /// The chat links of the line, in order.
    #[must_use]
    pub fn links(&self) -> Vec<ChatLink> {
        ChatLink::find_all(self.raw)
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
        if let Input::Line(raw) = input {
            let line = strip_tags(raw);
            let line = line.trim();
            handler(me, &mut Command { event, line, raw });
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
        let message = chat.message.to_string();
        let text = strip_tags(&message);
        let in_channel = chat.channel == CHAT_CHANNEL;
        let line = if in_channel {
            text.trim()
        } else {
            match text.trim().strip_prefix('!') {
                Some(rest) if !rest.starts_with('!') => rest,
                _ => return Verdict::Pass,
            }
        };
        let raw = strip_outer_tags(&message).trim();
        let raw = if in_channel {
            raw
        } else {
            raw.strip_prefix('!').unwrap_or(raw)
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
                    line: raw.to_owned(),
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

/// A chat line without the tags the client wraps it in (`<FONT>...</FONT>`),
/// as tera-toolbox's command module reads it: tags inside (chat links)
/// are kept.
fn strip_outer_tags(message: &str) -> &str {
    let mut line = message.trim();
    while line.starts_with('<') && !line.starts_with("<ChatLinkAction") {
        let Some(end) = line.find('>') else { break };
        line = line.get(end + 1..).unwrap_or_default();
    }
    while line.ends_with('>') {
        match line.rfind("</") {
            Some(start)
                if line
                    .get(start..)
                    .is_some_and(|tag| !tag.starts_with("</ChatLinkAction")) =>
            {
                line = line.get(..start).unwrap_or_default();
            }
            _ => break,
        }
    }
    line
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
    crate::chat_link::read_entities(&text)
}

#[cfg(test)]
mod tests {
    use super::{strip_outer_tags, strip_tags};

    #[test]
    fn outer_tags_go_and_links_stay() {
        let link = r#"<ChatLinkAction param="1#####12345@6@Ann">&lt;Pie&gt;</ChatLinkAction>"#;
        assert_eq!(
            strip_outer_tags(&format!("<FONT>!loot add {link}</FONT>")),
            format!("!loot add {link}")
        );
        assert_eq!(strip_outer_tags(&format!("<FONT>{link}</FONT>")), link);
        assert_eq!(strip_outer_tags("plain"), "plain");
    }

    #[test]
    fn tags_are_stripped_and_entities_read() {
        assert_eq!(strip_tags("<FONT>!afk on</FONT>"), "!afk on");
        assert_eq!(strip_tags("a &lt;b&gt; &amp; c"), "a <b> & c");
        assert_eq!(strip_tags("plain"), "plain");
    }
}
