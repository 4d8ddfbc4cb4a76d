//! What a hook is told about the packet it sees, and what it can do besides
//! answering: send packets, add and remove hooks and mods.

use std::any::Any;

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;
use tera_packets::Packet;

use tera_dynamic::{Catalog, Record};

use crate::dynamic::{DynamicError, schema_of};
use crate::encode::{direction_of, encode_any, encode_packet, opcode_in, with_length};
use crate::error::{HookError, PacketError};
use crate::hooks::{Hook, Setting, Version, check_hook};
use crate::id::{HookId, Ids, ModId};
use crate::slot::ModInfo;

/// A packet a hook or a handle injects.
#[derive(Debug)]
pub(crate) struct Injection {
    pub(crate) dir: Direction,
    pub(crate) packet: Vec<u8>,
}

/// Hooks and mods added or removed while hooks run; applied once the
/// packet's hooks have run (a removed hook is skipped at once).
#[derive(Default)]
pub(crate) struct Changes {
    pub(crate) added: Vec<(HookId, Option<ModInfo>, Hook)>,
    pub(crate) removed: Vec<HookId>,
    pub(crate) removed_mods: Vec<ModId>,
}

impl Changes {
    pub(crate) fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.removed_mods.is_empty()
    }
}

/// What every hook call on one packet shares.
#[derive(Clone, Copy)]
pub(crate) struct Scene<'s> {
    pub(crate) dir: Direction,
    pub(crate) opcode: u16,
    pub(crate) name: Option<&'s str>,
    pub(crate) fake: bool,
    pub(crate) map: Option<&'s ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) defs: Option<&'s Catalog>,
    pub(crate) ids: &'s Ids,
}

/// The context of one hook call.
pub struct Event<'s> {
    pub(crate) dir: Direction,
    pub(crate) opcode: u16,
    pub(crate) name: Option<&'s str>,
    pub(crate) fake: bool,
    pub(crate) modified: bool,
    pub(crate) silenced: bool,
    pub(crate) hook: HookId,
    pub(crate) owner: Option<ModInfo>,
    pub(crate) map: Option<&'s ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) defs: Option<&'s Catalog>,
    pub(crate) ids: &'s Ids,
    pub(crate) injected: &'s mut Vec<Injection>,
    pub(crate) changes: &'s mut Changes,
    /// The state of the hook's mod, taken by the mod's hook function while
    /// it runs.
    pub(crate) state: Option<&'s mut (dyn Any + Send)>,
}

impl core::fmt::Debug for Event<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Event")
            .field("dir", &self.dir)
            .field("opcode", &self.opcode)
            .field("name", &self.name)
            .field("fake", &self.fake)
            .field("hook", &self.hook)
            .finish_non_exhaustive()
    }
}

