//! The packets of one or more sessions, grouped by direction and opcode:
//! what discovery explains. Every packet keeps its place in its session
//! (for the evidence of order) and its bytes (for the evidence of fit).

use std::collections::HashMap;
use std::path::Path;

use tera_sessions::{Direction, Event, Events, ReadError, SessionId, Timestamp};

/// Where a packet's bytes are in the arena.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
}

/// One packet of a session.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PacketRef {
    /// The session it came in, numbered across every source.
    pub(crate) session: u32,
    /// When.
    pub(crate) time: Timestamp,
    /// The group of its direction and opcode.
    pub(crate) group: usize,
    bytes: Span,
}

/// The packets of one direction and opcode.
#[derive(Debug, Clone)]
pub struct Group {
    /// Who sent them.
    pub direction: Direction,
    /// Their opcode.
    pub opcode: u16,
    /// Indices into the packets, in session order.
    pub(crate) packets: Vec<usize>,
    /// One packet per distinct byte string, one of each length first (so
    /// that a def that cannot fit is turned down by the first samples).
    pub(crate) distinct: Vec<usize>,
    /// How many distinct lengths the packets have.
    pub(crate) lengths: usize,
    /// The shortest and the longest packet.
    pub(crate) shortest: usize,
    pub(crate) longest: usize,
}

impl Group {
    /// How many packets the group holds.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Whether the group holds no packet (never, once built).
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// How many distinct byte strings the group holds.
    pub fn distinct(&self) -> usize {
        self.distinct.len()
    }

    /// How many distinct lengths.
    pub fn lengths(&self) -> usize {
        self.lengths
    }

    /// The shortest packet's length, header included.
    pub fn shortest(&self) -> usize {
        self.shortest
    }

    /// The longest packet's length, header included.
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// Whether every packet is its header alone (length and opcode, four
    /// bytes): a packet without a body.
    pub fn bodiless(&self) -> bool {
        self.longest == 4
    }
}

/// The packets of every session read, grouped.
///
/// Fed with [`Samples::push`] (events of any source) or
/// [`Samples::push_packet`], then read by discovery or a check.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    arena: Vec<u8>,
    packets: Vec<PacketRef>,
    groups: Vec<Group>,
    by_key: HashMap<(Direction, u16), usize>,
    /// The source's session ids seen, each given a number of its own (a
    /// second source's session 0 is another session).
    sessions: HashMap<(u32, SessionId), u32>,
    source: u32,
    gaps: u64,
    finished: bool,
}

impl Samples {
    /// No packets yet.
    pub fn new() -> Self {
        Samples::default()
    }

    /// Starts a new source (another capture or log): its session ids are
    /// other sessions than the earlier sources' ones.
    pub fn next_source(&mut self) {
        self.source += 1;
    }

    /// Reads the session source at `path`, any that `tera-sessions` reads
    /// (pcap, pcapng, `.TeraLog`, Alkahest `.pkt`, JSONL: see
    /// [`Samples::read`]).
    ///
    /// # Errors
    /// As [`Events::open`] and [`Samples::read`].
    pub fn read_file(&mut self, path: impl AsRef<Path>) -> Result<(), ReadError> {
        self.read(Events::open(path)?)
    }

