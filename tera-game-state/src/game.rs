//! [`GameState`]: one per connection, fed every packet, holding every
//! submodule and the events of the last packet.

use std::sync::Arc;

use tera_packets::ProtocolMap;

use crate::clock::Clock;
use crate::contract::Contract;
use crate::data::GameData;
use crate::entities::Entities;
use crate::event::GameEvent;
use crate::glyphs::Glyphs;
use crate::inventory::Inventory;
use crate::me::{Connection, Me};
use crate::party::Party;
use crate::position::Position;
use crate::read_error::ReadError;
use crate::session::{Session, SessionState};
use crate::submodule::Submodules;
use crate::table::{Entry, How, OpcodeTable};
use crate::talents::Talents;

/// How a connection's game state reads packets.
#[derive(Debug, Clone, Default)]
pub struct GameConfig {
    /// The client's major patch version (tera-toolbox's
    /// `majorPatchVersion`), which picks the def version of packets that
    /// changed; `None` reads the newest versions.
    pub patch: Option<u32>,
    /// What the data center says (class, race, gender, channel types);
    /// shared by every connection.
    pub data: Arc<GameData>,
    /// The submodules on from the start (the session and `me` always are).
    pub submodules: Submodules,
    /// The server of the connection, from the proxy's config (toolbox's
    /// `mod.serverId`): `me().server_id()` before login and after leaving,
    /// as tera-game-state's `me.serverId`. `None`: the server `S_LOGIN`
    /// names, while in game.
    pub server_id: Option<u32>,
    /// The wall clock (`Date.now()`), which abnormalities' `until` count
    /// from: the system's by default; a [`ManualClock`](crate::ManualClock)'s
    /// in tests, so none sleeps.
    pub clock: Clock,
    /// Defs loaded at run time (a client build's own def folder): each
    /// packet game state reads is read from them when they hold it (the
    /// version read at `patch` if they have it, else their newest), and
    /// compiled in otherwise.
    pub defs: Option<Arc<tera_dynamic::Catalog>>,
}

/// A packet that did not decode as the def game state reads.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeFailure {
    /// The packet's name.
    pub name: &'static str,
    /// The def version tried.
    pub version: u32,
    /// Why.
    pub error: ReadError,
}

/// What mods know of the game on one connection (tera-game-state's
/// `mod.game`), fed every packet of the connection.
///
/// ```
/// use tera_game_state::{GameConfig, GameEvent, GameState, Submodules};
/// use tera_data::packets::s_load_topo;
/// use tera_data::Packet;
///
/// let mut game = GameState::new(GameConfig::default());
/// game.initialize(Submodules::POSITION);
/// let topo = s_load_topo::V3 { zone: 7031, quick: false, ..Default::default() };
/// let events = game.feed_named("S_LOAD_TOPO", &topo.encode()?);
/// assert_eq!(events[0], GameEvent::ChangeZone { zone: 7031, quick: false });
/// assert_eq!(events[1], GameEvent::EnterLoadingScreen);
/// assert_eq!(game.me().zone(), Some(7031));
/// # Ok::<(), tera_data::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GameState {
    pub(crate) patch: Option<u32>,
    pub(crate) data: Arc<GameData>,
    pub(crate) enabled: Submodules,
    pub(crate) defs: Option<Arc<tera_dynamic::Catalog>>,
    map: Option<Arc<ProtocolMap>>,
    table: OpcodeTable<GameState>,
    pub(crate) session: Session,
    pub(crate) me: Me,
    pub(crate) party: Party,
    pub(crate) inventory: Inventory,
    pub(crate) contract: Contract,
    pub(crate) glyphs: Glyphs,
    pub(crate) talents: Talents,
    pub(crate) position: Position,
    pub(crate) entities: Entities,
    pub(crate) events: Vec<GameEvent>,
    failures: u64,
    last_failure: Option<DecodeFailure>,
}

impl GameState {
    /// A game state before the first packet.
    #[must_use]
    pub fn new(config: GameConfig) -> Self {
        let mut game = GameState {
            patch: config.patch,
            data: config.data,
            enabled: Submodules::DEFAULT,
            defs: config.defs,
            map: None,
            table: OpcodeTable::default(),
            session: Session::default(),
            me: Me::default(),
            party: Party::default(),
            inventory: Inventory::default(),
            contract: Contract::default(),
            glyphs: Glyphs::default(),
            talents: Talents::default(),
            position: Position::default(),
            entities: Entities::default(),
            events: Vec::new(),
            failures: 0,
            last_failure: None,
        };
        game.session.server_id = config.server_id;
        game.me.connect(Connection {
            server_id: config.server_id,
            clock: config.clock,
            data: Arc::clone(&game.data),
        });
        game.inventory.connect(Arc::clone(&game.data));
        game.initialize(config.submodules);
        game
    }

