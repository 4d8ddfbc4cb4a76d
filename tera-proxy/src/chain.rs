//! The hooks of a connection and running them on a packet.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;
use tera_net::framing::opcode;

use crate::error::ProxyError;
use crate::event::{Event, Injection, encode_with_opcode, with_length};
use crate::hooks::{Callback, Hook, HookId, RawPacket, Verdict};
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

/// A connection's hooks and protocol map, behind the connection's lock.
#[derive(Default)]
pub(crate) struct Chain {
    /// Sorted by (order, id).
    entries: Vec<Entry>,
    next_id: u64,
    map: Option<Arc<ProtocolMap>>,
    revision: Option<u32>,
}

impl Chain {
    pub(crate) fn add(&mut self, hook: Hook) -> HookId {
        let id = HookId(self.next_id);
        self.next_id += 1;
        let mut entry = Entry {
            id,
            hook,
            resolved: Resolved::Unmapped,
        };
        entry.resolve(self.map.as_deref());
        let key = (entry.hook.order, id);
        let at = self.entries.partition_point(|e| (e.hook.order, e.id) < key);
        self.entries.insert(at, entry);
        id
    }

    pub(crate) fn remove(&mut self, id: HookId) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.id != id);
        self.entries.len() != before
    }

    pub(crate) fn set_map(&mut self, map: Option<Arc<ProtocolMap>>, revision: Option<u32>) {
        self.map = map;
        self.revision = revision;
        for entry in &mut self.entries {
            entry.resolve(self.map.as_deref());
        }
    }

    pub(crate) fn map(&self) -> Option<&ProtocolMap> {
        self.map.as_deref()
    }

    pub(crate) fn revision(&self) -> Option<u32> {
        self.revision
    }

    /// Runs the hooks on `packet` and, depth first, on the packets they
    /// inject; `emit` receives every packet to send, in order, injected ones
    /// before the packet whose hook injected them.
    pub(crate) fn process(
        &mut self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        counters: &Counters,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), ProxyError> {
        self.process_at(dir, packet, fake, 0, counters, emit)
    }

    fn process_at(
        &mut self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        depth: usize,
        counters: &Counters,
        emit: &mut impl FnMut(Direction, &[u8]),
    ) -> Result<(), ProxyError> {
        let op = opcode(packet).unwrap_or_default();
        if !self.entries.iter().any(|e| e.wants(op)) {
            emit(dir, packet);
            return Ok(());
        }
        let mut injected = Vec::new();
        let result = self.run(dir, packet, fake, &mut injected, counters)?;
        for Injection { dir: to, packet } in injected {
            if depth >= MAX_INJECTION_DEPTH {
                return Err(ProxyError::InjectionLoop(MAX_INJECTION_DEPTH));
            }
            counters.dir(to).injected.incr();
            self.process_at(to, &packet, true, depth + 1, counters, emit)?;
        }
        if let Some(bytes) = result {
            emit(dir, &bytes);
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
        counters: &Counters,
    ) -> Result<Option<Cow<'b, [u8]>>, ProxyError> {
        let op = opcode(packet).unwrap_or_default();
        let map = self.map.as_deref();
        let name = map.and_then(|m| m.name(op));
        let mut current = Cow::Borrowed(packet);
        let mut modified = false;
        let mut silenced = false;
        let mut removed = Vec::new();
        for entry in &mut self.entries {
            if !entry.wants(op) || !entry.hook.filter.admits(fake, modified, silenced) {
                continue;
            }
            let mut event = Event {
                dir,
                opcode: op,
                name,
                fake,
                modified,
                silenced,
                hook: entry.id,
                map,
                revision: self.revision,
                injected,
                removed: &mut removed,
            };
            let outcome = match &mut entry.hook.callback {
                Callback::Raw(hook) => {
                    let mut raw = RawPacket::new(&current);
                    catch_unwind(AssertUnwindSafe(|| hook(&mut event, &mut raw))).map(|verdict| {
                        let change = match (verdict, raw.into_change()) {
                            (Verdict::Changed, Cow::Owned(bytes)) => Some(Ok(bytes)),
                            _ => None,
                        };
                        (verdict, change)
                    })
                }
                Callback::Typed { version, hook } => {
                    let Some(name) = entry.hook.name.as_deref() else {
                        continue;
                    };
                    let Ok(mut value) = AnyPacket::decode(name, *version, &current) else {
                        counters.dir(dir).decode_errors.incr();
                        continue;
                    };
                    catch_unwind(AssertUnwindSafe(|| hook(&mut event, &mut value))).map(|verdict| {
                        let change =
                            (verdict == Verdict::Changed).then(|| encode_with_opcode(&value, op));
                        (verdict, change)
                    })
                }
            };
            let (verdict, change) = outcome.map_err(|payload| ProxyError::HookPanicked {
                hook: entry.id,
                target: entry.hook.target(),
                dir,
                message: panic_message(&*payload),
            })?;
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
                        .map_err(|reason| ProxyError::BadChange {
                            hook: entry.id,
                            target: entry.hook.target(),
                            dir,
                            reason,
                        })?;
                current = Cow::Owned(bytes);
            }
        }
        for id in removed {
            self.remove(id);
        }
        if silenced {
            counters.dir(dir).blocked.incr();
            return Ok(None);
        }
        if modified {
            counters.dir(dir).changed.incr();
        }
        Ok(Some(current))
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".to_owned())
}
