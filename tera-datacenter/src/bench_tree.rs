//! A large generated tree, shared by the benchmark, the memory example and
//! the allocation test.

use crate::{OwnedElement, OwnedValue};

/// `__root__` with `areas` Area elements of `spots` Spot children each (so
/// `1 + areas * (spots + 1)` elements), every element with int, float, bool
/// and string attributes. Every Spot has its own `id`, so no run of
/// records repeats and deduplication leaves the file as it is.
#[doc(hidden)]
pub fn bench_tree(areas: usize, spots: usize) -> OwnedElement {
    let mut root = OwnedElement::root(Vec::with_capacity(areas));
    for a in 0..areas {
        let mut area = OwnedElement::new("Area")
            .attr("id", OwnedValue::Int(a as i32))
            .attr("name", OwnedValue::Str(format!("Area {a}")));
        area.children.reserve(spots);
        for s in 0..spots {
            area.children.push(
                OwnedElement::new("Spot")
                    .attr("id", OwnedValue::Int((a * spots + s) as i32))
                    .attr("x", OwnedValue::Float(s as f32 * 0.25))
                    .attr("active", OwnedValue::Bool(s % 3 == 0))
                    .attr("name", OwnedValue::Str(format!("spot-{}", s % 1000))),
            );
        }
        root.children.push(area);
    }
    root
}

/// Visits every element below `root` reading its name and every attribute
/// value; returns (elements, attributes).
#[doc(hidden)]
pub fn walk_all(root: crate::Element<'_>) -> (usize, usize) {
    let (mut elements, mut attributes) = (0, 0);
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        elements += 1;
        std::hint::black_box(e.name());
        for a in e.attributes() {
            attributes += 1;
            std::hint::black_box(a.value());
        }
        stack.extend(e.children());
    }
    (elements, attributes)
}