impl<'s> Event<'s> {
    /// The event of a call of hook `hook` (of mod `owner`, whose state is
    /// `state`).
    pub(crate) fn new(
        scene: Scene<'s>,
        hook: HookId,
        owner: Option<ModInfo>,
        injected: &'s mut Vec<Injection>,
        changes: &'s mut Changes,
        state: Option<&'s mut (dyn Any + Send)>,
    ) -> Event<'s> {
        Event {
            dir: scene.dir,
            opcode: scene.opcode,
            name: scene.name,
            fake: scene.fake,
            modified: false,
            silenced: false,
            hook,
            owner,
            map: scene.map,
            revision: scene.revision,
            defs: scene.defs,
            ids: scene.ids,
            injected,
            changes,
            state,
        }
    }

    /// Which way the packet travels.
    #[must_use]
    pub fn direction(&self) -> Direction {
        self.dir
    }

    /// The packet's opcode.
    #[must_use]
    pub fn opcode(&self) -> u16 {
        self.opcode
    }

    /// The packet's name in the connection's protocol map, if it has one.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name
    }

    /// Whether the packet was injected (by a hook or a handle) rather than
    /// read from the wire.
    #[must_use]
    pub fn is_fake(&self) -> bool {
        self.fake
    }

    /// Whether an earlier hook changed the packet.
    #[must_use]
    pub fn is_modified(&self) -> bool {
        self.modified
    }

    /// Whether an earlier hook blocked the packet.
    #[must_use]
    pub fn is_silenced(&self) -> bool {
        self.silenced
    }

    /// The hook being called.
    #[must_use]
    pub fn hook_id(&self) -> HookId {
        self.hook
    }

    /// The mod of the hook being called, if it belongs to one.
    #[must_use]
    pub fn mod_id(&self) -> Option<ModId> {
        self.owner.map(|o| o.id)
    }

    /// The protocol revision of the connection's map (announced in
    /// `C_CHECK_VERSION`, or the compiled-in map's), if known.
    #[must_use]
    pub fn revision(&self) -> Option<u32> {
        self.revision
    }

    /// The connection's protocol map, once known.
    #[must_use]
    pub fn protocol_map(&self) -> Option<&ProtocolMap> {
        self.map
    }

    /// The connection's runtime defs, if it has any.
    #[must_use]
    pub fn runtime_defs(&self) -> Option<&'s Catalog> {
        self.defs
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
        let name = self.name.ok_or(DynamicError::NoName(self.opcode))?;
        let schema = schema_of(self.defs, name, version.exact())?;
        Ok(schema.decode(packet)?)
    }

    /// Sends `packet` towards the side its name says (`C_` to the server,
    /// `S_` and `I_` to the client), as [`send_to`](Event::send_to) does.
    ///
    /// # Errors
    /// [`PacketError`] when the name says no direction, the map has no
    /// opcode for it, or it does not encode.
    pub fn send<'a, P: Packet<'a>>(&mut self, packet: &P) -> Result<(), PacketError> {
        self.send_to(direction_of(P::NAME)?, packet)
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
        let packet = encode_packet(packet, opcode_in(self.map, P::NAME)?)?;
        self.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Sends a packet of a name chosen at run time, towards the side its
    /// name says.
    ///
    /// # Errors
    /// As [`send`](Event::send).
    pub fn send_any(&mut self, packet: &AnyPacket<'_>) -> Result<(), PacketError> {
        let dir = direction_of(packet.name())?;
        let packet = encode_any(packet, opcode_in(self.map, packet.name())?)?;
        self.injected.push(Injection { dir, packet });
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
        self.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Adds a hook, which sees the packets after this one. It belongs to
    /// this hook's mod, if any (removed with it).
    ///
    /// # Errors
    /// [`HookError::NotInMap`] when the connection's map is known and has
    /// no packet of the hook's name; [`HookError::WrongMod`] for a hook of
    /// another mod.
    pub fn add_hook(&mut self, hook: Hook) -> Result<HookId, HookError> {
        let setting = Setting {
            map: self.map,
            revision: self.revision,
            defs: self.defs,
        };
        check_hook(&hook, &setting, self.owner.as_ref())?;
        let id = self.ids.hook();
        self.changes.added.push((id, self.owner, hook));
        Ok(id)
    }

    /// Removes this hook (it is not called again).
    pub fn unhook(&mut self) {
        self.changes.removed.push(self.hook);
    }

    /// Removes hook `id`: it is not called again, from the next hook on.
    pub fn remove_hook(&mut self, id: HookId) {
        self.changes.removed.push(id);
    }

    /// Removes mod `id` with its hooks and commands (this hook's own mod
    /// included), once this packet's hooks have run.
    pub fn remove_mod(&mut self, id: ModId) {
        self.changes.removed_mods.push(id);
    }

    /// Calls `f` with the state of this hook's mod, if it is an `M`
    /// (`default` otherwise).
    pub(crate) fn with_state<M: 'static, R>(
        &mut self,
        default: R,
        f: impl FnOnce(&mut M, &mut Event<'_>) -> R,
    ) -> R {
        let Some(state) = self.state.take() else {
            return default;
        };
        let result = match state.downcast_mut::<M>() {
            Some(module) => f(module, self),
            None => default,
        };
        self.state = Some(state);
        result
    }
}
