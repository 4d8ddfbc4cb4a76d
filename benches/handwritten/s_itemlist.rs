//! `S_ITEMLIST.7` by hand: a list of items, each with a string and four
//! lists, two of which hold lists of their own.

use tera_data::{Str, Visitor};

use super::wire::{Input, List, Output, Result, le, set};

/// The root's fixed run: `items`' `count, offset`, then 41 bytes of fields.
const FIXED: usize = 45;
/// An item's fixed run: 18 bytes of refs, then 138 bytes of fields.
const ITEM: usize = 156;
/// A `passivitySets` element's fixed run: a ref and 20 bytes of fields.
const PASSIVITY_SET: usize = 24;
/// An `equipmentStats` element's fixed run: a ref and 68 bytes of fields.
const EQUIPMENT_STATS: usize = 72;
/// A `passivityGroups` element: `id, unkn1, value, probability`.
const PASSIVITY_GROUP: usize = 21;
/// An `int32` element.
const INT: usize = 4;

pub struct SItemlist<'a> {
    pub game_id: u64,
    pub container: i32,
    pub pocket: i32,
    pub num_pockets: i32,
    pub size: i32,
    pub money: i64,
    pub loot_priority: i32,
    pub open: bool,
    pub requested: bool,
    pub first: bool,
    pub more: bool,
    pub last_in_batch: bool,
    pub items: List<'a>,
}

pub struct Item<'a> {
    pub id: i32,
    pub dbid: u64,
    pub owner_id: u64,
    pub slot: u32,
    pub amount: i32,
    pub enchant: i32,
    pub durability: i32,
    pub soulbound_status: i32,
    pub passivity_set: i32,
    pub extra_passivity_sets: i32,
    pub remodel: i32,
    pub dye: u32,
    pub dye_sec_remaining: i32,
    pub dye_date: i64,
    pub dye_expiry_date: i64,
    pub masterwork: bool,
    pub enigma: i32,
    pub enchant_advantage: i32,
    pub enchant_bonus: i32,
    pub enchant_bonus_max_plus: i32,
    pub bound_to_player: u64,
    pub awakened: bool,
    pub liberation_status: i32,
    pub feedstock: i32,
    pub bound_to_item: i32,
    pub has_etching: bool,
    pub pcbang: bool,
    pub xp: i64,
    pub damaged: bool,
    pub dungeon_resonance_etching: u32,
    pub from_monthly_pass_style_shop: bool,
    pub available_until: i64,
    pub custom_string: &'a [u8],
    pub crystals: List<'a>,
    pub passivity_sets: List<'a>,
    pub merged_passivities: List<'a>,
    pub equipment_stats: List<'a>,
}

pub struct PassivitySet<'a> {
    pub index: u32,
    pub masterwork_bonus: i32,
    pub item_level: f32,
    pub min_item_level: f32,
    pub max_item_level: f32,
    pub passivities: List<'a>,
}

pub struct EquipmentStats<'a> {
    pub id: u32,
    pub min_attack: i32,
    pub max_attack: i32,
    pub defense: i32,
    pub min_attack_physical: i32,
    pub max_attack_physical: i32,
    pub min_attack_magical: i32,
    pub max_attack_magical: i32,
    pub defense_physical: i32,
    pub defense_magical: i32,
    pub unkn1: i32,
    pub unkn2: i32,
    pub unkn3: i64,
    pub unkn4: i32,
    pub unkn5: i32,
    pub unkn6: i32,
    pub passivity_groups: List<'a>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassivityGroup {
    pub id: u32,
    pub unkn1: bool,
    pub value: f64,
    pub probability: f64,
}

/// Checks a list of `int32`.
#[inline]
fn check_ints<'a>(input: &mut Input<'a>, meta: &[u8; 4]) -> Result<List<'a>> {
    let (len, first) = (
        usize::from(le!(meta, 0, u16)),
        usize::from(le!(meta, 2, u16)),
    );
    input.list(len, first, |input, at| input.fixed::<INT>(at).map(drop))
}

/// Checks an item's block at `at`.
fn check_item(input: &mut Input<'_>, at: usize) -> Result<()> {
    let b: &[u8; ITEM] = input.fixed(at)?;
    input.string(usize::from(le!(b, 16, u16)))?;
    check_ints(input, b[0..4].try_into().expect("4"))?;
    input.list(
        usize::from(le!(b, 4, u16)),
        usize::from(le!(b, 6, u16)),
        |input, at| {
            let s: &[u8; PASSIVITY_SET] = input.fixed(at)?;
            check_ints(input, s[0..4].try_into().expect("4")).map(drop)
        },
    )?;
    check_ints(input, b[8..12].try_into().expect("4"))?;
    input.list(
        usize::from(le!(b, 12, u16)),
        usize::from(le!(b, 14, u16)),
        |input, at| {
            let s: &[u8; EQUIPMENT_STATS] = input.fixed(at)?;
            input
                .list(
                    usize::from(le!(s, 0, u16)),
                    usize::from(le!(s, 2, u16)),
                    |input, at| input.fixed::<PASSIVITY_GROUP>(at).map(drop),
                )
                .map(drop)
        },
    )?;
    Ok(())
}

