//! Game state on a `tera-proxy` connection: one [`GameState`] per
//! connection, fed every packet first (injected, changed and blocked ones
//! too, as tera-game-state's hooks see them), read by every mod of the
//! connection, its events a [`Signal`] mods subscribe to with their state.
//! [`Game::setup`] puts it in each connection's context, where every mod
//! finds it.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tera_proxy::{
    Connection, ConnectionContext, ConnectionSetup, Event, Filter, Hook, HookError, HookId, Mod,
    RawPacket, Setup, Signal, Verdict,
};

use crate::event::GameEvent;
use crate::game::{GameConfig, GameState};
use crate::submodule::Submodules;

/// The order of the hook that feeds game state (tera-game-state's own hooks
/// run at -10000 and -9999): a hook of a higher order sees the state after
/// the packet.
pub const FEED_ORDER: i32 = -10_000;

/// A connection's game state, shared by the mod that feeds it
/// ([`Game::feeder`]) and the mods that read it: make one per connection
/// and hand a clone to each mod.
///
/// ```
/// use tera_data::packets::s_spawn_me;
/// use tera_game_state::{Game, GameConfig, GameEvent};
/// use tera_proxy::{Connection, HookError, Mod, ProxyConfig, Setup, Verdict};
///
/// /// Says where the player appears after each zone change.
/// struct Where {
///     game: Game,
///     zone_changed: bool,
/// }
///
/// impl Mod for Where {
///     const NAME: &'static str = "where";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
///         setup.hook(self.game.on_event(|me: &mut Where, _, event| {
///             if let GameEvent::ChangeZone { .. } = event {
///                 me.zone_changed = true;
///             }
///         }));
///         setup.hook(Self::on::<s_spawn_me::V3>(|me, _, spawn| {
///             if std::mem::take(&mut me.zone_changed) {
///                 let zone = me.game.state().me().zone();
///                 println!("zone {zone:?} at {:?}", spawn.loc);
///             }
///             Verdict::Pass
///         }));
///         Ok(())
///     }
/// }
///
/// let connection = Connection::new(ProxyConfig::default());
/// let game = Game::new(GameConfig::default());
/// connection.add_mod(game.feeder())?;
/// connection.add_mod(Where { game, zone_changed: false })?;
/// # Ok::<(), HookError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<GameState>,
    events: Signal<GameEvent>,
    /// What the state was made with: without a patch, the state is made
    /// again at the client's patch once its login says it.
    config: GameConfig,
}

impl Game {
    /// A connection's game state before its first packet.
    #[must_use]
    pub fn new(config: GameConfig) -> Game {
        Game {
            shared: Arc::new(Shared {
                state: Mutex::new(GameState::new(config.clone())),
                events: Signal::new(),
                config,
            }),
        }
    }

    /// The state, to read (hooks run one at a time on a connection, so
    /// the lock is never contended there; do not hold it across an
    /// `.await`).
    ///
    /// In a hook, the connection's game state taken from the event's
    /// context borrows neither the mod nor the event: the guard can be
    /// handed to the mod's own `&mut self` methods.
    ///
    /// ```
    /// use tera_data::packets::s_spawn_me;
    /// use tera_game_state::{Game, GameState};
    /// use tera_proxy::{Event, HookError, Mod, Setup, Verdict};
    ///
    /// #[derive(Default)]
    /// struct Spawns {
    ///     count: u32,
    /// }
    ///
    /// impl Spawns {
    ///     fn spawned(&mut self, state: &GameState, event: &mut Event<'_, Self>) {
    ///         self.count += 1;
    ///         event.message(format!("spawn {} in {:?}", self.count, state.me().zone()));
    ///     }
    /// }
    ///
    /// impl Mod for Spawns {
    ///     const NAME: &'static str = "spawns";
    ///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
    ///         setup.hook(Self::on::<s_spawn_me::V3>(|me, event, _| {
    ///             if let Some(game) = event.context::<Game>() {
    ///                 me.spawned(&game.state(), event);
    ///             }
    ///             Verdict::Pass
    ///         }));
    ///         Ok(())
    ///     }
    /// }
    /// ```
    pub fn state(&self) -> MutexGuard<'_, GameState> {
        // A panic while feeding leaves the state as the packet before left
        // it: each submodule's update is a handful of assignments.
        self.shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// `f` of the state, under its lock: read what a hook needs without
    /// holding a guard while the mod's own `&mut self` methods run.
    ///
    /// ```
    /// # use tera_game_state::{Game, GameConfig};
    /// let game = Game::new(GameConfig::default());
    /// let (zone, name) = game.with(|s| (s.me().zone(), s.me().name().map(str::to_owned)));
    /// assert_eq!((zone, name), (None, None));
    /// ```
    pub fn with<R>(&self, f: impl FnOnce(&GameState) -> R) -> R {
        f(&self.state())
    }

    /// A setup that gives every connection of a proxy its game state
    /// (`Proxy::with_setup(Game::setup(config))`): a new `Game` of
    /// `config` in the connection's context, fed by its feeder mod, which
    /// the setup installs. Mods find it at install
    /// (`setup.need::<Game>()?`, or [`Game::subscribe`]) and in hooks
    /// (`event.context::<Game>()`).
    #[must_use]
    pub fn setup(config: GameConfig) -> GameSetup {
        GameSetup { config }
    }

