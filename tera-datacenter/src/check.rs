//! The checks every used record must pass to be read safely: name indexes
//! in range, addresses within the used part of their region, a type code on
//! every attribute. One checker, whose problems go to a [`Sink`]: opening a
//! file stops at the first ([`FirstProblem`]); the verifier collects them
//! all (a `Vec<Problem>`).

use std::ops::ControlFlow;

use crate::address::Address;
use crate::layout::Layout;
use crate::problem::{Place, Problem, ProblemKind};
use crate::records::{AttributeField, AttributeRecord, NodeField, NodeRecord, RawValue};

/// Where a checker's problems go. `Break` stops the check.
pub(crate) trait Sink {
    /// Takes one problem.
    fn push(&mut self, problem: Problem) -> ControlFlow<()>;
}

/// Every problem.
impl Sink for Vec<Problem> {
    fn push(&mut self, problem: Problem) -> ControlFlow<()> {
        Vec::push(self, problem);
        ControlFlow::Continue(())
    }
}

/// Fail-fast: keeps the first problem and stops.
#[derive(Debug, Default)]
pub(crate) struct FirstProblem(pub Option<Problem>);

impl Sink for FirstProblem {
    fn push(&mut self, problem: Problem) -> ControlFlow<()> {
        self.0 = Some(problem);
        ControlFlow::Break(())
    }
}

/// Checks every used node and attribute record of `b`, reached from the
/// root or not, with `names` names in the names table. Nameless nodes other
/// than the root are never read (readers skip them), so they are not
/// checked; the root is read whatever its name, so it must have one.
pub(crate) fn check_records(
    b: &[u8],
    l: &Layout,
    names: usize,
    sink: &mut impl Sink,
) -> ControlFlow<()> {
    if l.nodes.first().is_none_or(|s| s.used == 0) {
        return sink.push(Problem::new(0, Place::File, ProblemKind::NoRoot));
    }
    check_nodes(b, l, names, sink)?;
    check_attributes(b, l, names, sink)
}

fn name_ok(index: u16, names: usize) -> bool {
    index != 0 && index as usize <= names
}

fn check_nodes(b: &[u8], l: &Layout, names: usize, sink: &mut impl Sink) -> ControlFlow<()> {
    let arch = l.arch;
    let (node_size, attribute_size) = (arch.node_size(), arch.attribute_size());
    for (si, s) in l.nodes.iter().enumerate() {
        for i in 0..s.used as usize {
            let o = s.offset + i * node_size;
            let root = (si, i) == (0, 0);
            if !root && NodeRecord::read_name(b, o) == 0 {
                continue;
            }
            let node = NodeRecord::read(b, o, arch);
            let place = Place::Node(Address {
                segment: si as u16,
                element: i as u16,
            });
            if !name_ok(node.name, names) {
                sink.push(Problem::new(o, place, ProblemKind::NameIndex(node.name)))?;
            }
            let runs = [
                (
                    "attributes",
                    NodeField::Attributes,
                    node.attribute_count,
                    node.attributes,
                    &l.attributes,
                    attribute_size,
                ),
                (
                    "children",
                    NodeField::Children,
                    node.child_count,
                    node.children,
                    &l.nodes,
                    node_size,
                ),
            ];
            for (what, field, count, address, region, size) in runs {
                if count > 0 && Layout::locate(region, address, count.into(), size).is_none() {
                    let kind = ProblemKind::BadAddress {
                        what,
                        address,
                        count,
                    };
                    sink.push(Problem::new(field.at(o, arch), place, kind))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

fn check_attributes(b: &[u8], l: &Layout, names: usize, sink: &mut impl Sink) -> ControlFlow<()> {
    let size = l.arch.attribute_size();
    for (si, s) in l.attributes.iter().enumerate() {
        for i in 0..s.used as usize {
            let o = s.offset + i * size;
            let place = Place::Attribute(Address {
                segment: si as u16,
                element: i as u16,
            });
            let a = AttributeRecord::read(b, o);
            if !name_ok(a.name, names) {
                sink.push(Problem::new(o, place, ProblemKind::NameIndex(a.name)))?;
            }
            match a.value() {
                RawValue::Untyped(code) => {
                    let at = AttributeField::Type.at(o);
                    sink.push(Problem::new(at, place, ProblemKind::TypeCode(code)))?;
                }
                RawValue::Str(address)
                    if Layout::string_at(b, &l.values.data, address).is_none() =>
                {
                    let kind = ProblemKind::BadAddress {
                        what: "string value",
                        address,
                        count: 1,
                    };
                    sink.push(Problem::new(AttributeField::Value.at(o), place, kind))?;
                }
                _ => {}
            }
        }
    }
    ControlFlow::Continue(())
}
