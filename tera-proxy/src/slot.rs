//! A mod's value on a connection with the functions of its hooks,
//! commands, timers and subscribers: each function gets `&mut` that value,
//! typed, with no downcast.

use crate::commands::Commands;
use crate::event::{CallCx, CallFn, Event, Fns, Input, Key};
use crate::faults::Reports;
use crate::id::{COMMANDS_MOD, ModId, Owner};
use crate::settings::SettingsFile;
use crate::verdict::{Outcome, Verdict};

/// How a slot finds its mod's settings ([`Mod::settings`](crate::Mod::settings)).
pub(crate) type SettingsOf<M> = fn(&mut M) -> Option<&mut dyn SettingsFile>;

/// A mod's value and its functions.
pub(crate) struct ModSlot<M> {
    pub(crate) state: M,
    pub(crate) fns: Fns<M>,
    name: &'static str,
    /// `None`: no settings (the connection's own hooks, the built-in
    /// command mod), nothing to look at after each call.
    settings: Option<SettingsOf<M>>,
    /// Called when the mod leaves ([`Mod::unload`](crate::Mod::unload)).
    unload: Option<fn(&mut M)>,
    closed: bool,
}

impl<M> ModSlot<M> {
    pub(crate) fn new(name: &'static str, state: M, settings: Option<SettingsOf<M>>) -> ModSlot<M> {
        ModSlot {
            state,
            fns: Fns::default(),
            name,
            settings,
            unload: None,
            closed: false,
        }
    }

    pub(crate) fn with_unload(mut self, unload: fn(&mut M)) -> ModSlot<M> {
        self.unload = Some(unload);
        self
    }

    /// Calls the mod's unload, once; a panic in it is logged.
    fn run_unload(&mut self) {
        if let Some(unload) = self.unload.take() {
            let state = &mut self.state;
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unload(state)));
            if let Err(payload) = ran {
                tracing::warn!(
                    module = self.name,
                    message = %crate::faults::panic_message(&*payload),
                    "a mod's unload panicked"
                );
            }
        }
    }

    pub(crate) fn with_fns(mut self, fns: Fns<M>) -> ModSlot<M> {
        self.fns = fns;
        self
    }

    pub(crate) fn insert(&mut self, f: CallFn<M>) -> Key {
        self.fns.insert(f)
    }

    /// The mod's settings, if it has any.
    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        self.settings.and_then(|of| of(&mut self.state))
    }

    /// Calls function `key` with the mod's value (see [`Slot::call`]).
    #[inline]
    pub(crate) fn call_fn(
        &mut self,
        key: Key,
        cx: CallCx<'_>,
        input: Input<'_>,
    ) -> Option<Outcome> {
        let Some(mut f) = self.fns.take(key) else {
            return Some((Verdict::Pass, None));
        };
        let reports = cx.scene.reports;
        if self.settings.is_some()
            && let Some(settings) = self.settings()
        {
            settings.refresh();
        }
        let mut event = Event {
            cx,
            fns: &mut self.fns,
        };
        let outcome = f(&mut self.state, &mut event, input);
        self.fns.put_back(key, f);
        if self.settings.is_some() {
            self.save_changed(reports);
        }
        outcome
    }

    /// Saves the settings if a call changed them.
    fn save_changed(&mut self, reports: &Reports) {
        let name = self.name;
        if let Some(settings) = self.settings()
            && let Err(problem) = settings.save_changes(name)
        {
            reports.settings(problem);
        }
    }
}

/// A mod's slot, whatever the mod: what the dispatcher calls.
pub(crate) trait Slot: Send {
    /// Calls function `key` with the mod's value: `None` when a typed
    /// hook's packet does not decode.
    fn call(&mut self, key: Key, cx: CallCx<'_>, input: Input<'_>) -> Option<Outcome>;

    /// Drops function `key`.
    fn remove(&mut self, key: Key);

    /// The mod leaves the connection: its settings are saved.
    fn close(&mut self, reports: &Reports);
}

impl<M: Send> Slot for ModSlot<M> {
    fn call(&mut self, key: Key, cx: CallCx<'_>, input: Input<'_>) -> Option<Outcome> {
        self.call_fn(key, cx, input)
    }

    fn remove(&mut self, key: Key) {
        self.fns.remove(key);
    }

