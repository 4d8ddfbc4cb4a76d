//! Finding the next packet boundary after lost bytes.
//!
//! When the lost bytes held a packet header, where the next packet starts
//! is unknown. The bytes seen after the loss (decrypted: the cipher stays in
//! step, skipped over the lost length) are searched for a start from which
//! whole packets follow one another: every header's length at least 4 and,
//! when a set of known opcodes is given, every opcode in it. A start is
//! taken when its chain of packets
//!
//! * ends exactly where the bytes seen end, with at least [`MIN_EXACT`]
//!   packets (one once the stream has ended), or
//! * holds at least [`MIN_CHAIN`] whole packets.
//!
//! Starts where a segment began are tried first, in order, then every
//! byte: senders write whole packets, so segments mostly start on a
//! boundary (the loss itself ends where a segment begins), while a start
//! inside a packet's body is noise whose chain must land on a true boundary
//! by chance. That chance is small but not nil for a noise start: a random
//! length lands on one of the true boundaries within its reach about once
//! in a few hundred tries, after which the chain runs on the true packets.
//! A noise start is also tried again each time more bytes arrive, against
//! a new end. Known opcodes, every header's opcode held to them, make all
//! this negligible: a protocol map's, given to the reader, or else the
//! opcodes the direction already used in the session (a session uses a few
//! hundred over and over; noise rarely hits one, let alone two in a row).
//! Only when no chain of used opcodes is found are other starts taken, and
//! then only where a segment began and only on an exact end: a new opcode
//! right after a loss costs the packets up to the next used one, never a
//! packet made of noise.
//! Until a start is found the bytes wait; past the search window the older
//! half is dropped.

use super::OpcodeSet;
use tera_net::framing::HEADER_LEN;

/// Packets a chain needs when it ends exactly at the end of the bytes seen.
pub(crate) const MIN_EXACT: usize = 2;

/// Whole packets a chain needs otherwise.
pub(crate) const MIN_CHAIN: usize = 4;

/// Where a chain of packets starting at `start` stops.
struct Chain {
    /// Whole packets.
    packets: usize,
    /// Where the chain's last whole packet ends.
    end: usize,
    /// Whether the chain met a header that cannot be one.
    broken: bool,
}

fn chain(bytes: &[u8], start: usize, known: Option<&OpcodeSet>) -> Chain {
    let mut at = start;
    let mut packets = 0;
    loop {
        let Some(&[l0, l1, o0, o1]) = bytes.get(at..).and_then(|b| b.first_chunk::<HEADER_LEN>())
        else {
            return Chain {
                packets,
                end: at,
                broken: false,
            };
        };
        let len = usize::from(u16::from_le_bytes([l0, l1]));
        let opcode = u16::from_le_bytes([o0, o1]);
        if len < HEADER_LEN || known.is_some_and(|k| !k.contains(opcode)) {
            return Chain {
                packets,
                end: at,
                broken: true,
            };
        }
        if at + len > bytes.len() {
            return Chain {
                packets,
                end: at,
                broken: false,
            };
        }
        at += len;
        packets += 1;
    }
}

/// Where a search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// Segment starts first, then every byte; an exact end or a long chain
    /// confirms.
    Everywhere,
    /// Segment starts only; only an exact end confirms.
    SegmentStarts,
}

/// The start in `bytes` from which packets plausibly follow one another
/// (see the module docs), segment starts (`starts`, ascending) first, and
/// where its whole packets end. At the end of a stream (`last`), a single
/// packet ending exactly where the stream ends is enough: no more bytes
/// will come to confirm it.
pub(crate) fn find_start(
    bytes: &[u8],
    starts: &[usize],
    known: Option<&OpcodeSet>,
    search: Search,
    last: bool,
) -> Option<(usize, usize)> {
    let min_exact = if last { 1 } else { MIN_EXACT };
    let confirmed = |start: usize| {
        let c = chain(bytes, start, known);
        let exact = !c.broken && c.end == bytes.len() && c.packets >= min_exact;
        let long = search == Search::Everywhere && c.packets >= MIN_CHAIN;
        (exact || long).then_some((start, c.end))
    };
    let at_starts = starts.iter().copied().find_map(confirmed);
    match search {
        Search::Everywhere => at_starts.or_else(|| (0..bytes.len()).find_map(confirmed)),
        Search::SegmentStarts => at_starts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(opcode: u16, body: usize) -> Vec<u8> {
        let mut p = ((body + 4) as u16).to_le_bytes().to_vec();
        p.extend_from_slice(&opcode.to_le_bytes());
        p.extend(std::iter::repeat_n(0x41, body));
        p
    }

    #[test]
    fn finds_the_first_whole_packet_after_a_tail() {
        let mut bytes = vec![0xff, 0xff, 0x13, 0x37, 0xee];
        bytes.extend(packet(100, 10));
        bytes.extend(packet(101, 0));
        assert_eq!(
            find_start(&bytes, &[], None, Search::Everywhere, false),
            Some((5, bytes.len()))
        );
    }

    #[test]
    fn waits_for_more_than_one_packet_until_the_end() {
        let mut bytes = vec![0xff, 0xff, 0x13];
        bytes.extend(packet(100, 10));
        assert_eq!(
            find_start(&bytes, &[], None, Search::Everywhere, false),
            None
        );
        assert_eq!(
            find_start(&bytes, &[], None, Search::Everywhere, true),
            Some((3, bytes.len()))
        );
    }

    #[test]
    fn a_long_chain_need_not_end_exactly() {
        let mut bytes = vec![0xfe, 0xff];
        for _ in 0..4 {
            bytes.extend(packet(7, 3));
        }
        bytes.extend(&packet(7, 100)[..20]);
        assert_eq!(
            find_start(&bytes, &[], None, Search::Everywhere, false),
            Some((2, 2 + 4 * 7))
        );
    }

    #[test]
    fn segment_starts_come_first() {
        // Noise at 0 chains exactly (06 00 .. .. twice); the segment start
        // at 12 is preferred.
        let mut bytes = vec![6, 0, 9, 9, 0, 0, 6, 0, 9, 9, 0, 0];
        bytes.extend(packet(100, 2));
        bytes.extend(packet(101, 2));
        assert_eq!(
            find_start(&bytes, &[12], None, Search::Everywhere, false),
            Some((12, bytes.len()))
        );
    }

    #[test]
    fn known_opcodes_reject_noise() {
        let known: OpcodeSet = [100, 101].into_iter().collect();
        // Noise that chains exactly without the set: 06 00 xx xx twice.
        let mut bytes = vec![6, 0, 9, 9, 0, 0, 6, 0, 9, 9, 0, 0];
        bytes.extend(packet(100, 2));
        bytes.extend(packet(101, 2));
        assert_eq!(
            find_start(&bytes, &[], None, Search::Everywhere, false),
            Some((0, bytes.len()))
        );
        assert_eq!(
            find_start(&bytes, &[], Some(&known), Search::Everywhere, false),
            Some((12, bytes.len()))
        );
    }
}
