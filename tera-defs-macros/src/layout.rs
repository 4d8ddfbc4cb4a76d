//! The order in which a block's pieces sit on the wire.

use proc_macro2::Span;
use syn::{Ident, Type};

use crate::attrs::{FieldAttrs, plain};

/// A field of the struct with its attributes.
pub struct FieldInfo {
    pub ident: Ident,
    pub ty: Type,
    pub attrs: FieldAttrs,
    /// The name in errors: `rename` or the identifier.
    pub wire_name: String,
    /// The part of a split object this field belongs to (0 if not split).
    pub part: usize,
}

/// One piece of a block, in wire order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// The metadata words of field `.0`, placed by an explicit ref.
    Ref(usize),
    /// Field `.0`, whole.
    Field(usize),
    /// Part `.1` of split-object field `.0`.
    Part(usize, usize),
    /// Field `.0` again (a repeated fixed field).
    Again(usize),
}

/// The wire order of a struct's fields.
pub struct Layout {
    pub items: Vec<Item>,
    /// Whether metadata is placed by explicit refs rather than first.
    pub explicit: bool,
    /// The number of parts when the struct is a split object (1 otherwise).
    pub parts: usize,
}

pub fn layout(fields: &[FieldInfo]) -> syn::Result<Layout> {
    let index_of = |name: &Ident| -> syn::Result<usize> {
        fields
            .iter()
            .position(|f| plain(&f.ident) == plain(name))
            .ok_or_else(|| syn::Error::new(name.span(), format!("no field named `{name}`")))
    };

    let explicit = fields.iter().any(|f| !f.attrs.refs_before.is_empty());
    // Where each later part of a split object goes: after which field.
    let mut parts_after: Vec<(usize, usize, usize)> = Vec::new(); // (anchor, field, part)
    for (i, f) in fields.iter().enumerate() {
        for (p, anchor) in f.attrs.parts_after.iter().enumerate() {
            let a = index_of(anchor)?;
            if a <= i {
                return Err(syn::Error::new(
                    anchor.span(),
                    "a later part of a split object must come after a later field",
                ));
            }
            parts_after.push((a, i, p + 1));
        }
    }

    let mut again_after: Vec<(usize, usize)> = Vec::new(); // (anchor, field)
    for (i, f) in fields.iter().enumerate() {
        if let Some(anchor) = &f.attrs.again_after {
            let a = index_of(anchor)?;
            if a <= i {
                return Err(syn::Error::new(
                    anchor.span(),
                    "a repeated field must be repeated after a later field",
                ));
            }
            again_after.push((a, i));
        }
    }

    let mut items = Vec::new();
    let mut referenced = vec![false; fields.len()];
    for (i, f) in fields.iter().enumerate() {
        for name in &f.attrs.refs_before {
            let j = index_of(name)?;
            if j < i {
                return Err(syn::Error::new(
                    name.span(),
                    format!("the ref of `{name}` must come before the field itself"),
                ));
            }
            if std::mem::replace(&mut referenced[j], true) {
                return Err(syn::Error::new(
                    name.span(),
                    format!("`{name}` has two refs"),
                ));
            }
            items.push(Item::Ref(j));
        }
        if f.attrs.parts_after.is_empty() {
            items.push(Item::Field(i));
        } else {
            items.push(Item::Part(i, 0));
        }
        for &(_, k, p) in parts_after.iter().filter(|(a, _, _)| *a == i) {
            items.push(Item::Part(k, p));
        }
        for &(_, k) in again_after.iter().filter(|(a, _)| *a == i) {
            items.push(Item::Again(k));
        }
    }

    let parts = fields.iter().map(|f| f.part + 1).max().unwrap_or(1);
    Ok(Layout {
        items,
        explicit,
        parts,
    })
}

/// Assigns each field its part from the `part = N` markers, which must
/// count up from 1 in field order.
pub fn assign_parts(fields: &mut [FieldInfo]) -> syn::Result<()> {
    let mut current = 0;
    for f in fields.iter_mut() {
        if let Some((n, span)) = f.attrs.part {
            if n != current + 1 {
                return Err(syn::Error::new(
                    span,
                    format!("expected `part = {}`: parts count up from 1", current + 1),
                ));
            }
            current = n;
        }
        f.part = current;
    }
    Ok(())
}

/// Error for a struct shape the derive does not take.
pub fn unsupported(span: Span, what: &str) -> syn::Error {
    syn::Error::new(span, what)
}
