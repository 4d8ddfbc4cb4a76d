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
//!   are dropped. Once found, framing goes on from it exactly: every packet
//!   from that boundary on comes out.
//!
//! The states hold only what can be: a packet being read is a
//! [`Partial`], whose length is at least a header's and more than the
//! bytes it holds; a search takes only a chain that never met a header
//! that cannot be one, and the bytes after its whole packets make a
//! `Partial` or a header not yet whole. No count is ever taken below zero.

use tera_net::Pike;
use tera_net::framing::HEADER_LEN;

use super::OpcodeSet;
use super::partial::Partial;
use super::resync::{Moment, Opcodes, find_start};

/// Bytes kept while searching for the next packet after a lost header
/// (room for the largest packet and as many bytes of others); past this,
/// the older half is dropped.
pub(crate) const RESYNC_WINDOW: usize = 128 * 1024;

/// Bytes seen after a lost header before the first search.
const FIRST_SEARCH: usize = 256;

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
    /// Bytes the searches went over, all searches together (linear in the
    /// bytes received: each search follows half as many new bytes).
    pub(crate) searched_bytes: u64,
}

/// Searching for the next packet in the (decrypted) bytes seen.
#[derive(Debug)]
struct Search {
    seen: Vec<u8>,
    /// The next search, once `seen` holds this many bytes.
    next: usize,
}

impl Search {
    fn new(seen: Vec<u8>) -> Search {
        let next = seen.len().saturating_add(FIRST_SEARCH);
        Search { seen, next }
    }
}

#[derive(Debug)]
enum State {
    /// Reading a header: `have` (fewer than 4) bytes of it, decrypted.
    Header {
        bytes: [u8; HEADER_LEN],
        have: usize,
    },
    /// Reading a packet.
    Body(Partial),
    /// Skipping the rest (`remaining`, more than 0) of a packet that held
    /// lost bytes.
    Discard { remaining: u64 },
    /// Searching for the next packet.
    Resync(Search),
}

/// One direction's decryption and framing (see the module docs).
#[derive(Debug)]
pub(crate) struct Framer {
    cipher: Pike,
    /// Bytes of the stream consumed so far (seen or lost).
    offset: u64,
    state: State,
    /// The opcodes of the packets handed out so far, trusted by the search
    /// after a lost header when no known opcodes are given.
    used: Box<OpcodeSet>,
    pub(crate) dropped: Dropped,
}

