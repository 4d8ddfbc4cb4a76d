//! The walk from the root: every node and attribute reached, checked.

use std::collections::HashMap;

use super::Verifier;
use super::tables::TableInfo;
use crate::address::Address;
use crate::hash::value_hash;
use crate::layout::Layout;
use crate::problem::{Place, ProblemKind};
use crate::records::{Arch, AttributeField, AttributeRecord, NodeField, NodeRecord, RawValue};
use crate::string::DcStr;

impl Verifier<'_> {
    /// Walks the tree from the root. Elements may share a run of children
    /// (the same address and count, as a deduplicating writer stores
    /// identical runs once): each run is checked once. Runs that overlap
    /// without being the same, and runs below themselves (cycles), are
    /// problems. Returns the nodes and attributes of the tree as readers
    /// see it, each shared run counted wherever it is reached.
    ///
    /// The record checker has reported bad name indexes, addresses and type
    /// codes of every record already: the walk only steps over them.
    pub(super) fn nodes(
        &mut self,
        l: &Layout,
        names: &TableInfo<'_>,
        values: &TableInfo<'_>,
        text: Option<u16>,
    ) -> (u64, u64) {
        let b = self.b;
        let ns = l.arch.node_size();
        let root = Address::ROOT;
        let Some(root_at) = Layout::locate(&l.nodes, root, 1, ns) else {
            return (0, 0);
        };
        let name_ok = |i: u16| i != 0 && (i as usize) <= names.strings.len();
        let name_is = |i: u16, s: &str| {
            name_ok(i) && names.strings[i as usize - 1].is_some_and(|n| n.eq_str(s))
        };
        let root_record = NodeRecord::read(b, root_at, l.arch);
        if !name_is(root_record.name, "__root__") {
            self.report(root_at, Place::Node(root), ProblemKind::RootName);
        }
        if root_record.attribute_count != 0 {
            self.report(root_at, Place::Node(root), ProblemKind::RootAttributes);
        }
        let cx = Context { l, values, text };
        let mut walk = Walk::new(l);
        walk.claim(0, 1, 0);
        walk.runs.push(Run {
            at: root,
            first: root_at,
            count: 1,
            totals: None,
        });
        // Frames: (run, index of its next node).
        let mut stack = vec![(0u32, 0u16)];
        while let Some(top) = stack.last_mut() {
            let (run, i) = *top;
            let r = walk.runs[run as usize];
            if i == r.count {
                stack.pop();
                let totals = walk.totals(b, run);
                walk.runs[run as usize].totals = Some(totals);
                continue;
            }
            top.1 += 1;
            let at = r.at.plus(i);
            let o = r.first + i as usize * ns;
            if !walk.walks(b, run, at, o) {
                continue;
            }
            if let Some(child) = self.node(&cx, at, o, &mut walk) {
                stack.push((child, 0));
            }
        }
        walk.runs[0].totals.unwrap_or((0, 0))
    }

    /// Checks one node; returns its run of children when it is new and must
    /// be walked.
    fn node(&mut self, cx: &Context<'_>, at: Address, o: usize, walk: &mut Walk) -> Option<u32> {
        let (b, l) = (self.b, cx.l);
        let arch = l.arch;
        let place = Place::Node(at);
        let node = NodeRecord::read(b, o, arch);
        let keys_at = NodeField::Keys.at(o, arch);
        if node.key as usize >= l.key_count {
            self.report(keys_at, place, ProblemKind::KeyIndex(node.key));
        }
        if node.has_unknown_flags() {
            self.report(keys_at, place, ProblemKind::KeyFlags(node.flags));
        }
        for (what, field, count, address) in [
            (
                "attributes",
                NodeField::Attributes,
                node.attribute_count,
                node.attributes,
            ),
            (
                "children",
                NodeField::Children,
                node.child_count,
                node.children,
            ),
        ] {
            if (count == 0) != (address == Address::NONE) {
                let kind = ProblemKind::CountAddress {
                    what,
                    count,
                    address,
                };
                self.report(field.at(o, arch), place, kind);
            }
        }
        let (ac, aa) = (node.attribute_count, node.attributes);
        if ac > 0
            && let Some(first) = Layout::locate(&l.attributes, aa, ac.into(), arch.attribute_size())
        {
            self.attributes(cx, first, aa, ac, place);
        }
        let (cc, ca) = (node.child_count, node.children);
        if cc == 0 {
            return None;
        }
        let first = Layout::locate(&l.nodes, ca, cc.into(), arch.node_size())?;
        if let Some(run) = walk.find(ca, cc) {
            if walk.runs[run as usize].totals.is_none() {
                let children_at = NodeField::Children.at(o, arch);
                self.report(children_at, place, ProblemKind::Cycle(ca));
            }
            return None;
        }
        let run = walk.add_run(Run {
            at: ca,
            first,
            count: cc,
            totals: None,
        });
        self.children_sorted(first, cc, arch.node_size(), place);
        for i in 0..cc {
            let child = ca.plus(i);
            let co = first + i as usize * arch.node_size();
            if NodeRecord::read_name(b, co) != 0 && !walk.claim(walk.ordinal(child), 1, run) {
                self.report(co, Place::Node(child), ProblemKind::ReachedTwice);
            }
        }
        Some(run)
    }

    /// Reports a run of children not sorted by name index (nameless ones
    /// left out).
    fn children_sorted(&mut self, first: usize, count: u16, size: usize, node: Place) {
        let mut previous = 0u16;
        for i in 0..count {
            let name = NodeRecord::read_name(self.b, first + i as usize * size);
            if name == 0 {
                continue;
            }
            if name < previous {
                self.report(first, node, ProblemKind::ChildrenUnsorted);
                return;
            }
            previous = name;
        }
    }

    fn attributes(&mut self, cx: &Context<'_>, first: usize, aa: Address, count: u16, node: Place) {
        let (b, l, text) = (self.b, cx.l, cx.text);
        let mut previous = 0u16;
        for i in 0..count {
            let o = first + i as usize * l.arch.attribute_size();
            let place = Place::Attribute(aa.plus(i));
            let a = AttributeRecord::read(b, o);
            if i > 0 && a.name == previous {
                self.report(o, node, ProblemKind::DuplicateAttribute(a.name));
            } else if i > 0 && a.name < previous {
                self.report(o, node, ProblemKind::AttributesUnsorted);
            }
            previous = a.name;
            let value = a.value();
            if Some(a.name) == text && !matches!(value, RawValue::Str(_)) {
                self.report(o, place, ProblemKind::TextNotString);
            }
            let (type_at, value_at) = (AttributeField::Type.at(o), AttributeField::Value.at(o));
            match (value, a.unexpected_extended()) {
                (RawValue::Int(_) | RawValue::Bool(_), Some(ext)) => {
                    self.report(type_at, place, ProblemKind::IntExtended(ext));
                }
                (RawValue::Bool(raw), None) if raw > 1 => {
                    self.report(value_at, place, ProblemKind::BadBoolean(raw));
                }
                (RawValue::Float(_), Some(ext)) => {
                    self.report(type_at, place, ProblemKind::FloatExtended(ext));
                }
                (RawValue::Str(address), _) => {
                    self.string_value(cx, a.extended, address, o, place);
                }
                _ => {}
            }
        }
    }

    /// Checks a string attribute's value hash and that its address is an
    /// entry of the values table (a bad address was reported by the record
    /// checker).
    fn string_value(
        &mut self,
        cx: &Context<'_>,
        found: u16,
        address: Address,
        o: usize,
        place: Place,
    ) {
        let data = &cx.l.values.data;
        let Some(s) = Layout::string_at(self.b, data, address).map(DcStr::from_utf16le) else {
            return;
        };
        let expected = value_hash(s.units());
        if expected != found {
            let kind = ProblemKind::ValueHash { expected, found };
            self.report(AttributeField::Type.at(o), place, kind);
        }
        if !cx.values.entry_addresses.contains(&address) {
            let kind = ProblemKind::NotInValuesTable(address);
            self.report(AttributeField::Value.at(o), place, kind);
        }
    }
}

