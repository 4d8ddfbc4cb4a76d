//! An [`OwnedElement`] tree as a [`Source`].

use std::collections::{HashMap, HashSet};

use super::error::WriteError;
use super::source::{Source, ValueRef};
use crate::owned::{OwnedElement, name_order};

/// An [`OwnedElement`] tree as a [`Source`].
pub(super) struct OwnedSource<'t> {
    root: &'t OwnedElement,
    names: Vec<&'t str>,
    index: HashMap<&'t str, u16>,
}

impl<'t> OwnedSource<'t> {
    pub(super) fn new(root: &'t OwnedElement) -> Result<Self, WriteError> {
        let mut set: HashSet<&str> = HashSet::from(["__root__", "__value__"]);
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            set.insert(&e.name);
            set.extend(e.attributes.iter().map(|(n, _)| n.as_str()));
            stack.extend(e.children.iter());
        }
        if set.len() > u16::MAX as usize {
            return Err(WriteError::TooManyNames(set.len()));
        }
        let mut names: Vec<&str> = set.into_iter().collect();
        names.sort_by(|a, b| name_order(a, b));
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i as u16 + 1))
            .collect();
        Ok(OwnedSource { root, names, index })
    }
}

impl<'t> Source for OwnedSource<'t> {
    type Node = &'t OwnedElement;

    fn root(&self) -> Self::Node {
        self.root
    }

    fn names(&self) -> &[&str] {
        &self.names
    }

    fn name(&self, node: Self::Node) -> u16 {
        self.index[node.name.as_str()]
    }

    fn key(&self, _: Self::Node) -> [u16; 4] {
        [0; 4]
    }

    fn attributes<'s>(&'s self, node: Self::Node, out: &mut Vec<(u16, ValueRef<'s>)>) {
        out.extend(
            node.attributes
                .iter()
                .map(|(n, v)| (self.index[n.as_str()], v.into())),
        );
    }

    fn children(&self, node: Self::Node, out: &mut Vec<Self::Node>) {
        out.extend(node.children.iter());
    }
}
