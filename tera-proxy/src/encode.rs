//! Turning packet values into bytes to send: the header's length and
//! opcode, and the direction a packet's name says it travels.

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;
use tera_packets::Packet;

use crate::error::PacketError;

/// The direction to send a packet of this name ([`tera_sessions::direction_of`]).
///
/// # Errors
/// [`PacketError::NoDirection`] when the name says none.
pub(crate) fn send_direction(name: &str) -> Result<Direction, PacketError> {
    tera_sessions::direction_of(name).ok_or_else(|| PacketError::NoDirection(name.to_owned()))
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

/// The opcode of `name` in `map`.
pub(crate) fn opcode_in(map: Option<&ProtocolMap>, name: &'static str) -> Result<u16, PacketError> {
    map.ok_or(PacketError::NoMap(name))?
        .code(name)
        .ok_or(PacketError::NoOpcode(name))
}

/// Encodes a typed packet with `opcode`.
pub(crate) fn encode_packet<'a, P: Packet<'a>>(
    packet: &P,
    opcode: u16,
) -> Result<Vec<u8>, PacketError> {
    let mut out = vec![0u8; packet.encoded_len()];
    let len = packet
        .encode_into_with_opcode(opcode, &mut out)
        .map_err(|source| PacketError::Encode {
            name: P::NAME,
            source,
        })?;
    out.truncate(len);
    Ok(out)
}

/// Encodes a packet of a name chosen at run time with `opcode`.
pub(crate) fn encode_any(packet: &AnyPacket<'_>, opcode: u16) -> Result<Vec<u8>, PacketError> {
    let name = packet.name();
    let mut out = vec![0u8; packet.encoded_len()];
    let len = packet
        .encode_into_with_opcode(opcode, &mut out)
        .map_err(|source| PacketError::Encode { name, source })?;
    out.truncate(len);
    Ok(out)
}
