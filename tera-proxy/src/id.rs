//! The ids of hooks, mods, timers and signals.

use std::sync::atomic::{AtomicU64, Ordering};

/// Identifies a registered hook (or command), to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId(pub(crate) u64);

impl core::fmt::Display for HookId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Identifies a mod installed on a connection, to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModId(pub(crate) u64);

impl core::fmt::Display for ModId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "mod #{}", self.0)
    }
}

/// Identifies a timer, to clear it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TimerId(pub(crate) u64);

impl core::fmt::Display for TimerId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "timer #{}", self.0)
    }
}

/// Identifies a [`Signal`](crate::Signal), in every connection of the
/// process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SignalId(pub(crate) u64);

impl SignalId {
    pub(crate) fn next() -> SignalId {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        SignalId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl core::fmt::Display for SignalId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Hands out the ids of one connection; shared by its hooks and handles,
/// so that an id is known when a hook is queued, before it is installed.
#[derive(Debug)]
pub(crate) struct Ids {
    next: AtomicU64,
    /// The connection's number in the process.
    connection: u64,
}

impl Default for Ids {
    fn default() -> Self {
        static CONNECTIONS: AtomicU64 = AtomicU64::new(0);
        Ids {
            next: AtomicU64::new(0),
            connection: CONNECTIONS.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl Ids {
    fn next(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// The connection's number, unique in the process.
    pub(crate) fn connection(&self) -> u64 {
        self.connection
    }

    pub(crate) fn hook(&self) -> HookId {
        HookId(self.next())
    }

    pub(crate) fn module(&self) -> ModId {
        ModId(self.next())
    }

    pub(crate) fn timer(&self) -> TimerId {
        TimerId(self.next())
    }
}

/// The name of the built-in command mod, in reports (tera-toolbox's
/// module of the same job is `command`).
pub(crate) const COMMANDS_MOD: &str = "command";

/// Who a hook, command or timer belongs to: whose state its function gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The connection's own hooks, added outside any mod.
    Loose,
    /// The built-in command mod.
    Commands,
    /// An installed mod: its place in the connection's table of mods, its
    /// id and its name.
    Mod {
        slot: usize,
        id: ModId,
        name: &'static str,
    },
}

impl Owner {
    /// The mod's name, for reports.
    pub(crate) fn name(self) -> Option<&'static str> {
        match self {
            Owner::Loose => None,
            Owner::Commands => Some(COMMANDS_MOD),
            Owner::Mod { name, .. } => Some(name),
        }
    }

    /// The mod's id, if it is an installed mod.
    pub(crate) fn mod_id(self) -> Option<ModId> {
        match self {
            Owner::Mod { id, .. } => Some(id),
            Owner::Loose | Owner::Commands => None,
        }
    }
}
