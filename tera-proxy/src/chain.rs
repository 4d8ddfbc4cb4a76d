//! A connection's hooks, mods and timers together, and applying what was
//! added and removed: the registry of hooks, the mods' slots with their
//! functions, the timers. Running them is in `dispatch.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tera_data::ProtocolMap;
use tera_dynamic::Catalog;
use tokio::sync::Notify;

use crate::commands::builtin_hooks;
use crate::context::ConnectionContext;
use crate::event::{Changes, Key, NewTimer, Scene};
use crate::faults::{FaultPolicy, Reports};
use crate::hooks::Hook;
use crate::id::{HookId, Ids, ModId, Owner};
use crate::meta::{HookKind, HookMeta};
use crate::mods::SetupTimer;
use crate::registry::{Entry, Registry};
use crate::slot::{Slot, Slots};
use crate::stats::Counters;
use crate::sysmsg::SysmsgMap;
use crate::timers::Timers;
use tera_net::Direction;

/// What working on the chain needs from its connection.
pub(crate) struct Context<'c> {
    pub(crate) counters: &'c Counters,
    pub(crate) reports: &'c Reports,
    pub(crate) ids: &'c Ids,
    pub(crate) policy: FaultPolicy,
    pub(crate) map: Option<&'c ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) defs: Option<&'c Catalog>,
    pub(crate) context: &'c ConnectionContext,
    pub(crate) sysmsg: Option<&'c SysmsgMap>,
    /// The client's major patch, once read from `C_LOGIN_ARBITER`.
    pub(crate) patch: Option<u32>,
    /// Woken when a timer is added, for the task that runs them.
    pub(crate) timer_wake: &'c Notify,
    /// Where the chain says how many timers wait, for handles.
    pub(crate) timers_waiting: &'c AtomicUsize,
}

impl<'c> Context<'c> {
    /// What every call on a packet of `opcode` shares.
    pub(crate) fn scene(&self, dir: Direction, opcode: u16, fake: bool) -> Scene<'c> {
        Scene {
            dir,
            opcode,
            name: self.map.and_then(|m| m.name(opcode)),
            fake,
            map: self.map,
            revision: self.revision,
            defs: self.defs,
            context: self.context,
            sysmsg: self.sysmsg,
            patch: self.patch,
            ids: self.ids,
            reports: self.reports,
        }
    }
}

/// A mod to install: its slot and what it registered, with their ids.
pub(crate) struct NewMod {
    pub(crate) id: ModId,
    pub(crate) name: &'static str,
    pub(crate) slot: Box<dyn Slot>,
    pub(crate) hooks: Vec<(HookId, Key, HookMeta)>,
    pub(crate) timers: Vec<SetupTimer>,
}

/// A connection's hooks, mods and timers, behind the connection's lock.
#[derive(Default)]
pub(crate) struct Chain {
    pub(crate) registry: Registry,
    pub(crate) slots: Slots,
    pub(crate) timers: Timers,
    /// Whether the built-in command mod's hooks are in (from the first
    /// command on).
    commands_on: bool,
}

impl Chain {
    pub(crate) fn install(&mut self, new: NewMod, cx: &Context<'_>) {
        let owner = self.slots.install(new.id, new.name, new.slot);
        for (id, key, meta) in new.hooks {
            self.add_entry(id, owner, key, meta, cx);
        }
        let now = Instant::now();
        for timer in new.timers {
            let SetupTimer {
                id,
                key,
                delay,
                every,
            } = timer;
            let timer = NewTimer {
                id,
                owner,
                key,
                delay,
                every,
            };
            self.timers.add(timer, now);
            cx.timer_wake.notify_one();
        }
        self.count_timers(cx);
    }

    /// Tells handles how many timers wait.
    pub(crate) fn count_timers(&self, cx: &Context<'_>) {
        cx.timers_waiting
            .store(self.timers.len(), Ordering::Relaxed);
    }

