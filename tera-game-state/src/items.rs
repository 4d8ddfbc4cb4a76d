//! `S_ITEMLIST.6` and `.7` to the inventory's items (`.7` adds a field
//! game state does not read).

use tera_data::packets::s_itemlist::{V6, V7};

use crate::inventory::{Item, ItemList};

macro_rules! list {
    ($p:expr) => {{
        let p = $p;
        ItemList {
            container: p.container,
            pocket: p.pocket,
            num_pockets: p.num_pockets,
            size: p.size,
            money: p.money,
            loot_priority: p.loot_priority,
            first: p.first,
            more: p.more,
            last_in_batch: p.last_in_batch,
            items: p
                .items
                .iter()
                .map(|i| Item {
                    id: i.id,
                    dbid: i.dbid,
                    slot: i.slot,
                    amount: i.amount,
                    enchant: i.enchant,
                    soulbound: i.soulbound_status != 0,
                    masterwork: i.masterwork,
                    awakened: i.awakened,
                    passivity_set: i.passivity_set,
                    passivity_sets: i
                        .passivity_sets
                        .iter()
                        .map(|s| (s.index, s.passivities.iter().map(|v| *v).collect()))
                        .collect(),
                    merged_passivities: i.merged_passivities.iter().map(|v| *v).collect(),
                    crystals: i.crystals.iter().map(|v| *v).collect(),
                    container: p.container,
                    pocket: p.pocket,
                    data: None,
                })
                .collect(),
        }
    }};
}

pub(crate) fn list_v6(p: &V6<'_>) -> ItemList {
    list!(p)
}

pub(crate) fn list_v7(p: &V7<'_>) -> ItemList {
    list!(p)
}
