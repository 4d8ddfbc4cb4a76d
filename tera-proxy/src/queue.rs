//! The queue of packets towards one side, bounded by bytes.
//!
//! A sender waits until the bytes it adds fit under the bound (a batch
//! larger than the bound waits for an empty queue and then takes it
//! whole), so what is queued towards a side that stops reading stays under
//! the bound however many packets the hooks inject.

use std::sync::Arc;

use bytes::BytesMut;
use tera_net::Direction;
use tokio::sync::{Semaphore, mpsc};

use crate::stats::Counters;

/// What the relay queues towards one side.
#[derive(Debug)]
pub(crate) enum Out {
    /// Whole plain-text packets, and the bytes of the bound they hold.
    Packets(BytesMut, u32),
    /// The other side ended its stream: end this one.
    End,
}

/// The receiver is gone (its writer has stopped).
#[derive(Debug)]
pub(crate) struct Closed;

/// The sending end of a queue.
#[derive(Debug)]
pub(crate) struct QueueTx {
    tx: mpsc::UnboundedSender<Out>,
    room: Arc<Semaphore>,
    bound: u32,
}

/// The receiving end: the side's writer.
#[derive(Debug)]
pub(crate) struct QueueRx {
    rx: mpsc::UnboundedReceiver<Out>,
    room: Arc<Semaphore>,
}

/// A queue holding at most `bound` bytes (at least 1).
pub(crate) fn queue(bound: usize) -> (QueueTx, QueueRx) {
    let bound = u32::try_from(bound.max(1)).unwrap_or(u32::MAX);
    let room = Arc::new(Semaphore::new(bound as usize));
    let (tx, rx) = mpsc::unbounded_channel();
    (
        QueueTx {
            tx,
            room: Arc::clone(&room),
            bound,
        },
        QueueRx { rx, room },
    )
}

impl QueueTx {
    /// Queues `batch` once there is room for it.
    pub(crate) async fn send(&self, batch: BytesMut) -> Result<(), Closed> {
        let held = u32::try_from(batch.len())
            .unwrap_or(u32::MAX)
            .min(self.bound);
        self.room
            .acquire_many(held)
            .await
            .map_err(|_| Closed)?
            .forget();
        self.tx.send(Out::Packets(batch, held)).map_err(|_| Closed)
    }

    /// Queues the end of the stream.
    pub(crate) fn end(&self) -> Result<(), Closed> {
        self.tx.send(Out::End).map_err(|_| Closed)
    }

    /// The bytes queued and not yet written.
    pub(crate) fn queued(&self) -> usize {
        (self.bound as usize).saturating_sub(self.room.available_permits())
    }

    /// The bound.
    pub(crate) fn bound(&self) -> usize {
        self.bound as usize
    }
}

impl QueueRx {
    /// The next item; `None` when every sender is gone.
    pub(crate) async fn recv(&mut self) -> Option<Out> {
        self.rx.recv().await
    }

    /// Gives back the room of a batch once it is written.
    pub(crate) fn written(&self, held: u32) {
        self.room.add_permits(held as usize);
    }
}

impl Drop for QueueRx {
    fn drop(&mut self) {
        // Senders waiting for room would wait forever.
        self.room.close();
    }
}

/// Both sides' batches of one round of hook processing: packets, and how
/// many.
#[derive(Default)]
pub(crate) struct Batches {
    to_server: (BytesMut, u64),
    to_client: (BytesMut, u64),
}

impl Batches {
    fn side(&mut self, dir: Direction) -> &mut (BytesMut, u64) {
        match dir {
            Direction::ClientToServer => &mut self.to_server,
            Direction::ServerToClient => &mut self.to_client,
        }
    }

    pub(crate) fn push(&mut self, counters: &Counters, dir: Direction, packet: &[u8]) {
        counters.dir(dir).packets_sent.incr();
        let (batch, count) = self.side(dir);
        batch.extend_from_slice(packet);
        *count += 1;
    }

    /// The batch towards `dir`'s receiver and its packet count, if any.
    pub(crate) fn take(&mut self, dir: Direction) -> Option<(BytesMut, u64)> {
        let (batch, count) = self.side(dir);
        (!batch.is_empty()).then(|| (batch.split(), std::mem::take(count)))
    }
}
