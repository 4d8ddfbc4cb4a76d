//! Splitting a decrypted byte stream into whole packets.
//!
//! A packet is a `u16` little-endian length (the whole packet, header
//! included), a `u16` opcode and a body; so `4 <= length <= 65535`.
//!
//! * [`packets`] iterates over the whole packets at the front of a buffer,
//!   borrowing them (zero copy), and tells how many bytes it consumed.
//! * [`split_packet`] takes one packet off the front of a buffer.
//! * [`Reassembler`] buffers partial reads and hands out whole packets.

/// Size of the packet header: `u16` length, `u16` opcode.
pub const HEADER_LEN: usize = 4;

/// Largest possible packet (the length field is a `u16`).
pub const MAX_PACKET_LEN: usize = u16::MAX as usize;

/// A malformed packet header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The length field is below the 4-byte header size; the stream cannot be
    /// resynchronised after this.
    #[error("packet length {len} at byte {offset} is shorter than the {HEADER_LEN}-byte header")]
    LengthTooShort {
        /// The length field read.
        len: u16,
        /// Offset of the packet in the buffer (or stream, for [`Reassembler`]).
        offset: u64,
    },
}

/// The length field of the packet at the front of `buf`, if 2 bytes are
/// there.
#[must_use]
pub fn packet_len(buf: &[u8]) -> Option<u16> {
    match buf {
        [a, b, ..] => Some(u16::from_le_bytes([*a, *b])),
        _ => None,
    }
}

/// The opcode of a packet (bytes 2..4), if the header is there.
#[must_use]
pub fn opcode(packet: &[u8]) -> Option<u16> {
    match packet {
        [_, _, a, b, ..] => Some(u16::from_le_bytes([*a, *b])),
        _ => None,
    }
}

/// A packet taken off the front of a buffer, and the bytes after it.
pub type Split<'a> = (&'a [u8], &'a [u8]);

/// Takes the first whole packet off `buf`: `Ok(Some((packet, rest)))`, or
/// `Ok(None)` when `buf` holds only part of a packet.
///
/// # Errors
/// [`FrameError::LengthTooShort`] if the length field is below 4.
pub fn split_packet(buf: &[u8]) -> Result<Option<Split<'_>>, FrameError> {
    let Some(len) = packet_len(buf) else {
        return Ok(None);
    };
    if usize::from(len) < HEADER_LEN {
        return Err(FrameError::LengthTooShort { len, offset: 0 });
    }
    Ok(buf.split_at_checked(usize::from(len)))
}

/// Iterates over the whole packets at the front of `buf`.
///
/// ```
/// use tera_net::framing::packets;
/// // Two packets (lengths 4 and 5) and the start of a third.
/// let buf = [4, 0, 0xaa, 0xbb, 5, 0, 1, 2, 3, 9, 0];
/// let mut it = packets(&buf);
/// assert_eq!(it.next(), Some(Ok(&buf[..4])));
/// assert_eq!(it.next(), Some(Ok(&buf[4..9])));
/// assert_eq!(it.next(), None);
/// assert_eq!(it.consumed(), 9);
/// assert_eq!(it.remainder(), &[9, 0]);
/// ```
#[must_use]
pub fn packets(buf: &[u8]) -> Packets<'_> {
    Packets {
        rest: buf,
        consumed: 0,
        failed: false,
    }
}

/// Iterator returned by [`packets`]. Yields `Ok(packet)` for each whole
/// packet, then stops; on a bad length it yields one `Err` and stops.
#[derive(Clone, Debug)]
pub struct Packets<'a> {
    rest: &'a [u8],
    consumed: usize,
    failed: bool,
}

impl<'a> Packets<'a> {
    /// Bytes taken by the packets yielded so far.
    #[must_use]
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// The bytes not yet yielded (a partial packet, after the iterator is
    /// exhausted, or the bad packet after an error).
    #[must_use]
    pub fn remainder(&self) -> &'a [u8] {
        self.rest
    }
}

impl<'a> Iterator for Packets<'a> {
    type Item = Result<&'a [u8], FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match split_packet(self.rest) {
            Ok(Some((packet, rest))) => {
                self.rest = rest;
                self.consumed += packet.len();
                Some(Ok(packet))
            }
            Ok(None) => None,
            Err(FrameError::LengthTooShort { len, .. }) => {
                self.failed = true;
                Some(Err(FrameError::LengthTooShort {
                    len,
                    offset: self.consumed as u64,
                }))
            }
        }
    }
}

impl core::iter::FusedIterator for Packets<'_> {}

/// Buffers a byte stream that arrives in arbitrary pieces and yields whole
/// packets.
///
/// ```
/// use tera_net::framing::Reassembler;
/// let mut r = Reassembler::new();
/// r.push(&[6, 0, 0x34]);
/// assert_eq!(r.next_packet(), Ok(None));
/// r.push(&[0x12, 0xee, 0xff, 4, 0, 1]);
/// assert_eq!(r.next_packet(), Ok(Some(&[6, 0, 0x34, 0x12, 0xee, 0xff][..])));
/// assert_eq!(r.next_packet(), Ok(None));
/// assert_eq!(r.buffered(), 3);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Reassembler {
    buf: Vec<u8>,
    /// Start of the unconsumed bytes in `buf`.
    start: usize,
    /// Stream offset of `buf[start]`.
    offset: u64,
}