/// A run of nodes that some node points at as its children.
#[derive(Clone, Copy)]
struct Run {
    at: Address,
    /// Byte offset of its first node.
    first: usize,
    count: u16,
    /// Nodes and attributes below and including the run, once it is done.
    totals: Option<(u64, u64)>,
}

/// The state of the walk: the runs found and which run owns each node.
struct Walk {
    arch: Arch,
    /// The ordinal of the first node of each nodes segment.
    base: Vec<usize>,
    /// The run that each node (by ordinal) belongs to; `u32::MAX`: none.
    owner: Vec<u32>,
    runs: Vec<Run>,
    /// Runs by (ordinal of their first node, count).
    by_start: HashMap<(usize, u16), u32>,
    segments: Vec<(usize, u32)>,
}

impl Walk {
    fn new(l: &Layout) -> Self {
        let mut base = Vec::with_capacity(l.nodes.len());
        let mut total = 0usize;
        for s in &l.nodes {
            base.push(total);
            total += s.used as usize;
        }
        Walk {
            arch: l.arch,
            base,
            owner: vec![u32::MAX; total],
            runs: Vec::new(),
            by_start: HashMap::new(),
            segments: l.nodes.iter().map(|s| (s.offset, s.used)).collect(),
        }
    }

    fn ordinal(&self, a: Address) -> usize {
        self.base[a.segment as usize] + a.element as usize
    }

