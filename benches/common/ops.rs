//! The operations measured, written once for every packet type.

use std::hint::black_box;

use tera_data::{Str, Visitor};

/// Touches every leaf and decodes every string into a `String`, as the JS
/// reader does. Leaves are summed into one checksum a kind (so that the
/// sums are short chains that run side by side, not one add after the
/// other), which the caller passes through `black_box` once: no read can be
/// dropped, and no leaf is stored to memory. A reference to each `String`
/// goes through `black_box`, so that its allocation cannot be elided.
#[derive(Default)]
pub struct Touch {
    unsigned: u64,
    signed: u64,
    float: u64,
    other: u64,
}

impl Touch {
    /// The checksum of everything visited.
    pub fn sum(&self) -> u64 {
        self.unsigned ^ self.signed ^ self.float ^ self.other
    }
}

impl Visitor for Touch {
    #[inline]
    fn unsigned(&mut self, value: u64) {
        self.unsigned = self.unsigned.wrapping_add(value);
    }
    #[inline]
    fn signed(&mut self, value: i64) {
        self.signed = self.signed.wrapping_add(value as u64);
    }
    #[inline]
    fn float(&mut self, value: f64) {
        self.float = self.float.wrapping_add(value.to_bits());
    }
    #[inline]
    fn bool(&mut self, value: bool) {
        self.other = self.other.wrapping_add(u64::from(value));
    }
    #[inline]
    fn str(&mut self, value: &Str<'_>) {
        // `black_box(&text)`, not `black_box(text)`: moving the `String`
        // into `black_box` would copy it with wide loads from the narrow
        // stores that just returned it (a store-forwarding stall that costs
        // as much as the transcoding, and that no real caller pays).
        let text = value.to_string_lossy();
        black_box(&text);
        self.other = self.other.wrapping_add(text.len() as u64);
    }
    #[inline]
    fn bytes(&mut self, value: &[u8]) {
        self.other = self.other.wrapping_add(value.len() as u64);
        if let Some(&b) = value.first() {
            self.other = self.other.wrapping_add(u64::from(b));
        }
    }
}

/// [`Touch`], but each string is decoded into one `String` the caller
/// keeps ([`Str::decode_into`]): the transcoding without the allocation.
pub struct TouchReused<'b> {
    touch: Touch,
    text: &'b mut String,
}

impl<'b> TouchReused<'b> {
    /// A visitor decoding into `text`.
    pub fn new(text: &'b mut String) -> Self {
        TouchReused {
            touch: Touch::default(),
            text,
        }
    }

    /// The checksum of everything visited.
    pub fn sum(&self) -> u64 {
        self.touch.sum()
    }
}

impl Visitor for TouchReused<'_> {
    #[inline]
    fn unsigned(&mut self, value: u64) {
        self.touch.unsigned(value);
    }
    #[inline]
    fn signed(&mut self, value: i64) {
        self.touch.signed(value);
    }
    #[inline]
    fn float(&mut self, value: f64) {
        self.touch.float(value);
    }
    #[inline]
    fn bool(&mut self, value: bool) {
        self.touch.bool(value);
    }
    #[inline]
    fn str(&mut self, value: &Str<'_>) {
        self.text.clear();
        value.decode_into(self.text);
        black_box(&*self.text);
        self.touch.other = self.touch.other.wrapping_add(self.text.len() as u64);
    }
    #[inline]
    fn bytes(&mut self, value: &[u8]) {
        self.touch.bytes(value);
    }
}

#[cfg(tera_corpus)]
pub use generated::*;

#[cfg(tera_corpus)]
mod generated {
    use super::{Touch, TouchReused};
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
        // Visited in place: moving the decoded value out of the `Result`
        // would copy it, and the copy stalls on the stores just made.
        match &F::P::decode(bytes) {
            Ok(p) => {
                let mut touch = Touch::default();
                p.visit(&mut touch);
                black_box(touch.sum());
                true
            }
            Err(_) => false,
        }
    }

    /// (b2) as (b), each string decoded into the same `String`.
    #[inline(never)]
    pub fn visit_reused<F: Family>(bytes: &[u8], text: &mut String) -> bool {
        match &F::P::decode(bytes) {
            Ok(p) => {
                let mut touch = TouchReused::new(text);
                p.visit(&mut touch);
                black_box(touch.sum());
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
        // Visited in place: moving the decoded value out of the `Result`
        // would copy it, and the copy stalls on the stores just made.
        match &H::P::decode(bytes) {
            Ok(p) => {
                let mut touch = Touch::default();
                p.visit(&mut touch);
                black_box(touch.sum());
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
