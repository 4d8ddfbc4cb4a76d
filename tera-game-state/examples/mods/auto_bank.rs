//! A port of seraphinush-gaming/auto-bank: when the player opens the bank,
//! the bag's items of the bank list are put in their tabs one by one, and
//! with `!bank gold` the gold past an amount kept is deposited. `!bank`
//! toggles it; `!bank add TAB ITEM`, `rm ITEM` (an id or a chat link),
//! `list`, `set delay MS`, `set gold N`.
//!
//! What the bag holds and the money come from game state's inventory (its
//! `update` event); the bank's packets are not compiled in: the mod ships
//! their defs (`defs/`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tera_data::packets::s_request_contract;
use tera_game_state::{Game, GameEvent, Inventory, Item, Submodules};
use tera_proxy::commands::ChatLink;
use tera_proxy::{
    Event, HookError, Mod, ModSettings, PacketDef, Settings, SettingsFile, Setup, Value, Verdict,
};

/// The bank's contract (`S_REQUEST_CONTRACT` type).
const BANK_CONTRACT: i32 = 26;
/// Slots of a bank tab.
const TAB_SLOTS: i32 = 72;
/// The wait after opening a tab, and after its last item.
const TAB_DELAY: Duration = Duration::from_millis(100);
const VIEW_WARE_EX: &str = include_str!("defs/S_VIEW_WARE_EX.3.def");
const VIEW_WARE: &str = include_str!("defs/C_VIEW_WARE.2.def");
const PUT_WARE_ITEM: &str = include_str!("defs/C_PUT_WARE_ITEM.3.def");

/// The settings, in `auto-bank.json`. Versions 1 to 3 (the original's
/// names) read as this one.
#[derive(Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Whether the bank list is banked.
    #[serde(alias = "enable")]
    pub enabled: bool,
    /// Milliseconds between two items.
    #[serde(alias = "bank_delay")]
    pub delay: u64,
    /// Item ids to bank, by tab (1 to 8).
    pub bank_list: BTreeMap<i32, BTreeSet<i32>>,
    /// Whether gold is deposited.
    pub deposit_gold: bool,
    /// The money kept in the bag (in copper: gold × 10,000).
    pub deposit_amount: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enabled: false,
            delay: 150,
            bank_list: (1..=8).map(|tab| (tab, BTreeSet::new())).collect(),
            deposit_gold: false,
            deposit_amount: 0,
        }
    }
}

impl ModSettings for Options {
    const VERSION: u32 = 4;
}

/// The defs the mod ships.
#[derive(Debug)]
struct Defs {
    view_ware_ex: PacketDef,
    view_ware: PacketDef,
    put_ware_item: PacketDef,
}

/// The mod on one connection.
#[derive(Debug)]
pub struct AutoBank {
    game: Game,
    defs: Defs,
    settings: Settings<Options>,
    banking: bool,
    to_bank: BTreeMap<i32, Vec<Item>>,
}

/// An item id typed, or the item of a chat link.
fn item_id(arg: &str) -> Option<i32> {
    arg.parse()
        .ok()
        .or_else(|| ChatLink::find_all(arg).first()?.id()?.try_into().ok())
}

fn toggle(on: &mut bool) -> &'static str {
    *on = !*on;
    if *on { "En" } else { "Dis" }
}

impl AutoBank {
    /// The mod, reading `game`.
    ///
    /// # Errors
    /// A shipped def that does not parse.
    pub fn new(game: Game) -> Result<Self, HookError> {
        game.initialize(Submodules::INVENTORY);
        let defs = Defs {
            view_ware_ex: PacketDef::parse("S_VIEW_WARE_EX", 3, VIEW_WARE_EX)?,
            view_ware: PacketDef::parse("C_VIEW_WARE", 2, VIEW_WARE)?,
            put_ware_item: PacketDef::parse("C_PUT_WARE_ITEM", 3, PUT_WARE_ITEM)?,
        };
        let settings = Settings::default();
        Ok(AutoBank {
            game,
            defs,
            settings,
            banking: false,
            to_bank: BTreeMap::new(),
        })
    }

    fn me(&self) -> u64 {
        self.game.with(|s| s.me().game_id()).unwrap_or_default()
    }

    /// The bag's items of the bank list, by tab (the inventory's `update`).
    fn list_items(&mut self) {
        let state = self.game.state();
        let Some(inventory) = state.inventory() else {
            return;
        };
        self.to_bank.clear();
        for (tab, ids) in &self.settings.bank_list {
            let items = inventory.bag_items().filter(|item| ids.contains(&item.id));
            self.to_bank.entry(*tab).or_default().extend(items.cloned());
        }
    }

