//! One direction of a session: decrypts its bytes and splits them into
//! packets, and keeps both in step across lost bytes.
//!
//! On lost bytes the cipher skips their length ([`Pike::skip`]), so the
//! bytes after them decrypt; what is lost is the framing, and the packet
//! that held lost bytes is dropped, never handed out:
//!
//! * when the loss falls inside a packet whose header was seen, that
//!   packet's end is known: the rest of it is skipped and framing goes on
//!   exactly at the next packet;
//! * when the loss swallows a header (it starts on a boundary, or runs past
//!   the end of the packet it starts in), the next boundary is searched for
//!   among the bytes that follow ([`super::resync`]); the bytes before it
//!   are dropped.

use tera_net::Pike;
use tera_net::framing::HEADER_LEN;

use super::OpcodeSet;
use super::resync::{Search, find_start};

/// Bytes kept while searching for the next packet after a lost header;
/// past this, the older half is dropped.
pub(crate) const RESYNC_WINDOW: usize = 64 * 1024;

/// What a framer hands out.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// A whole decrypted packet.
    Packet(Vec<u8>),
    /// Bytes not seen, from `offset` (counted from the first byte after the
    /// handshake), `len` long.
    Gap { offset: u64, len: u64 },
}

/// Counters of what a framer dropped.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dropped {
    /// Packets that held lost bytes.
    pub(crate) packets: u64,
    /// Bytes seen but dropped while searching for the next packet.
    pub(crate) resync_bytes: u64,
    /// Times the search found the next packet.
    pub(crate) resyncs: u64,
}

#[derive(Debug)]
enum State {
    /// Reading a header: `have` bytes of it (decrypted) so far.
    Header {
        bytes: [u8; HEADER_LEN],
        have: usize,
    },
    /// Reading a packet of `len` bytes.
    Body { packet: Vec<u8>, len: usize },
    /// Skipping the rest of a packet that held lost bytes.
    Discard { remaining: u64 },
    /// Searching for the next packet in the (decrypted) bytes seen, which
    /// came in pieces (segments) starting at `starts`.
    Resync { seen: Vec<u8>, starts: Vec<usize> },
}

/// One direction's decryption and framing (see the module docs).
#[derive(Debug)]
pub(crate) struct Framer {
    cipher: Pike,
    /// Bytes of the stream consumed so far (seen or lost).
    offset: u64,
    state: State,
    /// The opcodes of the packets handed out so far, for the search after
    /// a lost header when no known opcodes are given.
    used: Box<OpcodeSet>,
    pub(crate) dropped: Dropped,
}

impl Framer {
    /// A framer at the first byte after the handshake.
    pub(crate) fn new(cipher: Pike) -> Framer {
        Framer {
            cipher,
            offset: 0,
            state: State::Header {
                bytes: [0; HEADER_LEN],
                have: 0,
            },
            used: Box::default(),
            dropped: Dropped::default(),
        }
    }

    /// The next encrypted bytes of the stream.
    pub(crate) fn data(
        &mut self,
        bytes: &[u8],
        known: Option<&OpcodeSet>,
        out: &mut impl FnMut(Output),
    ) {
        let used = &mut *self.used;
        let mut rest = bytes;
        while !rest.is_empty() {
            let taken = match &mut self.state {
                State::Header { bytes, have } => {
                    let n = (HEADER_LEN - *have).min(rest.len());
                    let (now, _) = rest.split_at(n);
                    if let Some(dst) = bytes.get_mut(*have..*have + n) {
                        dst.copy_from_slice(now);
                        self.cipher.apply(dst);
                    }
                    *have += n;
                    if *have == HEADER_LEN {
                        let header = *bytes;
                        self.state = start_packet(header, rest.len() - n, used, out);
                    }
                    n
                }
                State::Body { packet, len } => {
                    let n = (*len - packet.len()).min(rest.len());
                    let (now, _) = rest.split_at(n);
                    let at = packet.len();
                    packet.extend_from_slice(now);
                    let (_, new) = packet.split_at_mut(at);
                    self.cipher.apply(new);
                    if packet.len() == *len {
                        if let Some(opcode) = tera_net::framing::opcode(packet) {
                            used.insert(opcode);
                        }
                        out(Output::Packet(std::mem::take(packet)));
                        self.state = State::header();
                    }
                    n
                }
                State::Discard { remaining } => {
                    let n = (*remaining).min(rest.len() as u64) as usize;
                    self.cipher.skip(n as u64);
                    *remaining -= n as u64;
                    if *remaining == 0 {
                        self.state = State::header();
                    }
                    n
                }
                State::Resync { seen, starts } => {
                    let at = seen.len();
                    starts.push(at);
                    seen.extend_from_slice(rest);
                    let (_, new) = seen.split_at_mut(at);
                    self.cipher.apply(new);
                    self.offset += rest.len() as u64;
                    rest = &[];
                    resync(&mut self.state, &mut self.dropped, used, known, false, out);
                    continue;
                }
            };
            self.offset += taken as u64;
            (_, rest) = rest.split_at(taken);
        }
    }

