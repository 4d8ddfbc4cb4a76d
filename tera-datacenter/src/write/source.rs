//! What the writer reads a tree through: the [`Source`] trait, with values
//! as [`ValueRef`]s borrowed from the tree.

use std::cmp::Ordering;

use crate::owned::OwnedValue;

/// A value as the writer takes it: strings borrowed from the tree.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ValueRef<'a> {
    Int(i32),
    Bool(bool),
    Float(f32),
    Str(&'a str),
}

impl ValueRef<'_> {
    /// The order of key values: by type, then numbers by value (floats by
    /// `total_cmp`), strings by UTF-16 code units.
    pub(crate) fn key_order(&self, other: &Self) -> Ordering {
        use ValueRef::*;
        let rank = |v: &ValueRef<'_>| match v {
            Int(_) => 0,
            Bool(_) => 1,
            Float(_) => 2,
            Str(_) => 3,
        };
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Float(a), Float(b)) => a.total_cmp(b),
            (Str(a), Str(b)) => a.encode_utf16().cmp(b.encode_utf16()),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl<'a> From<&'a OwnedValue> for ValueRef<'a> {
    fn from(v: &'a OwnedValue) -> Self {
        match v {
            OwnedValue::Int(v) => ValueRef::Int(*v),
            OwnedValue::Bool(v) => ValueRef::Bool(*v),
            OwnedValue::Float(v) => ValueRef::Float(*v),
            OwnedValue::Str(s) => ValueRef::Str(s),
        }
    }
}

/// A tree the writer can lay out: names are already one-based indexes into
/// [`names`](Source::names), which is in [`name_order`](crate::name_order).
pub(crate) trait Source {
    /// A handle on one element.
    type Node: Copy;
    /// The `__root__` element.
    fn root(&self) -> Self::Node;
    /// Every name, in index order (index `i` is `names()[i - 1]`).
    fn names(&self) -> &[&str];
    /// The element's name index.
    fn name(&self, node: Self::Node) -> u16;
    /// The name indexes of the element's key attributes (0: unused slot).
    fn key(&self, node: Self::Node) -> [u16; 4];
    /// Appends the element's attributes to `out`, in any order.
    fn attributes<'s>(&'s self, node: Self::Node, out: &mut Vec<(u16, ValueRef<'s>)>);
    /// Appends the element's children to `out`, in their given order.
    fn children(&self, node: Self::Node, out: &mut Vec<Self::Node>);
}
