//! What a hook (or command, timer, signal subscriber) is told when it is
//! called, and what it can do besides answering: send packets, and add and
//! remove hooks, timers and mods. [`Event::add_hook`] is in `hooks.rs`,
//! the timers' methods in `timers.rs`.

use std::collections::VecDeque;
use std::time::Duration;

use tera_data::{AnyPacket, ProtocolMap};
use tera_dynamic::{Catalog, Record};
use tera_net::Direction;
use tera_packets::Packet;

use crate::context::ConnectionContext;
use crate::dynamic::{DynamicError, schema_of};
use crate::encode::{encode_any, encode_packet, opcode_in, send_direction, with_length};
use crate::error::PacketError;
use crate::faults::Reports;
use crate::id::{HookId, Ids, ModId, Owner, SignalId, TimerId};
use crate::meta::{HookMeta, Version};
use crate::sysmsg::{SysmsgError, SysmsgMap, SystemMessage};
use crate::verdict::Outcome;

/// A packet a hook, a timer or a handle injects.
#[derive(Debug)]
pub(crate) struct Injection {
    pub(crate) dir: Direction,
    pub(crate) packet: Vec<u8>,
}

/// Where a function sits in its mod's table of functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key(pub(crate) usize);

/// What a function is called with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Input<'a> {
    /// A packet, for a hook on packets.
    Packet(&'a [u8]),
    /// The line typed, for a command.
    Line(&'a str),
    /// Nothing: a timer, or a signal subscriber (which takes the value from
    /// its signal).
    Nothing,
}

/// The function of a hook, command, timer or signal subscriber of mod `M`,
/// as its mod's table keeps it: `None` when a typed hook's packet does not
/// decode.
pub(crate) type CallFn<M> =
    Box<dyn for<'e, 'a> FnMut(&mut M, &mut Event<'e, M>, Input<'a>) -> Option<Outcome> + Send>;

/// The functions of one mod, by [`Key`]. A function is taken out while it
/// runs, so that it can add others to the table.
pub(crate) struct Fns<M> {
    slots: Vec<Option<CallFn<M>>>,
    free: Vec<usize>,
}

impl<M> Default for Fns<M> {
    fn default() -> Self {
        Fns {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<M> Fns<M> {
    pub(crate) fn insert(&mut self, f: CallFn<M>) -> Key {
        match self.free.pop() {
            Some(at) => {
                if let Some(slot) = self.slots.get_mut(at) {
                    *slot = Some(f);
                }
                Key(at)
            }
            None => {
                self.slots.push(Some(f));
                Key(self.slots.len() - 1)
            }
        }
    }

    pub(crate) fn take(&mut self, key: Key) -> Option<CallFn<M>> {
        self.slots.get_mut(key.0).and_then(Option::take)
    }

    pub(crate) fn put_back(&mut self, key: Key, f: CallFn<M>) {
        if let Some(slot) = self.slots.get_mut(key.0) {
            *slot = Some(f);
        }
    }

    pub(crate) fn remove(&mut self, key: Key) {
        if let Some(slot) = self.slots.get_mut(key.0)
            && slot.take().is_some()
        {
            self.free.push(key.0);
        }
    }
}

/// A hook (or command, timer, subscriber) added while hooks run.
pub(crate) struct Added {
    pub(crate) id: HookId,
    pub(crate) owner: Owner,
    pub(crate) key: Key,
    pub(crate) meta: HookMeta,
}

/// A timer set while hooks run.
pub(crate) struct NewTimer {
    pub(crate) id: TimerId,
    pub(crate) owner: Owner,
    pub(crate) key: Key,
    pub(crate) delay: Duration,
    /// An interval's period; `None` for a timeout.
    pub(crate) every: Option<Duration>,
}

/// A call the dispatcher makes once the current function has returned.
pub(crate) enum Call {
    /// Run command hook `hook` on a line.
    Command { hook: HookId, line: String },
    /// Hand a value to the subscribers of `signal`, which read it from
    /// where `value` puts it.
    Signal {
        signal: SignalId,
        value: Box<dyn Delivery>,
    },
}

/// A value emitted on a signal, on its way to the subscribers.
pub(crate) trait Delivery: Send {
    /// Puts the value where the subscribers read it.
    fn set(&mut self);
    /// Takes it back once they have run.
    fn clear(&mut self);
}

/// Hooks, timers and mods added or removed while hooks run, applied once
/// the packet's hooks have run (a removed hook is skipped at once), and the
/// calls to make after the current function.
#[derive(Default)]
pub(crate) struct Changes {
    pub(crate) added: Vec<Added>,
    pub(crate) removed: Vec<HookId>,
    pub(crate) removed_mods: Vec<ModId>,
    pub(crate) timers: Vec<NewTimer>,
    pub(crate) cleared: Vec<TimerId>,
    pub(crate) calls: VecDeque<Call>,
}

impl Changes {
    /// Whether there is anything to apply to the registry (calls aside).
    pub(crate) fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.removed_mods.is_empty()
            && self.timers.is_empty()
            && self.cleared.is_empty()
    }
}

/// What every call on one packet (or one timer) shares.
#[derive(Clone, Copy)]
pub(crate) struct Scene<'s> {
    pub(crate) dir: Direction,
    pub(crate) opcode: u16,
    pub(crate) name: Option<&'s str>,
    pub(crate) fake: bool,
    pub(crate) map: Option<&'s ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) defs: Option<&'s Catalog>,
    pub(crate) context: &'s ConnectionContext,
    pub(crate) sysmsg: Option<&'s SysmsgMap>,
    pub(crate) patch: Option<u32>,
    pub(crate) ids: &'s Ids,
    pub(crate) reports: &'s Reports,
}

/// The context of one call, apart from the mod's table of functions.
pub(crate) struct CallCx<'e> {
    pub(crate) scene: Scene<'e>,
    pub(crate) modified: bool,
    pub(crate) silenced: bool,
    pub(crate) hook: HookId,
    pub(crate) owner: Owner,
    pub(crate) injected: &'e mut Vec<Injection>,
    pub(crate) changes: &'e mut Changes,
}

/// The context of one call of a hook, command, timer or signal subscriber
/// of mod `M` (`()`: a hook outside any mod): the packet's direction,
/// opcode and name, and what the call can do besides answering (send
/// packets; add and remove hooks, timers and mods). What it adds belongs
/// to `M`, so the compiler checks that it is a hook of `M`.
///
/// A timer's event has no packet: its [`opcode`](Event::opcode) is 0, its
/// [`name`](Event::name) `None`, and it counts as injected
/// ([`is_fake`](Event::is_fake)).
pub struct Event<'e, M = ()> {
    pub(crate) cx: CallCx<'e>,
    pub(crate) fns: &'e mut Fns<M>,
}

