//! A packet as bytes, as raw hooks see it.

use std::borrow::Cow;

/// A packet as bytes (header included), for raw hooks.
///
/// Reading borrows the relay's buffer; the first
/// [`bytes_mut`](RawPacket::bytes_mut) copies it. The copy is sent only if
/// the hook answers [`Verdict::Changed`](crate::Verdict::Changed).
#[derive(Debug)]
pub struct RawPacket<'b> {
    original: &'b [u8],
    changed: Option<Vec<u8>>,
}

impl<'b> RawPacket<'b> {
    pub(crate) fn new(original: &'b [u8]) -> Self {
        RawPacket {
            original,
            changed: None,
        }
    }

    /// The packet, with any change made so far.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.changed.as_deref().unwrap_or(self.original)
    }

    /// The opcode in the header.
    #[must_use]
    pub fn opcode(&self) -> u16 {
        tera_net::framing::opcode(self.bytes()).unwrap_or_default()
    }

    /// The packet to change in place (its size may change; the relay sets
    /// the length field when it sends it).
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        self.changed.get_or_insert_with(|| self.original.to_vec())
    }

    pub(crate) fn into_change(self) -> Cow<'b, [u8]> {
        match self.changed {
            Some(bytes) => Cow::Owned(bytes),
            None => Cow::Borrowed(self.original),
        }
    }
}
