//! One relayed connection: the handshake, then per direction a pump (read,
//! decrypt, frame, hooks) and a writer (encrypt, write) joined by a bounded
//! queue.
//!
//! The queue is what bounds memory: when a receiver stops reading, its
//! writer blocks, the queue fills, the pump feeding it waits, and so stops
//! reading from the sender, whose TCP window then closes. Everything sent
//! towards one side (relayed, changed, injected by a hook or a handle) goes
//! through that side's single writer, which owns the cipher: packets are
//! encrypted in the order they are queued.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use bytes::BytesMut;
use tera_data::AnyPacket;
use tera_net::codec::{CodecError, PacketCodec};
use tera_net::{Direction, Pike, Session};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, mpsc};
use tokio_util::codec::Decoder;

use crate::chain::Chain;
use crate::error::{ProxyError, SendError};
use crate::event::{encode, with_length};
use crate::handshake::relay_handshake;
use crate::hooks::{Hook, HookId};
use crate::stats::{Counters, RelayStats};
use crate::version::{
    C_CHECK_VERSION_OPCODE, MapFolder, MapLoadError, MapSource, announced_revision,
};

/// How a connection is relayed.
#[derive(Debug, Clone)]
pub struct ProxyConfig {
    /// Where the protocol map comes from. Default [`MapSource::None`].
    pub maps: MapSource,
    /// Batches of packets queued towards each side before the relay stops
    /// reading from the other (a batch is the packets of one read, after
    /// the hooks). Default 8.
    pub queue_capacity: usize,
    /// Bytes asked for by each read. Default 16 KiB.
    pub read_chunk: usize,
    /// How long the handshake may take. Default 30 s.
    pub handshake_timeout: Duration,
}

impl Default for ProxyConfig {
    fn default() -> Self {
        ProxyConfig {
            maps: MapSource::None,
            queue_capacity: 8,
            read_chunk: 16 * 1024,
            handshake_timeout: Duration::from_secs(30),
        }
    }
}

/// What the relay queues towards one side.
#[derive(Debug)]
enum Out {
    /// Whole plain-text packets.
    Packets(BytesMut),
    /// The other side ended its stream: end this one.
    End,
}

/// What the relay, its hooks and its handles share.
struct Shared {
    chain: Mutex<Chain>,
    counters: Counters,
    to_server: mpsc::Sender<Out>,
    to_client: mpsc::Sender<Out>,
    map_error: Mutex<Option<MapLoadError>>,
    /// A hook failed on a packet a handle injected: the message, and a
    /// wake-up for the relay, which then ends.
    handle_failure: Mutex<Option<String>>,
    failed: Notify,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A hook's panic is caught before it unwinds through the lock, so the
    // data is never left half-changed.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    fn queue(&self, dir: Direction) -> &mpsc::Sender<Out> {
        match dir {
            Direction::ClientToServer => &self.to_server,
            Direction::ServerToClient => &self.to_client,
        }
    }
}

/// Both sides' batches of one round of hook processing: packets, and how
/// many.
#[derive(Default)]
struct Batches {
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

    fn push(&mut self, counters: &Counters, dir: Direction, packet: &[u8]) {
        counters.dir(dir).packets_sent.incr();
        let (batch, count) = self.side(dir);
        batch.extend_from_slice(packet);
        *count += 1;
    }

    /// The batch towards `dir`'s receiver and its packet count, if any.
    fn take(&mut self, dir: Direction) -> Option<(BytesMut, u64)> {
        let (batch, count) = self.side(dir);
        (!batch.is_empty()).then(|| (batch.split(), std::mem::take(count)))
    }
}

/// A connection to relay, with its hooks; [`run`](Connection::run) relays
/// it. Hooks can be added before and while it runs, through
/// [`handle`](Connection::handle).
pub struct Connection {
    shared: Arc<Shared>,
    to_server: mpsc::Receiver<Out>,
    to_client: mpsc::Receiver<Out>,
    config: ProxyConfig,
}

