//! Mods: types with their own state, one value per connection, whose hooks
//! and commands reach that state.

use tera_packets::PacketType;

use crate::commands::{Command, CommandSpec};
use crate::event::Event;
use crate::hooks::{Hook, RawPacket, Verdict};

/// A mod, as tera-toolbox's: a type holding its state, one value per
/// connection, whose hooks and commands get `&mut` that value.
///
/// ```
/// use tera_data::packets::s_chat;
/// use tera_proxy::{Hook, Mod, Setup, Verdict};
///
/// #[derive(Default)]
/// struct Counter {
///     lines: u32,
/// }
///
/// impl Mod for Counter {
///     const NAME: &'static str = "counter";
///
///     fn install(&mut self, setup: &mut Setup) -> Result<(), tera_proxy::HookError> {
///         setup.hook(Self::on::<s_chat::V4>(|counter, _, chat| {
///             counter.lines += 1;
///             chat.message = format!("{} ({})", chat.message, counter.lines).into();
///             Verdict::Changed
///         }));
///         setup.command(Self::command("lines", |counter, cmd| {
///             cmd.reply(format!("{} chat lines so far", counter.lines));
///         }));
///         Ok(())
///     }
/// }
/// ```
pub trait Mod: Send + Sized + 'static {
    /// The mod's name, in logs and fault reports.
    const NAME: &'static str;

    /// Registers the mod's hooks and commands on a new connection; `self`
    /// is the connection's value of the mod, which its hooks then get.
    ///
    /// # Errors
    /// [`HookError`](crate::HookError): the mod is not installed.
    fn install(&mut self, setup: &mut Setup) -> Result<(), crate::HookError>;

    /// A hook on packet type `P`, as [`Hook::on`], whose function also gets
    /// the mod's state.
    fn on<P: PacketType + 'static>(
        mut hook: impl for<'e, 'p> FnMut(&mut Self, &mut Event<'e>, &mut P::At<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook {
        Hook::on::<P>(move |event, packet| {
            event.with_state(Verdict::Pass, |state: &mut Self, event| {
                hook(state, event, packet)
            })
        })
        .of_state::<Self>(Self::NAME)
    }

    /// A raw hook, as [`Hook::raw`], whose function also gets the mod's
    /// state.
    fn raw(
        name: &str,
        mut hook: impl FnMut(&mut Self, &mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send + 'static,
    ) -> Hook {
        Hook::raw(name, move |event, packet| {
            event.with_state(Verdict::Pass, |state: &mut Self, event| {
                hook(state, event, packet)
            })
        })
        .of_state::<Self>(Self::NAME)
    }

    /// An in-game command `name` (see [`Command`]) whose handler gets the
    /// mod's state. Names are compared in lower case; when two mods
    /// register the same name, the first installed runs.
    fn command(
        name: &str,
        mut handler: impl FnMut(&mut Self, &mut Command<'_, '_>) + Send + 'static,
    ) -> CommandSpec {
        CommandSpec::new(
            name,
            Box::new(move |command: &mut Command<'_, '_>| {
                let line = command.line;
                command.event.with_state((), |state: &mut Self, event| {
                    handler(state, &mut Command { event, line });
                });
            }),
        )
    }
}

/// What a mod registers while it is installed on a connection.
#[derive(Debug, Default)]
pub struct Setup {
    pub(crate) hooks: Vec<Hook>,
    pub(crate) commands: Vec<CommandSpec>,
}

impl Setup {
    /// Registers a hook: a mod's own ([`Mod::on`], [`Mod::raw`]) or one
    /// without state ([`Hook::on`] and the like).
    pub fn hook(&mut self, hook: Hook) -> &mut Setup {
        self.hooks.push(hook);
        self
    }

    /// Registers an in-game command ([`Mod::command`]).
    pub fn command(&mut self, command: CommandSpec) -> &mut Setup {
        self.commands.push(command);
        self
    }
}
