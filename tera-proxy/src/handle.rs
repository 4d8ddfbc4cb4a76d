//! What a connection's relay, hooks and handles share, and the handle.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tera_data::{AnyPacket, ProtocolMap};
use tera_dynamic::Catalog;
use tera_net::Direction;
use tera_packets::Packet;
use tokio::sync::Notify;

use crate::chain::{Chain, Context, NewMod};
use crate::commands::CommandEntry;
use crate::config::ProxyConfig;
use crate::dynamic::DefSource;
use crate::encode::{direction_of, encode_any, encode_packet, opcode_in, with_length};
use crate::error::{HookError, HookFailure, SendError};
use crate::event::Changes;
use crate::faults::{Fault, FaultPolicy, Reports, UnknownName};
use crate::hooks::{Hook, Setting, check_hook};
use crate::id::{HookId, Ids, ModId};
use crate::mods::{Mod, Setup};
use crate::queue::Batches;
use crate::queue::{QueueRx, QueueTx, queue};
use crate::slot::ModSlot;
use crate::stats::{Counters, RelayStats};
use crate::version::{MapLoadError, MapSource};

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A hook's panic is caught before it unwinds through the lock, so the
    // data is never left half-changed.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Hooks and mods that handles added or removed, for the chain to take
/// before its next packet: a handle never waits for the chain's lock, which
/// hooks run under, so a hook may use one.
#[derive(Default)]
struct Pending {
    changes: Changes,
    mods: Vec<NewMod>,
}

/// What the relay, its hooks and its handles share.
pub(crate) struct Shared {
    chain: Mutex<Chain>,
    pending: Mutex<Pending>,
    has_pending: AtomicBool,
    /// The chain's map, for handles.
    map: Mutex<(Option<Arc<ProtocolMap>>, Option<u32>)>,
    defs: Option<Arc<Catalog>>,
    pub(crate) counters: Counters,
    reports: Reports,
    ids: Ids,
    policy: FaultPolicy,
    to_server: QueueTx,
    to_client: QueueTx,
    pub(crate) map_error: Mutex<Option<MapLoadError>>,
    /// A hook failed on a packet a handle injected: the failure, and a
    /// wake-up for the relay, which then ends.
    pub(crate) handle_failure: Mutex<Option<HookFailure>>,
    pub(crate) failed: Notify,
}

impl Shared {
    pub(crate) fn new(config: &ProxyConfig) -> (Shared, QueueRx, QueueRx) {
        let (to_server, to_server_rx) = queue(config.queue_bytes);
        let (to_client, to_client_rx) = queue(config.queue_bytes);
        let shared = Shared {
            chain: Mutex::default(),
            pending: Mutex::default(),
            has_pending: AtomicBool::new(false),
            map: Mutex::default(),
            defs: match &config.defs {
                DefSource::None => None,
                DefSource::Catalog(catalog) => Some(Arc::clone(catalog)),
            },
            counters: Counters::default(),
            reports: Reports::default(),
            ids: Ids::default(),
            policy: config.fault_policy,
            to_server,
            to_client,
            map_error: Mutex::default(),
            handle_failure: Mutex::default(),
            failed: Notify::new(),
        };
        lock(&shared.chain).set_defs(shared.defs.clone());
        if let MapSource::Fixed(map) = &config.maps {
            shared.set_map(Arc::clone(map), map.revision());
        }
        (shared, to_server_rx, to_client_rx)
    }

    pub(crate) fn queue(&self, dir: Direction) -> &QueueTx {
        match dir {
            Direction::ClientToServer => &self.to_server,
            Direction::ServerToClient => &self.to_client,
        }
    }