    /// The next `len` bytes of the stream were not seen.
    pub(crate) fn lost(&mut self, len: u64, out: &mut impl FnMut(Output)) {
        if len == 0 {
            return;
        }
        out(Output::Gap {
            offset: self.offset,
            len,
        });
        self.cipher.skip(len);
        self.offset += len;
        let left_in_packet = match &self.state {
            State::Header { .. } => None,
            State::Body { packet, len } => Some((*len - packet.len()) as u64),
            State::Discard { remaining } => Some(*remaining),
            State::Resync { seen, .. } => {
                self.dropped.resync_bytes += seen.len() as u64;
                None
            }
        };
        if matches!(self.state, State::Body { .. }) {
            self.dropped.packets += 1;
        }
        self.state = match left_in_packet {
            Some(left) if len < left => State::Discard {
                remaining: left - len,
            },
            Some(left) if len == left => State::header(),
            _ => State::resync(Vec::new()),
        };
    }

    /// The stream ended: a packet cut short by the end is reported as a gap
    /// for its missing bytes and dropped.
    pub(crate) fn finish(&mut self, known: Option<&OpcodeSet>, out: &mut impl FnMut(Output)) {
        if matches!(self.state, State::Resync { .. }) {
            let used = &mut *self.used;
            resync(&mut self.state, &mut self.dropped, used, known, true, out);
        }
        match std::mem::replace(&mut self.state, State::header()) {
            State::Body { packet, len } => {
                self.dropped.packets += 1;
                out(Output::Gap {
                    offset: self.offset,
                    len: (len - packet.len()) as u64,
                });
            }
            State::Discard { remaining } => out(Output::Gap {
                offset: self.offset,
                len: remaining,
            }),
            State::Resync { seen, .. } => self.dropped.resync_bytes += seen.len() as u64,
            State::Header { .. } => {}
        }
    }
}

/// Looks for the next packet in the bytes seen since the lost header
/// (`last`: no more will come); `used` is the direction's opcodes so far.
fn resync(
    state: &mut State,
    dropped: &mut Dropped,
    used: &mut OpcodeSet,
    known: Option<&OpcodeSet>,
    last: bool,
    out: &mut impl FnMut(Output),
) {
    let State::Resync { seen, starts } = state else {
        return;
    };
    let found = match known {
        Some(known) => find_start(seen, starts, Some(known), Search::Everywhere, last),
        None => find_start(seen, starts, Some(used), Search::Everywhere, last)
            .or_else(|| find_start(seen, starts, None, Search::SegmentStarts, last)),
    };
    let Some((start, end)) = found else {
        if seen.len() > RESYNC_WINDOW {
            let half = seen.len() / 2;
            seen.drain(..half);
            starts.retain_mut(|s| {
                *s = s.wrapping_sub(half);
                *s < seen.len()
            });
            dropped.resync_bytes += half as u64;
        }
        return;
    };
    dropped.resyncs += 1;
    dropped.resync_bytes += start as u64;
    let seen = std::mem::take(seen);
    let (_, from_start) = seen.split_at(start.min(seen.len()));
    let (whole, tail) = from_start.split_at((end - start).min(from_start.len()));
    // The chain's packets are whole and checked: hand them out; the
    // bytes after them start the next packet.
    let mut rest = whole;
    while let Some(len) = packet_len(rest) {
        let (packet, after) = rest.split_at(len.clamp(HEADER_LEN, rest.len()));
        if let Some(opcode) = tera_net::framing::opcode(packet) {
            used.insert(opcode);
        }
        out(Output::Packet(packet.to_vec()));
        rest = after;
    }
    *state = match packet_len(tail) {
        // `find_start` stopped here because this packet is not whole
        // yet; its length is at least the header's.
        Some(len) if tail.len() >= HEADER_LEN => State::Body {
            packet: tail.to_vec(),
            len,
        },
        _ => {
            let mut bytes = [0; HEADER_LEN];
            for (dst, src) in bytes.iter_mut().zip(tail) {
                *dst = *src;
            }
            State::Header {
                bytes,
                have: tail.len().min(HEADER_LEN),
            }
        }
    };
}

/// The length field at the front of `bytes`, if there.
fn packet_len(bytes: &[u8]) -> Option<usize> {
    tera_net::framing::packet_len(bytes).map(usize::from)
}

impl State {
    fn header() -> State {
        State::Header {
            bytes: [0; HEADER_LEN],
            have: 0,
        }
    }

    fn resync(seen: Vec<u8>) -> State {
        State::Resync {
            seen,
            starts: Vec::new(),
        }
    }
}

/// The state after a whole header: a header-only packet is handed out at
/// once; a length below the header's means the framing is lost.
fn start_packet(
    header: [u8; HEADER_LEN],
    available: usize,
    used: &mut OpcodeSet,
    out: &mut impl FnMut(Output),
) -> State {
    let len = usize::from(u16::from_le_bytes([header[0], header[1]]));
    if len < HEADER_LEN {
        return State::resync(header.to_vec());
    }
    if len == HEADER_LEN {
        used.insert(u16::from_le_bytes([header[2], header[3]]));
        out(Output::Packet(header.to_vec()));
        return State::header();
    }
    // Sized by the bytes at hand, not by the length read off the wire.
    let mut packet = Vec::with_capacity(len.min(HEADER_LEN + available));
    packet.extend_from_slice(&header);
    State::Body { packet, len }
}
