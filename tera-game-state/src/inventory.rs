//! `inventory`: equipment, bag and pockets, from item lists sent in
//! several packets.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::data::GameData;
use crate::event::GameEvent;
use crate::rows::ItemData;

/// The container of the bag and pockets.
pub const CONTAINER_BAG: i32 = 0;
/// The container of the equipment.
pub const CONTAINER_EQUIPMENT: i32 = 14;

/// An item (the `item` object): the fields of `S_ITEMLIST`'s items that
/// mods read, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The item template.
    pub id: i32,
    /// The item's database id.
    pub dbid: u64,
    /// Slot in its container or pocket.
    pub slot: u32,
    /// How many.
    pub amount: i32,
    /// Enchantment level.
    pub enchant: i32,
    /// Soulbound.
    pub soulbound: bool,
    /// Masterwork.
    pub masterwork: bool,
    /// Awakened.
    pub awakened: bool,
    /// The active passivity set (an index into `passivity_sets`).
    pub passivity_set: i32,
    /// The passivities of each set, by the set's index.
    pub passivity_sets: Vec<(u32, Vec<i32>)>,
    /// Merged passivities.
    pub merged_passivities: Vec<i32>,
    /// The crystals.
    pub crystals: Vec<i32>,
    /// `container`: 0 bag and pockets, 14 equipment.
    pub container: i32,
    /// `pocket`: 0 the bag, 1.. the pockets.
    pub pocket: i32,
    /// Its data center row (`data`, with its name), when a data center was
    /// given and has it.
    pub data: Option<Arc<ItemData>>,
}

/// A pocket (the bag is pocket 0) or the equipment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pocket {
    /// Number of slots.
    pub size: i32,
    /// Loot priority (see `S_ITEMLIST`).
    pub loot_priority: i32,
    /// Used slots: slot -> item.
    pub slots: BTreeMap<u32, Item>,
}

/// One `S_ITEMLIST` packet, as the inventory reads it.
#[derive(Debug)]
pub(crate) struct ItemList {
    pub container: i32,
    pub pocket: i32,
    pub num_pockets: i32,
    pub size: i32,
    pub money: i64,
    pub loot_priority: i32,
    pub first: bool,
    pub more: bool,
    pub last_in_batch: bool,
    pub items: Vec<Item>,
}

/// The inventory (tera-game-state's `mod.game.inventory`).
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    pending: Option<Pending>,
    pockets: BTreeMap<i32, Pocket>,
    equipment: Pocket,
    pocket_count: i32,
    money: Option<i64>,
    tcat: Option<i64>,
    equipment_item_level: Option<f32>,
    total_item_level: Option<f32>,
    data: Arc<GameData>,
}

#[derive(Debug, Clone)]
struct Pending {
    container: i32,
    pocket: i32,
    num_pockets: i32,
    size: i32,
    money: i64,
    loot_priority: i32,
    items: Vec<Item>,
}

impl Inventory {
    /// `pockets`: pocket index -> pocket (0 is the bag).
    #[must_use]
    pub fn pockets(&self) -> &BTreeMap<i32, Pocket> {
        &self.pockets
    }

    /// `bag`: pocket 0.
    #[must_use]
    pub fn bag(&self) -> Option<&Pocket> {
        self.pockets.get(&0)
    }

    /// `equipment`.
    #[must_use]
    pub fn equipment(&self) -> &Pocket {
        &self.equipment
    }

    /// `pocketCount`: unlocked pockets + 1 (the bag).
    #[must_use]
    pub fn pocket_count(&self) -> i32 {
        self.pocket_count
    }

    /// `money`.
    #[must_use]
    pub fn money(&self) -> Option<i64> {
        self.money
    }

    /// `tcat`.
    #[must_use]
    pub fn tcat(&self) -> Option<i64> {
        self.tcat
    }

    /// `equipmentItemLevel`.
    #[must_use]
    pub fn equipment_item_level(&self) -> Option<f32> {
        self.equipment_item_level
    }

    /// `totalItemLevel`.
    #[must_use]
    pub fn total_item_level(&self) -> Option<f32> {
        self.total_item_level
    }

