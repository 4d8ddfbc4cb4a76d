//! What happens when a hook panics, and the reports of hooks that failed or
//! can never run.

use std::sync::{Mutex, PoisonError};

use tera_net::Direction;

use crate::id::HookId;
use crate::settings::SettingsProblem;

/// What a connection does when a hook panics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultPolicy {
    /// Remove the hook's mod from the connection (every hook and command
    /// of it; a hook outside any mod: that hook), report the fault once
    /// and go on relaying: the packet goes on as it was before the hook.
    /// What tera-toolbox does.
    #[default]
    DisableMod,
    /// End the connection with [`HookFailure::Panicked`](crate::HookFailure::Panicked).
    CloseConnection,
}

/// A hook (or command, timer, signal subscriber) that panicked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} hook {hook} ({target}) panicked on {packet} ({dir}): {message}",
    module.as_deref().map_or_else(|| "a".to_owned(), |m| format!("mod {m}:"))
)]
pub struct Fault {
    /// The mod of the hook, if it has one.
    pub module: Option<String>,
    /// The hook.
    pub hook: HookId,
    /// What it was registered for (`S_CHAT.4`, `*`, `command afk`,
    /// `timer #7`).
    pub target: String,
    /// The packet: its name in the map, or its opcode (`no packet` for a
    /// timer).
    pub packet: String,
    /// The packet's direction.
    pub dir: Direction,
    /// The panic message.
    pub message: String,
}

/// A hook that can never run: its name is not in the connection's map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}hook {hook} on {name} never runs: the protocol map{} has no such packet",
    module.as_deref().map(|m| format!("mod {m}: ")).unwrap_or_default(),
    revision.map(|r| format!(" of revision {r}")).unwrap_or_default()
)]
pub struct UnknownName {
    /// The mod of the hook, if it has one.
    pub module: Option<String>,
    /// The hook.
    pub hook: HookId,
    /// The name it was registered for.
    pub name: String,
    /// The map's revision, if known.
    pub revision: Option<u32>,
}

/// How many reports of each kind a connection keeps (the first ones).
const KEPT: usize = 64;

/// The faults and unknown names of a connection, readable while it runs.
#[derive(Debug, Default)]
pub(crate) struct Reports {
    faults: Mutex<Vec<Fault>>,
    unknown: Mutex<Vec<UnknownName>>,
    settings: Mutex<Vec<SettingsProblem>>,
}

impl Reports {
    pub(crate) fn fault(&self, fault: Fault) {
        tracing::warn!(%fault, "hook panicked");
        push_kept(&self.faults, fault);
    }

    pub(crate) fn unknown_name(&self, report: UnknownName) {
        tracing::warn!(%report, "hook on an unknown packet name");
        push_kept(&self.unknown, report);
    }

    pub(crate) fn settings(&self, problem: SettingsProblem) {
        tracing::warn!(%problem, "a mod's settings");
        push_kept(&self.settings, problem);
    }

    pub(crate) fn settings_problems(&self) -> Vec<SettingsProblem> {
        self.settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn faults(&self) -> Vec<Fault> {
        self.faults
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn unknown_names(&self) -> Vec<UnknownName> {
        self.unknown
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

fn push_kept<T>(list: &Mutex<Vec<T>>, item: T) {
    let mut list = list.lock().unwrap_or_else(PoisonError::into_inner);
    if list.len() < KEPT {
        list.push(item);
    }
}

/// The message of a caught panic.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".to_owned())
}