impl<'a> SItemlist<'a> {
    pub fn decode(packet: &'a [u8]) -> Result<Self> {
        let mut input = Input::packet(packet)?;
        let b: &[u8; FIXED] = input.fixed(4)?;
        let items = input.list(
            usize::from(le!(b, 0, u16)),
            usize::from(le!(b, 2, u16)),
            check_item,
        )?;
        Ok(SItemlist {
            game_id: le!(b, 4, u64),
            container: le!(b, 12, i32),
            pocket: le!(b, 16, i32),
            num_pockets: le!(b, 20, i32),
            size: le!(b, 24, i32),
            money: le!(b, 28, i64),
            loot_priority: le!(b, 36, i32),
            open: b[40] != 0,
            requested: b[41] != 0,
            first: b[42] != 0,
            more: b[43] != 0,
            last_in_batch: b[44] != 0,
            items,
        })
    }

    pub fn items(&self) -> impl Iterator<Item = Item<'a>> + 'a {
        let list = self.items;
        list.blocks().map(move |at| {
            let b: &[u8; ITEM] = list.fixed(at);
            Item {
                id: le!(b, 18, i32),
                dbid: le!(b, 22, u64),
                owner_id: le!(b, 30, u64),
                slot: le!(b, 38, u32),
                amount: le!(b, 42, i32),
                enchant: le!(b, 46, i32),
                durability: le!(b, 50, i32),
                soulbound_status: le!(b, 54, i32),
                passivity_set: le!(b, 58, i32),
                extra_passivity_sets: le!(b, 62, i32),
                remodel: le!(b, 66, i32),
                dye: le!(b, 70, u32),
                dye_sec_remaining: le!(b, 74, i32),
                dye_date: le!(b, 78, i64),
                dye_expiry_date: le!(b, 86, i64),
                masterwork: b[94] != 0,
                enigma: le!(b, 95, i32),
                enchant_advantage: le!(b, 99, i32),
                enchant_bonus: le!(b, 103, i32),
                enchant_bonus_max_plus: le!(b, 107, i32),
                bound_to_player: le!(b, 111, u64),
                awakened: b[119] != 0,
                liberation_status: le!(b, 120, i32),
                feedstock: le!(b, 124, i32),
                bound_to_item: le!(b, 128, i32),
                has_etching: b[132] != 0,
                pcbang: b[133] != 0,
                xp: le!(b, 134, i64),
                damaged: b[142] != 0,
                dungeon_resonance_etching: le!(b, 143, u32),
                from_monthly_pass_style_shop: b[147] != 0,
                available_until: le!(b, 148, i64),
                custom_string: list.string(usize::from(le!(b, 16, u16))),
                crystals: list.sublist(at),
                passivity_sets: list.sublist(at + 4),
                merged_passivities: list.sublist(at + 8),
                equipment_stats: list.sublist(at + 12),
            }
        })
    }

