//! A tree laid out into records: children before their parent (the root at
//! 0:0), attributes sorted by name index, children in the writer's order,
//! key definitions numbered as met.

use std::collections::HashMap;

use super::dedup::RunIndex;
use super::error::WriteError;
use super::intern::Interner;
use super::options::WriteOptions;
use super::order::ChildOrder;
use super::regions::{Encoded, Records, SEGMENT_MAX};
use super::source::{Source, ValueRef};
use crate::address::Address;
use crate::layout::{NAME_BUCKETS, VALUE_BUCKETS};
use crate::records::{AttributeRecord, KEY_DEFINITIONS_MAX, NODE_SIZE_MAX, NodeRecord};

/// One element being laid out: its sorted children are
/// `pending[children.clone()]`, of which `next` are done, and their records
/// are `finished[records..]`.
struct Frame<N> {
    node: N,
    children: std::ops::Range<usize>,
    next: usize,
    records: usize,
}

/// Lays out a tree: children before their parent (the root at 0:0),
/// attributes sorted by name index, children stably by name index then by
/// the values of their key attributes, key definition 0 with no keys, and
/// with [`WriteOptions::dedup`] identical attribute runs and child runs
/// stored once.
pub(crate) fn encode<S: Source>(source: &S, options: &WriteOptions) -> Result<Encoded, WriteError> {
    let mut layout = TreeLayout::new(source, options);
    let node_size = options.arch.node_size();
    let root_at = layout.nodes.append(&[0; NODE_SIZE_MAX][..node_size])?;
    debug_assert_eq!(root_at, Address::ROOT);
    let mut pending: Vec<S::Node> = Vec::new();
    let mut finished: Vec<u8> = Vec::new();
    let mut stack = vec![layout.open(source.root(), &mut pending, finished.len())];
    while let Some(top) = stack.last_mut() {
        if top.next < top.children.end {
            let child = pending[top.next];
            top.next += 1;
            let frame = layout.open(child, &mut pending, finished.len());
            stack.push(frame);
            continue;
        }
        let frame = stack.pop().expect("non-empty");
        let record = layout.close(&frame, &finished[frame.records..])?;
        let record = &record[..node_size];
        finished.truncate(frame.records);
        pending.truncate(frame.children.start);
        if stack.is_empty() {
            layout.nodes.set(root_at, record);
        } else {
            finished.extend_from_slice(record);
        }
    }
    layout.finish()
}

/// The state of [`encode`]: the regions filled so far and scratch buffers.
struct TreeLayout<'s, S: Source> {
    source: &'s S,
    options: WriteOptions,
    keys: Vec<[u16; 4]>,
    key_index: HashMap<[u16; 4], u16>,
    nodes: Records,
    attributes: Records,
    values: Interner<'s>,
    node_runs: RunIndex,
    attribute_runs: RunIndex,
    attrs: Vec<(u16, ValueRef<'s>)>,
    run: Vec<u8>,
    children: Vec<S::Node>,
    order: ChildOrder<'s>,
}

impl<'s, S: Source> TreeLayout<'s, S> {
    fn new(source: &'s S, options: &WriteOptions) -> Self {
        TreeLayout {
            source,
            options: *options,
            keys: vec![[0; 4]],
            key_index: HashMap::from([([0; 4], 0)]),
            nodes: Records::new("nodes", options.arch.node_size()),
            attributes: Records::new("attributes", options.arch.attribute_size()),
            values: Interner::new(VALUE_BUCKETS),
            node_runs: RunIndex::default(),
            attribute_runs: RunIndex::default(),
            attrs: Vec::new(),
            run: Vec::new(),
            children: Vec::new(),
            order: ChildOrder::default(),
        }
    }