    fn close(&mut self, reports: &Reports) {
        if self.closed {
            return;
        }
        self.closed = true;
        self.run_unload();
        let name = self.name;
        if let Some(settings) = self.settings()
            && let Err(problem) = settings.save(name)
        {
            reports.settings(problem);
        }
    }
}

impl<M> Drop for ModSlot<M> {
    /// A mod dropped without [`Slot::close`] (a connection dropped before
    /// it ran) still saves its settings.
    fn drop(&mut self) {
        if self.closed {
            return;
        }
        self.run_unload();
        let name = self.name;
        if let Some(settings) = self.settings()
            && let Err(problem) = settings.save(name)
        {
            tracing::warn!(%problem, "cannot save a mod's settings");
        }
    }
}

/// An installed mod's slot, and who it is.
pub(crate) struct Installed {
    pub(crate) owner: Owner,
    pub(crate) slot: Box<dyn Slot>,
}

/// The slots of a connection: its own hooks', the built-in command mod's
/// and the installed mods'.
pub(crate) struct Slots {
    pub(crate) loose: ModSlot<()>,
    pub(crate) commands: ModSlot<Commands>,
    mods: Vec<Option<Installed>>,
}

impl Default for Slots {
    fn default() -> Self {
        Slots {
            loose: ModSlot::new("", (), None),
            commands: ModSlot::new(COMMANDS_MOD, Commands::default(), None),
            mods: Vec::new(),
        }
    }
}

impl Slots {
    fn installed(&mut self, owner: Owner) -> Option<&mut (dyn Slot + 'static)> {
        match owner {
            Owner::Loose => Some(&mut self.loose),
            Owner::Commands => Some(&mut self.commands),
            Owner::Mod { slot, id, .. } => self
                .mods
                .get_mut(slot)
                .and_then(Option::as_mut)
                .filter(|m| m.owner.mod_id() == Some(id))
                .map(|m| &mut *m.slot),
        }
    }

    /// Calls function `key` of `owner` (see [`Slot::call`]); the
    /// connection's own hooks and the built-in mod's without a dynamic call.
    pub(crate) fn call(
        &mut self,
        owner: Owner,
        key: Key,
        cx: CallCx<'_>,
        input: Input<'_>,
    ) -> Option<Outcome> {
        match owner {
            Owner::Loose => self.loose.call_fn(key, cx, input),
            Owner::Commands => self.commands.call_fn(key, cx, input),
            Owner::Mod { .. } => match self.installed(owner) {
                Some(slot) => slot.call(key, cx, input),
                None => Some((Verdict::Pass, None)),
            },
        }
    }

    /// Drops function `key` of `owner`.
    pub(crate) fn remove_fn(&mut self, owner: Owner, key: Key) {
        if let Some(slot) = self.installed(owner) {
            slot.remove(key);
        }
    }

    /// Whether `owner` is (still) on the connection.
    pub(crate) fn has(&self, owner: Owner) -> bool {
        match owner {
            Owner::Loose | Owner::Commands => true,
            Owner::Mod { slot, id, .. } => self
                .mods
                .get(slot)
                .and_then(Option::as_ref)
                .is_some_and(|m| m.owner.mod_id() == Some(id)),
        }
    }

    /// Puts mod `id`'s slot in the first free place: who it is there.
    pub(crate) fn install(&mut self, id: ModId, name: &'static str, slot: Box<dyn Slot>) -> Owner {
        let at = self
            .mods
            .iter()
            .position(Option::is_none)
            .unwrap_or(self.mods.len());
        let owner = Owner::Mod { slot: at, id, name };
        let installed = Some(Installed { owner, slot });
        match self.mods.get_mut(at) {
            Some(place) => *place = installed,
            None => self.mods.push(installed),
        }
        owner
    }

    /// Takes mod `id` out.
    pub(crate) fn take(&mut self, id: ModId) -> Option<Installed> {
        self.mods
            .iter_mut()
            .find(|m| m.as_ref().is_some_and(|m| m.owner.mod_id() == Some(id)))
            .and_then(Option::take)
    }

    /// Closes every mod (the connection ends) and drops it.
    pub(crate) fn close_all(&mut self, reports: &Reports) {
        for mut installed in self.mods.drain(..).flatten() {
            installed.slot.close(reports);
        }
    }
}
