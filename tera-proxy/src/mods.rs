//! Mods: types with their own state, one value per connection, whose hooks,
//! commands, timers and signal subscribers get `&mut` that value, checked
//! by the compiler.

use std::sync::Arc;
use std::time::Duration;

use tera_data::AnyPacket;
use tera_dynamic::Record;
use tera_packets::PacketType;

use crate::commands::{Command, command_hook};
use crate::context::ConnectionContext;
use crate::error::HookError;
use crate::event::{CallFn, Event, Fns, Key};
use crate::hooks::Hook;
use crate::id::{HookId, Ids, TimerId};
use crate::meta::{HookMeta, Version};
use crate::raw::RawPacket;
use crate::settings::SettingsFile;
use crate::shipped::{PacketDef, shipped_hook};
use crate::timers::{MIN_PERIOD, interval_fn, timeout_fn};
use crate::verdict::Verdict;

/// A mod, as tera-toolbox's: a type holding its state, one value per
/// connection, whose hooks, commands and timers get `&mut` that value.
///
/// Every function a mod registers is typed by the mod: a hook made with
/// [`Self::on`](Mod::on) is a `Hook<Self>`, which [`Setup<Self>`] and
/// [`Event<Self>`](Event) take, and a hook of another mod does not compile.
///
/// ```
/// use std::time::Duration;
/// use tera_data::packets::s_chat;
/// use tera_proxy::{Mod, Setup, Verdict};
///
/// #[derive(Default)]
/// struct Counter {
///     lines: u32,
/// }
///
/// impl Mod for Counter {
///     const NAME: &'static str = "counter";
///
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), tera_proxy::HookError> {
///         setup.hook(Self::on::<s_chat::V4>(|counter, event, chat| {
///             counter.lines += 1;
///             chat.message = format!("{} ({})", chat.message, counter.lines).into();
///             // Timers get the state too.
///             event.set_timeout(Duration::from_secs(60), |counter, _| counter.lines = 0);
///             Verdict::Changed
///         }));
///         setup.hook(Self::command("lines", |counter, cmd| {
///             cmd.reply(format!("{} chat lines so far", counter.lines));
///         }));
///         Ok(())
///     }
/// }
/// ```
///
/// A hook of another mod is refused by the compiler:
///
/// ```compile_fail
/// use tera_data::packets::s_chat;
/// use tera_proxy::{HookError, Mod, Setup, Verdict};
///
/// struct A;
/// struct B { lines: u32 }
///
/// impl Mod for B {
///     const NAME: &'static str = "b";
///     fn install(&mut self, _: &mut Setup<Self>) -> Result<(), HookError> { Ok(()) }
/// }
///
/// impl Mod for A {
///     const NAME: &'static str = "a";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
///         // A hook with B's state, in A's setup.
///         setup.hook(B::on::<s_chat::V4>(|b, _, _| {
///             b.lines += 1;
///             Verdict::Pass
///         }));
///         Ok(())
///     }
/// }
/// ```
pub trait Mod: Send + Sized + 'static {
    /// The mod's name, in logs and reports, and the name of its settings
    /// file.
    const NAME: &'static str;

    /// Registers the mod's hooks, commands and timers on a new connection;
    /// `self` is the connection's value of the mod (its settings already
    /// loaded), which its functions then get.
    ///
    /// # Errors
    /// [`HookError`]: the mod is not installed.
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError>;

    /// The mod's settings, if it has any: a [`Settings`](crate::Settings)
    /// field of the mod, loaded from
    /// [`ProxyConfig::settings_dir`](crate::ProxyConfig::settings_dir)
    /// before [`install`](Mod::install), saved when a call changed them
    /// and when the mod leaves the connection. Default: none.
    ///
    /// ```
    /// # use serde::{Deserialize, Serialize};
    /// # use tera_proxy::{HookError, Mod, ModSettings, Settings, SettingsFile, Setup};
    /// #[derive(Default, Serialize, Deserialize)]
    /// struct Options { enabled: bool }
    /// impl ModSettings for Options {}
    ///
    /// #[derive(Default)]
    /// struct Afk { settings: Settings<Options> }
    ///
    /// impl Mod for Afk {
    ///     const NAME: &'static str = "afk";
    ///     fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
    ///         Some(&mut self.settings)
    ///     }
    ///     fn install(&mut self, _: &mut Setup<Self>) -> Result<(), HookError> {
    ///         println!("afk is {}", if self.settings.enabled { "on" } else { "off" });
    ///         Ok(())
    ///     }
    /// }
    /// ```
    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        None
    }

    /// Called once when the mod leaves its connection (the connection
    /// ends, the proxy stops, or the mod is removed), before its settings
    /// are saved: tera-toolbox's `destructor`. Put back what the mod
    /// changed outside itself; a panic here is logged. Default: nothing.
    fn unload(&mut self) {}

    /// A hook on packet type `P`, as [`Hook::on`], whose function also gets
    /// the mod's state.
    fn on<P: PacketType + 'static>(
        hook: impl for<'e, 'p> FnMut(&mut Self, &mut Event<'e, Self>, &mut P::At<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<Self> {
        Hook::on_state::<P>(hook)
    }

    /// A raw hook, as [`Hook::raw`], whose function also gets the mod's
    /// state.
    fn raw(
        name: &str,
        hook: impl FnMut(&mut Self, &mut Event<'_, Self>, &mut RawPacket<'_>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<Self> {
        Hook::raw_state(name, hook)
    }

    /// A typed hook on a name chosen at run time, as [`Hook::typed`],
    /// whose function also gets the mod's state.
    ///
    /// # Errors
    /// As [`Hook::typed`].
    fn typed(
        name: &str,
        version: Version,
        hook: impl for<'e, 'p> FnMut(&mut Self, &mut Event<'e, Self>, &mut AnyPacket<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Result<Hook<Self>, HookError> {
        Hook::typed_state(name, version, hook)
    }

    /// A hook decoded by a runtime def, as [`Hook::dynamic`], whose
    /// function also gets the mod's state.
    fn dynamic(
        name: &str,
        version: Version,
        hook: impl for<'e, 'p> FnMut(&mut Self, &mut Event<'e, Self>, &mut Record<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<Self> {
        Hook::dynamic_state(name, version, hook)
    }

    /// A hook on the packets of a def the mod ships ([`PacketDef`], as
    /// tera-toolbox's `dispatch.addDefinition`): `hook` reads and changes
    /// fields by name, as a [dynamic](Mod::dynamic) hook's, and a changed
    /// value is re-encoded by the def. A packet that does not decode is
    /// passed on without calling it.
    fn shipped(
        def: &PacketDef,
        hook: impl for<'e, 'p> FnMut(&mut Self, &mut Event<'e, Self>, &mut Record<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<Self> {
        shipped_hook(def, hook)
    }

    /// An in-game command `name` (see [`Command`]) whose handler gets the
    /// mod's state: a hook of the built-in command mod's lines, added as
    /// any other hook. Names are compared in lower case; when two mods
    /// add the same name, the first added runs.
    fn command(
        name: &str,
        handler: impl FnMut(&mut Self, &mut Command<'_, '_, Self>) + Send + 'static,
    ) -> Hook<Self> {
        command_hook(name, handler)
    }
}

/// A timer registered at install.
pub(crate) struct SetupTimer {
    pub(crate) id: TimerId,
    pub(crate) key: Key,
    pub(crate) delay: Duration,
    pub(crate) every: Option<Duration>,
}

/// What mod `M` registers while it is installed on a connection: hooks
/// (and commands, signal subscribers) and timers of `M`.
pub struct Setup<M> {
    name: &'static str,
    ids: Arc<Ids>,
    context: Arc<ConnectionContext>,
    pub(crate) fns: Fns<M>,
    pub(crate) hooks: Vec<(HookId, Key, HookMeta)>,
    pub(crate) timers: Vec<SetupTimer>,
}

impl<M> core::fmt::Debug for Setup<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Setup")
            .field("hooks", &self.hooks.len())
            .field("timers", &self.timers.len())
            .finish_non_exhaustive()
    }
}

impl<M: 'static> Setup<M> {
    pub(crate) fn new(
        name: &'static str,
        ids: Arc<Ids>,
        context: Arc<ConnectionContext>,
    ) -> Setup<M> {
        Setup {
            name,
            ids,
            context,
            fns: Fns::default(),
            hooks: Vec::new(),
            timers: Vec::new(),
        }
    }

    /// The connection's value of type `T`, put in its
    /// [`ConnectionContext`] by a setup.
    #[must_use]
    pub fn context<T: 'static>(&self) -> Option<&T> {
        self.context.get()
    }

    /// A clone of the connection's value of type `T` (see
    /// [`ConnectionContext::need`]).
    ///
    /// # Errors
    /// [`HookError::MissingContext`] when no setup put one in.
    pub fn need<T: Clone + 'static>(&self) -> Result<T, HookError> {
        self.context.need()
    }

    /// Logs `text` as the mod's (tera-toolbox's `mod.log`; see
    /// [`Event::log`]).
    pub fn log(&self, text: impl core::fmt::Display) {
        crate::log::info(Some(self.name), &text);
    }

    /// Logs `text` as the mod's warning (`mod.warn`).
    pub fn warn(&self, text: impl core::fmt::Display) {
        crate::log::warn(Some(self.name), &text);
    }

    /// Registers a hook of the mod ([`Mod::on`] and the like, a command,
    /// a [`Signal`](crate::Signal) subscriber).
    pub fn hook(&mut self, hook: Hook<M>) -> HookId {
        let id = self.ids.hook();
        let key = self.fns.insert(hook.f);
        self.hooks.push((id, key, hook.meta));
        id
    }

    /// Calls `f` with the mod's state once, `delay` after the mod is
    /// installed (as [`Event::set_timeout`]).
    pub fn set_timeout(
        &mut self,
        delay: Duration,
        f: impl FnOnce(&mut M, &mut Event<'_, M>) + Send + 'static,
    ) -> TimerId {
        self.timer(delay, None, timeout_fn(f))
    }

    /// Calls `f` with the mod's state every `period` (at least 1 ms) from
    /// the mod's install on (as [`Event::set_interval`]).
    pub fn set_interval(
        &mut self,
        period: Duration,
        f: impl FnMut(&mut M, &mut Event<'_, M>) + Send + 'static,
    ) -> TimerId {
        let period = period.max(MIN_PERIOD);
        self.timer(period, Some(period), interval_fn(f))
    }

    fn timer(&mut self, delay: Duration, every: Option<Duration>, f: CallFn<M>) -> TimerId {
        let id = self.ids.timer();
        let key = self.fns.insert(f);
        self.timers.push(SetupTimer {
            id,
            key,
            delay,
            every,
        });
        id
    }
}
