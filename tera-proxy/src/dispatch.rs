//! Running a connection's hooks on a packet (and on the packets they
//! inject), the calls they ask for (commands, signals) and its timers:
//! every call goes through [`Chain::call_at`] or [`Chain::call_timer`],
//! which catch a panic the same way.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use tera_net::Direction;
use tera_net::framing::opcode;

use crate::chain::{Chain, Context};
use crate::encode::with_length;
use crate::error::{HookFailure, PacketError};
use crate::event::{Call, CallCx, Changes, Injection, Input, Scene};
use crate::faults::{Fault, FaultPolicy, panic_message};
use crate::id::{HookId, Owner};
use crate::timers::Due;
use crate::verdict::{Outcome, Verdict};

/// How deep injected packets may answer injected packets.
pub(crate) const MAX_INJECTION_DEPTH: usize = 8;

/// How many commands and signal deliveries one call may lead to (a
/// subscriber that emits what it subscribes to would never end).
pub(crate) const MAX_CALLS: usize = 1024;

/// A packet on its way through the hooks.
struct Passage<'b> {
    current: Cow<'b, [u8]>,
    modified: bool,
    silenced: bool,
}

/// What a call gave.
enum Called {
    /// The hook was removed (or its mod) earlier on this packet.
    Skipped,
    /// It panicked; the fault is handled.
    Faulted,
    /// A typed hook's packet did not decode.
    Undecoded,
    Done(Outcome),
}

/// What the calls on one packet share besides the chain.
struct Round<'r, 'c> {
    scene: Scene<'c>,
    injected: &'r mut Vec<Injection>,
    changes: &'r mut Changes,
    cx: &'r Context<'c>,
}

