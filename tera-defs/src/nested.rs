//! Names of the nested types (objects and array elements) of a def.
//!
//! All nested types of one def version live in one Rust module, so their
//! names must be unique within the def. The rule, which the code emitter
//! follows by calling [`nested_type_names`]:
//!
//! 1. A nested type is identified by its *path*: the field names from the
//!    root to its field (`["outer", "inner"]`). The parts of a split object
//!    (one object name used twice in a block) share one path and one type.
//! 2. Its name is the PascalCase of its field name (`inner` -> `Inner`) when
//!    no other nested type of the def has the same PascalCase field name.
//! 3. Otherwise every type that shares that name is named by its whole path
//!    instead: the PascalCase of each path segment, concatenated
//!    (`outer.items` -> `OuterItems`, `items` at the root -> `Items`).
//! 4. If two types still end up with the same name (`a_b.items` and
//!    `a.b.items` are both `ABItems`), the first in def order keeps it and
//!    each later one gets the first free number: `ABItems2`, `ABItems3`, ...
//!    A deterministic rename, reported by `tera-defs check` and the build as
//!    warning `W033` ([`crate::rust_name_warnings`]); the def itself is valid.
//!
//! Names are valid Rust identifiers (see [`crate::names::rust_ident`]).

use std::collections::HashMap;

use tera_defs_front::model::{Block, Def, FieldType, Span};

use crate::names::{Scope, pascal_case, rust_ident, type_ident};

/// What a nested type is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NestedKind {
    /// An `object` field (all its parts).
    Object,
    /// The element of an `array` field (with nested fields).
    Element,
}

/// One nested type of a def.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedType {
    /// Field names from the root to the field of this type.
    pub path: Vec<String>,
    /// The Rust type name.
    pub name: String,
    /// Object or array element.
    pub kind: NestedKind,
    /// The (first) field line of the type.
    pub span: Span,
}

/// A nested type renamed because an earlier one has its name (rule 4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRename {
    /// The name both would have.
    pub wanted: String,
    /// Path of the type that keeps it.
    pub first_path: Vec<String>,
    /// Field line of the type that keeps it.
    pub first_span: Span,
    /// Path of the renamed type.
    pub path: Vec<String>,
    /// Field line of the renamed type.
    pub span: Span,
    /// Its name: `wanted` with a number.
    pub name: String,
}

/// The names of all nested types of a def, in def order (depth first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NestedTypeNames {
    /// All nested types, in def order (a parent before its children).
    pub types: Vec<NestedType>,
    /// The types renamed by rule 4 (empty for almost every def).
    pub renamed: Vec<TypeRename>,
}

impl NestedTypeNames {
    /// The name of the type at `path` (field names from the root).
    pub fn get<S: AsRef<str>>(&self, path: &[S]) -> Option<&str> {
        self.types
            .iter()
            .find(|t| {
                t.path.len() == path.len() && t.path.iter().zip(path).all(|(a, b)| a == b.as_ref())
            })
            .map(|t| t.name.as_str())
    }
}

fn collect(block: &Block, prefix: &[String], out: &mut Vec<NestedType>) {
    for f in block.fields() {
        let (kind, inner) = match &f.ty {
            FieldType::Object(b) => (NestedKind::Object, b),
            FieldType::Array(b) => (NestedKind::Element, b),
            _ => continue,
        };
        let mut path = prefix.to_vec();
        path.push(f.name.clone());
        if !out.iter().any(|t| t.path == path) {
            out.push(NestedType {
                path: path.clone(),
                name: type_ident(&f.name),
                kind,
                span: f.span,
            });
        }
        collect(inner, &path, out);
    }
}

/// Assigns a unique name to every nested type of `def` (see the module doc).
pub fn nested_type_names(def: &Def) -> NestedTypeNames {
    let mut types = Vec::new();
    collect(&def.root, &[], &mut types);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for t in &types {
        *counts.entry(t.name.clone()).or_default() += 1;
    }
    for t in &mut types {
        if counts.get(&t.name).copied().unwrap_or(0) > 1 {
            let full: String = t.path.iter().map(|s| pascal_case(s)).collect();
            t.name = rust_ident(&full);
        }
    }
    let mut scope = Scope::new();
    let mut renamed = Vec::new();
    for k in 0..types.len() {
        let wanted = types[k].name.clone();
        if scope.try_reserve(&wanted) {
            continue;
        }
        let name = scope.reserve_first(|n| rust_ident(&format!("{wanted}{}", n + 1)));
        if let Some(first) = types[..k].iter().find(|t| t.name == wanted) {
            renamed.push(TypeRename {
                wanted,
                first_path: first.path.clone(),
                first_span: first.span,
                path: types[k].path.clone(),
                span: types[k].span,
                name: name.clone(),
            });
        }
        types[k].name = name;
    }
    NestedTypeNames { types, renamed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(source: &str) -> Def {
        let checked = tera_defs_front::parse_def("S_TEST.1.def", source);
        checked.def.expect("a valid def")
    }

    #[test]
    fn split_object_is_one_type() {
        let d = def("object r\n- bool enable\nint16 t\nobject r\n- vec3 loc\n");
        let nested = nested_type_names(&d);
        assert_eq!(nested.types.len(), 1);
        assert_eq!(nested.get(&["r"]), Some("R"));
    }

    #[test]
    fn names_are_disambiguated_by_path() {
        let d = def(
            "array items\n- int32 a\nobject self\n- array items\n- - int32 b\narray other\n- int32 c\n",
        );
        let n = nested_type_names(&d);
        assert!(n.renamed.is_empty());
        assert_eq!(n.get(&["items"]), Some("Items"));
        assert_eq!(n.get(&["self", "items"]), Some("SelfItems"));
        assert_eq!(n.get(&["self"]), Some("Self_"));
        assert_eq!(n.get(&["other"]), Some("Other"));
        assert_eq!(n.get(&["missing"]), None);
    }

    #[test]
    fn same_path_names_are_numbered_in_def_order() {
        let d = def(
            "object a_b\n- array items\n- - int32 x\nobject a\n- object b\n- - array items\n- - - int32 y\n\
             array items\n- int32 z\n",
        );
        let n = nested_type_names(&d);
        assert_eq!(n.get(&["a_b", "items"]), Some("ABItems"));
        assert_eq!(n.get(&["a", "b", "items"]), Some("ABItems2"));
        assert_eq!(n.get(&["items"]), Some("Items"));
        assert_eq!(n.renamed.len(), 1);
        let rename = &n.renamed[0];
        assert_eq!(
            (rename.wanted.as_str(), rename.name.as_str()),
            ("ABItems", "ABItems2")
        );
        assert_eq!(rename.first_path, ["a_b", "items"]);
    }
}