impl<M> core::fmt::Debug for Event<'_, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Event")
            .field("dir", &self.cx.scene.dir)
            .field("opcode", &self.cx.scene.opcode)
            .field("name", &self.cx.scene.name)
            .field("fake", &self.cx.scene.fake)
            .field("hook", &self.cx.hook)
            .finish_non_exhaustive()
    }
}

impl<'e, M> Event<'e, M> {
    /// Which way the packet travels.
    #[must_use]
    pub fn direction(&self) -> Direction {
        self.cx.scene.dir
    }

    /// The packet's opcode.
    #[must_use]
    pub fn opcode(&self) -> u16 {
        self.cx.scene.opcode
    }

    /// The packet's name in the connection's protocol map, if it has one.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.cx.scene.name
    }

    /// Whether the packet was injected (by a hook, a timer or a handle)
    /// rather than read from the wire.
    #[must_use]
    pub fn is_fake(&self) -> bool {
        self.cx.scene.fake
    }

    /// Whether an earlier hook changed the packet.
    #[must_use]
    pub fn is_modified(&self) -> bool {
        self.cx.modified
    }

    /// Whether an earlier hook blocked the packet.
    #[must_use]
    pub fn is_silenced(&self) -> bool {
        self.cx.silenced
    }

    /// The hook (or command, or signal subscriber) being called; for a
    /// timer, the id its [`TimerId`] has.
    #[must_use]
    pub fn hook_id(&self) -> HookId {
        self.cx.hook
    }

    /// The mod of the function being called, if it belongs to one.
    #[must_use]
    pub fn mod_id(&self) -> Option<ModId> {
        self.cx.owner.mod_id()
    }

    /// The protocol revision of the connection's map (announced in
    /// `C_CHECK_VERSION`, or the compiled-in map's), if known.
    #[must_use]
    pub fn revision(&self) -> Option<u32> {
        self.cx.scene.revision
    }

    /// The major patch of the connection's client (tera-toolbox's
    /// `majorPatchVersion`), read from its `C_LOGIN_ARBITER`
    /// (`patchVersion`: 10002 is patch 100.02); `None` before it.
    #[must_use]
    pub fn patch(&self) -> Option<u32> {
        self.cx.scene.patch
    }

    /// The connection's protocol map, once known.
    #[must_use]
    pub fn protocol_map(&self) -> Option<&ProtocolMap> {
        self.cx.scene.map
    }

    /// The connection's value of type `T`, put in its
    /// [`ConnectionContext`] by a setup (a game state, ...).
    #[must_use]
    pub fn context<T: 'static>(&self) -> Option<&'e T> {
        self.cx.scene.context.get()
    }

    /// The sysmsg map of the connection's revision (from the map folder,
    /// as [`MapFolder::sysmsg`](crate::MapFolder::sysmsg) finds it), if
    /// it has one.
    #[must_use]
    pub fn sysmsg(&self) -> Option<&'e SysmsgMap> {
        self.cx.scene.sysmsg
    }

    /// Reads a system message with the connection's sysmsg map
    /// (tera-toolbox's `mod.parseSystemMessage`).
    ///
    /// # Errors
    /// [`SysmsgError::NoMap`] without a sysmsg map, else as
    /// [`SysmsgMap::parse_message`].
    pub fn parse_system_message(&self, message: &str) -> Result<SystemMessage, SysmsgError> {
        self.sysmsg()
            .ok_or(SysmsgError::NoMap)?
            .parse_message(message)
    }

    /// Writes a system message with the connection's sysmsg map
    /// (tera-toolbox's `mod.buildSystemMessage`).
    ///
    /// # Errors
    /// [`SysmsgError::NoMap`] without a sysmsg map, else as
    /// [`SysmsgMap::build_message`].
    pub fn build_system_message(
        &self,
        id: &str,
        tokens: &[(&str, &str)],
    ) -> Result<String, SysmsgError> {
        self.sysmsg()
            .ok_or(SysmsgError::NoMap)?
            .build_message(id, tokens)
    }

    /// Logs `text` as the mod's (tera-toolbox's `mod.log`): a `tracing`
    /// event of target `tera_proxy::mods` at level INFO with field
    /// `module`, the mod's name (none for a hook outside any mod), which
    /// a subscriber prints as `[NAME] text`.
    pub fn log(&self, text: impl core::fmt::Display) {
        crate::log::info(self.cx.owner.name(), &text);
    }

    /// Logs `text` as the mod's warning (`mod.warn`): as
    /// [`log`](Event::log), at level WARN.
    pub fn warn(&self, text: impl core::fmt::Display) {
        crate::log::warn(self.cx.owner.name(), &text);
    }

    /// The connection's runtime defs, if it has any.
    #[must_use]
    pub fn runtime_defs(&self) -> Option<&'e Catalog> {
        self.cx.scene.defs
    }

    /// `packet` (this event's packet, or any bytes of its name) as a
    /// dynamic value, decoded by `version` of the runtime def of the name
    /// the map gives its opcode.
    ///
    /// # Errors
    /// [`DynamicError`]: no runtime defs, no name for the opcode, no such
    /// def, or bytes that do not decode.
    pub fn dynamic<'b>(
        &self,
        packet: &'b [u8],
        version: Version,
    ) -> Result<Record<'b>, DynamicError> {
        let name = self
            .cx
            .scene
            .name
            .ok_or(DynamicError::NoName(self.cx.scene.opcode))?;
        let schema = schema_of(self.cx.scene.defs, name, version.exact())?;
        Ok(schema.decode(packet)?)
    }

    /// Sends `packet` towards the side its name says (`C_` to the server,
    /// `S_` and `I_` to the client), as [`send_to`](Event::send_to) does.
    ///
    /// # Errors
    /// [`PacketError`] when the name says no direction, the map has no
    /// opcode for it, or it does not encode.
    pub fn send<'a, P: Packet<'a>>(&mut self, packet: &P) -> Result<(), PacketError> {
        self.send_to(send_direction(P::NAME)?, packet)
    }

    /// Encodes `packet` with its opcode in the connection's protocol map and
    /// sends it towards `dir`'s receiver, as [`send_raw`](Event::send_raw)
    /// does.
    ///
    /// # Errors
    /// [`PacketError`] when there is no map or no opcode for it, or it does
    /// not encode.
    pub fn send_to<'a, P: Packet<'a>>(
        &mut self,
        dir: Direction,
        packet: &P,
    ) -> Result<(), PacketError> {
        let packet = encode_packet(packet, opcode_in(self.cx.scene.map, P::NAME)?)?;
        self.cx.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Sends a packet of a name chosen at run time, towards the side its
    /// name says.
    ///
    /// # Errors
    /// As [`send`](Event::send).
    pub fn send_any(&mut self, packet: &AnyPacket<'_>) -> Result<(), PacketError> {
        let dir = send_direction(packet.name())?;
        let packet = encode_any(packet, opcode_in(self.cx.scene.map, packet.name())?)?;
        self.cx.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Sends `packet` (whole, header included; the length field is set from
    /// its size) towards `dir`'s receiver, in stream order: to the same
    /// direction it goes right before the packet being hooked. Hooks whose
    /// filter admits injected packets see it first.
    ///
    /// # Errors
    /// [`PacketError::BadLength`] unless it has 4 to 65535 bytes.
    pub fn send_raw(&mut self, dir: Direction, packet: Vec<u8>) -> Result<(), PacketError> {
        let packet = with_length(packet)?;
        self.cx.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Removes this hook (it is not called again).
    pub fn unhook(&mut self) {
        self.cx.changes.removed.push(self.cx.hook);
    }

    /// Removes hook (or command) `id`: it is not called again, from the
    /// next hook on.
    pub fn remove_hook(&mut self, id: HookId) {
        self.cx.changes.removed.push(id);
    }

    /// Removes mod `id` with its hooks, commands and timers (this hook's
    /// own mod included), once this packet's hooks have run.
    pub fn remove_mod(&mut self, id: ModId) {
        self.cx.changes.removed_mods.push(id);
    }
}