    /// Subscribes mod `M` to the game state of its connection's context
    /// (put in by [`Game::setup`]): the subscriber gets the mod's state,
    /// the event and each [`GameEvent`].
    ///
    /// ```
    /// use tera_game_state::{Game, GameConfig, GameEvent};
    /// use tera_proxy::{Connection, HookError, Mod, ProxyConfig, Setup};
    ///
    /// struct Zones;
    ///
    /// impl Mod for Zones {
    ///     const NAME: &'static str = "zones";
    ///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
    ///         Game::subscribe(setup, |_, event, game_event| {
    ///             if let GameEvent::ChangeZone { zone, .. } = game_event {
    ///                 event.message(format!("zone {zone}"));
    ///             }
    ///         })?;
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let connection = Connection::set_up(ProxyConfig::default(), &[&Game::setup(GameConfig::default())])?;
    /// connection.add_mod(Zones)?;
    /// // Without game state in the context, the install says so.
    /// let bare = Connection::new(ProxyConfig::default());
    /// assert!(matches!(bare.add_mod(Zones), Err(HookError::MissingContext(_))));
    /// # Ok::<(), HookError>(())
    /// ```
    ///
    /// # Errors
    /// [`HookError::MissingContext`] when the connection has no game state.
    pub fn subscribe<M: 'static>(
        setup: &mut Setup<M>,
        f: impl FnMut(&mut M, &mut Event<'_, M>, &GameEvent) + Send + 'static,
    ) -> Result<HookId, HookError> {
        let hook = setup.need::<Game>()?.on_event(f);
        Ok(setup.hook(hook))
    }

    /// Turns submodules on (tera-game-state's `initialize`).
    pub fn initialize(&self, submodules: Submodules) {
        self.state().initialize(submodules);
    }

    /// The signal of game state's events: each event of a packet is
    /// emitted once game state has read it, before the packet's next hook.
    #[must_use]
    pub fn events(&self) -> &Signal<GameEvent> {
        &self.shared.events
    }

    /// A subscriber of mod `M` to game state's events (as
    /// [`Signal::hook`]): add it with [`Setup::hook`].
    pub fn on_event<M: 'static>(
        &self,
        f: impl FnMut(&mut M, &mut Event<'_, M>, &GameEvent) + Send + 'static,
    ) -> Hook<M> {
        self.shared.events.hook(f)
    }

    /// The mod that feeds this state every packet of its connection; add
    /// it to the connection (`Connection::add_mod`) before the mods that
    /// read it.
    #[must_use]
    pub fn feeder(&self) -> GameFeeder {
        GameFeeder {
            game: self.clone(),
            bound: false,
            patched: false,
        }
    }
}

/// The mod that feeds a [`Game`] (see [`Game::feeder`]): a raw hook on
/// every packet at [`FEED_ORDER`], which emits the packet's events.
#[derive(Debug)]
pub struct GameFeeder {
    game: Game,
    bound: bool,
    /// Whether the client's patch has been looked at.
    patched: bool,
}

impl GameFeeder {
    fn feed(&mut self, event: &mut Event<'_, Self>, packet: &RawPacket<'_>) {
        let mut state = self.game.state();
        if !self.bound {
            // The map is known from the connection's first packet on
            // (C_CHECK_VERSION, which game state does not read).
            let Some(map) = event.protocol_map() else {
                return;
            };
            state.bind(Arc::new(map.clone()));
            self.bound = true;
        }
        if !self.patched
            && let Some(patch) = event.patch()
        {
            // The client's login (C_LOGIN_ARBITER, before anything game
            // state keeps) says its patch: a state made without one reads
            // that patch's versions from then on.
            self.patched = true;
            let config = &self.game.shared.config;
            if config.patch.is_none()
                && let Some(map) = event.protocol_map()
            {
                let enabled = state.enabled();
                *state = GameState::new(GameConfig {
                    patch: Some(patch),
                    ..config.clone()
                });
                state.initialize(enabled);
                state.bind(Arc::new(map.clone()));
            }
        }
        let events = state.feed(event.opcode(), packet.bytes());
        if events.is_empty() {
            return;
        }
        let events = events.to_vec();
        drop(state);
        for value in events {
            self.game.shared.events.emit(event, value);
        }
    }
}

impl Mod for GameFeeder {
    const NAME: &'static str = "game-state";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(
            Self::raw("*", |feeder, event, packet| {
                feeder.feed(event, packet);
                Verdict::Pass
            })
            .order(FEED_ORDER)
            .filter(Filter::ALL),
        );
        Ok(())
    }
}

/// The setup of [`Game::setup`]: a game state per connection, in its
/// context, with its feeder installed.
#[derive(Debug, Clone)]
pub struct GameSetup {
    config: GameConfig,
}

impl ConnectionSetup for GameSetup {
    fn context(&self, context: &mut ConnectionContext) {
        context.insert(Game::new(self.config.clone()));
    }

    fn install(&self, connection: &Connection) -> Result<(), HookError> {
        let game: Game = connection.context().need()?;
        connection.add_mod(game.feeder())?;
        Ok(())
    }
}
