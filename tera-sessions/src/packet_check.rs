//! The check every writer makes before it stores a packet's bytes.

use crate::error::WriteError;
use crate::event::Packet;

/// The packet's length as its header gives it, checked against its bytes.
pub(crate) fn whole_packet(packet: &Packet) -> Result<u16, WriteError> {
    let header = match packet.bytes.as_slice() {
        [lo, hi, _, _, ..] => u16::from_le_bytes([*lo, *hi]),
        _ => 0,
    };
    if usize::from(header) != packet.bytes.len() || header < 4 {
        return Err(WriteError::NotAPacket {
            session: packet.session,
            len: packet.bytes.len(),
            header: usize::from(header),
        });
    }
    Ok(header)
}