impl Chain {
    /// Runs the hooks on `packet` and, depth first, on the packets they
    /// inject; `emit` receives every packet to send, in order, injected
    /// ones before the packet whose hook injected them.
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
        if !self.registry.any_wants(op) {
            emit(dir, packet);
            return Ok(());
        }
        let mut injected = Vec::new();
        let result = self.run(dir, packet, fake, &mut injected, cx)?;
        self.process_injected(injected, depth, cx, emit)?;
        if let Some(bytes) = result {
            emit(dir, &bytes);
        }
        Ok(())
    }

    fn process_injected(
        &mut self,
        injected: Vec<Injection>,
        depth: usize,
        cx: &Context<'_>,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), HookFailure> {
        for Injection { dir: to, packet } in injected {
            if depth >= MAX_INJECTION_DEPTH {
                return Err(HookFailure::InjectionLoop(MAX_INJECTION_DEPTH));
            }
            cx.counters.dir(to).injected.incr();
            self.process_at(to, &packet, true, depth + 1, cx, emit)?;
        }
        Ok(())
    }

    /// Runs the hooks on one packet: `None` when blocked.
    fn run<'b>(
        &mut self,
        dir: Direction,
        packet: &'b [u8],
        fake: bool,
        injected: &mut Vec<Injection>,
        cx: &Context<'_>,
    ) -> Result<Option<Cow<'b, [u8]>>, HookFailure> {
        let op = opcode(packet).unwrap_or_default();
        let mut changes = Changes::default();
        let mut round = Round {
            scene: cx.scene(dir, op, fake),
            injected,
            changes: &mut changes,
            cx,
        };
        let mut passage = Passage {
            current: Cow::Borrowed(packet),
            modified: false,
            silenced: false,
        };
        for at in 0..self.registry.len() {
            let Some(entry) = self.registry.get(at) else {
                break;
            };
            if !entry.wants(op)
                || !entry
                    .meta
                    .filter
                    .admits(fake, passage.modified, passage.silenced)
            {
                continue;
            }
            let called = self.call_at(at, &passage, Input::Packet(&passage.current), &mut round)?;
            match called {
                Called::Skipped | Called::Faulted => {}
                Called::Undecoded => cx.counters.dir(dir).decode_errors.incr(),
                Called::Done((verdict, change)) => {
                    self.answer(at, &mut passage, verdict, change, dir)?;
                }
            }
            self.run_calls(&passage, &mut round)?;
        }
        if !changes.is_empty() {
            self.apply(changes, cx);
        }
        if passage.silenced {
            cx.counters.dir(dir).blocked.incr();
            return Ok(None);
        }
        if passage.modified {
            cx.counters.dir(dir).changed.incr();
        }
        Ok(Some(passage.current))
    }

    /// Takes hook `at`'s answer into the packet's passage.
    fn answer(
        &self,
        at: usize,
        passage: &mut Passage<'_>,
        verdict: Verdict,
        change: Option<Result<Vec<u8>, PacketError>>,
        dir: Direction,
    ) -> Result<(), HookFailure> {
        match verdict {
            Verdict::Pass => {}
            Verdict::Block => passage.silenced = true,
            Verdict::Changed => {
                passage.silenced = false;
                passage.modified = true;
            }
        }
        if let Some(change) = change {
            let bytes = change.and_then(with_length).map_err(|reason| {
                let entry = self.registry.get(at);
                HookFailure::BadChange {
                    hook: entry.map_or(HookId(u64::MAX), |e| e.id),
                    target: entry.map(|e| e.meta.target()).unwrap_or_default(),
                    dir,
                    reason,
                }
            })?;
            passage.current = Cow::Owned(bytes);
        }
        Ok(())
    }

    /// Calls hook `at` (a hook on packets, a command or a subscriber) on
    /// `input`, catching a panic.
    fn call_at(
        &mut self,
        at: usize,
        passage: &Passage<'_>,
        input: Input<'_>,
        round: &mut Round<'_, '_>,
    ) -> Result<Called, HookFailure> {
        let Some(entry) = self.registry.get(at) else {
            return Ok(Called::Skipped);
        };
        let (id, owner, key, once) = (entry.id, entry.owner, entry.key, entry.meta.once);
        if round.changes.removed.contains(&id)
            || owner
                .mod_id()
                .is_some_and(|m| round.changes.removed_mods.contains(&m))
        {
            return Ok(Called::Skipped);
        }
        let call = CallCx {
            scene: round.scene,
            modified: passage.modified,
            silenced: passage.silenced,
            hook: id,
            owner,
            injected: round.injected,
            changes: round.changes,
        };
        let slots = &mut self.slots;
        let result = catch_unwind(AssertUnwindSafe(|| slots.call(owner, key, call, input)));
        let outcome = match result {
            Ok(outcome) => outcome,
            Err(payload) => {
                let fault = Fault {
                    module: owner.name().map(str::to_owned),
                    hook: id,
                    target: entry.meta.target(),
                    packet: packet_of(&round.scene),
                    dir: round.scene.dir,
                    message: panic_message(&*payload),
                };
                handle_fault(fault, owner, round.changes, round.cx)?;
                return Ok(Called::Faulted);
            }
        };
        if once {
            round.changes.removed.push(id);
        }
        Ok(outcome.map_or(Called::Undecoded, Called::Done))
    }

    /// Makes the calls the last call asked for: commands to run, values to
    /// hand to a signal's subscribers (which may ask for more).
    fn run_calls(
        &mut self,
        passage: &Passage<'_>,
        round: &mut Round<'_, '_>,
    ) -> Result<(), HookFailure> {
        let mut made = 0;
        while let Some(call) = round.changes.calls.pop_front() {
            made += 1;
            if made > MAX_CALLS {
                return Err(HookFailure::CallLoop(MAX_CALLS));
            }
            match call {
                Call::Command { hook, line } => {
                    if let Some(at) = self.registry.position(hook) {
                        self.call_at(at, passage, Input::Line(&line), round)?;
                    }
                }
                Call::Signal { signal, mut value } => {
                    value.set();
                    for at in self.registry.subscribers(signal) {
                        self.call_at(at, passage, Input::Nothing, round)?;
                    }
                    value.clear();
                }
            }
        }
        Ok(())
    }

    /// Runs the timers due at `now`, and the hooks on what they inject.
    pub(crate) fn fire_timers(
        &mut self,
        now: Instant,
        cx: &Context<'_>,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), HookFailure> {
        while let Some(due) = self.timers.pop_due(now) {
            let mut injected = Vec::new();
            let mut changes = Changes::default();
            let mut round = Round {
                scene: cx.scene(Direction::ServerToClient, 0, true),
                injected: &mut injected,
                changes: &mut changes,
                cx,
            };
            round.scene.name = None;
            self.call_timer(&due, &mut round)?;
            let passage = Passage {
                current: Cow::Borrowed(&[]),
                modified: false,
                silenced: false,
            };
            self.run_calls(&passage, &mut round)?;
            if !due.again {
                self.slots.remove_fn(due.owner, due.key);
            }
            if !changes.is_empty() {
                self.apply(changes, cx);
            }
            self.process_injected(injected, 0, cx, emit)?;
        }
        self.count_timers(cx);
        Ok(())
    }

    /// Calls a due timer's function, catching a panic.
    fn call_timer(&mut self, due: &Due, round: &mut Round<'_, '_>) -> Result<(), HookFailure> {
        let hook = HookId(due.id.0);
        let call = CallCx {
            scene: round.scene,
            modified: false,
            silenced: false,
            hook,
            owner: due.owner,
            injected: round.injected,
            changes: round.changes,
        };
        let slots = &mut self.slots;
        let result = catch_unwind(AssertUnwindSafe(|| {
            slots.call(due.owner, due.key, call, Input::Nothing)
        }));
        if let Err(payload) = result {
            let fault = Fault {
                module: due.owner.name().map(str::to_owned),
                hook,
                target: due.id.to_string(),
                packet: "no packet".to_owned(),
                dir: round.scene.dir,
                message: panic_message(&*payload),
            };
            if due.owner == Owner::Loose {
                round.changes.cleared.push(due.id);
            }
            handle_fault(fault, due.owner, round.changes, round.cx)?;
        }
        Ok(())
    }
}

/// The packet of a call, for a fault: its name, or its opcode.
fn packet_of(scene: &Scene<'_>) -> String {
    scene
        .name
        .map_or_else(|| format!("opcode {}", scene.opcode), str::to_owned)
}

/// Reports a panicked call and disables its mod (a hook outside any mod:
/// the hook), or ends the connection, as the policy says.
fn handle_fault(
    fault: Fault,
    owner: Owner,
    changes: &mut Changes,
    cx: &Context<'_>,
) -> Result<(), HookFailure> {
    if cx.policy == FaultPolicy::CloseConnection {
        return Err(HookFailure::Panicked(fault));
    }
    match owner.mod_id() {
        Some(id) => changes.removed_mods.push(id),
        None => changes.removed.push(fault.hook),
    }
    cx.reports.fault(fault);
    Ok(())
}
