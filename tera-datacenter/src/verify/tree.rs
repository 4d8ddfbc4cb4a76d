//! The walk from the root: every node and attribute reached, checked.

use std::collections::HashMap;

use super::tables::TableInfo;
use super::{Place, ProblemKind, Verifier};
use crate::hash::value_hash;
use crate::layout::{Layout, address_at, u16_at, u32_at};
use crate::{Address, DcStr};

impl Verifier<'_> {
    /// Walks the tree from the root. Elements may share a run of children
    /// (the same address and count, as a deduplicating writer stores
    /// identical runs once): each run is checked once. Runs that overlap
    /// without being the same, and runs below themselves (cycles), are
    /// problems. Returns the nodes and attributes of the tree as readers
    /// see it, each shared run counted wherever it is reached.
    pub(super) fn nodes(
        &mut self,
        l: &Layout,
        names: &TableInfo<'_>,
        values: &TableInfo<'_>,
        text: Option<u16>,
    ) -> (u64, u64) {
        let b = self.b;
        let ns = l.arch.node_size();
        let root = Address {
            segment: 0,
            element: 0,
        };
        let Some(root_at) = Layout::locate(&l.nodes, root, 1, ns) else {
            self.report(0, Place::File, ProblemKind::NoRoot);
            return (0, 0);
        };
        let name_ok = |i: u16| i != 0 && (i as usize) <= names.strings.len();
        let name_is = |i: u16, s: &str| {
            name_ok(i) && names.strings[i as usize - 1].is_some_and(|n| n.eq_str(s))
        };
        if !name_is(u16_at(b, root_at), "__root__") {
            self.report(root_at, Place::Node(root), ProblemKind::RootName);
        }
        if u16_at(b, root_at + 4) != 0 {
            self.report(root_at, Place::Node(root), ProblemKind::RootAttributes);
        }
        let cx = Context {
            l,
            name_count: names.strings.len(),
            values,
            text,
        };
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
            let at = Address {
                segment: r.at.segment,
                element: r.at.element + i,
            };
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
        let name_ok = |i| cx.name_ok(i);
        let ns = l.arch.node_size();
        let place = Place::Node(at);
        let name = u16_at(b, o);
        if !name_ok(name) {
            self.report(o, place, ProblemKind::NameIndex(name));
        }
        let keys_info = u16_at(b, o + 2);
        if (keys_info >> 4) as usize >= l.key_count {
            self.report(o + 2, place, ProblemKind::KeyIndex(keys_info >> 4));
        }
        if keys_info & 0xe != 0 {
            self.report(o + 2, place, ProblemKind::KeyFlags((keys_info & 0xf) as u8));
        }
        let (ac, cc) = (u16_at(b, o + 4), u16_at(b, o + 6));
        let (aa, ca) = (address_at(b, o + 8), address_at(b, o + ns / 2 + 4));
        for (what, count, address, ao) in [
            ("attributes", ac, aa, o + 8),
            ("children", cc, ca, o + ns / 2 + 4),
        ] {
            if (count == 0) != (address == Address::NONE) {
                let kind = ProblemKind::CountAddress {
                    what,
                    count,
                    address,
                };
                self.report(ao, place, kind);
            }
        }
        if ac > 0 {
            match Layout::locate(&l.attributes, aa, ac as u32, l.arch.attribute_size()) {
                None => {
                    let kind = ProblemKind::BadAddress {
                        what: "attributes",
                        address: aa,
                        count: ac,
                    };
                    self.report(o + 8, place, kind);
                }
                Some(first) => self.attributes(cx, first, aa, ac, place),
            }
        }
        if cc == 0 {
            return None;
        }
        let Some(first) = Layout::locate(&l.nodes, ca, cc as u32, ns) else {
            let kind = ProblemKind::BadAddress {
                what: "children",
                address: ca,
                count: cc,
            };
            self.report(o + ns / 2 + 4, place, kind);
            return None;
        };
        if let Some(run) = walk.find(ca, cc) {
            if walk.runs[run as usize].totals.is_none() {
                self.report(o + ns / 2 + 4, place, ProblemKind::Cycle(ca));
            }
            return None;
        }
        let run = walk.runs.len() as u32;
        walk.runs.push(Run {
            at: ca,
            first,
            count: cc,
            totals: None,
        });
        walk.by_start.insert((walk.ordinal(ca), cc), run);
        let mut previous = 0u16;
        for i in 0..cc {
            let co = first + i as usize * ns;
            let child_name = u16_at(b, co);
            if child_name == 0 {
                continue;
            }
            if child_name < previous {
                self.report(first, place, ProblemKind::ChildrenUnsorted);
                break;
            }
            previous = child_name;
        }
        for i in 0..cc {
            let child = Address {
                segment: ca.segment,
                element: ca.element + i,
            };
            let co = first + i as usize * ns;
            if u16_at(b, co) != 0 && !walk.claim(walk.ordinal(child), 1, run) {
                self.report(co, Place::Node(child), ProblemKind::ReachedTwice);
            }
        }
        Some(run)
    }

    fn attributes(&mut self, cx: &Context<'_>, first: usize, aa: Address, count: u16, node: Place) {
        let (b, l, values, text) = (self.b, cx.l, cx.values, cx.text);
        let name_ok = |i| cx.name_ok(i);
        let mut previous = 0u16;
        for i in 0..count {
            let o = first + i as usize * l.arch.attribute_size();
            let place = Place::Attribute(Address {
                segment: aa.segment,
                element: aa.element + i,
            });
            let name = u16_at(b, o);
            if !name_ok(name) {
                self.report(o, place, ProblemKind::NameIndex(name));
            }
            if i > 0 && name == previous {
                self.report(o, node, ProblemKind::DuplicateAttribute(name));
            } else if i > 0 && name < previous {
                self.report(o, node, ProblemKind::AttributesUnsorted);
            }
            previous = name;
            let info = u16_at(b, o + 2);
            let (code, ext) = (info & 3, info >> 2);
            let raw = u32_at(b, o + 4);
            if Some(name) == text && code != 3 {
                self.report(o, place, ProblemKind::TextNotString);
            }
            match code {
                1 if ext > 1 => self.report(o + 2, place, ProblemKind::IntExtended(ext)),
                1 if ext == 1 && raw > 1 => self.report(o + 4, place, ProblemKind::BadBoolean(raw)),
                1 => {}
                2 if ext != 0 => self.report(o + 2, place, ProblemKind::FloatExtended(ext)),
                2 => {}
                3 => {
                    let a = address_at(b, o + 4);
                    match Layout::string_at(b, &l.values.data, a).map(DcStr::from_utf16le) {
                        None => {
                            let kind = ProblemKind::BadAddress {
                                what: "string value",
                                address: a,
                                count: 1,
                            };
                            self.report(o + 4, place, kind);
                        }
                        Some(s) => {
                            let expected = value_hash(s.units());
                            if expected != ext {
                                self.report(
                                    o + 2,
                                    place,
                                    ProblemKind::ValueHash {
                                        expected,
                                        found: ext,
                                    },
                                );
                            }
                            if !values.entry_addresses.contains(&a) {
                                self.report(o + 4, place, ProblemKind::NotInValuesTable(a));
                            }
                        }
                    }
                }
                _ => self.report(o + 2, place, ProblemKind::TypeCode(code)),
            }
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
    node_size: usize,
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
            node_size: l.arch.node_size(),
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
        run == 0 || (self.owner[self.ordinal(at)] == run && u16_at(b, o) != 0)
    }

    /// The nodes and attributes of the tree below the nodes of a run whose
    /// child runs are all done (a run below itself counts nothing there).
    fn totals(&self, b: &[u8], run: u32) -> (u64, u64) {
        let r = self.runs[run as usize];
        let ns = self.node_size;
        let (mut nodes, mut attributes) = (0u64, 0u64);
        for i in 0..r.count {
            let at = Address {
                segment: r.at.segment,
                element: r.at.element + i,
            };
            let o = r.first + i as usize * ns;
            if !self.walks(b, run, at, o) {
                continue;
            }
            nodes = nodes.saturating_add(1);
            attributes = attributes.saturating_add(u64::from(u16_at(b, o + 4)));
            let cc = u16_at(b, o + 6);
            let ca = address_at(b, o + ns / 2 + 4);
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
    name_count: usize,
    values: &'t TableInfo<'t>,
    /// The name index of `__value__`.
    text: Option<u16>,
}

impl Context<'_> {
    fn name_ok(&self, index: u16) -> bool {
        index != 0 && (index as usize) <= self.name_count
    }
}
