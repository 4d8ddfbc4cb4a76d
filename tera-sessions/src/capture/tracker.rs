//! TCP segments in, session events out: the connection table, reassembly
//! of each direction, and the passive reading of each TERA session.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;

use tera_net::Direction;

use super::{CaptureStats, Limits, MAX_CONFLICTS, Segment, UNSTARTED_EXAMPLES};
use crate::decrypt::{OpcodeSet, Output, Passive, Progress, Refusal};
use crate::tcp::{Budget, Stream, StreamSink};
use crate::{End, EndReason, Event, Gap, Packet, SessionId, Start, Timestamp};

/// A connection's two ends, the lower address first, whoever sent.
type Key = (SocketAddr, SocketAddr);

fn key(a: SocketAddr, b: SocketAddr) -> Key {
    if a <= b { (a, b) } else { (b, a) }
}

fn index(dir: Direction) -> usize {
    match dir {
        Direction::ClientToServer => 0,
        Direction::ServerToClient => 1,
    }
}

/// One tracked TCP connection.
#[derive(Debug)]
struct Connection {
    client: SocketAddr,
    server: SocketAddr,
    /// The time of its first segment.
    since: Timestamp,
    /// Client to server, server to client.
    streams: [Stream; 2],
    /// FIN seen, by direction (for connections that are not read).
    fins: [bool; 2],
    passive: Passive,
    session: Option<SessionId>,
}

impl Connection {
    fn new(client: SocketAddr, server: SocketAddr, since: Timestamp) -> Connection {
        Connection {
            client,
            server,
            since,
            streams: [Stream::default(), Stream::default()],
            fins: [false; 2],
            passive: Passive::default(),
            session: None,
        }
    }
}

/// Reassembles TCP connections from their segments, finds the TERA
/// sessions among them by content, and decrypts them: segments go in
/// ([`push`](Tracker::push)), events come out ([`pop`](Tracker::pop)).
///
/// [`Capture`](super::Capture) feeds it a file's segments; feed it yourself
/// for a live capture or segments from elsewhere. Segments may come in any
/// order, repeated or overlapping; the events of a session come in stream
/// order.
#[derive(Debug)]
pub struct Tracker {
    limits: Limits,
    known: Option<OpcodeSet>,
    connections: HashMap<Key, Connection>,
    budget: Budget,
    next_session: u32,
    /// Whether some tracked connection was refused since the last eviction.
    evictable: bool,
    last_time: Timestamp,
    events: VecDeque<Event>,
    stats: CaptureStats,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker::new(Limits::default(), None)
    }
}

impl Tracker {
    /// A tracker within `limits`; `known` opcodes, when given, make the
    /// search for the next packet after a lost header accept only them.
    #[must_use]
    pub fn new(limits: Limits, known: Option<OpcodeSet>) -> Tracker {
        Tracker {
            limits,
            known,
            connections: HashMap::new(),
            budget: Budget::new(limits.max_out_of_order_total),
            next_session: 0,
            evictable: false,
            last_time: Timestamp::default(),
            events: VecDeque::new(),
            stats: CaptureStats::default(),
        }
    }

