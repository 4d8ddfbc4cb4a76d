//! Finding the next packet boundary after lost bytes.
//!
//! When the lost bytes held a packet header, where the next packet starts
//! is unknown. The bytes seen after the loss (decrypted: the cipher stays
//! in step, skipped over the lost length) hold the rest of the packet the
//! loss fell in, then whole packets. Every byte is a candidate start; from
//! each, the headers chain: a header's length says where the next one is.
//! A header *cannot be one* when its length is below the header's own 4
//! bytes or, with a protocol map, when its opcode is not in the map; a
//! chain that meets such a header is never taken, whatever it held before.
//!
//! From the true start the chain runs on every true packet to the end of
//! the bytes seen. A start inside the rest of the lost packet is noise; its
//! chain either breaks, or waits on a length past the end, or lands on a
//! true boundary and from there runs on the true packets. A chain is
//! weighed by its *trusted* packets: every packet with a map; without one,
//! the packets whose opcode the direction already used (a session uses a
//! few hundred over and over; noise rarely hits one). The chain with the
//! most is taken, the later start on a tie, once it holds [`MIN_CHAIN`]
//! of them: a noise chain that lands on a true boundary has at most one
//! trusted packet more than the true chain from there, and none unless its
//! own header's opcode is trusted; on a tie the later start keeps noise out
//! and costs the untrusted packets before the first trusted one. A
//! direction that has used no opcode the bytes hold (a loss early in a
//! session) takes the chain of the most whole packets once it holds
//! [`MIN_UNTRUSTED_CHAIN`]. When the search window is full one trusted
//! packet (or two untrusted) will do; when the stream has ended, one
//! packet.
//!
//! The search runs once the bytes seen grew by half since the last one
//! (never for every segment), and one search is a single pass from the
//! end: the cost is linear in the bytes received.

use super::OpcodeSet;
use tera_net::framing::HEADER_LEN;

/// Trusted packets a chain needs.
pub(crate) const MIN_CHAIN: u32 = 4;

/// Whole packets a chain of few trusted ones needs.
pub(crate) const MIN_UNTRUSTED_CHAIN: u32 = 8;

/// What is known of the opcodes of true headers.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Opcodes<'a> {
    /// A protocol map's: a header whose opcode is not in it cannot be one.
    Map(&'a OpcodeSet),
    /// The opcodes the direction used so far: any opcode may come, these
    /// are trusted.
    Used(&'a OpcodeSet),
}

impl Opcodes<'_> {
    fn rejects(self, opcode: u16) -> bool {
        matches!(self, Opcodes::Map(map) if !map.contains(opcode))
    }

    fn trusts(self, opcode: u16) -> bool {
        match self {
            Opcodes::Map(_) => true,
            Opcodes::Used(used) => used.contains(opcode),
        }
    }
}

/// When a search is made: how much a chain needs to be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// More bytes will come.
    Running,
    /// The search window is full: its older half is dropped next.
    Full,
    /// The stream ended.
    Last,
}

/// The chain of packets from one start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chain {
    /// Its whole packets whose opcode is trusted.
    trusted: u32,
    /// Its whole packets.
    total: u32,
    /// Where its last whole packet ends: a packet not whole yet (or a
    /// header not whole yet) starts there, or the bytes end.
    end: usize,
}

/// The best chains of a search: by trusted packets, and by whole packets.
#[derive(Clone, Copy, Debug, Default)]
struct Best {
    trusted: Option<(usize, Chain)>,
    total: Option<(usize, Chain)>,
}

impl Best {
    /// Counts the chain from `at`; the starts come in descending order, so
    /// that a tie keeps the later one.
    fn add(&mut self, at: usize, c: Chain) {
        if self
            .trusted
            .is_none_or(|(_, b)| (c.trusted, c.total) > (b.trusted, b.total))
        {
            self.trusted = Some((at, c));
        }
        if self.total.is_none_or(|(_, b)| c.total > b.total) {
            self.total = Some((at, c));
        }
    }

    /// The chain taken at `moment`, if one is sure enough.
    fn taken(self, moment: Moment) -> Option<(usize, Chain)> {
        let (need_trusted, need_total) = match moment {
            Moment::Running => (MIN_CHAIN, MIN_UNTRUSTED_CHAIN),
            Moment::Full => (1, 2),
            Moment::Last => (1, 1),
        };
        let trusted = self.trusted?;
        if trusted.1.trusted >= need_trusted {
            return Some(trusted);
        }
        let untrusted_only = trusted.1.trusted == 0 || moment != Moment::Running;
        self.total
            .filter(|(_, c)| untrusted_only && c.total >= need_total)
    }
}

