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
//! 4. If two types still end up with the same name, that is a real
//!    collision, reported by validation as error `E033`.
//!
//! Names are valid Rust identifiers (see [`crate::names::rust_ident`]).

use std::collections::HashMap;

use crate::model::{Block, Def, FieldType, Span};
use crate::names::{pascal_case, rust_ident, type_ident};

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

/// Two nested types that get the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameCollision {
    /// The colliding name.
    pub name: String,
    /// Path of the first type.
    pub first_path: Vec<String>,
    /// Field line of the first type.
    pub first_span: Span,
    /// Path of the second type.
    pub second_path: Vec<String>,
    /// Field line of the second type.
    pub second_span: Span,
}

/// The names of all nested types of a def, in def order (depth first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NestedTypeNames {
    /// All nested types, in def order (a parent before its children).
    pub types: Vec<NestedType>,
    /// Real collisions (empty for a valid def).
    pub collisions: Vec<NameCollision>,
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
    for_block(&def.root)
}

pub(crate) fn for_block(root: &Block) -> NestedTypeNames {
    let mut types = Vec::new();
    collect(root, &[], &mut types);
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
    let mut collisions = Vec::new();
    let mut seen: HashMap<&str, &NestedType> = HashMap::new();
    for t in &types {
        match seen.get(t.name.as_str()) {
            Some(first) => collisions.push(NameCollision {
                name: t.name.clone(),
                first_path: first.path.clone(),
                first_span: first.span,
                second_path: t.path.clone(),
                second_span: t.span,
            }),
            None => {
                seen.insert(&t.name, t);
            }
        }
    }
    NestedTypeNames { types, collisions }
}