impl Framer {
    /// A framer at the first byte after the handshake.
    pub(crate) fn new(cipher: Pike) -> Framer {
        Framer {
            cipher,
            offset: 0,
            state: State::header(),
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
        let mut rest = bytes;
        while !rest.is_empty() {
            let (taken, next) = match std::mem::replace(&mut self.state, State::header()) {
                State::Header { mut bytes, have } => {
                    let n = (HEADER_LEN - have).min(rest.len());
                    if let (Some(dst), Some(src)) = (bytes.get_mut(have..have + n), rest.get(..n)) {
                        dst.copy_from_slice(src);
                        self.cipher.apply(dst);
                    }
                    let next = if have + n == HEADER_LEN {
                        self.start_packet(bytes, out)
                    } else {
                        State::Header {
                            bytes,
                            have: have + n,
                        }
                    };
                    (n, next)
                }
                State::Body(partial) => {
                    let (n, filled) = partial.fill(rest, |new| self.cipher.apply(new));
                    let next = match filled {
                        Ok(packet) => {
                            self.hand_out(packet, out);
                            State::header()
                        }
                        Err(partial) => State::Body(partial),
                    };
                    (n, next)
                }
                State::Discard { remaining } => {
                    let n = usize::try_from(remaining)
                        .unwrap_or(usize::MAX)
                        .min(rest.len());
                    self.cipher.skip(n as u64);
                    let left = remaining - n as u64;
                    let next = if left == 0 {
                        State::header()
                    } else {
                        State::Discard { remaining: left }
                    };
                    (n, next)
                }
                State::Resync(mut search) => {
                    let at = search.seen.len();
                    search.seen.extend_from_slice(rest);
                    if let Some(new) = search.seen.get_mut(at..) {
                        self.cipher.apply(new);
                    }
                    (rest.len(), self.search(search, known, false, out))
                }
            };
            self.state = next;
            self.offset += taken as u64;
            rest = rest.get(taken..).unwrap_or_default();
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
        // What was left of the packet the loss starts in, when known.
        let left_in_packet = match std::mem::replace(&mut self.state, State::header()) {
            State::Header { bytes, have } => {
                self.dropped.packets += u64::from(have > 0);
                let [l0, l1, ..] = bytes;
                let len = u64::from(u16::from_le_bytes([l0, l1]));
                (have >= 2 && len >= HEADER_LEN as u64).then(|| len - have as u64)
            }
            State::Body(partial) => {
                self.dropped.packets += 1;
                Some(partial.missing() as u64)
            }
            State::Discard { remaining } => Some(remaining),
            State::Resync(search) => {
                self.dropped.resync_bytes += search.seen.len() as u64;
                None
            }
        };
        self.state = match left_in_packet {
            Some(left) if len < left => State::Discard {
                remaining: left - len,
            },
            Some(left) if len == left => State::header(),
            _ => State::Resync(Search::new(Vec::new())),
        };
    }

    /// The stream ended: a packet cut short by the end is reported as a gap
    /// for its missing bytes and dropped.
    pub(crate) fn finish(&mut self, known: Option<&OpcodeSet>, out: &mut impl FnMut(Output)) {
        if let State::Resync(search) = std::mem::replace(&mut self.state, State::header()) {
            self.state = self.search(search, known, true, out);
        }
        match std::mem::replace(&mut self.state, State::header()) {
            State::Body(partial) => {
                self.dropped.packets += 1;
                out(Output::Gap {
                    offset: self.offset,
                    len: partial.missing() as u64,
                });
            }
            State::Discard { remaining } => out(Output::Gap {
                offset: self.offset,
                len: remaining,
            }),
            State::Resync(search) => self.dropped.resync_bytes += search.seen.len() as u64,
            State::Header { .. } => {}
        }
    }

    /// Hands out a whole packet and trusts its opcode from now on.
    fn hand_out(&mut self, packet: Vec<u8>, out: &mut impl FnMut(Output)) {
        if let Some(opcode) = tera_net::framing::opcode(&packet) {
            self.used.insert(opcode);
        }
        out(Output::Packet(packet));
    }

    /// The state after a whole header: a header-only packet is handed out at
    /// once; a length below the header's means the framing is lost.
    fn start_packet(&mut self, header: [u8; HEADER_LEN], out: &mut impl FnMut(Output)) -> State {
        let [l0, l1, ..] = header;
        if usize::from(u16::from_le_bytes([l0, l1])) == HEADER_LEN {
            self.hand_out(header.to_vec(), out);
            return State::header();
        }
        match Partial::new(header.to_vec()) {
            Ok(partial) => State::Body(partial),
            Err(bytes) => State::Resync(Search::new(bytes)),
        }
    }

    /// Looks for the next packet in the bytes seen since the lost header,
    /// when enough came since the last look (`last`: no more will come).
    fn search(
        &mut self,
        mut search: Search,
        known: Option<&OpcodeSet>,
        last: bool,
        out: &mut impl FnMut(Output),
    ) -> State {
        let len = search.seen.len();
        let full = len > RESYNC_WINDOW;
        if !(last || full || len >= search.next) {
            return State::Resync(search);
        }
        let moment = match (last, full) {
            (true, _) => Moment::Last,
            (false, true) => Moment::Full,
            (false, false) => Moment::Running,
        };
        let opcodes = match known {
            Some(map) => Opcodes::Map(map),
            None => Opcodes::Used(&self.used),
        };
        self.dropped.searched_bytes += len as u64;
        let Some((start, end)) = find_start(&search.seen, opcodes, moment) else {
            if full {
                let half = len / 2;
                search.seen.drain(..half);
                self.dropped.resync_bytes += half as u64;
            }
            let now = search.seen.len();
            search.next = now.saturating_add((now / 2).max(FIRST_SEARCH));
            return State::Resync(search);
        };
        self.dropped.resyncs += 1;
        self.dropped.resync_bytes += start as u64;
        // The chain's whole packets, then what starts the next one.
        let seen = search.seen;
        let mut whole = seen.get(start..end).unwrap_or_default();
        while let Some(len) = tera_net::framing::packet_len(whole).map(usize::from)
            && len >= HEADER_LEN
            && let Some((packet, after)) = whole.split_at_checked(len)
        {
            self.hand_out(packet.to_vec(), out);
            whole = after;
        }
        State::after_chain(seen.get(end..).unwrap_or_default())
    }
}

impl State {
    fn header() -> State {
        State::Header {
            bytes: [0; HEADER_LEN],
            have: 0,
        }
    }

    /// The state for decrypted bytes that start a packet (a chain's end):
    /// a header not yet whole, or a packet not yet whole.
    fn after_chain(tail: &[u8]) -> State {
        if tail.len() < HEADER_LEN {
            let mut bytes = [0; HEADER_LEN];
            for (dst, src) in bytes.iter_mut().zip(tail) {
                *dst = *src;
            }
            return State::Header {
                bytes,
                have: tail.len(),
            };
        }
        match Partial::new(tail.to_vec()) {
            Ok(partial) => State::Body(partial),
            // Not what a chain ends on; searched again.
            Err(bytes) => State::Resync(Search::new(bytes)),
        }
    }
}
