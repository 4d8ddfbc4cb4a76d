//! The hooks, mods and commands of a connection, and running them on a
//! packet.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_dynamic::Catalog;
use tera_net::Direction;
use tera_net::framing::opcode;

use crate::commands::{CommandEntry, Commands, Dispatch};
use crate::encode::with_length;
use crate::error::HookFailure;
use crate::event::{Changes, Event, Injection, Scene};
use crate::faults::{Fault, FaultPolicy, Reports, UnknownName, panic_message};
use crate::hooks::{Callback, Hook, Outcome, RawPacket, Verdict};
use crate::id::{HookId, Ids, ModId};
use crate::slot::{ModInfo, ModSlot};
use crate::stats::Counters;

/// How deep injected packets may answer injected packets.
pub(crate) const MAX_INJECTION_DEPTH: usize = 8;

/// Which packets a registered hook is called for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolved {
    /// Every packet (`*`).
    All,
    /// The opcode of its name in the connection's map.
    Opcode(u16),
    /// Its name has no opcode (yet): never called.
    Unmapped,
}

struct Entry {
    id: HookId,
    owner: Option<ModInfo>,
    hook: Hook,
    resolved: Resolved,
}

impl Entry {
    fn resolve(&mut self, map: Option<&ProtocolMap>) {
        self.resolved = match &self.hook.name {
            None => Resolved::All,
            Some(name) => map
                .and_then(|m| m.code(name))
                .map_or(Resolved::Unmapped, Resolved::Opcode),
        };
    }

    fn wants(&self, opcode: u16) -> bool {
        match self.resolved {
            Resolved::All => true,
            Resolved::Opcode(code) => code == opcode,
            Resolved::Unmapped => false,
        }
    }
}

/// What processing a packet needs besides the chain.
pub(crate) struct Context<'c> {
    pub(crate) counters: &'c Counters,
    pub(crate) reports: &'c Reports,
    pub(crate) ids: &'c Ids,
    pub(crate) policy: FaultPolicy,
}

/// A mod to install: its value and what it registered, with their ids.
pub(crate) struct NewMod {
    pub(crate) slot: ModSlot,
    pub(crate) hooks: Vec<(HookId, Hook)>,
    pub(crate) commands: Vec<CommandEntry>,
}

/// A connection's hooks, mods, commands and protocol map, behind the
/// connection's lock.
#[derive(Default)]
pub(crate) struct Chain {
    /// Sorted by (order, id).
    entries: Vec<Entry>,
    mods: Vec<ModSlot>,
    commands: Commands,
    map: Option<Arc<ProtocolMap>>,
    revision: Option<u32>,
    defs: Option<Arc<Catalog>>,
}

impl Chain {
    pub(crate) fn set_defs(&mut self, defs: Option<Arc<Catalog>>) {
        self.defs = defs;
    }

    fn add(&mut self, id: HookId, owner: Option<ModInfo>, hook: Hook) {
        let mut entry = Entry {
            id,
            owner,
            hook,
            resolved: Resolved::Unmapped,
        };
        entry.resolve(self.map.as_deref());
        let key = (entry.hook.order, id);
        let at = self.entries.partition_point(|e| (e.hook.order, e.id) < key);
        self.entries.insert(at, entry);
    }

    fn remove_mod(&mut self, id: ModId) {
        self.entries.retain(|e| e.owner.is_none_or(|o| o.id != id));
        self.commands.remove_mod(id);
        self.mods.retain(|m| m.info.id != id);
    }

    fn install(&mut self, new: NewMod) {
        let info = new.slot.info;
        self.mods.push(new.slot);
        for (id, hook) in new.hooks {
            self.add(id, Some(info), hook);
        }
        for command in new.commands {
            self.commands.add(command);
        }
    }

    /// Applies hooks and mods added or removed by hooks and handles.
    pub(crate) fn apply(&mut self, changes: Changes, new_mods: Vec<NewMod>) {
        for new in new_mods {
            self.install(new);
        }
        for (id, owner, hook) in changes.added {
            if owner.is_none_or(|o| self.mods.iter().any(|m| m.info.id == o.id)) {
                self.add(id, owner, hook);
            }
        }
        if !changes.removed.is_empty() {
            self.entries.retain(|e| !changes.removed.contains(&e.id));
        }
        for id in changes.removed_mods {
            self.remove_mod(id);
        }
    }

    pub(crate) fn set_map(
        &mut self,
        map: Option<Arc<ProtocolMap>>,
        revision: Option<u32>,
        reports: &Reports,
    ) {
        self.map = map;
        self.revision = revision;
        for entry in &mut self.entries {
            entry.resolve(self.map.as_deref());
            if let (Resolved::Unmapped, Some(name), Some(_)) =
                (entry.resolved, &entry.hook.name, &self.map)
            {
                reports.unknown_name(UnknownName {
                    hook: entry.id,
                    name: name.clone(),
                    revision,
                });
            }
        }
    }

    /// Runs the hooks on `packet` and, depth first, on the packets they
    /// inject; `emit` receives every packet to send, in order, injected ones
    /// before the packet whose hook injected them.
    pub(crate) fn process(
        &mut self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        cx: &Context<'_>,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), HookFailure> {
        self.process_at(dir, packet, fake, 0, cx, emit)
    }