    /// The next event, if one is ready.
    pub fn pop(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Out-of-order bytes held now, by all connections (at most
    /// [`Limits::max_out_of_order_total`]).
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.budget.used()
    }

    /// What was seen so far.
    #[must_use]
    pub fn stats(&self) -> &CaptureStats {
        &self.stats
    }

    pub(crate) fn stats_mut(&mut self) -> &mut CaptureStats {
        &mut self.stats
    }

    /// Whether events are ready.
    pub(crate) fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// Takes one segment.
    pub fn push(&mut self, segment: &Segment<'_>) {
        self.stats.segments += 1;
        self.last_time = self.last_time.max(segment.time);
        let key = key(segment.source, segment.destination);
        self.end_if_restarted(key, segment);
        if !self.connections.contains_key(&key) && !self.admit(segment) {
            return;
        }
        let Entry::Occupied(mut entry) = self.connections.entry(key) else {
            return;
        };
        let conn = entry.get_mut();
        let dir = if segment.source == conn.client {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        if conn.passive.is_ignored() {
            if let Some(fin) = conn.fins.get_mut(index(dir)) {
                *fin |= segment.fin;
            }
            if segment.rst || conn.fins == [true; 2] {
                entry.remove();
            }
            return;
        }
        let mut deliver = Deliver {
            time: segment.time,
            since: conn.since,
            client: conn.client,
            server: conn.server,
            passive: &mut conn.passive,
            session: &mut conn.session,
            next_session: &mut self.next_session,
            events: &mut self.events,
            stats: &mut self.stats,
            known: self.known.as_ref(),
            evictable: &mut self.evictable,
            dir,
        };
        let [to_server, to_client] = &mut conn.streams;
        let (stream, other) = match dir {
            Direction::ClientToServer => (to_server, to_client),
            Direction::ServerToClient => (to_client, to_server),
        };
        if segment.syn {
            stream.syn(segment.seq);
        }
        let reset = segment.rst && stream.accepts_reset(segment.seq);
        deliver.stats.ignored_resets += u64::from(segment.rst && !reset);
        if let Some(ack) = segment.ack {
            // Without the peer's SYN, its first byte is what this side
            // acknowledges first.
            other.start_at(ack);
            other.ack(ack);
        }
        if stream.started() && (!segment.payload.is_empty() || segment.fin) {
            let seq = if segment.syn {
                segment.seq.wrapping_add(1)
            } else {
                segment.seq
            };
            let in_window = stream.segment(
                seq,
                segment.payload,
                segment.fin,
                self.limits.max_out_of_order,
                &mut self.budget,
                &mut deliver,
            );
            if !in_window {
                self.stats.out_of_window += 1;
            }
        }
        self.stats.peak_out_of_order = self.stats.peak_out_of_order.max(self.budget.used());
        let finished = conn.streams.iter().all(Stream::finished);
        if reset || finished {
            let conn = entry.remove();
            self.close(conn, segment.time, EndReason::Closed);
        }
    }

    /// Ends the tracked connection of `key` when `segment` is a SYN that
    /// starts another one on the same ends: after a FIN, or with another
    /// initial sequence number (a port used again). A repeated SYN is the
    /// same connection's.
    fn end_if_restarted(&mut self, key: Key, segment: &Segment<'_>) {
        if !segment.syn || segment.rst {
            return;
        }
        let Some(conn) = self.connections.get(&key) else {
            return;
        };
        let i = usize::from(segment.source != conn.client);
        let restarted = conn.fins.iter().any(|f| *f)
            || conn.streams.iter().any(|s| s.restarted_by_fin())
            || conn
                .streams
                .get(i)
                .is_some_and(|s| s.restarted_by(segment.seq));
        if restarted && let Some(conn) = self.connections.remove(&key) {
            self.stats.reused_connections += 1;
            if !conn.passive.is_ignored() {
                self.close(conn, segment.time, EndReason::Closed);
            }
        }
    }

    /// Starts tracking the connection of a segment not yet tracked, if it
    /// shows the connection's start (or carries bytes: then it is counted
    /// as unstarted and remembered so, to be counted once).
    fn admit(&mut self, segment: &Segment<'_>) -> bool {
        let starts = segment.syn && !segment.rst;
        if !starts && segment.payload.is_empty() {
            return false;
        }
        if self.connections.len() >= self.limits.max_connections {
            if self.evictable {
                self.connections.retain(|_, c| !c.passive.is_ignored());
                self.evictable = false;
            }
            if self.connections.len() >= self.limits.max_connections {
                // Counted by its SYN; its later segments are not told
                // from those of a connection whose start was not captured.
                self.stats.untracked += u64::from(starts && segment.ack.is_none());
                return false;
            }
        }
        let (client, server) = if starts && segment.ack.is_some() {
            // A SYN-ACK: the server answers.
            (segment.destination, segment.source)
        } else {
            (segment.source, segment.destination)
        };
        let mut conn = Connection::new(client, server, segment.time);
        if starts {
            self.stats.connections += 1;
        } else {
            self.stats.unstarted += 1;
            if self.stats.unstarted_examples.len() < UNSTARTED_EXAMPLES {
                self.stats
                    .unstarted_examples
                    .push((segment.source, segment.destination));
            }
            // Nothing of it can be read: remembered only to be counted once.
            conn.passive = Passive::ignored();
            self.evictable = true;
        }
        self.connections.insert(key(client, server), conn);
        true
    }

    /// The input ended: every connection still open ends, its holes
    /// reported as lost, sessions in the order they started.
    pub fn finish(&mut self) {
        let mut open: Vec<Connection> = self.connections.drain().map(|(_, c)| c).collect();
        open.sort_by_key(|c| c.session);
        for conn in open {
            self.close(conn, self.last_time, EndReason::EndOfInput);
        }
    }

    fn close(&mut self, mut conn: Connection, time: Timestamp, reason: EndReason) {
        for dir in [Direction::ClientToServer, Direction::ServerToClient] {
            let mut deliver = Deliver {
                time,
                since: conn.since,
                client: conn.client,
                server: conn.server,
                passive: &mut conn.passive,
                session: &mut conn.session,
                next_session: &mut self.next_session,
                events: &mut self.events,
                stats: &mut self.stats,
                known: self.known.as_ref(),
                evictable: &mut self.evictable,
                dir,
            };
            if let Some(stream) = conn.streams.get_mut(index(dir)) {
                stream.flush(&mut self.budget, &mut deliver);
            }
        }
        let Some(session) = conn.session else {
            return;
        };
        let (events, stats) = (&mut self.events, &mut self.stats);
        conn.passive.finish(self.known.as_ref(), &mut |dir, o| {
            emit(events, stats, session, time, dir, o);
        });
        if let Some(framers) = conn.passive.framers() {
            for framer in framers {
                stats.dropped_packets += framer.dropped.packets;
                stats.resyncs += framer.dropped.resyncs;
                stats.resync_dropped_bytes += framer.dropped.resync_bytes;
                stats.resync_searched_bytes += framer.dropped.searched_bytes;
            }
        }
        let conflicting: u64 = conn.streams.iter().map(Stream::conflicting).sum();
        stats.conflicting_bytes += conflicting;
        if conflicting > 0 && stats.conflicts.len() < MAX_CONFLICTS {
            stats.conflicts.push((session, conflicting));
        }
        events.push_back(Event::End(End {
            session,
            time,
            reason,
        }));
    }
}

/// Turns a framer's output into an event.
fn emit(
    events: &mut VecDeque<Event>,
    stats: &mut CaptureStats,
    session: SessionId,
    time: Timestamp,
    direction: Direction,
    output: Output,
) {
    let i = index(direction);
    match output {
        Output::Packet(bytes) => {
            if let (Some(n), Some(b)) = (stats.packets.get_mut(i), stats.packet_bytes.get_mut(i)) {
                *n += 1;
                *b += bytes.len() as u64;
            }
            events.push_back(Event::Packet(Packet {
                session,
                time,
                direction,
                bytes,
            }));
        }
        Output::Gap { offset, len } => {
            stats.gaps += 1;
            stats.lost_bytes += len;
            events.push_back(Event::Gap(Gap {
                session,
                time,
                direction,
                offset,
                len,
            }));
        }
    }
}

/// Where one direction's reassembled bytes go: the connection's passive
/// reading, whose output becomes events.
struct Deliver<'a> {
    time: Timestamp,
    since: Timestamp,
    client: SocketAddr,
    server: SocketAddr,
    passive: &'a mut Passive,
    session: &'a mut Option<SessionId>,
    next_session: &'a mut u32,
    events: &'a mut VecDeque<Event>,
    stats: &'a mut CaptureStats,
    known: Option<&'a OpcodeSet>,
    evictable: &'a mut bool,
    dir: Direction,
}

impl Deliver<'_> {
    /// The session's number: its own, or the one it takes if it starts now.
    fn session(&self) -> SessionId {
        self.session.unwrap_or(SessionId(*self.next_session))
    }

