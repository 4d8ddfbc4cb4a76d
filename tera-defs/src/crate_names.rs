//! The one authority for the names a generated file declares, chosen in one
//! pass over all its defs, each name reserved in its scope (a
//! [`Scope`]):
//!
//! * **The file** (included in the user's module): `AnyPacket`, `PACKETS`,
//!   `PROTOCOL_MAPS`, `SYSMSG_MAPS`, then one module per packet name, the
//!   snake_case of the name (`S_LOGIN` -> `s_login`).
//! * **Packet stems**: the PascalCase of each module (`SLogin`), which
//!   starts the packet's `AnyPacket` variants. A packet name whose module
//!   *or* stem is taken by a packet earlier in name order gets the first
//!   number that frees both: `S_ITEM_LIST` and `S_ItemList` become
//!   `s_item_list` / `SItemList` and `s_item_list_2` / `SItemList2`, so that
//!   the module and the variants of one packet always carry the same number.
//! * **`AnyPacket` variants**: stem + version type (`SItemList2V1`). Distinct
//!   stems give distinct variants: a version type is `V`, digits and a
//!   platform word that never starts with `V`.
//! * **A packet's module**: `Latest`, then per def its version type (`V15`,
//!   `V15Console`) and its module of nested types (`v15`, `v15console`).
//! * **A module of nested types**: named by [`crate::nested`] (two types
//!   with one name: the later is numbered, warning `W033`).
//! * **A struct's fields**: named by [`crate::fields`] (two fields with one
//!   Rust name: the later is numbered, warning `W032`).
//!
//! Why distinct names rather than an error for `S_ITEM_LIST` and
//! `S_ItemList`: they are two packets of the protocol (the maps, `PACKETS`
//! and the JSON use the def names, which differ), each def is valid on its
//! own, and a folder of valid defs should build; only their Rust spelling
//! clashes, and that is the generator's problem to solve, consistently.

use tera_defs_front::model::Def;

use crate::names::{Scope, pascal_case, rust_ident, snake_case};
use crate::nested::{NestedTypeNames, nested_type_names};

/// Items of the generated file besides the packet modules.
pub const REGISTRY_ITEMS: [&str; 4] = ["AnyPacket", "PACKETS", "PROTOCOL_MAPS", "SYSMSG_MAPS"];

/// The names of a generated file: its packets in name order.
#[derive(Debug, Clone)]
pub struct CrateNames<'d> {
    /// One entry per packet name, sorted by name.
    pub packets: Vec<PacketNames<'d>>,
}

/// The names of one packet name and its versions.
#[derive(Debug, Clone)]
pub struct PacketNames<'d> {
    /// The packet name, e.g. `S_LOGIN`.
    pub name: String,
    /// The module, e.g. `s_login` (a valid identifier, maybe raw: `r#type`).
    pub module: String,
    /// The PascalCase stem of the `AnyPacket` variants, e.g. `SLogin`.
    pub stem: String,
    /// The defs of the packet, sorted by version, then platform (none first).
    pub defs: Vec<DefNames<'d>>,
}

/// The names of one def version.
#[derive(Debug, Clone)]
pub struct DefNames<'d> {
    /// The def.
    pub def: &'d Def,
    /// The struct in the packet's module: `V15`, `V15Console`.
    pub version_type: String,
    /// The module of its nested types: `v15`, `v15console`.
    pub nested_module: String,
    /// The `AnyPacket` variant: `SLoginV15`.
    pub variant: String,
    /// The names of its nested types.
    pub nested: NestedTypeNames,
}

