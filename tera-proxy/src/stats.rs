//! Counters of a connection, readable while it runs.

use std::sync::atomic::{AtomicU64, Ordering};

use tera_net::Direction;

/// One counter, bumped by the relay and read by handles.
#[derive(Debug, Default)]
pub(crate) struct Counter(AtomicU64);

impl Counter {
    pub(crate) fn incr(&self) {
        self.add(1);
    }

    pub(crate) fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

#[derive(Debug, Default)]
pub(crate) struct DirectionCounters {
    pub(crate) bytes_read: Counter,
    pub(crate) packets_read: Counter,
    pub(crate) packets_sent: Counter,
    pub(crate) bytes_written: Counter,
    pub(crate) blocked: Counter,
    pub(crate) changed: Counter,
    pub(crate) injected: Counter,
    pub(crate) decode_errors: Counter,
    pub(crate) dropped_injections: Counter,
}

impl DirectionCounters {
    fn snapshot(&self) -> DirectionStats {
        DirectionStats {
            bytes_read: self.bytes_read.get(),
            packets_read: self.packets_read.get(),
            packets_sent: self.packets_sent.get(),
            bytes_written: self.bytes_written.get(),
            blocked: self.blocked.get(),
            changed: self.changed.get(),
            injected: self.injected.get(),
            decode_errors: self.decode_errors.get(),
            dropped_injections: self.dropped_injections.get(),
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Counters {
    client_to_server: DirectionCounters,
    server_to_client: DirectionCounters,
}

impl Counters {
    pub(crate) fn dir(&self, dir: Direction) -> &DirectionCounters {
        match dir {
            Direction::ClientToServer => &self.client_to_server,
            Direction::ServerToClient => &self.server_to_client,
        }
    }

    pub(crate) fn snapshot(&self) -> RelayStats {
        RelayStats {
            client_to_server: self.client_to_server.snapshot(),
            server_to_client: self.server_to_client.snapshot(),
        }
    }
}

/// Counters of one direction (after the handshake).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionStats {
    /// Encrypted bytes read from the sender.
    pub bytes_read: u64,
    /// Whole packets read from the sender.
    pub packets_read: u64,
    /// Packets handed to the writer towards the receiver (relayed, changed
    /// and injected; not blocked).
    pub packets_sent: u64,
    /// Bytes written to the receiver.
    pub bytes_written: u64,
    /// Packets blocked by hooks (injected ones included).
    pub blocked: u64,
    /// Packets changed by hooks.
    pub changed: u64,
    /// Packets injected in this direction (by hooks or handles).
    pub injected: u64,
    /// Packets a typed hook's def did not decode (the hook was skipped).
    pub decode_errors: u64,
    /// Injected packets dropped because this direction had closed.
    pub dropped_injections: u64,
}

/// Counters of a connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelayStats {
    /// Client to server traffic.
    pub client_to_server: DirectionStats,
    /// Server to client traffic.
    pub server_to_client: DirectionStats,
}

impl RelayStats {
    /// The counters of one direction.
    #[must_use]
    pub fn dir(&self, dir: Direction) -> &DirectionStats {
        match dir {
            Direction::ClientToServer => &self.client_to_server,
            Direction::ServerToClient => &self.server_to_client,
        }
    }
}