    fn find(&self, at: Address, count: u16) -> Option<u32> {
        self.by_start.get(&(self.ordinal(at), count)).copied()
    }

    /// Adds a run, findable by its start and count; returns its index.
    fn add_run(&mut self, r: Run) -> u32 {
        let run = self.runs.len() as u32;
        self.by_start.insert((self.ordinal(r.at), r.count), run);
        self.runs.push(r);
        run
    }

    /// Gives `count` nodes from `ordinal` to `run`; false when one already
    /// belongs to a run.
    fn claim(&mut self, ordinal: usize, count: usize, run: u32) -> bool {
        let nodes = &mut self.owner[ordinal..ordinal + count];
        if nodes.iter().any(|&o| o != u32::MAX) {
            return false;
        }
        nodes.fill(run);
        true
    }

    /// Whether the node at `at` (offset `o`) of `run` is walked: it belongs
    /// to the run and has a name (readers skip nameless children), or it is
    /// the root.
    fn walks(&self, b: &[u8], run: u32, at: Address, o: usize) -> bool {
        run == 0 || (self.owner[self.ordinal(at)] == run && NodeRecord::read_name(b, o) != 0)
    }

    /// The nodes and attributes of the tree below the nodes of a run whose
    /// child runs are all done (a run below itself counts nothing there).
    fn totals(&self, b: &[u8], run: u32) -> (u64, u64) {
        let r = self.runs[run as usize];
        let (mut nodes, mut attributes) = (0u64, 0u64);
        for i in 0..r.count {
            let at = r.at.plus(i);
            let o = r.first + i as usize * self.arch.node_size();
            if !self.walks(b, run, at, o) {
                continue;
            }
            let node = NodeRecord::read(b, o, self.arch);
            nodes = nodes.saturating_add(1);
            attributes = attributes.saturating_add(u64::from(node.attribute_count));
            let (cc, ca) = (node.child_count, node.children);
            let located = cc > 0
                && (ca.segment as usize) < self.segments.len()
                && ca.element as u32 + cc as u32 <= self.segments[ca.segment as usize].1;
            if let Some((n, a)) = located
                .then(|| self.find(ca, cc))
                .flatten()
                .and_then(|c| self.runs[c as usize].totals)
            {
                nodes = nodes.saturating_add(n);
                attributes = attributes.saturating_add(a);
            }
        }
        (nodes, attributes)
    }
}

/// What the checks of every node need to know of the rest of the file.
struct Context<'t> {
    l: &'t Layout,
    values: &'t TableInfo<'t>,
    /// The name index of `__value__`.
    text: Option<u16>,
}
