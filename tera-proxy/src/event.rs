//! What a hook is told about the packet it sees, and what it can do besides
//! answering: inject packets, remove hooks.

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;

use crate::error::PacketError;
use crate::hooks::HookId;

/// A packet a hook or a handle injects.
#[derive(Debug)]
pub(crate) struct Injection {
    pub(crate) dir: Direction,
    pub(crate) packet: Vec<u8>,
}

/// The context of one hook call.
#[derive(Debug)]
pub struct Event<'s> {
    pub(crate) dir: Direction,
    pub(crate) opcode: u16,
    pub(crate) name: Option<&'s str>,
    pub(crate) fake: bool,
    pub(crate) modified: bool,
    pub(crate) silenced: bool,
    pub(crate) hook: HookId,
    pub(crate) map: Option<&'s ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) injected: &'s mut Vec<Injection>,
    pub(crate) removed: &'s mut Vec<HookId>,
}

impl Event<'_> {
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

    /// Encodes `packet` with its opcode in the connection's protocol map and
    /// sends it as [`send_raw`](Event::send_raw) does.
    ///
    /// # Errors
    /// [`PacketError`] when there is no map or no opcode for it, or it does
    /// not encode.
    pub fn send(&mut self, dir: Direction, packet: &AnyPacket<'_>) -> Result<(), PacketError> {
        let packet = encode(self.map, packet)?;
        self.injected.push(Injection { dir, packet });
        Ok(())
    }

    /// Removes this hook once it returns (a hook that runs once).
    pub fn unhook(&mut self) {
        self.removed.push(self.hook);
    }

    /// Removes hook `id` once this hook returns.
    pub fn remove_hook(&mut self, id: HookId) {
        self.removed.push(id);
    }
}

/// Checks a packet's size and writes it into its length field.
pub(crate) fn with_length(mut packet: Vec<u8>) -> Result<Vec<u8>, PacketError> {
    let len = packet.len();
    let len16 = u16::try_from(len)
        .ok()
        .filter(|l| usize::from(*l) >= tera_net::framing::HEADER_LEN)
        .ok_or(PacketError::BadLength(len))?;
    if let Some(field) = packet.get_mut(..2) {
        field.copy_from_slice(&len16.to_le_bytes());
    }
    Ok(packet)
}

/// Encodes a typed packet with its opcode in `map`.
pub(crate) fn encode(
    map: Option<&ProtocolMap>,
    packet: &AnyPacket<'_>,
) -> Result<Vec<u8>, PacketError> {
    let name = packet.name();
    let opcode = map
        .ok_or(PacketError::NoMap(name))?
        .code(name)
        .ok_or(PacketError::NoOpcode(name))?;
    encode_with_opcode(packet, opcode)
}

/// Encodes a typed packet with `opcode`.
pub(crate) fn encode_with_opcode(
    packet: &AnyPacket<'_>,
    opcode: u16,
) -> Result<Vec<u8>, PacketError> {
    let name = packet.name();
    let mut out = vec![0u8; packet.encoded_len()];
    let len = packet
        .encode_into_with_opcode(opcode, &mut out)
        .map_err(|source| PacketError::Encode { name, source })?;
    out.truncate(len);
    Ok(out)
}