impl core::fmt::Debug for Connection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// A connection with no hooks yet.
    #[must_use]
    pub fn new(config: ProxyConfig) -> Connection {
        let capacity = config.queue_capacity.max(1);
        let (to_server, to_server_rx) = mpsc::channel(capacity);
        let (to_client, to_client_rx) = mpsc::channel(capacity);
        let mut chain = Chain::default();
        if let MapSource::Fixed(map) = &config.maps {
            chain.set_map(Some(Arc::clone(map)), map.revision());
        }
        Connection {
            shared: Arc::new(Shared {
                chain: Mutex::new(chain),
                counters: Counters::default(),
                to_server,
                to_client,
                map_error: Mutex::default(),
                handle_failure: Mutex::default(),
                failed: Notify::new(),
            }),
            to_server: to_server_rx,
            to_client: to_client_rx,
            config,
        }
    }

    /// A handle to the connection: hooks, injection, counters.
    #[must_use]
    pub fn handle(&self) -> ConnectionHandle {
        ConnectionHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Adds a hook (see [`ConnectionHandle::add_hook`]).
    pub fn add_hook(&self, hook: Hook) -> HookId {
        lock(&self.shared.chain).add(hook)
    }

    /// Relays between `client` (the game client, accepted) and `server`
    /// (connected) until both directions have ended; returns the counters.
    ///
    /// # Errors
    /// [`ProxyError`]: I/O, a bad handshake, a bad packet length, a stream
    /// cut inside a packet, a hook that panicked or made a packet that
    /// cannot be sent. Both connections are dropped on return.
    pub async fn run<C, S>(self, mut client: C, mut server: S) -> Result<RelayStats, ProxyError>
    where
        C: AsyncRead + AsyncWrite + Unpin,
        S: AsyncRead + AsyncWrite + Unpin,
    {
        let Connection {
            shared,
            to_server,
            to_client,
            config,
        } = self;
        let limit = config.handshake_timeout;
        let keys = tokio::time::timeout(limit, relay_handshake(&mut client, &mut server))
            .await
            .map_err(|_| ProxyError::HandshakeTimeout(limit))??;
        let (c2s, s2c) = Session::new(&keys).into_ciphers();
        let (client_r, client_w) = tokio::io::split(client);
        let (server_r, server_w) = tokio::io::split(server);
        let folder = match &config.maps {
            MapSource::Folder(folder) => Some(Arc::clone(folder)),
            _ => None,
        };
        let chunk = config.read_chunk.max(1);
        let shared = &*shared;
        let relay = async {
            tokio::try_join!(
                pump(
                    shared,
                    Direction::ClientToServer,
                    client_r,
                    c2s.clone(),
                    folder,
                    chunk
                ),
                pump(
                    shared,
                    Direction::ServerToClient,
                    server_r,
                    s2c.clone(),
                    None,
                    chunk
                ),
                write(shared, Direction::ClientToServer, server_w, c2s, to_server),
                write(shared, Direction::ServerToClient, client_w, s2c, to_client),
            )
        };
        let handle_failure = async {
            shared.failed.notified().await;
            lock(&shared.handle_failure).take().unwrap_or_default()
        };
        tokio::select! {
            result = relay => result.map(|_| shared.counters.snapshot()),
            message = handle_failure => Err(ProxyError::InjectedPacketHook(message)),
        }
    }
}

/// One direction: read, decrypt, frame, run the hooks, queue.
async fn pump<R>(
    shared: &Shared,
    dir: Direction,
    mut from: R,
    cipher: Pike,
    mut folder: Option<Arc<MapFolder>>,
    chunk: usize,
) -> Result<(), ProxyError>
where
    R: AsyncRead + Unpin,
{
    let io = |source| ProxyError::Io { dir, source };
    let counters = &shared.counters;
    let mut codec = PacketCodec::with_ciphers(Some(cipher), None);
    let mut input = BytesMut::with_capacity(chunk);
    let mut batches = Batches::default();
    loop {
        input.reserve(chunk);
        let n = from.read_buf(&mut input).await.map_err(io)?;
        if n == 0 {
            break;
        }
        counters.dir(dir).bytes_read.add(n as u64);
        while let Some(packet) = codec.decode(&mut input).map_err(|e| match e {
            CodecError::Frame(source) => ProxyError::Frame { dir, source },
            // The decoder reports only framing errors.
            other => ProxyError::Io {
                dir,
                source: std::io::Error::other(other),
            },
        })? {
            counters.dir(dir).packets_read.incr();
            if let Some(folder) = folder.take() {
                choose_map(shared, &folder, &packet).await;
            }
            lock(&shared.chain).process(dir, &packet, false, counters, &mut |to, bytes| {
                batches.push(counters, to, bytes);
            })?;
        }
        if let Some((batch, count)) = batches.take(dir.reverse())
            && shared
                .queue(dir.reverse())
                .send(Out::Packets(batch))
                .await
                .is_err()
        {
            counters.dir(dir.reverse()).dropped_injections.add(count);
        }
        if let Some((batch, _)) = batches.take(dir)
            && shared.queue(dir).send(Out::Packets(batch)).await.is_err()
        {
            // The writer has failed; its error ends the relay.
            return Ok(());
        }
    }
    if !input.is_empty() {
        return Err(ProxyError::Truncated {
            dir,
            buffered: input.len(),
        });
    }
    // The writer may have failed already; its error ends the relay.
    let _ = shared.queue(dir).send(Out::End).await;
    Ok(())
}

