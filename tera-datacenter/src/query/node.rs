//! Query results as owned, typed nodes (tera-toolbox's
//! `{ name, attributes, children }`).

use crate::{Element, OwnedValue};

use super::error::QueryError;

/// The depth below a result past which children are not copied (data
/// center trees are a few levels deep; a hostile file may be deeper).
const MAX_DEPTH: usize = 256;

/// A node of a query's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The element's name.
    pub name: String,
    /// Its attributes (those asked for), typed.
    pub attributes: Vec<(String, OwnedValue)>,
    /// Its children, when asked for.
    pub children: Vec<Node>,
}

impl Node {
    /// The attribute `name`.
    #[must_use]
    pub fn attribute(&self, name: &str) -> Option<&OwnedValue> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// The integer attribute `name`.
    #[must_use]
    pub fn int(&self, name: &str) -> Option<i32> {
        match self.attribute(name)? {
            OwnedValue::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The float attribute `name`.
    #[must_use]
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attribute(name)? {
            OwnedValue::Float(v) => Some(*v),
            _ => None,
        }
    }

    /// The boolean attribute `name`.
    #[must_use]
    pub fn bool(&self, name: &str) -> Option<bool> {
        match self.attribute(name)? {
            OwnedValue::Bool(v) => Some(*v),
            _ => None,
        }
    }

    /// The string attribute `name`.
    #[must_use]
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.attribute(name)? {
            OwnedValue::Str(v) => Some(v),
            _ => None,
        }
    }

    /// The children called `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Copies `element` (with its children when `children`), keeping the
    /// attributes `only` names (all without it).
    pub(super) fn of(
        element: Element<'_>,
        children: bool,
        only: Option<&[String]>,
    ) -> Result<Node, QueryError> {
        Node::copy(element, children, only, 0)
    }

    fn copy(
        element: Element<'_>,
        children: bool,
        only: Option<&[String]>,
        depth: usize,
    ) -> Result<Node, QueryError> {
        if depth > MAX_DEPTH {
            return Err(QueryError::TooDeep { depth: MAX_DEPTH });
        }
        let attributes = element
            .attributes()
            .map(|a| (a.name().to_string_lossy(), a.value()))
            .filter(|(name, _)| only.is_none_or(|only| only.iter().any(|o| o == name)))
            .map(|(name, value)| (name, OwnedValue::from(value)))
            .collect();
        let children = if children {
            element
                .children()
                .map(|c| Node::copy(c, true, None, depth + 1))
                .collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        Ok(Node {
            name: element.name().to_string_lossy(),
            attributes,
            children,
        })
    }
}
