//! The order the writer stores children in.

use std::cmp::Ordering;

use super::source::{Source, ValueRef};

/// Scratch buffers of [`sort_children`], kept from element to element.
#[derive(Default)]
pub(crate) struct ChildOrder<'s> {
    /// Name index and key values of each child.
    keys: Vec<(u16, [Option<ValueRef<'s>>; 4])>,
    /// The children's indexes, sorted.
    pub(crate) order: Vec<usize>,
    attributes: Vec<(u16, ValueRef<'s>)>,
}

impl<'s> ChildOrder<'s> {
    /// Sorts the indexes of `children` into `self.order`: stably by name
    /// index, then by the values of each child's key attributes (a missing
    /// one first).
    pub(crate) fn sort<S: Source>(&mut self, source: &'s S, children: &[S::Node]) {
        self.keys.clear();
        for &c in children {
            let key = source.key(c);
            let mut values = [None; 4];
            if key != [0; 4] {
                self.attributes.clear();
                source.attributes(c, &mut self.attributes);
                for (slot, k) in values.iter_mut().zip(key) {
                    *slot = self
                        .attributes
                        .iter()
                        .find(|a| a.0 == k && k != 0)
                        .map(|a| a.1);
                }
            }
            self.keys.push((source.name(c), values));
        }
        self.order.clear();
        self.order.extend(0..children.len());
        let keys = &self.keys;
        self.order.sort_by(|&a, &b| {
            let (na, ka) = &keys[a];
            let (nb, kb) = &keys[b];
            na.cmp(nb).then_with(|| key_values_order(ka, kb))
        });
    }
}

fn key_values_order(a: &[Option<ValueRef<'_>>; 4], b: &[Option<ValueRef<'_>>; 4]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => x.key_order(y),
            (x, y) => x.is_some().cmp(&y.is_some()),
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}
