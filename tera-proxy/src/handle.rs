//! The handle to a connection: add and remove hooks and mods, inject
//! packets, read counters and reports, from anywhere.

use std::sync::Arc;

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;
use tera_packets::Packet;

use crate::context::ConnectionContext;
use crate::encode::{encode_any, encode_packet, opcode_in, send_direction, with_length};
use crate::error::{HookError, SendError};
use crate::faults::{Fault, UnknownName};
use crate::hooks::Hook;
use crate::id::{HookId, ModId, TimerId};
use crate::mods::Mod;
use crate::queue::Batches;
use crate::settings::SettingsProblem;
use crate::shared::{Shared, lock};
use crate::stats::RelayStats;
use crate::sysmsg::SysmsgMap;
use crate::version::MapLoadError;

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
    /// hook is reported in [`unknown_names`](ConnectionHandle::unknown_names)),
    /// a dynamic hook whose def the connection does not have
    /// ([`HookError::RuntimeDef`]). A handle adds hooks outside any mod
    /// (`Hook<()>`); a mod's hooks are added by the mod.
    pub fn add_hook(&self, hook: Hook) -> Result<HookId, HookError> {
        self.shared.add_hook(hook)
    }

    /// What the connection's setups put in for every mod.
    #[must_use]
    pub fn context(&self) -> &ConnectionContext {
        self.shared.shared_values()
    }

    /// Removes a hook, before the next packet.
    pub fn remove_hook(&self, id: HookId) {
        self.shared.queue_change(|p| p.changes.removed.push(id));
    }

    /// Installs a mod: loads its settings ([`Mod::settings`], from
    /// [`ProxyConfig::settings_dir`](crate::ProxyConfig::settings_dir)),
    /// calls its [`Mod::install`] and adds what it registered, before the
    /// next packet. Its hooks, commands and timers get `module`.
    ///
    /// A hook on a name the connection's map lacks does not stop the mod
    /// (as in tera-toolbox, which logs it and goes on): it is reported in
    /// [`unknown_names`](ConnectionHandle::unknown_names), with the mod's
    /// name and the packet's, and logged as a warning; the mod's other
    /// hooks install.
    ///
    /// # Errors
    /// The error of its `install`, or a dynamic hook whose def the
    /// connection does not have: then nothing of the mod is installed.
    pub fn add_mod<M: Mod>(&self, module: M) -> Result<ModId, HookError> {
        self.shared.add_mod(module)
    }

    /// Removes a mod with all its hooks, commands and timers, before the
    /// next packet; its settings are saved.
    pub fn remove_mod(&self, id: ModId) {
        self.shared
            .queue_change(|p| p.changes.removed_mods.push(id));
    }

    /// Clears a timer, before the next packet or timer.
    pub fn clear_timer(&self, id: TimerId) {
        self.shared.queue_change(|p| p.changes.cleared.push(id));
    }

    /// How many timers wait, as of the last packet or timer the connection
    /// ran.
    #[must_use]
    pub fn timer_count(&self) -> usize {
        self.shared.timer_count()
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

    /// Mods' settings files that did not load or could not be saved (the
    /// first 64).
    #[must_use]
    pub fn settings_problems(&self) -> Vec<SettingsProblem> {
        self.shared.reports.settings_problems()
    }

    /// Hooks whose name the connection's map, once known, did not have
    /// (the first 64).
    #[must_use]
    pub fn unknown_names(&self) -> Vec<UnknownName> {
        self.shared.reports.unknown_names()
    }

    /// The bytes queued towards `dir`'s receiver and not yet written: at
    /// most [`ProxyConfig::queue_bytes`](crate::ProxyConfig::queue_bytes) (one larger batch alone excepted).
    #[must_use]
    pub fn queued_bytes(&self, dir: Direction) -> usize {
        self.shared.queue(dir).queued()
    }

    /// The byte bound of each side's queue.
    #[must_use]
    pub fn queue_bound(&self) -> usize {
        self.shared.queue(Direction::ClientToServer).bound()
    }

    /// The protocol revision of the connection's map, once known.
    #[must_use]
    pub fn revision(&self) -> Option<u32> {
        self.shared.map().1
    }

    /// The connection's protocol map, once known.
    #[must_use]
    pub fn protocol_map(&self) -> Option<Arc<ProtocolMap>> {
        self.shared.map_arc()
    }

    /// The client's patch, `(major, minor)`, once its `C_LOGIN_ARBITER`
    /// has said it.
    #[must_use]
    pub fn patch(&self) -> Option<(u32, u32)> {
        self.shared.patch()
    }

    /// The connection's sysmsg map, once known.
    #[must_use]
    pub fn sysmsg(&self) -> Option<Arc<SysmsgMap>> {
        self.shared.sysmsg()
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
        self.send_to(send_direction(P::NAME)?, packet).await
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
        let packet = encode_packet(packet, opcode_in(map, P::NAME)?)?;
        self.inject(dir, packet).await
    }

    /// Sends a packet of a name chosen at run time towards the side its
    /// name says.
    ///
    /// # Errors
    /// As [`send`](ConnectionHandle::send).
    pub async fn send_any(&self, packet: &AnyPacket<'_>) -> Result<(), SendError> {
        let dir = send_direction(packet.name())?;
        let (map, _) = self.shared.map();
        let bytes = encode_any(packet, opcode_in(map, packet.name())?)?;
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