    fn name_of(&self, index: u16) -> &'s str {
        self.source.names()[index as usize - 1]
    }

    /// Starts an element: its children, sorted, are appended to `pending`.
    fn open(
        &mut self,
        node: S::Node,
        pending: &mut Vec<S::Node>,
        records: usize,
    ) -> Frame<S::Node> {
        self.children.clear();
        self.source.children(node, &mut self.children);
        self.order.sort(self.source, &self.children);
        let start = pending.len();
        pending.extend(self.order.order.iter().map(|&i| self.children[i]));
        Frame {
            node,
            children: start..pending.len(),
            next: start,
            records,
        }
    }

    /// Ends an element whose children's records are `child_records`: places
    /// its attribute run and child run and returns its own record (the first
    /// [`Arch::node_size`](crate::Arch::node_size) bytes).
    fn close(
        &mut self,
        frame: &Frame<S::Node>,
        child_records: &[u8],
    ) -> Result<[u8; NODE_SIZE_MAX], WriteError> {
        let node = frame.node;
        let name = self.source.name(node);
        let child_count = frame.children.len();
        if child_count > SEGMENT_MAX {
            return Err(self.too_many(name, "children", child_count));
        }
        let attribute_count = self.attribute_run(node, name)?;
        let share = self.options.dedup;
        let attributes = self
            .attribute_runs
            .place(&mut self.attributes, &self.run, share)?;
        let children = self
            .node_runs
            .place(&mut self.nodes, child_records, share)?;
        let record = NodeRecord {
            name,
            key: self.key_definition(node)?,
            flags: 0,
            attribute_count: attribute_count as u16,
            child_count: child_count as u16,
            attributes,
            children,
        };
        Ok(record.to_bytes(self.options.arch))
    }

    fn too_many(&self, name: u16, what: &'static str, count: usize) -> WriteError {
        WriteError::TooMany {
            name: self.name_of(name).into(),
            what,
            count,
        }
    }

    /// Encodes the element's attributes, sorted by name, into `self.run`;
    /// returns how many there are.
    fn attribute_run(&mut self, node: S::Node, name: u16) -> Result<usize, WriteError> {
        self.attrs.clear();
        self.source.attributes(node, &mut self.attrs);
        if self.attrs.len() > SEGMENT_MAX {
            return Err(self.too_many(name, "attributes", self.attrs.len()));
        }
        self.attrs.sort_by_key(|a| a.0);
        if let Some(w) = self.attrs.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(WriteError::DuplicateAttribute {
                element: self.name_of(name).into(),
                name: self.name_of(w[0].0).into(),
            });
        }
        self.run.clear();
        for &(attr_name, value) in &self.attrs {
            let record = match value {
                _ if self.name_of(attr_name) == "__value__"
                    && !matches!(value, ValueRef::Str(_)) =>
                {
                    return Err(WriteError::ValueNotString(self.name_of(name).into()));
                }
                ValueRef::Int(v) => AttributeRecord::int(attr_name, v),
                ValueRef::Bool(v) => AttributeRecord::bool(attr_name, v),
                ValueRef::Float(v) => AttributeRecord::float(attr_name, v),
                ValueRef::Str(s) => {
                    let (address, _, hash) = self.values.intern(s)?;
                    AttributeRecord::string(attr_name, address, hash)
                }
            };
            record.write(self.options.arch, &mut self.run);
        }
        Ok(self.attrs.len())
    }

    /// The index of the element's key definition, added if new.
    fn key_definition(&mut self, node: S::Node) -> Result<u16, WriteError> {
        let key = self.source.key(node);
        if let Some(&k) = self.key_index.get(&key) {
            return Ok(k);
        }
        if self.keys.len() >= KEY_DEFINITIONS_MAX {
            return Err(WriteError::TooManyKeys(self.keys.len() + 1));
        }
        let k = self.keys.len() as u16;
        self.keys.push(key);
        self.key_index.insert(key, k);
        Ok(k)
    }

    fn finish(self) -> Result<Encoded, WriteError> {
        let mut names = Interner::new(NAME_BUCKETS);
        for n in self.source.names() {
            names.intern(n)?;
        }
        Ok(Encoded {
            options: self.options,
            keys: self.keys,
            attributes: self.attributes,
            nodes: self.nodes,
            values: self.values.strings,
            names: names.strings,
        })
    }
}