impl<'d> CrateNames<'d> {
    /// Names every def of one generated file; `defs` need not be sorted.
    pub fn new(defs: &'d [Def]) -> Self {
        let mut sorted: Vec<&Def> = defs.iter().collect();
        sorted.sort_by(|a, b| {
            (a.name.as_str(), a.version, a.platform.as_deref()).cmp(&(
                b.name.as_str(),
                b.version,
                b.platform.as_deref(),
            ))
        });
        let mut file = Scope::new();
        for item in REGISTRY_ITEMS {
            file.try_reserve(item);
        }
        let mut stems = Scope::new();
        let mut variants = Scope::new();
        let mut packets: Vec<PacketNames<'d>> = Vec::new();
        for def in sorted {
            if packets.last().is_none_or(|p| p.name != def.name) {
                let (module, stem) = reserve_module(&def.name, &mut file, &mut stems);
                packets.push(PacketNames {
                    name: def.name.clone(),
                    module,
                    stem,
                    defs: Vec::new(),
                });
            }
            if let Some(packet) = packets.last_mut() {
                packet.defs.push(DefNames {
                    def,
                    version_type: String::new(),
                    nested_module: String::new(),
                    variant: String::new(),
                    nested: nested_type_names(def),
                });
            }
        }
        for packet in &mut packets {
            let mut module = Scope::new();
            module.try_reserve("Latest");
            for names in &mut packet.defs {
                let base = version_type(names.def);
                names.version_type = module.reserve_first(|n| numbered(&base, n));
                let lower = names.version_type.to_lowercase();
                names.nested_module = module.reserve_first(|n| numbered(&lower, n));
                let variant = format!("{}{}", packet.stem, names.version_type);
                names.variant = variants.reserve_first(|n| numbered(&variant, n));
            }
        }
        CrateNames { packets }
    }
}

/// `base`, then `base_2`, `base_3`, ... (camel-case clean after a digit).
fn numbered(base: &str, n: usize) -> String {
    match n {
        1 => base.to_string(),
        n => format!("{base}_{n}"),
    }
}

/// The module and variant stem of a packet name: the first number that
/// frees both (see the module doc).
fn reserve_module(name: &str, file: &mut Scope, stems: &mut Scope) -> (String, String) {
    let snake = snake_case(name);
    let mut n = 1;
    loop {
        let words = numbered(&snake, n);
        let module = rust_ident(&words);
        let stem = pascal_case(&words);
        if !file.is_taken(&module) && !stems.is_taken(&stem) {
            file.try_reserve(&module);
            stems.try_reserve(&stem);
            return (module, stem);
        }
        n += 1;
    }
}

/// `V15`, or `V15Console` with a platform infix.
fn version_type(def: &Def) -> String {
    match &def.platform {
        Some(p) => format!("V{}{}", def.version, pascal_case(p)),
        None => format!("V{}", def.version),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_defs_front::parse_def;

    fn def(file: &str, source: &str) -> Def {
        parse_def(file, source).def.expect("a valid def")
    }

    #[test]
    fn names_differing_in_case_get_one_number_everywhere() {
        let defs = [
            def("S_ItemList.1.def", "int32 b\n"),
            def("S_ITEM_LIST.1.def", "int32 a\n"),
            def("S_ITEM_LIST2.1.def", "int32 c\n"),
            def("S_LOGIN.2.def", ""),
            def("S_LOGIN.2.console.def", ""),
        ];
        let names = CrateNames::new(&defs);
        let got: Vec<(&str, &str, &str, Vec<&str>)> = names
            .packets
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.module.as_str(),
                    p.stem.as_str(),
                    p.defs.iter().map(|d| d.variant.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "S_ITEM_LIST",
                    "s_item_list",
                    "SItemList",
                    vec!["SItemListV1"]
                ),
                // Its stem `SItemList2` is free, its module too.
                (
                    "S_ITEM_LIST2",
                    "s_item_list2",
                    "SItemList2",
                    vec!["SItemList2V1"]
                ),
                // `s_item_list_2` is free but `SItemList2` is not: 3 frees both.
                (
                    "S_ItemList",
                    "s_item_list_3",
                    "SItemList3",
                    vec!["SItemList3V1"]
                ),
                (
                    "S_LOGIN",
                    "s_login",
                    "SLogin",
                    vec!["SLoginV2", "SLoginV2Console"]
                ),
            ]
        );
        let login = &names.packets[3].defs;
        assert_eq!(login[1].version_type, "V2Console");
        assert_eq!(login[1].nested_module, "v2console");
    }

    #[test]
    fn keywords_and_registry_items() {
        let defs = [def("type.1.def", ""), def("self.1.def", "")];
        let names = CrateNames::new(&defs);
        let modules: Vec<&str> = names.packets.iter().map(|p| p.module.as_str()).collect();
        assert_eq!(modules, ["self_", "r#type"]);
        assert_eq!(names.packets[1].defs[0].variant, "TypeV1");
    }
}