    fn process_at(
        &mut self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        depth: usize,
        cx: &Context<'_>,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), HookFailure> {
        let op = opcode(packet).unwrap_or_default();
        if self.commands.is_empty() && !self.entries.iter().any(|e| e.wants(op)) {
            emit(dir, packet);
            return Ok(());
        }
        let mut injected = Vec::new();
        let result = self.run(dir, packet, fake, &mut injected, cx)?;
        for Injection { dir: to, packet } in injected {
            if depth >= MAX_INJECTION_DEPTH {
                return Err(HookFailure::InjectionLoop(MAX_INJECTION_DEPTH));
            }
            cx.counters.dir(to).injected.incr();
            self.process_at(to, &packet, true, depth + 1, cx, emit)?;
        }
        if let Some(bytes) = result {
            emit(dir, &bytes);
        }
        Ok(())
    }

    /// Runs the commands and hooks on one packet: `None` when blocked.
    fn run<'b>(
        &mut self,
        dir: Direction,
        packet: &'b [u8],
        fake: bool,
        injected: &mut Vec<Injection>,
        cx: &Context<'_>,
    ) -> Result<Option<Cow<'b, [u8]>>, HookFailure> {
        let op = opcode(packet).unwrap_or_default();
        let Chain {
            entries,
            mods,
            commands,
            map,
            revision,
            defs,
        } = self;
        let map = map.as_deref();
        let name = map.and_then(|m| m.name(op));
        let scene = Scene {
            dir,
            opcode: op,
            name,
            fake,
            map,
            revision: *revision,
            defs: defs.as_deref(),
            ids: cx.ids,
        };
        let mut changes = Changes::default();
        // A command line is the command's alone: no hook sees it.
        let handled = match commands.dispatch(scene, packet, mods, injected, &mut changes) {
            Dispatch::Pass => false,
            Dispatch::Handled => true,
            Dispatch::Panicked(fault, owner) => {
                handle_fault(fault, Some(owner), &mut changes, cx)?;
                true
            }
        };
        let mut current = Cow::Borrowed(packet);
        let mut silenced = handled;
        let mut modified = false;
        let hooks = if handled {
            &mut [][..]
        } else {
            &mut entries[..]
        };
        for entry in hooks {
            if !entry.wants(op)
                || !entry.hook.filter.admits(fake, modified, silenced)
                || changes.removed.contains(&entry.id)
                || entry
                    .owner
                    .is_some_and(|o| changes.removed_mods.contains(&o.id))
            {
                continue;
            }
            let state = entry.owner.and_then(|o| {
                mods.iter_mut()
                    .find(|m| m.info.id == o.id)
                    .map(|m| &mut *m.state)
            });
            let mut event = Event::new(scene, entry.id, entry.owner, injected, &mut changes, state);
            event.modified = modified;
            event.silenced = silenced;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                call(&mut entry.hook.callback, &mut event, &current)
            }));
            let outcome = match outcome {
                Ok(outcome) => outcome,
                Err(payload) => {
                    let fault = Fault {
                        module: entry.owner.map(|o| o.name.to_owned()),
                        hook: entry.id,
                        target: entry.hook.target(),
                        packet: name.map_or_else(|| format!("opcode {op}"), str::to_owned),
                        dir,
                        message: panic_message(&*payload),
                    };
                    handle_fault(fault, entry.owner, &mut changes, cx)?;
                    continue;
                }
            };
            let Some((verdict, change)) = outcome else {
                cx.counters.dir(dir).decode_errors.incr();
                continue;
            };
            if entry.hook.once {
                changes.removed.push(entry.id);
            }
            match verdict {
                Verdict::Pass => {}
                Verdict::Block => silenced = true,
                Verdict::Changed => {
                    silenced = false;
                    modified = true;
                }
            }
            if let Some(change) = change {
                let bytes =
                    change
                        .and_then(with_length)
                        .map_err(|reason| HookFailure::BadChange {
                            hook: entry.id,
                            target: entry.hook.target(),
                            dir,
                            reason,
                        })?;
                current = Cow::Owned(bytes);
            }
        }
        if !changes.is_empty() {
            self.apply(changes, Vec::new());
        }
        if silenced {
            cx.counters.dir(dir).blocked.incr();
            return Ok(None);
        }
        if modified {
            cx.counters.dir(dir).changed.incr();
        }
        Ok(Some(current))
    }
}

/// Calls a hook's function on `packet`: `None` when a typed hook's packet
/// does not decode.
fn call(callback: &mut Callback, event: &mut Event<'_>, packet: &[u8]) -> Option<Outcome> {
    match callback {
        Callback::Raw(hook) => {
            let mut raw = RawPacket::new(packet);
            let verdict = hook(event, &mut raw);
            let change = match (verdict, raw.into_change()) {
                (Verdict::Changed, Cow::Owned(bytes)) => Some(Ok(bytes)),
                _ => None,
            };
            Some((verdict, change))
        }
        Callback::Decoded { hook, .. } | Callback::Dynamic { hook, .. } => hook(event, packet),
    }
}

/// Reports a panicked hook and disables its mod (a hook outside any mod:
/// the hook), or ends the connection, as the policy says.
fn handle_fault(
    fault: Fault,
    owner: Option<ModInfo>,
    changes: &mut Changes,
    cx: &Context<'_>,
) -> Result<(), HookFailure> {
    if cx.policy == FaultPolicy::CloseConnection {
        return Err(HookFailure::Panicked(fault));
    }
    match owner {
        Some(owner) => changes.removed_mods.push(owner.id),
        None => changes.removed.push(fault.hook),
    }
    cx.reports.fault(fault);
    Ok(())
}