/// Sets the connection's map from the client's first packet.
async fn choose_map(shared: &Shared, folder: &MapFolder, first: &[u8]) {
    let op = tera_net::framing::opcode(first).unwrap_or_default();
    let result = if op == C_CHECK_VERSION_OPCODE {
        match announced_revision(first) {
            Ok(revision) => folder.load(revision).await.map(|map| (map, revision)),
            Err(e) => Err(e),
        }
    } else {
        Err(MapLoadError::NoCheckVersion(op))
    };
    match result {
        Ok((map, revision)) => lock(&shared.chain).set_map(Some(map), Some(revision)),
        Err(e) => *lock(&shared.map_error) = Some(e),
    }
}

/// One direction's writer: encrypt and write what is queued, in order.
async fn write<W>(
    shared: &Shared,
    dir: Direction,
    mut to: W,
    mut cipher: Pike,
    mut queue: mpsc::Receiver<Out>,
) -> Result<(), ProxyError>
where
    W: AsyncWrite + Unpin,
{
    let io = |source| ProxyError::Io { dir, source };
    while let Some(Out::Packets(mut batch)) = queue.recv().await {
        cipher.apply(&mut batch);
        to.write_all(&batch).await.map_err(io)?;
        shared
            .counters
            .dir(dir)
            .bytes_written
            .add(batch.len() as u64);
    }
    to.shutdown().await.map_err(io)
}

/// A handle to a connection, to add and remove hooks, inject packets and
/// read counters, before and while it runs. Cheap to clone.
///
/// Hooks run under the connection's lock, which the handle's methods other
/// than [`stats`](ConnectionHandle::stats) take: inside a hook, use its
/// [`Event`](crate::Event) (injection, [`unhook`](crate::Event::unhook),
/// [`remove_hook`](crate::Event::remove_hook)) instead of a handle, which
/// would wait for itself.
#[derive(Clone)]
pub struct ConnectionHandle {
    shared: Arc<Shared>,
}

impl core::fmt::Debug for ConnectionHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConnectionHandle")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl ConnectionHandle {
    /// Adds a hook; it sees the packets that follow.
    pub fn add_hook(&self, hook: Hook) -> HookId {
        lock(&self.shared.chain).add(hook)
    }

    /// Removes a hook; `false` if it was not there. A hook being called
    /// on another packet right now finishes that call first.
    pub fn remove_hook(&self, id: HookId) -> bool {
        lock(&self.shared.chain).remove(id)
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> RelayStats {
        self.shared.counters.snapshot()
    }

    /// The protocol revision of the connection's map, once known.
    #[must_use]
    pub fn revision(&self) -> Option<u32> {
        lock(&self.shared.chain).revision()
    }

    /// Whether the connection has a protocol map.
    #[must_use]
    pub fn has_map(&self) -> bool {
        lock(&self.shared.chain).map().is_some()
    }

    /// Why no map could be chosen from `C_CHECK_VERSION`, if that failed
    /// (the connection goes on; only `*` raw hooks see its packets).
    #[must_use]
    pub fn map_error(&self) -> Option<MapLoadError> {
        lock(&self.shared.map_error).clone()
    }

    /// Sends `packet` (whole, header included; its length field is set from
    /// its size) towards `dir`'s receiver, after the hooks whose filter
    /// admits injected packets. Waits while that side's queue is full.
    ///
    /// # Errors
    /// [`SendError`]: a bad length, a hook that failed (the connection then
    /// ends), or that direction is closed.
    pub async fn send_raw(&self, dir: Direction, packet: Vec<u8>) -> Result<(), SendError> {
        let packet = with_length(packet)?;
        self.inject(dir, packet).await
    }

    /// Encodes `packet` with its opcode in the connection's map and sends it
    /// as [`send_raw`](ConnectionHandle::send_raw) does.
    ///
    /// # Errors
    /// As [`send_raw`](ConnectionHandle::send_raw), and when there is no map
    /// or no opcode for the packet.
    pub async fn send(&self, dir: Direction, packet: &AnyPacket<'_>) -> Result<(), SendError> {
        let packet = encode(lock(&self.shared.chain).map(), packet)?;
        self.inject(dir, packet).await
    }

    async fn inject(&self, dir: Direction, packet: Vec<u8>) -> Result<(), SendError> {
        let shared = &*self.shared;
        let counters = &shared.counters;
        let mut batches = Batches::default();
        counters.dir(dir).injected.incr();
        let processed = lock(&shared.chain).process(dir, &packet, true, counters, &mut |to, b| {
            batches.push(counters, to, b)
        });
        if let Err(e) = processed {
            *lock(&shared.handle_failure) = Some(e.to_string());
            shared.failed.notify_one();
            return Err(e.into());
        }
        for side in [dir, dir.reverse()] {
            if let Some((batch, _)) = batches.take(side) {
                shared
                    .queue(side)
                    .send(Out::Packets(batch))
                    .await
                    .map_err(|_| SendError::Closed(side))?;
            }
        }
        Ok(())
    }
}
