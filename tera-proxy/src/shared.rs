//! What a connection's relay, timers, hooks and handles share: the chain
//! behind its lock, what handles queued for it, the protocol map (its only
//! owner), the queues towards each side, the counters and reports.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

use tera_data::packets::c_login_arbiter;
use tera_data::{Packet, ProtocolMap};
use tera_dynamic::Catalog;
use tera_net::Direction;
use tokio::sync::Notify;

use crate::chain::{Chain, Context, NewMod};
use crate::config::ProxyConfig;
use crate::context::ConnectionContext;
use crate::dynamic::DefSource;
use crate::error::{HookError, HookFailure};
use crate::event::Changes;
use crate::faults::{FaultPolicy, Reports, UnknownName};
use crate::hooks::{Hook, Setting, check_hook};
use crate::id::{HookId, Ids, ModId};
use crate::mods::{Mod, Setup};
use crate::queue::{Batches, QueueRx, QueueTx, queue};
use crate::slot::ModSlot;
use crate::stats::Counters;
use crate::sysmsg::SysmsgMap;
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
pub(crate) struct Pending {
    pub(crate) loose: Vec<(HookId, Hook)>,
    pub(crate) mods: Vec<NewMod>,
    pub(crate) changes: Changes,
}

/// What the relay, its timers, hooks and handles share.
pub(crate) struct Shared {
    chain: Mutex<Chain>,
    pending: Mutex<Pending>,
    has_pending: AtomicBool,
    /// The protocol map and its revision: set once (given, or chosen from
    /// `C_CHECK_VERSION`); the chain reads it from here.
    map: OnceLock<(Arc<ProtocolMap>, Option<u32>)>,
    /// The sysmsg map of the connection's revision, if any: set once,
    /// before the protocol map.
    sysmsg: OnceLock<Arc<SysmsgMap>>,
    /// The client's patch (major, minor), from its `C_LOGIN_ARBITER`.
    patch: OnceLock<(u32, u32)>,
    /// The opcode of `C_LOGIN_ARBITER` in the map, once looked up.
    login_opcode: OnceLock<Option<u16>>,
    defs: Option<Arc<Catalog>>,
    /// What the connection's setups put in for every mod.
    context: Arc<ConnectionContext>,
    settings_dir: Option<PathBuf>,
    pub(crate) counters: Counters,
    pub(crate) reports: Reports,
    ids: Arc<Ids>,
    policy: FaultPolicy,
    to_server: QueueTx,
    to_client: QueueTx,
    pub(crate) map_error: Mutex<Option<MapLoadError>>,
    /// A hook failed on a packet a handle injected: the failure, and a
    /// wake-up for the relay, which then ends.
    pub(crate) handle_failure: Mutex<Option<HookFailure>>,
    pub(crate) failed: Notify,
    /// Woken when a timer is added.
    timer_wake: Notify,
    /// How many timers wait, as the chain last counted.
    timers_waiting: AtomicUsize,
}

impl Shared {
    pub(crate) fn new(
        config: &ProxyConfig,
        context: ConnectionContext,
    ) -> (Shared, QueueRx, QueueRx) {
        let (to_server, to_server_rx) = queue(config.queue_bytes);
        let (to_client, to_client_rx) = queue(config.queue_bytes);
        let shared = Shared {
            chain: Mutex::default(),
            pending: Mutex::default(),
            has_pending: AtomicBool::new(false),
            map: OnceLock::new(),
            sysmsg: OnceLock::new(),
            patch: OnceLock::new(),
            login_opcode: OnceLock::new(),
            defs: match &config.defs {
                DefSource::None => None,
                DefSource::Catalog(catalog) => Some(Arc::clone(catalog)),
            },
            context: Arc::new(context),
            settings_dir: config.settings_dir.clone(),
            counters: Counters::default(),
            reports: Reports::default(),
            ids: Arc::default(),
            policy: config.fault_policy,
            to_server,
            to_client,
            map_error: Mutex::default(),
            handle_failure: Mutex::default(),
            failed: Notify::new(),
            timer_wake: Notify::new(),
            timers_waiting: AtomicUsize::new(0),
        };
        if let MapSource::Fixed(map) = &config.maps {
            shared.set_map(Arc::clone(map), map.revision());
        }
        (shared, to_server_rx, to_client_rx)
    }