    /// Takes every event of one session source ([`Events`], or any events)
    /// as a source of its own ([`Samples::next_source`] after it).
    ///
    /// # Errors
    /// The source's first error; the events before it are kept.
    pub fn read(
        &mut self,
        events: impl IntoIterator<Item = Result<Event, ReadError>>,
    ) -> Result<(), ReadError> {
        let mut result = Ok(());
        for event in events {
            match event {
                Ok(event) => self.push(&event),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.next_source();
        result
    }

    /// Takes one event: packets are kept, gaps counted (the packet that
    /// held lost bytes was never yielded, so nothing else is needed).
    pub fn push(&mut self, event: &Event) {
        match event {
            Event::Packet(p) => self.push_packet(p.session, p.time, p.direction, &p.bytes),
            Event::Gap(_) => self.gaps += 1,
            Event::Start(_) | Event::End(_) => {}
        }
    }

    /// Takes one whole packet (header included). A packet shorter than its
    /// header is not a packet and is ignored.
    pub fn push_packet(
        &mut self,
        session: SessionId,
        time: Timestamp,
        direction: Direction,
        bytes: &[u8],
    ) {
        let [_, _, lo, hi, ..] = *bytes else {
            return;
        };
        let opcode = u16::from_le_bytes([lo, hi]);
        let next = self.sessions.len() as u32;
        let session = *self.sessions.entry((self.source, session)).or_insert(next);
        let next = self.groups.len();
        let group = *self.by_key.entry((direction, opcode)).or_insert(next);
        if group == next {
            self.groups.push(Group {
                direction,
                opcode,
                packets: Vec::new(),
                distinct: Vec::new(),
                lengths: 0,
                shortest: usize::MAX,
                longest: 0,
            });
        }
        let index = self.packets.len();
        self.packets.push(PacketRef {
            session,
            time,
            group,
            bytes: Span {
                start: self.arena.len(),
                len: bytes.len(),
            },
        });
        self.arena.extend_from_slice(bytes);
        if let Some(g) = self.groups.get_mut(group) {
            g.packets.push(index);
            g.shortest = g.shortest.min(bytes.len());
            g.longest = g.longest.max(bytes.len());
        }
        self.finished = false;
    }

    /// Works out each group's distinct packets; discovery calls it.
    pub(crate) fn finish(&mut self) {
        if self.finished {
            return;
        }
        let arena = &self.arena;
        let packets = &self.packets;
        let bytes = |i: usize| -> &[u8] {
            let s = packets[i].bytes;
            &arena[s.start..s.start + s.len]
        };
        for g in &mut self.groups {
            let mut order = g.packets.clone();
            order.sort_by(|&a, &b| {
                bytes(a)
                    .len()
                    .cmp(&bytes(b).len())
                    .then(bytes(a).cmp(bytes(b)))
            });
            order.dedup_by(|a, b| bytes(*a) == bytes(*b));
            // One of each length first, then the rest.
            let mut first = Vec::new();
            let mut rest = Vec::new();
            let mut last_len = None;
            for i in order {
                let len = bytes(i).len();
                if last_len == Some(len) {
                    rest.push(i);
                } else {
                    first.push(i);
                    last_len = Some(len);
                }
            }
            g.lengths = first.len();
            first.extend(rest);
            g.distinct = first;
        }
        self.finished = true;
    }

    /// The bytes of packet `index`.
    pub(crate) fn bytes(&self, index: usize) -> &[u8] {
        let s = self.packets[index].bytes;
        &self.arena[s.start..s.start + s.len]
    }

    pub(crate) fn packet(&self, index: usize) -> &PacketRef {
        &self.packets[index]
    }

    pub(crate) fn packets(&self) -> &[PacketRef] {
        &self.packets
    }

    /// The groups, each a direction and opcode seen.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The group of `direction` and `opcode`, if any packet had them.
    pub fn group(&self, direction: Direction, opcode: u16) -> Option<usize> {
        self.by_key.get(&(direction, opcode)).copied()
    }

    /// How many packets were taken.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Whether no packet was taken.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// How many sessions the packets came in.
    pub fn sessions(&self) -> usize {
        self.sessions.len()
    }

    /// How many gaps the sources reported.
    pub fn gaps(&self) -> u64 {
        self.gaps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_group_by_direction_and_opcode_with_distinct_ones_by_length() {
        let mut s = Samples::new();
        let c = Direction::ClientToServer;
        let p = |len: u8, op: u8, x: u8| {
            let mut v = vec![len, 0, op, 0];
            v.resize(usize::from(len), x);
            v
        };
        for (dir, bytes) in [
            (c, p(6, 1, 0)),
            (c, p(6, 1, 0)),
            (c, p(6, 1, 9)),
            (c, p(8, 1, 0)),
            (Direction::ServerToClient, p(6, 1, 0)),
        ] {
            s.push_packet(SessionId(0), Timestamp(0), dir, &bytes);
        }
        s.push_packet(SessionId(0), Timestamp(0), c, &[1, 2]);
        s.finish();
        assert_eq!(s.len(), 5, "a packet shorter than its header is ignored");
        assert_eq!(s.groups().len(), 2);
        let g = &s.groups()[s.group(c, 1).unwrap()];
        assert_eq!((g.len(), g.distinct(), g.lengths()), (4, 3, 2));
        // One of each length first.
        let lens: Vec<usize> = g.distinct.iter().map(|&i| s.bytes(i).len()).collect();
        assert_eq!(lens, vec![6, 8, 6]);
    }

    #[test]
    fn sessions_of_two_sources_are_apart() {
        let mut s = Samples::new();
        s.push_packet(
            SessionId(0),
            Timestamp(0),
            Direction::ClientToServer,
            &[4, 0, 1, 0],
        );
        s.next_source();
        s.push_packet(
            SessionId(0),
            Timestamp(0),
            Direction::ClientToServer,
            &[4, 0, 1, 0],
        );
        assert_eq!(s.sessions(), 2);
    }
}