    /// The time by [`GameConfig::clock`], in milliseconds since the Unix
    /// epoch (`Date.now()`): what [`Abnormality::remaining`](crate::Abnormality::remaining)
    /// counts from.
    #[must_use]
    pub fn now_ms(&self) -> i64 {
        self.me.clock().now_ms()
    }

    /// `serverId` (`mod.game.serverId`): the connection's server
    /// ([`GameConfig::server_id`]).
    #[must_use]
    pub fn server_id(&self) -> Option<u32> {
        self.session.server_id
    }

    /// Turns submodules on (tera-game-state's `initialize`): until then
    /// their packets are not read and cost nothing. Parse names with
    /// `"party".parse::<Submodules>()`.
    pub fn initialize(&mut self, submodules: Submodules) {
        let added = submodules.difference(self.enabled);
        if added.is_empty() {
            return;
        }
        self.enabled |= added;
        if added.contains(Submodules::ABNORMALITIES) {
            self.me.track_abnormalities();
        }
        self.rebuild_table();
    }

    /// The submodules on.
    #[must_use]
    pub fn enabled(&self) -> Submodules {
        self.enabled
    }

    /// Reads packets by the opcodes of `map` (the connection's map, once
    /// known).
    pub fn bind(&mut self, map: Arc<ProtocolMap>) {
        self.map = Some(map);
        self.rebuild_table();
    }

    fn rebuild_table(&mut self) {
        if let Some(map) = &self.map {
            self.table = self.opcode_table(map);
        }
    }

    /// How many opcodes of the bound map game state reads.
    #[must_use]
    pub fn opcodes_read(&self) -> usize {
        self.table.len()
    }

    /// Feeds a whole packet (header included) of `opcode` in the bound
    /// map; returns the events it caused, in order. Packets game state does
    /// not read return nothing at the cost of one table lookup.
    #[inline]
    pub fn feed(&mut self, opcode: u16, packet: &[u8]) -> &[GameEvent] {
        match self.table.get(opcode) {
            Some(entry) => {
                let entry = entry.clone();
                self.feed_entry(&entry, packet)
            }
            None => &[],
        }
    }

    /// Feeds a whole packet by name (no map needed): the def version is the
    /// one game state reads at its patch (from the defs loaded at run time
    /// when they hold it).
    pub fn feed_named(&mut self, name: &str, packet: &[u8]) -> &[GameEvent] {
        match self.entry_named(name) {
            Some(entry) => self.feed_entry(&entry, packet),
            None => &[],
        }
    }

    fn feed_entry(&mut self, entry: &Entry<GameState>, packet: &[u8]) -> &[GameEvent] {
        self.events.clear();
        let read = match &entry.how {
            How::Compiled(read) => read(self, packet),
            How::Loaded(schema, read) => match schema.decode(packet) {
                Ok(record) => read(self, crate::fields::Fields(&record)),
                Err(e) => Err(ReadError::from(e)),
            },
        };
        if let Err(error) = read {
            self.failures += 1;
            self.last_failure = Some(DecodeFailure {
                name: entry.name,
                version: entry.version,
                error,
            });
        }
        &self.events
    }

    /// The events of the last packet fed.
    #[must_use]
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// How many packets did not decode, and the last of them.
    #[must_use]
    pub fn decode_failures(&self) -> (u64, Option<&DecodeFailure>) {
        (self.failures, self.last_failure.as_ref())
    }

