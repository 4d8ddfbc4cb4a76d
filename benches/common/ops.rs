//! The operations measured, written once for every packet type.

use std::hint::black_box;

use tera_data::{Str, Visitor};

/// Touches every leaf so the optimiser cannot drop it, and decodes every
/// string into a `String`, as the JS reader does.
pub struct Touch;

impl Visitor for Touch {
    #[inline]
    fn unsigned(&mut self, value: u64) {
        black_box(value);
    }
    #[inline]
    fn signed(&mut self, value: i64) {
        black_box(value);
    }
    #[inline]
    fn float(&mut self, value: f64) {
        black_box(value);
    }
    #[inline]
    fn bool(&mut self, value: bool) {
        black_box(value);
    }
    #[inline]
    fn str(&mut self, value: &Str<'_>) {
        black_box(value.to_string_lossy());
    }
    #[inline]
    fn bytes(&mut self, value: &[u8]) {
        black_box(value);
    }
}

#[cfg(tera_corpus)]
pub use generated::*;

#[cfg(tera_corpus)]
mod generated {
    use super::Touch;
    use crate::common::types::Family;
    use std::hint::black_box;
    use tera_data::{IntoOwned, Packet, Visit};

    /// (a) zero-copy decode, fully validated.
    #[inline(never)]
    pub fn decode<F: Family>(bytes: &[u8]) -> bool {
        let packet = F::P::decode(bytes);
        black_box(&packet);
        packet.is_ok()
    }

    /// (b) decode, then every field, element and string.
    #[inline(never)]
    pub fn visit<F: Family>(bytes: &[u8]) -> bool {
        match F::P::decode(bytes) {
            Ok(p) => {
                p.visit(&mut Touch);
                true
            }
            Err(_) => false,
        }
    }

    /// (c) encode of the decoded (borrowed) value into a reused buffer.
    #[inline(never)]
    pub fn encode<'a, F: Family>(p: &F::P<'a>, buf: &mut [u8]) -> usize {
        p.encode_into(buf).unwrap_or(0)
    }

    /// (d) encode of an owned value into a reused buffer.
    #[inline(never)]
    pub fn encode_owned<F: Family>(p: &F::P<'static>, buf: &mut [u8]) -> usize {
        p.encode_into(buf).unwrap_or(0)
    }

    /// The owned copy of a packet, for (d).
    pub fn owned<F: Family>(bytes: &[u8]) -> Option<F::P<'static>> {
        F::P::decode(bytes).ok().map(IntoOwned::into_owned)
    }
}

/// The same operations on the hand-written codecs.
pub mod hand {
    use super::Touch;
    use crate::handwritten::{Codec, Hand};
    use std::hint::black_box;

    #[inline(never)]
    pub fn decode<H: Hand>(bytes: &[u8]) -> bool {
        let packet = H::P::decode(bytes);
        black_box(&packet);
        packet.is_ok()
    }

    #[inline(never)]
    pub fn visit<H: Hand>(bytes: &[u8]) -> bool {
        match H::P::decode(bytes) {
            Ok(p) => {
                p.visit(&mut Touch);
                true
            }
            Err(_) => false,
        }
    }

    #[inline(never)]
    pub fn encode<'a, H: Hand>(p: &H::P<'a>, buf: &mut [u8]) -> usize {
        p.encode_into(buf).unwrap_or(0)
    }
}
