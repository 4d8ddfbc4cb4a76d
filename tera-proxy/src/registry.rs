//! The registry of a connection's hooks: what each is for, whose it is,
//! where its function sits, in the order they run, and which opcode each
//! is called for under the connection's map.

use tera_data::ProtocolMap;

use crate::event::Key;
use crate::faults::{Reports, UnknownName};
use crate::id::{HookId, Owner, SignalId};
use crate::meta::{HookKind, HookMeta};

/// Which packets a registered hook is called for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolved {
    /// Every packet (`*`).
    All,
    /// The opcode of its name in the connection's map.
    Opcode(u16),
    /// No packet: its name has no opcode (yet), or it is a command or a
    /// signal subscriber.
    Never,
}

/// A registered hook.
pub(crate) struct Entry {
    pub(crate) id: HookId,
    pub(crate) owner: Owner,
    pub(crate) key: Key,
    pub(crate) meta: HookMeta,
    resolved: Resolved,
}

impl Entry {
    fn resolve(&mut self, map: Option<&ProtocolMap>, patch: Option<u32>) {
        self.resolved = if !self.meta.on_packets() || !self.meta.runs_on(patch) {
            Resolved::Never
        } else {
            match &self.meta.name {
                None => Resolved::All,
                Some(name) => map
                    .and_then(|m| m.code(name))
                    .map_or(Resolved::Never, Resolved::Opcode),
            }
        };
    }

    /// Whether the hook is called for packets of `opcode`.
    pub(crate) fn wants(&self, opcode: u16) -> bool {
        match self.resolved {
            Resolved::All => true,
            Resolved::Opcode(code) => code == opcode,
            Resolved::Never => false,
        }
    }
}

/// A connection's hooks, sorted by (order, id).
#[derive(Default)]
pub(crate) struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    pub(crate) fn add(
        &mut self,
        id: HookId,
        owner: Owner,
        key: Key,
        meta: HookMeta,
        map: Option<&ProtocolMap>,
        patch: Option<u32>,
    ) {
        let mut entry = Entry {
            id,
            owner,
            key,
            meta,
            resolved: Resolved::Never,
        };
        entry.resolve(map, patch);
        let at = self
            .entries
            .partition_point(|e| (e.meta.order, e.id) < (entry.meta.order, id));
        self.entries.insert(at, entry);
    }

    /// Removes hook `id`.
    pub(crate) fn remove(&mut self, id: HookId) -> Option<Entry> {
        let at = self.position(id)?;
        Some(self.entries.remove(at))
    }

    /// Removes the hooks of `owner`.
    pub(crate) fn remove_owner(&mut self, owner: Owner) -> Vec<Entry> {
        let (gone, kept) = std::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| e.owner == owner);
        self.entries = kept;
        gone
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn get(&self, at: usize) -> Option<&Entry> {
        self.entries.get(at)
    }

    pub(crate) fn position(&self, id: HookId) -> Option<usize> {
        self.entries.iter().position(|e| e.id == id)
    }

    /// Whether any hook is called for packets of `opcode`.
    pub(crate) fn any_wants(&self, opcode: u16) -> bool {
        self.entries.iter().any(|e| e.wants(opcode))
    }

    /// The places of the subscribers of `signal`, in order.
    pub(crate) fn subscribers(&self, signal: SignalId) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&at| {
                self.entries
                    .get(at)
                    .is_some_and(|e| e.meta.kind == HookKind::Signal(signal))
            })
            .collect()
    }

    /// Resolves every hook under the connection's map and client patch,
    /// and reports (given `reports`) those whose name the map lacks.
    pub(crate) fn resolve(
        &mut self,
        map: Option<&ProtocolMap>,
        revision: Option<u32>,
        patch: Option<u32>,
        reports: Option<&Reports>,
    ) {
        for entry in &mut self.entries {
            entry.resolve(map, patch);
            if let (Resolved::Never, Some(name), Some(map)) =
                (entry.resolved, entry.meta.packet_name(), map)
                && map.code(name).is_none()
                && entry.owner != Owner::Commands
                && let Some(reports) = reports
            {
                reports.unknown_name(UnknownName {
                    module: entry.owner.name().map(str::to_owned),
                    hook: entry.id,
                    name: name.to_owned(),
                    revision,
                });
            }
        }
    }
}
