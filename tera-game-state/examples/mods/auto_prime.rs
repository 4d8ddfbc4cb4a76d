//! A port of Kuzaki/auto-prime-battle-solution: keeps the Prime Battle
//! Solution's buff up while the player has the item, uses it when the
//! buff ends (or 10 s after a loading screen, time for the server to say
//! the buff is on), waits for the item's cooldown, and does nothing while
//! dead, mounted, in a contract, loading or in a battleground.
//!
//! Written on game state, as the original predates it: life, mount,
//! contract, zone, loading screens, the buff (abnormalities) and how many
//! the player has (inventory) are game state's; the item's cooldown, the
//! battleground's zone and the use are packets the project does not
//! compile in, whose defs the mod ships (`defs/`).

use std::time::{Duration, Instant};

use tera_game_state::{Game, GameEvent, GameState, Submodules};
use tera_proxy::{Event, HookError, Mod, PacketDef, Setup, TimerId, Value, Verdict};

/// Prime Battle Solution, the item.
const ITEM: i32 = 200_999;
/// Its buff.
const BUFF: u32 = 4020;
/// The wait after a loading screen before the first use.
const LOAD_DELAY: Duration = Duration::from_secs(10);

/// The mod on one connection.
#[derive(Debug)]
pub struct AutoPrime {
    game: Game,
    use_item: PacketDef,
    /// When the item's cooldown ends.
    cooldown: Instant,
    /// When the buff runs out.
    next_use: Instant,
    /// The zone of the battleground last announced.
    battleground: Option<i32>,
    timer: Option<TimerId>,
}

/// Whether the player can use the item now.
fn can_use(state: &GameState, battleground: Option<i32>) -> bool {
    let me = state.me();
    let items = state
        .inventory()
        .map_or(0, |i| i.total_amount_in_bag_or_pockets(&[ITEM]));
    let contract = state.contract().is_some_and(|c| c.active());
    me.alive() == Some(true)
        && !me.mounted()
        && !contract
        && !state.is_in_loading_screen()
        && state.is_ingame()
        && battleground.is_none_or(|zone| me.zone() != Some(zone))
        && items > 0
}

impl AutoPrime {
    /// The mod, reading `game`.
    ///
    /// # Errors
    /// A shipped def that does not parse.
    pub fn new(game: Game) -> Result<Self, HookError> {
        game.initialize(Submodules::ABNORMALITIES | Submodules::INVENTORY | Submodules::CONTRACT);
        let use_item = PacketDef::parse("C_USE_ITEM", 3, include_str!("defs/C_USE_ITEM.3.def"))?;
        let now = Instant::now();
        Ok(AutoPrime {
            game,
            use_item,
            cooldown: now,
            next_use: now,
            battleground: None,
            timer: None,
        })
    }

    /// Plans the next use, if the player can use the item (the original's
    /// `nostrum()`).
    fn plan(&mut self, event: &mut Event<'_, Self>) {
        if let Some(timer) = self.timer.take() {
            event.clear_timer(timer);
        }
        if self.game.with(|s| can_use(s, self.battleground)) {
            let wait = self.next_use.saturating_duration_since(Instant::now());
            self.timer = Some(event.set_timeout(wait, Self::use_item));
        }
    }

    fn use_item(&mut self, event: &mut Event<'_, Self>) {
        let now = Instant::now();
        if now < self.cooldown {
            self.timer = Some(event.set_timeout(self.cooldown - now, Self::use_item));
            return;
        }
        self.timer = None;
        let mut use_item = self.use_item.zero();
        use_item["gameId"] = self
            .game
            .with(|s| s.me().game_id())
            .unwrap_or_default()
            .into();
        use_item["id"] = ITEM.into();
        use_item["amount"] = 1i32.into();
        use_item["unk4"] = true.into();
        if let Err(e) = event.send_record(&self.use_item, &use_item) {
            event.warn(e);
        }
    }
}

impl Mod for AutoPrime {
    const NAME: &'static str = "auto-prime-battle-solution";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(self.game.on_event(|me: &mut Self, event, game_event| {
            let now = Instant::now();
            match game_event {
                GameEvent::EnterLoadingScreen => me.next_use = now + LOAD_DELAY,
                GameEvent::Die => me.next_use = now,
                GameEvent::AbnormalityBegin {
                    id: BUFF, duration, ..
                }
                | GameEvent::AbnormalityRefresh {
                    id: BUFF, duration, ..
                } => {
                    me.next_use =
                        now + Duration::from_millis(u64::try_from(*duration).unwrap_or(0));
                }
                GameEvent::AbnormalityEnd { id: BUFF } => me.next_use = now,
                GameEvent::LeaveLoadingScreen
                | GameEvent::LeaveGame
                | GameEvent::Resurrect
                | GameEvent::Mount { .. }
                | GameEvent::Dismount
                | GameEvent::ContractBegin { .. }
                | GameEvent::ContractEnd { .. }
                | GameEvent::InventoryUpdate => {}
                _ => return,
            }
            me.plan(event);
        }));
        let cooldown = include_str!("defs/S_START_COOLTIME_ITEM.1.def");
        let cooldown = PacketDef::parse("S_START_COOLTIME_ITEM", 1, cooldown)?;
        setup.hook(Self::shipped(&cooldown, |me, _, cooldown| {
            if cooldown.get("item").and_then(Value::as_i32) == Some(ITEM) {
                let seconds = cooldown
                    .get("cooldown")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                me.cooldown = Instant::now() + Duration::from_secs(seconds);
            }
            Verdict::Pass
        }));
        let entrance = include_str!("defs/S_BATTLE_FIELD_ENTRANCE_INFO.1.def");
        let entrance = PacketDef::parse("S_BATTLE_FIELD_ENTRANCE_INFO", 1, entrance)?;
        setup.hook(Self::shipped(&entrance, |me, _, entrance| {
            me.battleground = entrance.get("zone").and_then(Value::as_i32);
            Verdict::Pass
        }));
        Ok(())
    }
}