    /// What the connection's setups put in.
    pub(crate) fn shared_values(&self) -> &ConnectionContext {
        &self.context
    }

    pub(crate) fn queue(&self, dir: Direction) -> &QueueTx {
        match dir {
            Direction::ClientToServer => &self.to_server,
            Direction::ServerToClient => &self.to_client,
        }
    }

    fn context(&self) -> Context<'_> {
        let map = self.map.get();
        Context {
            counters: &self.counters,
            reports: &self.reports,
            ids: &self.ids,
            policy: self.policy,
            map: map.map(|(map, _)| &**map),
            revision: map.and_then(|(_, revision)| *revision),
            defs: self.defs.as_deref(),
            context: &self.context,
            sysmsg: self.sysmsg.get().map(|m| &**m),
            patch: self.patch.get().map(|(major, _)| *major),
            timer_wake: &self.timer_wake,
            timers_waiting: &self.timers_waiting,
        }
    }

    /// The chain, with what handles queued for it applied.
    fn chain(&self) -> MutexGuard<'_, Chain> {
        let mut chain = lock(&self.chain);
        if self.has_pending.swap(false, Ordering::AcqRel) {
            let pending = std::mem::take(&mut *lock(&self.pending));
            let cx = self.context();
            for new in pending.mods {
                chain.install(new, &cx);
            }
            for (id, hook) in pending.loose {
                chain.add_loose(id, hook, &cx);
            }
            chain.apply(pending.changes, &cx);
        }
        chain
    }

    pub(crate) fn queue_change(&self, change: impl FnOnce(&mut Pending)) {
        change(&mut lock(&self.pending));
        self.has_pending.store(true, Ordering::Release);
    }

    /// Sets the connection's map (once) and resolves the hooks under it.
    pub(crate) fn set_map(&self, map: Arc<ProtocolMap>, revision: Option<u32>) {
        if self.map.set((map, revision)).is_ok() {
            let cx = self.context();
            self.chain().set_map(&cx);
        }
    }

    /// Reads the client's patch from its `C_LOGIN_ARBITER` (`patchVersion`,
    /// major times 100 plus minor: 10002 is patch 100.02), once: until
    /// then each packet from the client is looked at.
    pub(crate) fn read_patch(&self, packet: &[u8]) {
        if self.patch.get().is_some() {
            return;
        }
        // Looked up once: until the login, every client packet is checked.
        let login = self.map.get().map(|(map, _)| {
            *self
                .login_opcode
                .get_or_init(|| map.code("C_LOGIN_ARBITER"))
        });
        let opcode = tera_net::framing::opcode(packet);
        if opcode.is_none() || opcode != login.flatten() {
            return;
        }
        let Ok(login) = <c_login_arbiter::V2<'_> as Packet<'_>>::decode(packet) else {
            return;
        };
        if let Ok(version @ 1..) = u32::try_from(login.patch_version) {
            self.set_patch(version / 100, version % 100);
        }
    }

    /// Sets the client's patch (once) and resolves the hooks under it.
    pub(crate) fn set_patch(&self, major: u32, minor: u32) {
        if self.patch.set((major, minor)).is_ok() {
            let cx = self.context();
            self.chain().set_patch(&cx);
        }
    }

    /// The client's patch (major, minor), once known.
    pub(crate) fn patch(&self) -> Option<(u32, u32)> {
        self.patch.get().copied()
    }

    /// Sets the connection's sysmsg map (once).
    pub(crate) fn set_sysmsg(&self, map: Arc<SysmsgMap>) {
        let _ = self.sysmsg.set(map);
    }

    /// The sysmsg map, once known.
    pub(crate) fn sysmsg(&self) -> Option<Arc<SysmsgMap>> {
        self.sysmsg.get().cloned()
    }

    /// The map, once known, shared.
    pub(crate) fn map_arc(&self) -> Option<Arc<ProtocolMap>> {
        self.map.get().map(|(map, _)| Arc::clone(map))
    }

    /// The map and its revision, once known.
    pub(crate) fn map(&self) -> (Option<&ProtocolMap>, Option<u32>) {
        match self.map.get() {
            Some((map, revision)) => (Some(map), *revision),
            None => (None, None),
        }
    }

    fn setting(&self) -> Setting<'_> {
        let (map, revision) = self.map();
        Setting {
            map,
            revision,
            defs: self.defs.as_deref(),
        }
    }

    /// Runs the hooks on a packet, its output into `batches`.
    pub(crate) fn process(
        &self,
        dir: Direction,
        packet: &[u8],
        fake: bool,
        batches: &mut Batches,
    ) -> Result<(), HookFailure> {
        let cx = self.context();
        self.chain()
            .process(dir, packet, fake, &cx, &mut |to, bytes| {
                batches.push(&self.counters, to, bytes);
            })
    }

    pub(crate) fn add_hook(&self, hook: Hook) -> Result<HookId, HookError> {
        check_hook(&hook.meta, &self.setting())?;
        let id = self.ids.hook();
        self.queue_change(|p| p.loose.push((id, hook)));
        Ok(id)
    }

    pub(crate) fn add_mod<M: Mod>(&self, mut module: M) -> Result<ModId, HookError> {
        if let (Some(dir), Some(settings)) = (&self.settings_dir, module.settings())
            && let Some(problem) = settings.load_from(dir, M::NAME)
        {
            self.reports.settings(problem);
        }
        let mut setup = Setup::new(M::NAME, Arc::clone(&self.ids), Arc::clone(&self.context));
        module.install(&mut setup)?;
        // As tera-toolbox: a hook on a name this client build's map lacks is
        // reported with the mod's name and the packet's, and the mod's
        // other hooks install (a mod hooking a packet one patch dropped
        // still does the rest of its work).
        let setting = self.setting();
        for (hook, _, meta) in &setup.hooks {
            match check_hook(meta, &setting) {
                Err(HookError::NotInMap { name, revision }) => {
                    self.reports.unknown_name(UnknownName {
                        module: Some(M::NAME.to_owned()),
                        hook: *hook,
                        name,
                        revision,
                    });
                }
                other => other?,
            }
        }
        let id = self.ids.module();
        let slot = ModSlot::new(M::NAME, module, Some(M::settings))
            .with_fns(setup.fns)
            .with_unload(M::unload);
        let new = NewMod {
            id,
            name: M::NAME,
            slot: Box::new(slot),
            hooks: setup.hooks,
            timers: setup.timers,
        };
        self.queue_change(|p| p.mods.push(new));
        Ok(id)
    }

    /// Runs the connection's timers as they fall due, on the task that
    /// polls this (the connection's), until a hook fails on what they
    /// inject.
    pub(crate) async fn run_timers(&self) -> Result<(), HookFailure> {
        loop {
            let next = self.chain().next_timer();
            match next {
                Some(at) => tokio::select! {
                    () = tokio::time::sleep_until(at.into()) => self.fire_timers().await?,
                    () = self.timer_wake.notified() => {}
                },
                None => self.timer_wake.notified().await,
            }
        }
    }

    async fn fire_timers(&self) -> Result<(), HookFailure> {
        let mut batches = Batches::default();
        {
            let cx = self.context();
            self.chain()
                .fire_timers(Instant::now(), &cx, &mut |to, bytes| {
                    batches.push(&self.counters, to, bytes);
                })?;
        }
        for side in [Direction::ClientToServer, Direction::ServerToClient] {
            if let Some((batch, count)) = batches.take(side)
                && self.queue(side).send(batch).await.is_err()
            {
                self.counters.dir(side).dropped_injections.add(count);
            }
        }
        Ok(())
    }

    /// How many timers wait (as of the last packet or timer).
    pub(crate) fn timer_count(&self) -> usize {
        self.timers_waiting.load(Ordering::Relaxed)
    }

    /// The connection has ended: every mod leaves (settings saved, timers
    /// cleared).
    pub(crate) fn close(&self) {
        self.chain().close(&self.reports);
        self.timers_waiting.store(0, Ordering::Relaxed);
    }
}