impl Reassembler {
    /// An empty reassembler.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `data` and returns the appended copy, so that the caller can
    /// transform it in place (e.g. decrypt it: `cipher.apply(r.push(raw))`).
    pub fn push(&mut self, data: &[u8]) -> &mut [u8] {
        // Drop consumed bytes once they outweigh the live ones (amortised
        // O(1) per byte).
        if self.start > 0 && self.start >= self.buf.len() - self.start {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let old_len = self.buf.len();
        self.buf.extend_from_slice(data);
        self.buf.get_mut(old_len..).unwrap_or_default()
    }

    /// The next whole packet, or `Ok(None)` if more bytes are needed.
    ///
    /// # Errors
    /// [`FrameError::LengthTooShort`] (with the stream offset) on a length
    /// below 4. The bad bytes stay buffered, so the error repeats.
    pub fn next_packet(&mut self) -> Result<Option<&[u8]>, FrameError> {
        let live = self.buf.get(self.start..).unwrap_or_default();
        match split_packet(live) {
            Ok(Some((packet, _))) => {
                self.start += packet.len();
                self.offset += packet.len() as u64;
                Ok(Some(packet))
            }
            Ok(None) => Ok(None),
            Err(FrameError::LengthTooShort { len, .. }) => Err(FrameError::LengthTooShort {
                len,
                offset: self.offset,
            }),
        }
    }

    /// Bytes buffered but not yet returned as packets.
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Total bytes returned as packets so far.
    #[must_use]
    pub fn consumed(&self) -> u64 {
        self.offset
    }

    /// Forgets all buffered bytes (e.g. after an error).
    pub fn clear(&mut self) {
        self.offset += self.buffered() as u64;
        self.buf.clear();
        self.start = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(len: u16, op: u16) -> Vec<u8> {
        let mut p = Vec::new();
        p.extend_from_slice(&len.to_le_bytes());
        p.extend_from_slice(&op.to_le_bytes());
        p.resize(usize::from(len).max(4), 0xab);
        p
    }

    #[test]
    fn empty_and_short_buffers() {
        assert_eq!(split_packet(&[]), Ok(None));
        assert_eq!(split_packet(&[7]), Ok(None));
        assert_eq!(split_packet(&[7, 0, 1]), Ok(None));
        assert_eq!(packets(&[]).next(), None);
        assert_eq!(opcode(&[4, 0, 1]), None);
        assert_eq!(opcode(&[4, 0, 0x34, 0x12]), Some(0x1234));
    }

    #[test]
    fn header_only_packet() {
        let buf = [4, 0, 1, 2];
        assert_eq!(split_packet(&buf), Ok(Some((&buf[..], &[][..]))));
    }

    #[test]
    fn too_short_lengths_are_errors() {
        for len in 0..4u16 {
            let mut buf = vec![4, 0, 0, 0];
            buf.extend_from_slice(&len.to_le_bytes());
            buf.extend_from_slice(&[0; 10]);
            let mut it = packets(&buf);
            assert_eq!(it.next(), Some(Ok(&buf[..4])));
            assert_eq!(
                it.next(),
                Some(Err(FrameError::LengthTooShort { len, offset: 4 }))
            );
            assert_eq!(it.next(), None);
            assert_eq!(it.consumed(), 4);
            assert_eq!(it.remainder().len(), buf.len() - 4);

            let mut r = Reassembler::new();
            r.push(&buf);
            assert!(r.next_packet().unwrap().is_some());
            let err = r.next_packet().unwrap_err();
            assert_eq!(err, FrameError::LengthTooShort { len, offset: 4 });
            assert!(err.to_string().contains("shorter than the 4-byte header"));
        }
    }

    #[test]
    fn max_length_packet() {
        let p = packet(u16::MAX, 0x9999);
        assert_eq!(p.len(), MAX_PACKET_LEN);
        let mut buf = p.clone();
        buf.extend_from_slice(&packet(4, 1));
        let got: Vec<_> = packets(&buf).collect::<Result<_, _>>().unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], &p[..]);
        assert!(split_packet(&p[..MAX_PACKET_LEN - 1]).unwrap().is_none());
    }

    #[test]
    fn reassembler_byte_by_byte() {
        let mut stream = Vec::new();
        let lens = [4u16, 5, 300, 4, 70, 65535, 9];
        for (i, len) in lens.iter().enumerate() {
            stream.extend_from_slice(&packet(*len, i as u16));
        }
        for step in [1, 2, 3, 7, 1000, 70000] {
            let mut r = Reassembler::new();
            let mut got = Vec::new();
            for chunk in stream.chunks(step) {
                r.push(chunk);
                while let Some(p) = r.next_packet().unwrap() {
                    got.push((p.len(), opcode(p).unwrap()));
                }
            }
            let want: Vec<_> = lens
                .iter()
                .enumerate()
                .map(|(i, l)| (usize::from(*l), i as u16))
                .collect();
            assert_eq!(got, want, "step {step}");
            assert_eq!(r.buffered(), 0);
            assert_eq!(r.consumed(), stream.len() as u64);
        }
    }

    #[test]
    fn push_returns_appended_region() {
        let mut r = Reassembler::new();
        r.push(&[5, 0]);
        let new = r.push(&[1, 2, 3]);
        assert_eq!(new, &[1, 2, 3]);
        new.fill(9);
        assert_eq!(r.next_packet(), Ok(Some(&[5, 0, 9, 9, 9][..])));
        r.push(&[1]);
        r.clear();
        assert_eq!(r.buffered(), 0);
        assert_eq!(r.consumed(), 6);
    }
}