    /// Sends a packet of shipped def `def`: the player's `gameId` and
    /// `fields`, the other fields zero.
    fn send<const N: usize>(
        &self,
        event: &mut Event<'_, Self>,
        def: &PacketDef,
        fields: [(&str, Value<'static>); N],
    ) {
        let mut packet = def.zero();
        packet["gameId"] = self.me().into();
        for (name, value) in fields {
            packet[name] = value;
        }
        if let Err(e) = event.send_record(def, &packet) {
            event.warn(e);
        }
    }

    /// Each tab's items, one every `delay` ms after opening the tab, then
    /// the gold.
    fn bank(&mut self, event: &mut Event<'_, Self>) {
        let mut at = Duration::ZERO;
        let delay = Duration::from_millis(self.settings.delay);
        for (tab, mut items) in std::mem::take(&mut self.to_bank) {
            if items.is_empty() {
                continue;
            }
            let offset = (tab - 1) * TAB_SLOTS;
            items.sort_by_key(|item| std::cmp::Reverse(item.slot));
            event.set_timeout(at, move |me, event| {
                let tab = [("type", 1i32.into()), ("offset", offset.into())];
                me.send(event, &me.defs.view_ware, tab);
            });
            at += TAB_DELAY;
            for item in items {
                at += delay;
                event.set_timeout(at, move |me, event| {
                    let item = [
                        ("container", 1i32.into()),
                        ("offset", offset.into()),
                        ("fromSlot", i32::try_from(item.slot).unwrap_or(-1).into()),
                        ("id", item.id.into()),
                        ("dbid", item.dbid.into()),
                        ("amount", item.amount.into()),
                        ("toSlot", offset.into()),
                    ];
                    me.send(event, &me.defs.put_ware_item, item);
                });
            }
            at += TAB_DELAY;
        }
        event.set_timeout(at, |me, event| {
            me.banking = false;
            let money = me
                .game
                .with(|s| s.inventory().and_then(Inventory::money))
                .unwrap_or(0);
            if me.settings.deposit_gold && money > me.settings.deposit_amount {
                let gold = [
                    ("container", 1i32.into()),
                    ("money", (money - me.settings.deposit_amount).into()),
                    ("fromPocket", (-1i32).into()),
                    ("fromSlot", (-1i32).into()),
                    ("id", (-1i32).into()),
                    ("toSlot", (-1i32).into()),
                ];
                me.send(event, &me.defs.put_ware_item, gold);
            }
        });
    }

    fn add(&mut self, args: &[&str]) -> String {
        let usage = "usage : bank add &lt;tab&gt; &lt;item id | chat link&gt;";
        let (Some(tab), Some(id)) = (args.first(), args.get(1)) else {
            return format!("Invalid argument. {usage}");
        };
        let tab: Option<i32> = tab.parse().ok();
        match (
            tab.and_then(|t| self.settings.bank_list.get_mut(&t)),
            item_id(id),
        ) {
            (Some(list), Some(id)) => {
                list.insert(id);
                format!(
                    "Added &lt;{id}&gt; to bank tab {}.",
                    tab.unwrap_or_default()
                )
            }
            _ => format!("Invalid id. {usage}"),
        }
    }

    fn set(&mut self, args: &[&str]) -> String {
        match args {
            ["delay", n] if n.parse::<u64>().is_ok() => {
                self.settings.delay = n.parse().unwrap_or_default();
                format!("Set delay between items banked to {n} ms.")
            }
            ["gold", n] if n.parse::<i64>().is_ok() => {
                self.settings.deposit_amount = n.parse::<i64>().unwrap_or_default() * 10_000;
                format!("Set auto-deposit to keep {n} Gold in Inventory.")
            }
            ["delay", ..] => "Invalid argument. usage : bank set delay &lt;num&gt;".into(),
            ["gold", ..] => "Invalid argument. usage : bank set gold &lt;num&gt;".into(),
            _ => "Invalid argument. usage : bank set [delay|gold]".into(),
        }
    }
}

impl Mod for AutoBank {
    const NAME: &'static str = "auto-bank";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("bank", |me, cmd| {
            let args = cmd.raw_args();
            let reply = match args.as_slice() {
                [] => format!("{}abled", toggle(&mut me.settings.enabled)),
                ["add", rest @ ..] => me.add(rest),
                ["gold"] => format!(
                    "Auto-deposit Gold {}abled",
                    toggle(&mut me.settings.deposit_gold)
                ),
                ["list"] => {
                    cmd.event().log("Bank list :");
                    for (tab, ids) in &me.settings.bank_list {
                        cmd.event().log(format!("{tab}. {ids:?}"));
                    }
                    "Exported bank list to console.".into()
                }
                ["rm", id] => match item_id(id) {
                    Some(id) => {
                        for ids in me.settings.bank_list.values_mut() {
                            ids.remove(&id);
                        }
                        format!("Removed &lt;{id}&gt; from bank list.")
                    }
                    None => "Invalid argument. usage : bank rm &lt;item id | chat link&gt;".into(),
                },
                ["set", rest @ ..] => me.set(rest),
                ["?"] => "Usage : bank [add|gold|list|rm|set]".into(),
                _ => "Invalid argument. usage : bank [add|gold|list|rm|set|?]".into(),
            };
            cmd.reply(format!(": {reply}"));
        }));
        setup.hook(self.game.on_event(|me: &mut Self, _, game_event| {
            if *game_event == GameEvent::InventoryUpdate && !me.banking {
                me.list_items();
            }
        }));
        setup.hook(Self::on::<s_request_contract::V2>(|me, event, contract| {
            if me.settings.enabled
                && contract.sender_id == me.me()
                && contract.r#type == BANK_CONTRACT
            {
                let view = Self::shipped(&me.defs.view_ware_ex, |me, event, view| {
                    let mine = view.get("gameId").and_then(Value::as_u64) == Some(me.me());
                    if !me.banking
                        && mine
                        && view.get("container").and_then(Value::as_i32) == Some(1)
                    {
                        me.banking = true;
                        me.bank(event);
                    }
                    Verdict::Pass
                });
                if let Err(e) = event.add_hook(view.order(-10).once()) {
                    event.warn(e);
                }
            }
            Verdict::Pass
        }));
        Ok(())
    }
}
