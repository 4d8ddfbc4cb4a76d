//! What a hook is for, apart from its function: the packet name and how it
//! is decoded, or the command or signal it answers; its order, filter and
//! whether it runs once. The registry keeps this; the function stays with
//! its mod's state.

use std::ops::{Bound, RangeBounds};

use crate::id::SignalId;
use crate::verdict::Filter;

/// Which def version a typed hook decodes its packet as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// This version (`S_CHAT.2.def`).
    Exact(u32),
    /// The highest version compiled in (or in the runtime defs).
    Latest,
}

impl Version {
    /// The version, `None` for the latest.
    #[must_use]
    pub fn exact(self) -> Option<u32> {
        match self {
            Version::Exact(v) => Some(v),
            Version::Latest => None,
        }
    }
}

/// What a hook's function is called for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HookKind {
    /// The packet's bytes.
    Raw,
    /// The packet decoded by a compiled-in def of this version.
    Typed(u32),
    /// The packet decoded by a runtime def.
    Dynamic(Version),
    /// The packet decoded by a def the mod ships, of this version.
    Shipped(u32),
    /// A line typed in chat for the in-game command of the hook's name.
    Command,
    /// A value emitted on a [`Signal`](crate::Signal).
    Signal(SignalId),
}

/// A hook apart from its function.
#[derive(Clone, Debug)]
pub(crate) struct HookMeta {
    /// The packet name (`None`: every packet), or the command's name.
    pub(crate) name: Option<String>,
    pub(crate) kind: HookKind,
    pub(crate) order: i32,
    pub(crate) filter: Filter,
    pub(crate) once: bool,
    /// The client major patches the hook runs on (`None`: all).
    pub(crate) patches: Option<(Bound<u32>, Bound<u32>)>,
}

impl HookMeta {
    pub(crate) fn new(name: Option<String>, kind: HookKind) -> HookMeta {
        HookMeta {
            name,
            kind,
            order: 0,
            filter: Filter::default(),
            once: false,
            patches: None,
        }
    }

    /// Whether the hook runs on a connection whose client's major patch
    /// is `patch`: any patch in its range; while the patch is unknown,
    /// only a range without an upper bound (the newest clients').
    pub(crate) fn runs_on(&self, patch: Option<u32>) -> bool {
        match (self.patches, patch) {
            (None, _) => true,
            (Some(range), Some(patch)) => range.contains(&patch),
            (Some((_, end)), None) => end == Bound::Unbounded,
        }
    }

    /// The packet name the hook needs an opcode for, if it hooks packets
    /// by name.
    pub(crate) fn packet_name(&self) -> Option<&str> {
        match self.kind {
            HookKind::Raw | HookKind::Typed(_) | HookKind::Dynamic(_) | HookKind::Shipped(_) => {
                self.name.as_deref()
            }
            HookKind::Command | HookKind::Signal(_) => None,
        }
    }

    /// Whether the hook is called for packets (rather than commands or
    /// signals).
    pub(crate) fn on_packets(&self) -> bool {
        matches!(
            self.kind,
            HookKind::Raw | HookKind::Typed(_) | HookKind::Dynamic(_) | HookKind::Shipped(_)
        )
    }

    /// What the hook is for: `*`, `S_CHAT` (raw), `S_CHAT.4` (typed),
    /// `command afk`.
    pub(crate) fn target(&self) -> String {
        let name = self.name.as_deref().unwrap_or("*");
        match self.kind {
            HookKind::Raw => name.to_owned(),
            HookKind::Typed(version) => format!("{name}.{version}"),
            HookKind::Dynamic(Version::Exact(v)) => format!("{name}.{v} (runtime def)"),
            HookKind::Dynamic(Version::Latest) => format!("{name}.latest (runtime def)"),
            HookKind::Shipped(v) => format!("{name}.{v} (the mod's def)"),
            HookKind::Command => format!("command {name}"),
            HookKind::Signal(id) => format!("signal {id}"),
        }
    }
}
