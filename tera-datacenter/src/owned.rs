//! An owned, in-memory tree: what the writer takes and what tests compare.

use std::cmp::Ordering;

use crate::problem::Problem;
use crate::tree::{Element, Value};

/// An owned attribute value.
#[derive(Debug, Clone)]
pub enum OwnedValue {
    /// A 32-bit integer.
    Int(i32),
    /// A boolean.
    Bool(bool),
    /// A 32-bit float (compared by bits, so NaN equals itself).
    Float(f32),
    /// A string.
    Str(String),
}

impl PartialEq for OwnedValue {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (OwnedValue::Int(a), OwnedValue::Int(b)) => a == b,
            (OwnedValue::Bool(a), OwnedValue::Bool(b)) => a == b,
            (OwnedValue::Float(a), OwnedValue::Float(b)) => a.to_bits() == b.to_bits(),
            (OwnedValue::Str(a), OwnedValue::Str(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for OwnedValue {}

impl From<Value<'_>> for OwnedValue {
    fn from(v: Value<'_>) -> Self {
        match v {
            Value::Int(v) => OwnedValue::Int(v),
            Value::Bool(v) => OwnedValue::Bool(v),
            Value::Float(v) => OwnedValue::Float(v),
            Value::Str(s) => OwnedValue::Str(s.to_string_lossy()),
        }
    }
}

/// An owned element: name, attributes (the text is the `__value__` string
/// attribute) and children.
///
/// Drop, clone and comparison do not recurse: a tree of any depth is fine.
#[derive(Debug, Default)]
pub struct OwnedElement {
    /// The name.
    pub name: String,
    /// Name/value pairs; names are unique within an element.
    pub attributes: Vec<(String, OwnedValue)>,
    /// The children, in order.
    pub children: Vec<OwnedElement>,
}

impl Drop for OwnedElement {
    // Deep trees would overflow the stack with the recursive drop glue.
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut e) = stack.pop() {
            stack.append(&mut e.children);
        }
    }
}

impl PartialEq for OwnedElement {
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.name != b.name
                || a.attributes != b.attributes
                || a.children.len() != b.children.len()
            {
                return false;
            }
            stack.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl Eq for OwnedElement {}

impl Clone for OwnedElement {
    fn clone(&self) -> Self {
        let shallow = |e: &OwnedElement| OwnedElement {
            name: e.name.clone(),
            attributes: e.attributes.clone(),
            children: Vec::with_capacity(e.children.len()),
        };
        let mut stack = vec![(shallow(self), self.children.iter())];
        loop {
            let top = stack.last_mut().expect("the root frame is popped last");
            match top.1.next() {
                Some(child) => stack.push((shallow(child), child.children.iter())),
                None => {
                    let (done, _) = stack.pop().expect("non-empty");
                    match stack.last_mut() {
                        Some(parent) => parent.0.children.push(done),
                        None => return done,
                    }
                }
            }
        }
    }
}

/// The order the writer gives names: by UTF-16 code units, except that
/// `__root__` and `__value__` come after all others (the format requires them
/// to have the last indexes).
pub fn name_order(a: &str, b: &str) -> Ordering {
    fn special(s: &str) -> u8 {
        match s {
            "__root__" => 1,
            "__value__" => 2,
            _ => 0,
        }
    }
    special(a)
        .cmp(&special(b))
        .then_with(|| a.encode_utf16().cmp(b.encode_utf16()))
}

impl OwnedElement {
    /// A new element without attributes or children.
    pub fn new(name: impl Into<String>) -> Self {
        OwnedElement {
            name: name.into(),
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// A `__root__` element with these children.
    pub fn root(children: Vec<OwnedElement>) -> Self {
        OwnedElement {
            name: "__root__".into(),
            attributes: Vec::new(),
            children,
        }
    }

    /// Adds an attribute (builder style).
    pub fn attr(mut self, name: impl Into<String>, value: OwnedValue) -> Self {
        self.attributes.push((name.into(), value));
        self
    }

    /// Sets the text (`__value__`), builder style.
    pub fn text(self, text: impl Into<String>) -> Self {
        self.attr("__value__", OwnedValue::Str(text.into()))
    }

    /// Adds a child (builder style).
    pub fn child(mut self, child: OwnedElement) -> Self {
        self.children.push(child);
        self
    }

    /// Number of elements in the tree, this one included.
    pub fn element_count(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            n += 1;
            stack.extend(e.children.iter());
        }
        n
    }

    /// Puts the tree in the order the writer stores it: attributes by name,
    /// children stably by name (see [`name_order`]). Reading a written tree
    /// gives back the canonical form of the tree that was written.
    pub fn canonicalize(&mut self) {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            e.attributes.sort_by(|a, b| name_order(&a.0, &b.0));
            e.children.sort_by(|a, b| name_order(&a.name, &b.name));
            stack.extend(e.children.iter_mut());
        }
    }

    /// The canonical form (see [`canonicalize`](Self::canonicalize)).
    pub fn canonical(mut self) -> Self {
        self.canonicalize();
        self
    }
}

impl Element<'_> {
    /// Copies this element and everything below it into an owned tree
    /// (strings decoded lossily). A run of children that several elements
    /// share is copied under each of them; a cycle is an error (a
    /// [`ProblemKind::Cycle`](crate::ProblemKind::Cycle)).
    pub fn to_owned_tree(&self) -> Result<OwnedElement, Problem> {
        let dc = self.data_center();
        // The elements from this one to the one being copied.
        let mut on_path = vec![false; dc.node_count()];
        let own = |e: &Element<'_>| OwnedElement {
            name: e.name().to_string_lossy(),
            attributes: e
                .attributes()
                .map(|a| (a.name().to_string_lossy(), a.value().into()))
                .collect(),
            children: Vec::with_capacity(e.child_count()),
        };
        on_path[dc.node_ordinal(self.address())] = true;
        // Frames of (element being built, the element, its remaining
        // children, its ordinal).
        let mut stack = vec![(
            own(self),
            *self,
            self.children(),
            dc.node_ordinal(self.address()),
        )];
        loop {
            let top = stack.last_mut().expect("the root frame is popped last");
            match top.2.next() {
                Some(child) => {
                    let ord = dc.node_ordinal(child.address());
                    if std::mem::replace(&mut on_path[ord], true) {
                        return Err(top.1.cycle());
                    }
                    stack.push((own(&child), child, child.children(), ord));
                }
                None => {
                    let (done, _, _, ord) = stack.pop().expect("non-empty");
                    on_path[ord] = false;
                    match stack.last_mut() {
                        Some(parent) => parent.0.children.push(done),
                        None => return Ok(done),
                    }
                }
            }
        }
    }
}