    /// `equipmentItems`.
    pub fn equipment_items(&self) -> impl Iterator<Item = &Item> + '_ {
        self.equipment.slots.values()
    }

    /// `bagItems`.
    pub fn bag_items(&self) -> impl Iterator<Item = &Item> + '_ {
        self.pocket_items(0)
    }

    /// `pocketItems[pocket]`.
    pub fn pocket_items(&self, pocket: i32) -> impl Iterator<Item = &Item> + '_ {
        self.pockets
            .get(&pocket)
            .into_iter()
            .flat_map(|p| p.slots.values())
    }

    /// The pockets after the bag (1 up to `pocketCount`).
    fn other_pockets(&self) -> impl Iterator<Item = &Item> + '_ {
        self.pockets
            .range(1..self.pocket_count.max(1))
            .flat_map(|(_, p)| p.slots.values())
    }

    /// `bagOrPocketItems`.
    pub fn bag_or_pocket_items(&self) -> impl Iterator<Item = &Item> + '_ {
        self.pockets.values().flat_map(|p| p.slots.values())
    }

    /// `items`: equipment, bag and pockets.
    pub fn items(&self) -> impl Iterator<Item = &Item> + '_ {
        self.equipment_items().chain(self.bag_or_pocket_items())
    }

    /// `dbids[dbid]`.
    #[must_use]
    pub fn by_dbid(&self, dbid: u64) -> Option<&Item> {
        self.items().find(|i| i.dbid == dbid)
    }

    /// `getTotalAmount(ids)`: equipment and bag and pockets.
    #[must_use]
    pub fn total_amount(&self, ids: &[i32]) -> i64 {
        sum(self.items(), ids)
    }

    /// `getTotalAmountInEquipment(ids)`.
    #[must_use]
    pub fn total_amount_in_equipment(&self, ids: &[i32]) -> i64 {
        sum(self.equipment_items(), ids)
    }

    /// `getTotalAmountInBag(ids)`.
    #[must_use]
    pub fn total_amount_in_bag(&self, ids: &[i32]) -> i64 {
        sum(self.bag_items(), ids)
    }

    /// `getTotalAmountInPocket(pocket, ids)`.
    #[must_use]
    pub fn total_amount_in_pocket(&self, pocket: i32, ids: &[i32]) -> i64 {
        sum(self.pocket_items(pocket), ids)
    }

    /// `getTotalAmountInPockets(ids)`: every pocket but the bag.
    #[must_use]
    pub fn total_amount_in_pockets(&self, ids: &[i32]) -> i64 {
        sum(self.other_pockets(), ids)
    }

    /// `getTotalAmountInBagOrPockets(ids)`.
    #[must_use]
    pub fn total_amount_in_bag_or_pockets(&self, ids: &[i32]) -> i64 {
        sum(self.bag_or_pocket_items(), ids)
    }

    /// `find(ids)`.
    #[must_use]
    pub fn find(&self, ids: &[i32]) -> Option<&Item> {
        self.items().find(|i| ids.contains(&i.id))
    }

    /// `findInEquipment(ids)`.
    #[must_use]
    pub fn find_in_equipment(&self, ids: &[i32]) -> Option<&Item> {
        self.equipment_items().find(|i| ids.contains(&i.id))
    }

    /// `findInBag(ids)`.
    #[must_use]
    pub fn find_in_bag(&self, ids: &[i32]) -> Option<&Item> {
        self.bag_items().find(|i| ids.contains(&i.id))
    }

    /// `findInPocket(pocket, ids)`.
    #[must_use]
    pub fn find_in_pocket(&self, pocket: i32, ids: &[i32]) -> Option<&Item> {
        self.pocket_items(pocket).find(|i| ids.contains(&i.id))
    }

    /// `findInPockets(ids)`.
    #[must_use]
    pub fn find_in_pockets(&self, ids: &[i32]) -> Option<&Item> {
        self.other_pockets().find(|i| ids.contains(&i.id))
    }

    /// `findInBagOrPockets(ids)`.
    #[must_use]
    pub fn find_in_bag_or_pockets(&self, ids: &[i32]) -> Option<&Item> {
        self.bag_or_pocket_items().find(|i| ids.contains(&i.id))
    }

    /// `findAll(ids)` and the like: every item of `ids` among `items`.
    pub fn find_all<'a>(
        items: impl Iterator<Item = &'a Item> + 'a,
        ids: &'a [i32],
    ) -> impl Iterator<Item = &'a Item> + 'a {
        items.filter(move |i| ids.contains(&i.id))
    }

    /// `isInEquipment(item)`.
    #[must_use]
    pub fn is_in_equipment(item: &Item) -> bool {
        item.container == CONTAINER_EQUIPMENT
    }

    /// `isInBag(item)`.
    #[must_use]
    pub fn is_in_bag(item: &Item) -> bool {
        item.container == CONTAINER_BAG && item.pocket == 0
    }

    /// `isInPocket(item, pocket)`.
    #[must_use]
    pub fn is_in_pocket(item: &Item, pocket: i32) -> bool {
        item.container == CONTAINER_BAG && item.pocket == pocket
    }

    /// `isInPockets(item)`.
    #[must_use]
    pub fn is_in_pockets(item: &Item) -> bool {
        item.container == CONTAINER_BAG && item.pocket > 0
    }

    /// `isInBagOrPockets(item)`.
    #[must_use]
    pub fn is_in_bag_or_pockets(item: &Item) -> bool {
        item.container == CONTAINER_BAG
    }

    /// `equipmentPassivities`: the active set's passivities (not 0) and the
    /// merged ones of every equipped item.
    #[must_use]
    pub fn equipment_passivities(&self) -> Vec<i32> {
        let mut out = Vec::new();
        for item in self.equipment_items() {
            let active = usize::try_from(item.passivity_set)
                .ok()
                .and_then(|i| item.passivity_sets.get(i));
            if let Some((_, set)) = active {
                out.extend(set.iter().copied().filter(|p| *p != 0));
            }
            out.extend(item.merged_passivities.iter().copied());
        }
        out
    }

    /// `equipmentCrystals`: the crystals (not 0) of every equipped item.
    #[must_use]
    pub fn equipment_crystals(&self) -> Vec<i32> {
        self.equipment_items()
            .flat_map(|i| i.crystals.iter().copied().filter(|c| *c != 0))
            .collect()
    }

    /// `weaponEquipped`: something in equipment slot 1.
    #[must_use]
    pub fn weapon_equipped(&self) -> bool {
        self.equipment.slots.contains_key(&1)
    }

    pub(crate) fn connect(&mut self, data: Arc<GameData>) {
        self.data = data;
    }

    /// Forgets every item (leaving the game), keeping the data center.
    pub(crate) fn reset(&mut self) {
        let data = std::mem::take(&mut self.data);
        *self = Inventory {
            data,
            ..Inventory::default()
        };
    }

    pub(crate) fn user_data(&mut self, item_level: f32, item_level_inventory: f32, tcat: i64) {
        self.equipment_item_level = Some(item_level);
        self.total_item_level = Some(item_level_inventory);
        self.tcat = Some(tcat);
    }

    /// One packet of a list: the first starts it, the others add to it; the
    /// last (`more` false) replaces its pocket or the equipment.
    pub(crate) fn item_list(&mut self, list: ItemList, events: &mut Vec<GameEvent>) {
        if list.first {
            self.pending = Some(Pending {
                container: list.container,
                pocket: list.pocket,
                num_pockets: list.num_pockets,
                size: list.size,
                money: list.money,
                loot_priority: list.loot_priority,
                items: list.items,
            });
        } else if let Some(pending) = self.pending.as_mut() {
            pending.items.extend(list.items);
        } else {
            // A continuation without its first part: nothing to add it to.
            return;
        }
        if list.more {
            return;
        }
        let Some(done) = self.pending.take() else {
            return;
        };
        let mut slots = BTreeMap::new();
        for mut item in done.items {
            item.container = done.container;
            item.pocket = done.pocket;
            item.data = self.data.item(item.id).cloned();
            slots.insert(item.slot, item);
        }
        match done.container {
            CONTAINER_BAG => {
                self.money = Some(done.money);
                self.pocket_count = done.num_pockets;
                self.pockets.insert(
                    done.pocket,
                    Pocket {
                        size: done.size,
                        loot_priority: done.loot_priority,
                        slots,
                    },
                );
            }
            CONTAINER_EQUIPMENT => {
                self.equipment = Pocket {
                    size: done.size,
                    loot_priority: 0,
                    slots,
                };
            }
            _ => {}
        }
        if list.last_in_batch {
            events.push(GameEvent::InventoryUpdate);
        }
    }

    /// Amounts of each item id, for tests and logs.
    #[must_use]
    pub fn amounts(&self) -> HashMap<i32, i64> {
        let mut out = HashMap::new();
        for item in self.items() {
            *out.entry(item.id).or_insert(0) += i64::from(item.amount);
        }
        out
    }
}

fn sum<'a>(items: impl Iterator<Item = &'a Item>, ids: &[i32]) -> i64 {
    items
        .filter(|i| ids.contains(&i.id))
        .map(|i| i64::from(i.amount))
        .sum()
}