    /// Adds a hook outside any mod.
    pub(crate) fn add_loose(&mut self, id: HookId, hook: Hook, cx: &Context<'_>) {
        let key = self.slots.loose.insert(hook.f);
        self.add_entry(id, Owner::Loose, key, hook.meta, cx);
    }

    fn add_entry(&mut self, id: HookId, owner: Owner, key: Key, meta: HookMeta, cx: &Context<'_>) {
        if let (HookKind::Command, Some(name)) = (meta.kind, &meta.name) {
            self.start_commands(cx);
            self.slots.commands.state.register(name, id);
        }
        self.registry.add(id, owner, key, meta, cx.map, cx.patch);
    }

    /// Adds the built-in command mod's hooks, once.
    fn start_commands(&mut self, cx: &Context<'_>) {
        if std::mem::replace(&mut self.commands_on, true) {
            return;
        }
        for hook in builtin_hooks() {
            let key = self.slots.commands.insert(hook.f);
            self.registry.add(
                cx.ids.hook(),
                Owner::Commands,
                key,
                hook.meta,
                cx.map,
                cx.patch,
            );
        }
    }

    /// Drops a removed hook's function (and its command name).
    fn drop_entry(&mut self, entry: &Entry) {
        self.slots.remove_fn(entry.owner, entry.key);
        if entry.meta.kind == HookKind::Command {
            self.slots.commands.state.unregister(entry.id);
        }
    }

    /// Applies hooks, timers and mods added or removed by hooks, timers and
    /// handles.
    pub(crate) fn apply(&mut self, changes: Changes, cx: &Context<'_>) {
        let Changes {
            added,
            removed,
            removed_mods,
            timers,
            cleared,
            calls: _,
        } = changes;
        for added in added {
            // A hook whose mod has gone went with the mod's functions.
            if self.slots.has(added.owner) {
                self.add_entry(added.id, added.owner, added.key, added.meta, cx);
            }
        }
        for id in removed {
            if let Some(entry) = self.registry.remove(id) {
                self.drop_entry(&entry);
            }
        }
        let now = Instant::now();
        for timer in timers {
            if self.slots.has(timer.owner) {
                self.timers.add(timer, now);
                cx.timer_wake.notify_one();
            }
        }
        for id in cleared {
            if let Some((owner, key)) = self.timers.clear(id) {
                self.slots.remove_fn(owner, key);
            }
        }
        for id in removed_mods {
            self.remove_mod(id, cx.reports);
        }
        self.count_timers(cx);
    }

    /// Removes mod `id` with its hooks, commands and timers; its settings
    /// are saved.
    fn remove_mod(&mut self, id: ModId, reports: &Reports) {
        let Some(mut installed) = self.slots.take(id) else {
            return;
        };
        for entry in self.registry.remove_owner(installed.owner) {
            if entry.meta.kind == HookKind::Command {
                self.slots.commands.state.unregister(entry.id);
            }
        }
        self.timers.remove_owner(installed.owner);
        installed.slot.close(reports);
    }

    /// The map is known: every hook is resolved under it.
    pub(crate) fn set_map(&mut self, cx: &Context<'_>) {
        self.registry
            .resolve(cx.map, cx.revision, cx.patch, Some(cx.reports));
    }

    /// The client's patch is known: hooks for other patches stop, hooks
    /// for it start.
    pub(crate) fn set_patch(&mut self, cx: &Context<'_>) {
        self.registry.resolve(cx.map, cx.revision, cx.patch, None);
    }

    /// When the next timer is due.
    pub(crate) fn next_timer(&self) -> Option<Instant> {
        self.timers.next()
    }

    /// The connection ends: every mod is closed (its settings saved) and
    /// dropped with its timers.
    pub(crate) fn close(&mut self, reports: &Reports) {
        self.timers = Timers::default();
        self.registry = Registry::default();
        self.slots.close_all(reports);
    }
}
