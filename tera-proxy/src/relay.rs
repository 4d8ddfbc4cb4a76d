//! One relayed connection: the handshake, then per direction a pump (read,
//! decrypt, frame, hooks) and a writer (encrypt, write) joined by a queue
//! bounded by bytes.
//!
//! The queue is what bounds memory: when a receiver stops reading, its
//! writer blocks, the queue fills, the pump feeding it waits, and so stops
//! reading from the sender, whose TCP window then closes. Everything sent
//! towards one side (relayed, changed, injected by a hook or a handle) goes
//! through that side's single writer, which owns the cipher: packets are
//! encrypted in the order they are queued.

use std::sync::Arc;

use bytes::BytesMut;
use tera_net::codec::{CodecError, PacketCodec};
use tera_net::{Direction, Pike, Session};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::Decoder;

use crate::config::ProxyConfig;
use crate::context::ConnectionContext;
use crate::error::{HookError, ProxyError};
use crate::handle::ConnectionHandle;
use crate::handshake::relay_handshake;
use crate::hooks::Hook;
use crate::id::{HookId, ModId};
use crate::mods::Mod;
use crate::queue::{Batches, Out, QueueRx};
use crate::session_log::ConnectionLog;
use crate::shared::{Shared, lock};
use crate::stats::RelayStats;
use crate::version::{
    C_CHECK_VERSION_OPCODE, MapFolder, MapLoadError, MapSource, announced_revision,
};

/// A connection to relay, with its hooks and mods; [`run`](Connection::run)
/// relays it. Hooks and mods can be added before and while it runs,
/// through [`handle`](Connection::handle).
pub struct Connection {
    shared: Arc<Shared>,
    to_server: QueueRx,
    to_client: QueueRx,
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
    /// A connection with no hooks yet and an empty context.
    #[must_use]
    pub fn new(config: ProxyConfig) -> Connection {
        Connection::with_context(config, ConnectionContext::default())
    }

    /// A connection with no hooks yet whose mods share `context`.
    #[must_use]
    pub fn with_context(config: ProxyConfig, context: ConnectionContext) -> Connection {
        let (shared, to_server, to_client) = Shared::new(&config, context);
        Connection {
            shared: Arc::new(shared),
            to_server,
            to_client,
            config,
        }
    }

    /// What the connection's setups put in for every mod.
    #[must_use]
    pub fn context(&self) -> &ConnectionContext {
        self.shared.shared_values()
    }

    /// A handle to the connection: hooks, mods, injection, counters.
    #[must_use]
    pub fn handle(&self) -> ConnectionHandle {
        ConnectionHandle::new(Arc::clone(&self.shared))
    }

    /// Adds a hook (see [`ConnectionHandle::add_hook`]).
    ///
    /// # Errors
    /// As [`ConnectionHandle::add_hook`].
    pub fn add_hook(&self, hook: Hook) -> Result<HookId, HookError> {
        self.shared.add_hook(hook)
    }

    /// Installs a mod (see [`ConnectionHandle::add_mod`]).
    ///
    /// # Errors
    /// As [`ConnectionHandle::add_mod`].
    pub fn add_mod<M: Mod>(&self, module: M) -> Result<ModId, HookError> {
        self.shared.add_mod(module)
    }

    /// Relays between `client` (the game client, accepted) and `server`
    /// (connected) until both directions have ended; returns the counters.
    ///
    /// # Errors
    /// [`ProxyError`]: I/O, a bad handshake, a bad packet length, a stream
    /// cut inside a packet, a hook that made a packet that cannot be sent
    /// or panicked under [`FaultPolicy::CloseConnection`](crate::FaultPolicy::CloseConnection). Both connections
    /// are dropped on return.
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
        let (c2s, s2c) = Session::with_generation(&keys, config.key_generation).into_ciphers();
        let (client_r, client_w) = tokio::io::split(client);
        let (server_r, server_w) = tokio::io::split(server);
        let folder = match &config.maps {
            MapSource::Folder(folder) => Some(Arc::clone(folder)),
            _ => None,
        };
        let chunk = config.read_chunk.max(1);
        let shared = &*shared;
        let session_log = config
            .log
            .as_ref()
            .and_then(|l| l.open(config.key_generation));
        let log = session_log.as_ref();
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
                write(
                    shared,
                    Direction::ClientToServer,
                    server_w,
                    c2s,
                    to_server,
                    log
                ),
                write(
                    shared,
                    Direction::ServerToClient,
                    client_w,
                    s2c,
                    to_client,
                    log
                ),
            )
        };
        let handle_failure = async {
            shared.failed.notified().await;
            lock(&shared.handle_failure).take()
        };
        // However the relay ends (or is dropped), the mods leave.
        let _closing = Closing(shared);
        let result = tokio::select! {
            result = relay => result.map(|_| shared.counters.snapshot()),
            Some(failure) = handle_failure => Err(ProxyError::InjectedPacketHook(failure)),
            Err(failure) = shared.run_timers() => Err(ProxyError::Hook(failure)),
        };
        if let Some(log) = session_log {
            log.finish();
        }
        result
    }
}

/// Closes the connection's mods when dropped: their settings are saved and
/// their timers cleared.
struct Closing<'s>(&'s Shared);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
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
            if dir == Direction::ClientToServer {
                shared.read_patch(&packet);
            }
            shared.process(dir, &packet, false, &mut batches)?;
        }
        if let Some((batch, count)) = batches.take(dir.reverse())
            && shared.queue(dir.reverse()).send(batch).await.is_err()
        {
            counters.dir(dir.reverse()).dropped_injections.add(count);
        }
        if let Some((batch, _)) = batches.take(dir)
            && shared.queue(dir).send(batch).await.is_err()
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
    let _ = shared.queue(dir).end();
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
        Ok((map, revision)) => {
            // Read once per revision and folder (a few thousand lines).
            if let Some(sysmsg) = folder.sysmsg(revision) {
                shared.set_sysmsg(sysmsg);
            }
            shared.set_map(map, Some(revision));
        }
        Err(e) => *lock(&shared.map_error) = Some(e),
    }
}

/// One direction's writer: encrypt and write what is queued, in order.
async fn write<W>(
    shared: &Shared,
    dir: Direction,
    mut to: W,
    mut cipher: Pike,
    mut queue: QueueRx,
    log: Option<&ConnectionLog>,
) -> Result<(), ProxyError>
where
    W: AsyncWrite + Unpin,
{
    let io = |source| ProxyError::Io { dir, source };
    while let Some(Out::Packets(mut batch, held)) = queue.recv().await {
        if let Some(log) = log {
            log.record(dir, &batch);
        }
        cipher.apply(&mut batch);
        to.write_all(&batch).await.map_err(io)?;
        queue.written(held);
        shared
            .counters
            .dir(dir)
            .bytes_written
            .add(batch.len() as u64);
    }
    to.shutdown().await.map_err(io)
}
