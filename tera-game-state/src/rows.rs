//! The data center rows tera-game-state attaches as `data`: an item's
//! (`ItemData/Item` with its `StrSheet_Item` name) and an abnormality's
//! (`Abnormality/Abnormal` with its effects and `StrSheet_Abnormality`
//! name), as toolbox's `mod.game.data.items` and `.abnormalities`.

use std::collections::HashMap;
use std::sync::Arc;

use tera_datacenter::Element;

/// An item's row (`item.data`, `game.data.items.get(id)`).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemData {
    /// The item template.
    pub id: i32,
    /// `combatItemType` (`EQUIP_WEAPON`, `DISPOSAL`, ...).
    pub combat_item_type: Option<String>,
    /// `rareGrade`: 0 common .. 3 superior and up.
    pub rare_grade: Option<i32>,
    /// `name`, from `StrSheet_Item`'s `string`.
    pub name: Option<String>,
    /// `tooltip`, from `StrSheet_Item`'s `toolTip`.
    pub tooltip: Option<String>,
}

/// An abnormality's row (`abnormality.data`,
/// `game.data.abnormalities.get(id)`).
#[derive(Debug, Clone, PartialEq)]
pub struct AbnormalityData {
    /// The abnormality.
    pub id: i32,
    /// `bySkillCategory`.
    pub by_skill_category: Option<i32>,
    /// `infinity`: lasts until removed.
    pub infinity: Option<bool>,
    /// `time`: its duration in milliseconds.
    pub time: Option<i32>,
    /// `method`.
    pub method: Option<i32>,
    /// `tickInterval`.
    pub tick_interval: Option<i32>,
    /// `type`.
    pub kind: Option<i32>,
    /// `value`.
    pub value: Option<f32>,
    /// `effects`: its `AbnormalityEffect` children.
    pub effects: Vec<AbnormalityEffect>,
    /// `name`, from `StrSheet_Abnormality`.
    pub name: Option<String>,
    /// `tooltip`, from `StrSheet_Abnormality`.
    pub tooltip: Option<String>,
}

/// One effect of an abnormality (the attributes mods read of
/// `AbnormalityEffect`).
#[derive(Debug, Clone, PartialEq)]
pub struct AbnormalityEffect {
    /// `type`.
    pub kind: Option<i32>,
    /// `method`.
    pub method: Option<i32>,
    /// `value`.
    pub value: Option<f32>,
    /// `tickInterval`.
    pub tick_interval: Option<i32>,
}

/// The elements `sheet/name` below the root.
pub(crate) fn children<'d>(root: Element<'d>, sheet: &str, name: &str) -> Vec<Element<'d>> {
    let mut out = Vec::new();
    for s in root.children_named(sheet) {
        out.extend(s.children_named(name));
    }
    out
}

pub(crate) fn int(element: Element<'_>, name: &str) -> Option<i32> {
    element.attribute(name).and_then(|v| v.as_int())
}

fn float(element: Element<'_>, name: &str) -> Option<f32> {
    element.attribute(name).and_then(|v| v.as_float())
}

fn text(element: Element<'_>, name: &str) -> Option<String> {
    element
        .attribute(name)
        .and_then(|v| v.as_str())
        .map(|s| s.to_string_lossy())
}

/// id -> (name, tooltip) of a string sheet.
fn strings(
    root: Element<'_>,
    sheet: &str,
    name: &str,
    tooltip: &str,
) -> HashMap<i32, [Option<String>; 2]> {
    children(root, sheet, "String")
        .into_iter()
        .filter_map(|s| Some((int(s, "id")?, [text(s, name), text(s, tooltip)])))
        .collect()
}

/// Every `ItemData/Item` row, named by `StrSheet_Item`.
pub(crate) fn items(root: Element<'_>) -> HashMap<i32, Arc<ItemData>> {
    let mut names = strings(root, "StrSheet_Item", "string", "toolTip");
    children(root, "ItemData", "Item")
        .into_iter()
        .filter_map(|item| {
            let id = int(item, "id")?;
            let [name, tooltip] = names.remove(&id).unwrap_or_default();
            let row = ItemData {
                id,
                combat_item_type: text(item, "combatItemType"),
                rare_grade: int(item, "rareGrade"),
                name,
                tooltip,
            };
            Some((id, Arc::new(row)))
        })
        .collect()
}

/// Every `Abnormality/Abnormal` row, named by `StrSheet_Abnormality`.
pub(crate) fn abnormalities(root: Element<'_>) -> HashMap<i32, Arc<AbnormalityData>> {
    let mut names = strings(root, "StrSheet_Abnormality", "name", "tooltip");
    children(root, "Abnormality", "Abnormal")
        .into_iter()
        .filter_map(|a| {
            let id = int(a, "id")?;
            let [name, tooltip] = names.remove(&id).unwrap_or_default();
            let effects = a
                .children_named("AbnormalityEffect")
                .map(|e| AbnormalityEffect {
                    kind: int(e, "type"),
                    method: int(e, "method"),
                    value: float(e, "value"),
                    tick_interval: int(e, "tickInterval"),
                })
                .collect();
            let row = AbnormalityData {
                id,
                by_skill_category: int(a, "bySkillCategory"),
                infinity: a.attribute("infinity").and_then(|v| v.as_bool()),
                time: int(a, "time"),
                method: int(a, "method"),
                tick_interval: int(a, "tickInterval"),
                kind: int(a, "type"),
                value: float(a, "value"),
                effects,
                name,
                tooltip,
            };
            Some((id, Arc::new(row)))
        })
        .collect()
}