    pub fn encoded_len(&self) -> usize {
        let mut len = 4 + FIXED;
        for it in self.items() {
            len += 4 + ITEM + it.custom_string.len() + 2;
            len += (it.crystals.len + it.merged_passivities.len) * (4 + INT);
            for s in it.passivity_sets() {
                len += 4 + PASSIVITY_SET + s.passivities.len * (4 + INT);
            }
            for e in it.equipment_stats() {
                len += 4 + EQUIPMENT_STATS + e.passivity_groups.len * (4 + PASSIVITY_GROUP);
            }
        }
        len
    }

    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len();
        let mut out = Output::packet(buf, len)?;
        let b: &mut [u8; FIXED] = out.fixed();
        set!(b, 4, self.game_id);
        set!(b, 12, self.container);
        set!(b, 16, self.pocket);
        set!(b, 20, self.num_pockets);
        set!(b, 24, self.size);
        set!(b, 28, self.money);
        set!(b, 36, self.loot_priority);
        b[40] = u8::from(self.open);
        b[41] = u8::from(self.requested);
        b[42] = u8::from(self.first);
        b[43] = u8::from(self.more);
        b[44] = u8::from(self.last_in_batch);
        let mut link = out.list(4, self.items.len);
        for it in self.items() {
            out.element(&mut link);
            let at = out.pos;
            let b: &mut [u8; ITEM] = out.fixed();
            b[..18].fill(0);
            set!(b, 18, it.id);
            set!(b, 22, it.dbid);
            set!(b, 30, it.owner_id);
            set!(b, 38, it.slot);
            set!(b, 42, it.amount);
            set!(b, 46, it.enchant);
            set!(b, 50, it.durability);
            set!(b, 54, it.soulbound_status);
            set!(b, 58, it.passivity_set);
            set!(b, 62, it.extra_passivity_sets);
            set!(b, 66, it.remodel);
            set!(b, 70, it.dye);
            set!(b, 74, it.dye_sec_remaining);
            set!(b, 78, it.dye_date);
            set!(b, 86, it.dye_expiry_date);
            b[94] = u8::from(it.masterwork);
            set!(b, 95, it.enigma);
            set!(b, 99, it.enchant_advantage);
            set!(b, 103, it.enchant_bonus);
            set!(b, 107, it.enchant_bonus_max_plus);
            set!(b, 111, it.bound_to_player);
            b[119] = u8::from(it.awakened);
            set!(b, 120, it.liberation_status);
            set!(b, 124, it.feedstock);
            set!(b, 128, it.bound_to_item);
            b[132] = u8::from(it.has_etching);
            b[133] = u8::from(it.pcbang);
            set!(b, 134, it.xp);
            b[142] = u8::from(it.damaged);
            set!(b, 143, it.dungeon_resonance_etching);
            b[147] = u8::from(it.from_monthly_pass_style_shop);
            set!(b, 148, it.available_until);
            out.string(at + 16, it.custom_string);
            write_ints(&mut out, at, it.crystals);
            let mut link = out.list(at + 4, it.passivity_sets.len);
            for s in it.passivity_sets() {
                out.element(&mut link);
                let at = out.pos;
                let b: &mut [u8; PASSIVITY_SET] = out.fixed();
                set!(b, 4, s.index);
                set!(b, 8, s.masterwork_bonus);
                set!(b, 12, s.item_level);
                set!(b, 16, s.min_item_level);
                set!(b, 20, s.max_item_level);
                write_ints(&mut out, at, s.passivities);
            }
            write_ints(&mut out, at + 8, it.merged_passivities);
            let mut link = out.list(at + 12, it.equipment_stats.len);
            for e in it.equipment_stats() {
                out.element(&mut link);
                let at = out.pos;
                let b: &mut [u8; EQUIPMENT_STATS] = out.fixed();
                set!(b, 4, e.id);
                set!(b, 8, e.min_attack);
                set!(b, 12, e.max_attack);
                set!(b, 16, e.defense);
                set!(b, 20, e.min_attack_physical);
                set!(b, 24, e.max_attack_physical);
                set!(b, 28, e.min_attack_magical);
                set!(b, 32, e.max_attack_magical);
                set!(b, 36, e.defense_physical);
                set!(b, 40, e.defense_magical);
                set!(b, 44, e.unkn1);
                set!(b, 48, e.unkn2);
                set!(b, 52, e.unkn3);
                set!(b, 60, e.unkn4);
                set!(b, 64, e.unkn5);
                set!(b, 68, e.unkn6);
                let mut link = out.list(at, e.passivity_groups.len);
                for g in passivity_groups(e.passivity_groups) {
                    out.element(&mut link);
                    let b: &mut [u8; PASSIVITY_GROUP] = out.fixed();
                    set!(b, 0, g.id);
                    b[4] = u8::from(g.unkn1);
                    set!(b, 5, g.value);
                    set!(b, 13, g.probability);
                }
            }
        }
        Ok(len)
    }

    /// Every field, in definition order.
    pub fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(self.game_id);
        v.signed(i64::from(self.container));
        v.signed(i64::from(self.pocket));
        v.signed(i64::from(self.num_pockets));
        v.signed(i64::from(self.size));
        v.signed(self.money);
        v.signed(i64::from(self.loot_priority));
        v.bool(self.open);
        v.bool(self.requested);
        v.bool(self.first);
        v.bool(self.more);
        v.bool(self.last_in_batch);
        v.array(self.items.len);
        for it in self.items() {
            v.signed(i64::from(it.id));
            v.unsigned(it.dbid);
            v.unsigned(it.owner_id);
            v.unsigned(u64::from(it.slot));
            v.signed(i64::from(it.amount));
            v.signed(i64::from(it.enchant));
            v.signed(i64::from(it.durability));
            v.signed(i64::from(it.soulbound_status));
            v.signed(i64::from(it.passivity_set));
            v.signed(i64::from(it.extra_passivity_sets));
            v.signed(i64::from(it.remodel));
            v.unsigned(u64::from(it.dye));
            v.signed(i64::from(it.dye_sec_remaining));
            v.signed(it.dye_date);
            v.signed(it.dye_expiry_date);
            v.bool(it.masterwork);
            v.signed(i64::from(it.enigma));
            v.signed(i64::from(it.enchant_advantage));
            v.signed(i64::from(it.enchant_bonus));
            v.signed(i64::from(it.enchant_bonus_max_plus));
            v.unsigned(it.bound_to_player);
            v.bool(it.awakened);
            v.signed(i64::from(it.liberation_status));
            v.signed(i64::from(it.feedstock));
            v.signed(i64::from(it.bound_to_item));
            v.bool(it.has_etching);
            v.bool(it.pcbang);
            v.signed(it.xp);
            v.bool(it.damaged);
            v.unsigned(u64::from(it.dungeon_resonance_etching));
            v.bool(it.from_monthly_pass_style_shop);
            v.signed(it.available_until);
            v.str(&Str::from_utf16le(it.custom_string));
            visit_ints(v, it.crystals);
            v.array(it.passivity_sets.len);
            for s in it.passivity_sets() {
                v.unsigned(u64::from(s.index));
                v.signed(i64::from(s.masterwork_bonus));
                v.float(f64::from(s.item_level));
                v.float(f64::from(s.min_item_level));
                v.float(f64::from(s.max_item_level));
                visit_ints(v, s.passivities);
            }
            visit_ints(v, it.merged_passivities);
            v.array(it.equipment_stats.len);
            for e in it.equipment_stats() {
                v.unsigned(u64::from(e.id));
                for x in [
                    e.min_attack,
                    e.max_attack,
                    e.defense,
                    e.min_attack_physical,
                    e.max_attack_physical,
                    e.min_attack_magical,
                    e.max_attack_magical,
                    e.defense_physical,
                    e.defense_magical,
                    e.unkn1,
                    e.unkn2,
                ] {
                    v.signed(i64::from(x));
                }
                v.signed(e.unkn3);
                v.signed(i64::from(e.unkn4));
                v.signed(i64::from(e.unkn5));
                v.signed(i64::from(e.unkn6));
                v.array(e.passivity_groups.len);
                for g in passivity_groups(e.passivity_groups) {
                    v.unsigned(u64::from(g.id));
                    v.bool(g.unkn1);
                    v.float(g.value);
                    v.float(g.probability);
                }
            }
        }
    }
}

