//! The ids of hooks and mods on a connection.

use std::sync::atomic::{AtomicU64, Ordering};

/// Identifies a registered hook, to remove it.
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

/// Hands out the ids of one connection; shared by its hooks and handles,
/// so that an id is known when a hook is queued, before it is installed.
#[derive(Debug, Default)]
pub(crate) struct Ids(AtomicU64);

impl Ids {
    pub(crate) fn hook(&self) -> HookId {
        HookId(self.0.fetch_add(1, Ordering::Relaxed))
    }

    pub(crate) fn module(&self) -> ModId {
        ModId(self.0.fetch_add(1, Ordering::Relaxed))
    }
}
