//! Whole packets from an opcode and a body.

/// A whole packet: header (length set from the size) then `body`.
///
/// # Panics
/// If the packet would exceed 65535 bytes.
#[must_use]
pub fn packet(opcode: u16, body: &[u8]) -> Vec<u8> {
    let len = u16::try_from(body.len() + 4).unwrap_or_else(|_| panic!("packet too long"));
    let mut p = Vec::with_capacity(usize::from(len));
    p.extend_from_slice(&len.to_le_bytes());
    p.extend_from_slice(&opcode.to_le_bytes());
    p.extend_from_slice(body);
    p
}
