//! `S_ITEMLIST` to the inventory's items: `.4`, `.6` and `.7` compiled in
//! (each adds fields game state does not read), and any version from a def
//! loaded at run time.

#[cfg(not(tera_corpus))]
use tera_data::packets::s_itemlist::V4;
use tera_data::packets::s_itemlist::{V6, V7};

use crate::fields::Fields;
use crate::inventory::{Item, ItemList};
use crate::read_error::ReadError;

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

#[cfg(not(tera_corpus))]
pub(crate) fn list_v4(p: &V4<'_>) -> ItemList {
    list!(p)
}

pub(crate) fn list_v6(p: &V6<'_>) -> ItemList {
    list!(p)
}

pub(crate) fn list_v7(p: &V7<'_>) -> ItemList {
    list!(p)
}

/// The list of a packet decoded by a def loaded at run time.
pub(crate) fn list_loaded(p: Fields<'_, '_>) -> Result<ItemList, ReadError> {
    let container = p.i32("container")?;
    let pocket = p.i32("pocket")?;
    let items = p
        .records("items")?
        .iter()
        .map(|i| {
            let passivity_sets = i
                .records("passivitySets")?
                .iter()
                .map(|s| Ok((s.u32("index")?, s.i32s("passivities")?)))
                .collect::<Result<_, ReadError>>()?;
            Ok(Item {
                id: i.i32("id")?,
                dbid: i.u64("dbid")?,
                slot: i.u32("slot")?,
                amount: i.i32("amount")?,
                enchant: i.i32("enchant")?,
                soulbound: i.i32("soulboundStatus")? != 0,
                masterwork: i.bool("masterwork")?,
                awakened: i.bool("awakened")?,
                passivity_set: i.i32("passivitySet")?,
                passivity_sets,
                merged_passivities: i.i32s("mergedPassivities")?,
                crystals: i.i32s("crystals")?,
                container,
                pocket,
                data: None,
            })
        })
        .collect::<Result<_, ReadError>>()?;
    Ok(ItemList {
        container,
        pocket,
        num_pockets: p.i32("numPockets")?,
        size: p.i32("size")?,
        money: p.i64("money")?,
        loot_priority: p.i32("lootPriority")?,
        first: p.bool("first")?,
        more: p.bool("more")?,
        last_in_batch: p.bool("lastInBatch")?,
        items,
    })
}