    /// The chain, with what handles queued for it applied.
    fn chain(&self) -> MutexGuard<'_, Chain> {
        let mut chain = lock(&self.chain);
        if self.has_pending.swap(false, Ordering::AcqRel) {
            let pending = std::mem::take(&mut *lock(&self.pending));
            chain.apply(pending.changes, pending.mods);
        }
        chain
    }

    fn queue_change(&self, change: impl FnOnce(&mut Pending)) {
        change(&mut lock(&self.pending));
        self.has_pending.store(true, Ordering::Release);
    }

    pub(crate) fn set_map(&self, map: Arc<ProtocolMap>, revision: Option<u32>) {
        *lock(&self.map) = (Some(Arc::clone(&map)), revision);
        self.chain().set_map(Some(map), revision, &self.reports);
    }

    fn map(&self) -> (Option<Arc<ProtocolMap>>, Option<u32>) {
        lock(&self.map).clone()
    }

    /// Runs the hooks on a packet, its output into `batches`.
    pub(crate) fn process(
        &self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        batches: &mut Batches,
    ) -> Result<(), HookFailure> {
        let cx = Context {
            counters: &self.counters,
            reports: &self.reports,
            ids: &self.ids,
            policy: self.policy,
        };
        self.chain()
            .process(dir, packet, fake, &cx, &mut |to, bytes| {
                batches.push(&self.counters, to, bytes);
            })
    }

    pub(crate) fn add_hook(&self, hook: Hook) -> Result<HookId, HookError> {
        let (map, revision) = self.map();
        let setting = Setting {
            map: map.as_deref(),
            revision,
            defs: self.defs.as_deref(),
        };
        check_hook(&hook, &setting, None)?;
        let id = self.ids.hook();
        self.queue_change(|p| p.changes.added.push((id, None, hook)));
        Ok(id)
    }

    pub(crate) fn add_mod<M: Mod>(&self, mut module: M) -> Result<ModId, HookError> {
        let mut setup = Setup::default();
        module.install(&mut setup)?;
        let id = self.ids.module();
        let slot = ModSlot::new(id, M::NAME, module);
        let (map, revision) = self.map();
        let setting = Setting {
            map: map.as_deref(),
            revision,
            defs: self.defs.as_deref(),
        };
        for hook in &setup.hooks {
            check_hook(hook, &setting, Some(&slot.info))?;
        }
        let owner = slot.info;
        let new = NewMod {
            hooks: setup
                .hooks
                .into_iter()
                .map(|hook| (self.ids.hook(), hook))
                .collect(),
            commands: setup
                .commands
                .into_iter()
                .map(|spec| CommandEntry {
                    id: self.ids.hook(),
                    owner,
                    spec,
                })
                .collect(),
            slot,
        };
        self.queue_change(|p| p.mods.push(new));
        Ok(id)
    }
}