/// The start in `bytes` from which packets follow one another best (see
/// the module docs), if it is sure enough at `moment`: where it starts and
/// where its whole packets end. The bytes from that end on start a packet
/// whose header is not whole, or whose length is at least the header's
/// and more than the bytes left.
pub(crate) fn find_start(
    bytes: &[u8],
    opcodes: Opcodes<'_>,
    moment: Moment,
) -> Option<(usize, usize)> {
    let n = bytes.len();
    // chains[i]: the chain from i, or None when it meets a header that
    // cannot be one. Filled from the end: a chain is its first packet and
    // the chain after it.
    let mut chains: Vec<Option<Chain>> = vec![None; n + 1];
    let waiting = |at| {
        Some(Chain {
            trusted: 0,
            total: 0,
            end: at,
        })
    };
    if let Some(last) = chains.last_mut() {
        *last = waiting(n);
    }
    let mut best = Best::default();
    for at in (0..n).rev() {
        let chain = match bytes.get(at..).and_then(|b| b.first_chunk::<HEADER_LEN>()) {
            None => waiting(at),
            Some(&[l0, l1, o0, o1]) => {
                let len = usize::from(u16::from_le_bytes([l0, l1]));
                let opcode = u16::from_le_bytes([o0, o1]);
                if len < HEADER_LEN || opcodes.rejects(opcode) {
                    None
                } else {
                    match chains.get(at + len) {
                        None => waiting(at),
                        Some(None) => None,
                        Some(Some(next)) => Some(Chain {
                            trusted: next.trusted + u32::from(opcodes.trusts(opcode)),
                            total: next.total + 1,
                            end: next.end,
                        }),
                    }
                }
            }
        };
        if let Some(slot) = chains.get_mut(at) {
            *slot = chain;
        }
        if let Some(c) = chain {
            best.add(at, c);
        }
    }
    let (start, chain) = best.taken(moment)?;
    Some((start, chain.end))
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

    fn packets(first: u16, count: u16) -> Vec<u8> {
        (first..first + count)
            .flat_map(|op| packet(op, usize::from(op % 7)))
            .collect()
    }

    #[test]
    fn finds_the_first_whole_packet_after_a_tail() {
        let used: OpcodeSet = (100..110).collect();
        let mut bytes = vec![0xff, 0xff, 0x13, 0x37, 0xee];
        bytes.extend(packets(100, 5));
        let end = bytes.len();
        bytes.extend(&packet(104, 30)[..10]);
        assert_eq!(
            find_start(&bytes, Opcodes::Used(&used), Moment::Running),
            Some((5, end))
        );
    }

    #[test]
    fn waits_for_enough_packets_until_the_end() {
        let used = OpcodeSet::default();
        let mut bytes = vec![0xff, 0xff, 0x13];
        bytes.extend(packet(100, 10));
        assert_eq!(
            find_start(&bytes, Opcodes::Used(&used), Moment::Running),
            None
        );
        assert_eq!(
            find_start(&bytes, Opcodes::Used(&used), Moment::Last),
            Some((3, bytes.len()))
        );
    }

    #[test]
    fn a_chain_that_meets_an_impossible_header_is_never_taken() {
        let map: OpcodeSet = (100..110).collect();
        // Four packets of the map, then a length of 2: the chain from 0
        // breaks there; the true start is after it.
        let mut bytes = packets(100, 4);
        bytes.extend([2, 0, 0, 0]);
        let start = bytes.len();
        bytes.extend(packets(104, 5));
        assert_eq!(
            find_start(&bytes, Opcodes::Map(&map), Moment::Running),
            Some((start, bytes.len()))
        );
        // An opcode the map does not hold breaks a chain as well.
        let mut bytes = packets(100, 4);
        bytes.extend(packet(999, 3));
        let start = bytes.len();
        bytes.extend(packets(104, 5));
        assert_eq!(
            find_start(&bytes, Opcodes::Map(&map), Moment::Running),
            Some((start, bytes.len()))
        );
    }

    #[test]
    fn noise_that_lands_on_a_boundary_loses_to_the_true_start() {
        let used: OpcodeSet = (100..120).collect();
        // Noise at 0 whose length (10) lands on the second true packet,
        // with a used opcode: the true start at 2 has one packet more.
        let mut bytes = vec![10, 0];
        bytes.extend(packet(100, 4));
        bytes.extend(packets(101, 6));
        assert_eq!(bytes[..4], [10, 0, 8, 0]);
        assert_eq!(
            find_start(&bytes, Opcodes::Used(&used), Moment::Running),
            Some((2, bytes.len()))
        );
    }

    #[test]
    fn trusted_opcodes_outweigh_noise_that_chains() {
        let used: OpcodeSet = (100..110).collect();
        // Noise of 4-byte "packets" of opcode 1 chains further than the
        // true packets, but none of it is trusted.
        let mut bytes: Vec<u8> = [4u8, 0, 1, 0].repeat(20);
        bytes.extend(packets(100, 5));
        assert_eq!(
            find_start(&bytes, Opcodes::Used(&used), Moment::Running),
            Some((80, bytes.len()))
        );
    }
}