    /// Acts on what the passive reading says after a call that queued its
    /// output from `mark` on.
    fn progress(&mut self, progress: Progress, mark: usize) {
        match progress {
            Progress::Started(generation) => {
                let session = self.session();
                *self.session = Some(session);
                *self.next_session += 1;
                self.stats.sessions += 1;
                // Before the packets the same call queued.
                self.events.insert(
                    mark,
                    Event::Start(Start {
                        session,
                        time: self.since,
                        client: Some(self.client),
                        server: Some(self.server),
                        keys: Some(generation),
                        region: None,
                        client_version: None,
                    }),
                );
            }
            Progress::Refused(why) => {
                *self.evictable = true;
                let counter = match why {
                    Refusal::NotTera => &mut self.stats.not_tera,
                    Refusal::HandshakeLost => &mut self.stats.handshake_lost,
                    Refusal::NoCheckVersion => &mut self.stats.no_check_version,
                    Refusal::EarlyBytes => &mut self.stats.early_bytes,
                };
                *counter += 1;
            }
            Progress::Pending | Progress::Running | Progress::Ignored => {}
        }
    }
}

impl StreamSink for Deliver<'_> {
    fn data(&mut self, bytes: &[u8]) {
        let mark = self.events.len();
        let (session, time) = (self.session(), self.time);
        let (events, stats) = (&mut *self.events, &mut *self.stats);
        let progress = self
            .passive
            .data(self.dir, bytes, self.known, &mut |dir, o| {
                emit(events, stats, session, time, dir, o);
            });
        self.progress(progress, mark);
    }

    fn lost(&mut self, len: u64) {
        let mark = self.events.len();
        let (session, time) = (self.session(), self.time);
        let (events, stats) = (&mut *self.events, &mut *self.stats);
        let progress = self.passive.lost(self.dir, len, &mut |dir, o| {
            emit(events, stats, session, time, dir, o);
        });
        self.progress(progress, mark);
    }
}
