//! Read sheets as a tree the writer lays out: one global name index, each
//! sheet's root element a child of `__root__`.

use std::collections::BTreeSet;

use super::sheet::{Sheet, Val};
use crate::owned::name_order;
use crate::write::WriteError;
use crate::write::{Source, ValueRef};

/// `(sheet, node)`; the `__root__` element is `(ROOT, 0)`.
type NodeId = (u32, u32);

const ROOT: u32 = u32::MAX;

pub(crate) struct SheetsSource<'a> {
    sheets: &'a [Sheet],
    names: Vec<&'a str>,
    /// Per sheet: its name ids to global one-based name indexes.
    remap: Vec<Vec<u16>>,
    root_name: u16,
    value_name: u16,
}

impl<'a> SheetsSource<'a> {
    pub(crate) fn new(sheets: &'a [Sheet]) -> Result<Self, WriteError> {
        let mut set: BTreeSet<&str> = BTreeSet::from(["__root__", "__value__"]);
        for s in sheets {
            set.extend(s.names.iter().map(|n| &**n));
        }
        if set.len() > u16::MAX as usize {
            return Err(WriteError::TooManyNames(set.len()));
        }
        let mut names: Vec<&str> = set.into_iter().collect();
        names.sort_by(|a, b| name_order(a, b));
        let index = |n: &str| {
            names
                .binary_search_by(|m| name_order(m, n))
                .map(|i| i as u16 + 1)
                .expect("every name is in the set")
        };
        let remap = sheets
            .iter()
            .map(|s| s.names.iter().map(|n| index(n)).collect())
            .collect();
        let root_name = index("__root__");
        let value_name = index("__value__");
        Ok(SheetsSource {
            sheets,
            names,
            remap,
            root_name,
            value_name,
        })
    }
}

impl<'a> Source for SheetsSource<'a> {
    type Node = NodeId;

    fn root(&self) -> NodeId {
        (ROOT, 0)
    }

    fn names(&self) -> &[&str] {
        &self.names
    }

    fn name(&self, (s, n): NodeId) -> u16 {
        if s == ROOT {
            return self.root_name;
        }
        let sheet = &self.sheets[s as usize];
        self.remap[s as usize][sheet.nodes[n as usize].name as usize]
    }

    fn key(&self, (s, n): NodeId) -> [u16; 4] {
        if s == ROOT {
            return [0; 4];
        }
        let sheet = &self.sheets[s as usize];
        let key = sheet.keys[sheet.nodes[n as usize].key as usize];
        key.map(|k| {
            k.checked_sub(1)
                .map_or(0, |k| self.remap[s as usize][k as usize])
        })
    }

    fn attributes<'s>(&'s self, (s, n): NodeId, out: &mut Vec<(u16, ValueRef<'s>)>) {
        if s == ROOT {
            return;
        }
        let sheet = &self.sheets[s as usize];
        let remap = &self.remap[s as usize];
        let node = &sheet.nodes[n as usize];
        let attrs = &sheet.attrs[node.attrs_start as usize..][..node.attrs_len as usize];
        out.extend(attrs.iter().map(|&(name, v)| {
            let value = match v {
                Val::Int(v) => ValueRef::Int(v),
                Val::Bool(v) => ValueRef::Bool(v),
                Val::Float(v) => ValueRef::Float(v),
                Val::Str(start, len) => ValueRef::Str(sheet.str(start, len)),
            };
            (remap[name as usize], value)
        }));
        if let Some(text) = sheet.text(n as usize) {
            out.push((self.value_name, ValueRef::Str(text)));
        }
    }

    fn children(&self, (s, n): NodeId, out: &mut Vec<NodeId>) {
        if s == ROOT {
            out.extend((0..self.sheets.len() as u32).map(|s| (s, 0)));
            return;
        }
        out.extend(
            self.sheets[s as usize]
                .children(n as usize)
                .map(|c| (s, c as u32)),
        );
    }
}