/// A handle to a connection, to add and remove hooks and mods, inject
/// packets and read counters and reports, before and while it runs. Cheap
/// to clone, and usable inside hooks: what it adds or removes is taken
/// before the next packet.
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
    pub(crate) fn new(shared: Arc<Shared>) -> ConnectionHandle {
        ConnectionHandle { shared }
    }

    /// Adds a hook; it sees the packets that follow.
    ///
    /// # Errors
    /// [`HookError::NotInMap`] when the connection's map is known and has
    /// no packet of the hook's name (once the map becomes known, such a
    /// hook is reported in [`unknown_names`](ConnectionHandle::unknown_names));
    /// [`HookError::WrongMod`] for a mod's hook.
    pub fn add_hook(&self, hook: Hook) -> Result<HookId, HookError> {
        self.shared.add_hook(hook)
    }

    /// Removes a hook, before the next packet.
    pub fn remove_hook(&self, id: HookId) {
        self.shared.queue_change(|p| p.changes.removed.push(id));
    }

    /// Installs a mod: calls its [`Mod::install`] and adds what it
    /// registered, before the next packet. Its hooks get `module`.
    ///
    /// # Errors
    /// The error of its `install`, or of one of its hooks as
    /// [`add_hook`](ConnectionHandle::add_hook) gives it: then nothing of
    /// the mod is installed.
    pub fn add_mod<M: Mod>(&self, module: M) -> Result<ModId, HookError> {
        self.shared.add_mod(module)
    }

    /// Removes a mod with all its hooks and commands, before the next
    /// packet.
    pub fn remove_mod(&self, id: ModId) {
        self.shared
            .queue_change(|p| p.changes.removed_mods.push(id));
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> RelayStats {
        self.shared.counters.snapshot()
    }

    /// Hooks that panicked (the first 64), each reported once.
    #[must_use]
    pub fn faults(&self) -> Vec<Fault> {
        self.shared.reports.faults()
    }

    /// Hooks whose name the connection's map, once known, did not have
    /// (the first 64).
    #[must_use]
    pub fn unknown_names(&self) -> Vec<UnknownName> {
        self.shared.reports.unknown_names()
    }

    /// The bytes queued towards `dir`'s receiver and not yet written: at
    /// most [`ProxyConfig::queue_bytes`] (one larger batch alone excepted).
    #[must_use]
    pub fn queued_bytes(&self, dir: Direction) -> usize {
        self.shared.queue(dir).queued()
    }

    /// The byte bound of each side's queue.
    #[must_use]
    pub fn queue_bound(&self) -> usize {
        self.shared.to_server.bound()
    }

    /// The protocol revision of the connection's map, once known.
    #[must_use]
    pub fn revision(&self) -> Option<u32> {
        self.shared.map().1
    }

    /// Whether the connection has a protocol map.
    #[must_use]
    pub fn has_map(&self) -> bool {
        self.shared.map().0.is_some()
    }

    /// Why no map could be chosen from `C_CHECK_VERSION`, if that failed
    /// (the connection goes on; only `*` raw hooks see its packets).
    #[must_use]
    pub fn map_error(&self) -> Option<MapLoadError> {
        lock(&self.shared.map_error).clone()
    }

    /// Sends `packet` towards the side its name says (`C_` to the server,
    /// `S_` and `I_` to the client), as [`send_to`](ConnectionHandle::send_to).
    ///
    /// # Errors
    /// As [`send_to`](ConnectionHandle::send_to), and when the name says no
    /// direction.
    pub async fn send<'a, P: Packet<'a>>(&self, packet: &P) -> Result<(), SendError> {
        self.send_to(direction_of(P::NAME)?, packet).await
    }

    /// Encodes `packet` with its opcode in the connection's map and sends it
    /// towards `dir`'s receiver, as [`send_raw`](ConnectionHandle::send_raw).
    ///
    /// # Errors
    /// As [`send_raw`](ConnectionHandle::send_raw), and when there is no map
    /// or no opcode for the packet.
    pub async fn send_to<'a, P: Packet<'a>>(
        &self,
        dir: Direction,
        packet: &P,
    ) -> Result<(), SendError> {
        let (map, _) = self.shared.map();
        let packet = encode_packet(packet, opcode_in(map.as_deref(), P::NAME)?)?;
        self.inject(dir, packet).await
    }

    /// Sends a packet of a name chosen at run time towards the side its
    /// name says.
    ///
    /// # Errors
    /// As [`send`](ConnectionHandle::send).
    pub async fn send_any(&self, packet: &AnyPacket<'_>) -> Result<(), SendError> {
        let dir = direction_of(packet.name())?;
        let (map, _) = self.shared.map();
        let bytes = encode_any(packet, opcode_in(map.as_deref(), packet.name())?)?;
        self.inject(dir, bytes).await
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

    async fn inject(&self, dir: Direction, packet: Vec<u8>) -> Result<(), SendError> {
        let shared = &*self.shared;
        let mut batches = Batches::default();
        shared.counters.dir(dir).injected.incr();
        if let Err(failure) = shared.process(dir, &packet, true, &mut batches) {
            *lock(&shared.handle_failure) = Some(failure.clone());
            shared.failed.notify_one();
            return Err(failure.into());
        }
        for side in [dir, dir.reverse()] {
            if let Some((batch, _)) = batches.take(side) {
                shared
                    .queue(side)
                    .send(batch)
                    .await
                    .map_err(|_| SendError::Closed(side))?;
            }
        }
        Ok(())
    }
}