    /// The packets game state cannot read at its patch: their compiled-in
    /// defs are of later patches, and the defs loaded at run time (if any)
    /// hold none.
    #[must_use]
    pub fn unsupported(&self) -> Vec<&'static str> {
        self.unsupported_names()
    }

    /// Each packet of the bound map that game state reads: its name, the
    /// def version read, and whether that def was loaded at run time
    /// (else compiled in); sorted by name.
    #[must_use]
    pub fn versions_read(&self) -> Vec<(&'static str, u32, bool)> {
        self.table.versions()
    }

    /// The patch game state reads for.
    #[must_use]
    pub fn patch(&self) -> Option<u32> {
        self.patch
    }

    /// The data center's facts.
    #[must_use]
    pub fn data(&self) -> &GameData {
        &self.data
    }

    /// The session: lobby, game, loading screen, account.
    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// `isIngame`.
    #[must_use]
    pub fn is_ingame(&self) -> bool {
        self.session.is_ingame()
    }

    /// `isInLoadingScreen`.
    #[must_use]
    pub fn is_in_loading_screen(&self) -> bool {
        self.session.is_in_loading_screen()
    }

    /// `me`.
    #[must_use]
    pub fn me(&self) -> &Me {
        &self.me
    }

    /// `party`, when initialized.
    #[must_use]
    pub fn party(&self) -> Option<&Party> {
        self.enabled
            .contains(Submodules::PARTY)
            .then_some(&self.party)
    }

    /// `inventory`, when initialized.
    #[must_use]
    pub fn inventory(&self) -> Option<&Inventory> {
        self.enabled
            .contains(Submodules::INVENTORY)
            .then_some(&self.inventory)
    }

    /// `contract`, when initialized.
    #[must_use]
    pub fn contract(&self) -> Option<&Contract> {
        self.enabled
            .contains(Submodules::CONTRACT)
            .then_some(&self.contract)
    }

    /// `glyphs`, when initialized.
    #[must_use]
    pub fn glyphs(&self) -> Option<&Glyphs> {
        self.enabled
            .contains(Submodules::GLYPHS)
            .then_some(&self.glyphs)
    }

    /// `talents`, when initialized.
    #[must_use]
    pub fn talents(&self) -> Option<&Talents> {
        self.enabled
            .contains(Submodules::TALENTS)
            .then_some(&self.talents)
    }

    /// The player's position, when initialized.
    #[must_use]
    pub fn position(&self) -> Option<&Position> {
        self.enabled
            .contains(Submodules::POSITION)
            .then_some(&self.position)
    }

    /// The entities in sight, when initialized.
    #[must_use]
    pub fn entities(&self) -> Option<&Entities> {
        self.enabled
            .contains(Submodules::ENTITIES)
            .then_some(&self.entities)
    }

    /// Changes the session state with tera-game-state's events: leaving the
    /// old (the game resets `me` and the submodules), entering the new.
    pub(crate) fn set_state(&mut self, state: SessionState) {
        if self.session.state == state {
            return;
        }
        match self.session.state {
            SessionState::CharacterLobby => self.events.push(GameEvent::LeaveCharacterLobby),
            SessionState::InGame => {
                self.events.push(GameEvent::LeaveGame);
                self.me.reset();
                self.reset_submodules();
            }
            SessionState::Invalid => {}
        }
        self.session.state = state;
        match state {
            SessionState::CharacterLobby => self.events.push(GameEvent::EnterCharacterLobby),
            SessionState::InGame => {
                self.events.push(GameEvent::EnterGame);
                self.reset_submodules();
            }
            SessionState::Invalid => {}
        }
    }

    fn reset_submodules(&mut self) {
        self.party.reset();
        self.contract.reset();
        self.inventory.reset();
        self.glyphs.reset();
        self.talents.reset();
        self.position.reset();
        self.entities.reset();
    }

    pub(crate) fn set_loading_screen(&mut self, on: bool) {
        if self.session.loading_screen == on {
            return;
        }
        self.session.loading_screen = on;
        if on {
            self.events.push(GameEvent::EnterLoadingScreen);
            self.contract.reset();
        } else {
            self.events.push(GameEvent::LeaveLoadingScreen);
        }
    }

    /// The player's life; the contract ends without an event on death and
    /// resurrection, as in tera-game-state.
    pub(crate) fn set_alive(&mut self, alive: bool) {
        let from = self.events.len();
        self.me.set_alive(alive, &mut self.events);
        self.contract_follows_life(from);
    }

    /// Ends the contract without an event if the player died or came back
    /// in the events from `from` on (tera-game-state's contract listens to
    /// `me.die` and `me.resurrect`, whichever packet says them: `S_LOGIN`
    /// too).
    pub(crate) fn contract_follows_life(&mut self, from: usize) {
        let life = self
            .events
            .get(from..)
            .unwrap_or_default()
            .iter()
            .any(|e| matches!(e, GameEvent::Die | GameEvent::Resurrect));
        if life {
            self.contract.reset();
        }
    }
}
