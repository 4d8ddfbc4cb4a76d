//! The checks that opening a file makes on every record.

use std::collections::HashSet;

use super::{Place, ProblemKind, Verifier};
use crate::Address;
use crate::layout::{Layout, address_at, u16_at};

impl Verifier<'_> {
    pub(super) fn every_record(&mut self, l: &Layout, name_count: usize) {
        let b = self.b;
        let reported: HashSet<usize> = self.problems.iter().map(|p| p.offset).collect();
        let name_ok = |i: u16| i != 0 && (i as usize) <= name_count;
        let (ns, asz) = (l.arch.node_size(), l.arch.attribute_size());
        let mut found = Vec::new();
        for (si, seg) in l.nodes.iter().enumerate() {
            for i in 0..seg.used as usize {
                let o = seg.offset + i * ns;
                let place = Place::Node(Address {
                    segment: si as u16,
                    element: i as u16,
                });
                let name = u16_at(b, o);
                // Nameless records other than the root are never read.
                if name == 0 && (si, i) != (0, 0) {
                    continue;
                }
                if !name_ok(name) {
                    found.push((o, place, ProblemKind::NameIndex(name)));
                }
                let (ac, cc) = (u16_at(b, o + 4), u16_at(b, o + 6));
                let (aa, ca) = (address_at(b, o + 8), address_at(b, o + ns / 2 + 4));
                if ac > 0 && Layout::locate(&l.attributes, aa, ac as u32, asz).is_none() {
                    let kind = ProblemKind::BadAddress {
                        what: "attributes",
                        address: aa,
                        count: ac,
                    };
                    found.push((o + 8, place, kind));
                }
                if cc > 0 && Layout::locate(&l.nodes, ca, cc as u32, ns).is_none() {
                    let kind = ProblemKind::BadAddress {
                        what: "children",
                        address: ca,
                        count: cc,
                    };
                    found.push((o + ns / 2 + 4, place, kind));
                }
            }
        }
        for (si, seg) in l.attributes.iter().enumerate() {
            for i in 0..seg.used as usize {
                let o = seg.offset + i * asz;
                let place = Place::Attribute(Address {
                    segment: si as u16,
                    element: i as u16,
                });
                let name = u16_at(b, o);
                if !name_ok(name) {
                    found.push((o, place, ProblemKind::NameIndex(name)));
                }
                let code = u16_at(b, o + 2) & 3;
                if code == 0 {
                    found.push((o + 2, place, ProblemKind::TypeCode(code)));
                }
                if code == 3 {
                    let a = address_at(b, o + 4);
                    if Layout::string_at(b, &l.values.data, a).is_none() {
                        let kind = ProblemKind::BadAddress {
                            what: "string value",
                            address: a,
                            count: 1,
                        };
                        found.push((o + 4, place, kind));
                    }
                }
            }
        }
        for (offset, place, kind) in found {
            if !reported.contains(&offset) {
                self.report(offset, place, kind);
            }
        }
    }
}