impl<'a> Item<'a> {
    pub fn passivity_sets(&self) -> impl Iterator<Item = PassivitySet<'a>> + 'a {
        let list = self.passivity_sets;
        list.blocks().map(move |at| {
            let b: &[u8; PASSIVITY_SET] = list.fixed(at);
            PassivitySet {
                index: le!(b, 4, u32),
                masterwork_bonus: le!(b, 8, i32),
                item_level: le!(b, 12, f32),
                min_item_level: le!(b, 16, f32),
                max_item_level: le!(b, 20, f32),
                passivities: list.sublist(at),
            }
        })
    }

    pub fn equipment_stats(&self) -> impl Iterator<Item = EquipmentStats<'a>> + 'a {
        let list = self.equipment_stats;
        list.blocks().map(move |at| {
            let b: &[u8; EQUIPMENT_STATS] = list.fixed(at);
            EquipmentStats {
                id: le!(b, 4, u32),
                min_attack: le!(b, 8, i32),
                max_attack: le!(b, 12, i32),
                defense: le!(b, 16, i32),
                min_attack_physical: le!(b, 20, i32),
                max_attack_physical: le!(b, 24, i32),
                min_attack_magical: le!(b, 28, i32),
                max_attack_magical: le!(b, 32, i32),
                defense_physical: le!(b, 36, i32),
                defense_magical: le!(b, 40, i32),
                unkn1: le!(b, 44, i32),
                unkn2: le!(b, 48, i32),
                unkn3: le!(b, 52, i64),
                unkn4: le!(b, 60, i32),
                unkn5: le!(b, 64, i32),
                unkn6: le!(b, 68, i32),
                passivity_groups: list.sublist(at),
            }
        })
    }
}

pub fn ints(list: List<'_>) -> impl Iterator<Item = i32> + '_ {
    list.blocks()
        .map(move |at| le!(list.fixed::<INT>(at), 0, i32))
}

pub fn passivity_groups(list: List<'_>) -> impl Iterator<Item = PassivityGroup> + '_ {
    list.blocks().map(move |at| {
        let b: &[u8; PASSIVITY_GROUP] = list.fixed(at);
        PassivityGroup {
            id: le!(b, 0, u32),
            unkn1: b[4] != 0,
            value: le!(b, 5, f64),
            probability: le!(b, 13, f64),
        }
    })
}

fn write_ints(out: &mut Output<'_>, meta: usize, list: List<'_>) {
    let mut link = out.list(meta, list.len);
    for x in ints(list) {
        out.element(&mut link);
        set!(out.fixed::<INT>(), 0, x);
    }
}

fn visit_ints<V: Visitor>(v: &mut V, list: List<'_>) {
    v.array(list.len);
    for x in ints(list) {
        v.signed(i64::from(x));
    }
}
