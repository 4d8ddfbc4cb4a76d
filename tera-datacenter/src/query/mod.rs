//! Data center queries for mods, as tera-toolbox's `queryData`: a path
//! such as `/UserData/Template@id=?/` with arguments, run over an open
//! [`DataCenter`], returning typed nodes; results are
//! cached.
//!
//! ```
//! use tera_datacenter::query::{Arg, DataQueries, QueryOptions};
//! use tera_datacenter::{DataCenter, OwnedElement, OwnedValue, WriteOptions, write_dec};
//!
//! let template = |id, class: &str| {
//!     OwnedElement::new("Template")
//!         .attr("id", OwnedValue::Int(id))
//!         .attr("class", OwnedValue::Str(class.into()))
//! };
//! let tree = OwnedElement::root(vec![
//!     OwnedElement::new("UserData").child(template(10101, "warrior")).child(template(10102, "lancer")),
//! ]);
//! let dec = write_dec(&tree, &WriteOptions::default())?;
//! let dc = DataCenter::parse(&dec)?;
//! let queries = DataQueries::new(&dc);
//!
//! let lancer = queries.query_one("/UserData/Template@id=?/", &[Arg::Int(10102)])?;
//! assert_eq!(lancer.unwrap().str("class"), Some("lancer"));
//! let all = queries.query("/UserData/Template@id>=?", &[10101.into()], &QueryOptions::all())?;
//! assert_eq!(all.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod node;
mod op;
mod parse;
mod value;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::{DataCenter, Element};

pub use error::QueryError;
pub use node::Node;
pub use op::Op;
pub use parse::{Filter, Operand, Query, Step};
pub use value::Arg;

/// What a query returns (tera-toolbox's `findAll`, `children`,
/// `attributeFilter`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryOptions {
    /// Every match (`findAll`), not only the first.
    pub all: bool,
    /// The matches' children, copied whole (`children`).
    pub children: bool,
    /// Only these attributes (`attributeFilter`), all when `None`.
    pub attributes: Option<Vec<String>>,
}

impl Default for QueryOptions {
    /// tera-toolbox's defaults: the first match, with its children.
    fn default() -> Self {
        QueryOptions {
            all: false,
            children: true,
            attributes: None,
        }
    }
}

impl QueryOptions {
    /// Every match, with children.
    #[must_use]
    pub fn all() -> Self {
        QueryOptions {
            all: true,
            ..QueryOptions::default()
        }
    }

    /// Without children.
    #[must_use]
    pub fn without_children(mut self) -> Self {
        self.children = false;
        self
    }

    /// Only these attributes.
    #[must_use]
    pub fn only(mut self, attributes: &[&str]) -> Self {
        self.attributes = Some(attributes.iter().map(|a| (*a).to_owned()).collect());
        self
    }
}

/// The elements below `root` that `query` selects with `args`, in file
/// order (depth first); the first only unless `all`.
///
/// # Errors
/// [`QueryError::Arguments`] when `args` and the path's `?` differ in
/// number, [`QueryError::ListOrdering`] for a list with an ordering.
pub fn select<'d>(
    root: Element<'d>,
    query: &Query,
    args: &[Arg],
    all: bool,
) -> Result<Vec<Element<'d>>, QueryError> {
    check_args(query, args, "")?;
    let mut out = Vec::new();
    walk(root, &query.steps, args, all, &mut out);
    Ok(out)
}

fn check_args(query: &Query, args: &[Arg], path: &str) -> Result<(), QueryError> {
    if args.len() != query.arguments {
        return Err(QueryError::Arguments {
            path: path.to_owned(),
            expected: query.arguments,
            given: args.len(),
        });
    }
    let lists_ordered = query.steps.iter().flat_map(|s| &s.filters).any(|f| {
        let list = match &f.operand {
            Operand::Arg(i) => matches!(args.get(*i), Some(Arg::List(_))),
            Operand::Literal(arg) => matches!(arg, Arg::List(_)),
        };
        list && !matches!(f.op, Op::Eq | Op::Ne)
    });
    if lists_ordered {
        return Err(QueryError::ListOrdering {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// Depth first: the children of `at` matching the first step, then below
/// each the rest. Returns false once the first match is found and `all` is
/// off.
fn walk<'d>(
    at: Element<'d>,
    steps: &[Step],
    args: &[Arg],
    all: bool,
    out: &mut Vec<Element<'d>>,
) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        out.push(at);
        return all;
    };
    let index = match &step.name {
        Some(name) => match at.data_center().name_index(name) {
            Some(index) => Some(index),
            None => return true,
        },
        None => None,
    };
    for child in at.children() {
        if index.is_some_and(|i| child.name_index() != i) || !matches(child, &step.filters, args) {
            continue;
        }
        if !walk(child, rest, args, all, out) {
            return false;
        }
    }
    true
}

fn matches(element: Element<'_>, filters: &[Filter], args: &[Arg]) -> bool {
    filters.iter().all(|f| {
        let arg = match &f.operand {
            Operand::Arg(i) => args.get(*i),
            Operand::Literal(arg) => Some(arg),
        };
        match (element.attribute(&f.attribute), arg) {
            (Some(value), Some(arg)) => value::holds(&value, f.op, arg),
            // A missing attribute equals nothing: only `!=` holds.
            (None, Some(_)) => f.op == Op::Ne,
            (_, None) => false,
        }
    })
}

/// Queries over one data center, parsed paths and results cached: the same
/// path, arguments and options answer from the cache.
#[derive(Debug)]
pub struct DataQueries<'d> {
    dc: &'d DataCenter<'d>,
    parsed: Mutex<HashMap<String, Arc<Query>>>,
    results: Mutex<HashMap<String, Arc<[Node]>>>,
}

impl<'d> DataQueries<'d> {
    /// Queries over `dc`.
    #[must_use]
    pub fn new(dc: &'d DataCenter<'d>) -> Self {
        DataQueries {
            dc,
            parsed: Mutex::default(),
            results: Mutex::default(),
        }
    }

    /// The data center.
    #[must_use]
    pub fn data_center(&self) -> &'d DataCenter<'d> {
        self.dc
    }

    /// Runs `path` with `args` (one per `?`, in order).
    ///
    /// # Errors
    /// [`QueryError`]: a bad path, the wrong number of arguments, a list
    /// with an ordering, a result nested too deep.
    pub fn query(
        &self,
        path: &str,
        args: &[Arg],
        options: &QueryOptions,
    ) -> Result<Arc<[Node]>, QueryError> {
        let key = format!("{path}\u{0}{args:?}\u{0}{options:?}");
        if let Some(hit) = lock(&self.results).get(&key) {
            return Ok(Arc::clone(hit));
        }
        let query = self.parse(path)?;
        check_args(&query, args, path)?;
        let mut found = Vec::new();
        walk(self.dc.root(), &query.steps, args, options.all, &mut found);
        let nodes = found
            .into_iter()
            .map(|e| Node::of(e, options.children, options.attributes.as_deref()))
            .collect::<Result<Arc<[Node]>, _>>()?;
        lock(&self.results).insert(key, Arc::clone(&nodes));
        Ok(nodes)
    }

    /// The first match, with its children (tera-toolbox's defaults).
    ///
    /// # Errors
    /// As [`DataQueries::query`].
    pub fn query_one(&self, path: &str, args: &[Arg]) -> Result<Option<Node>, QueryError> {
        Ok(self
            .query(path, args, &QueryOptions::default())?
            .first()
            .cloned())
    }

    /// Every match, with children.
    ///
    /// # Errors
    /// As [`DataQueries::query`].
    pub fn query_all(&self, path: &str, args: &[Arg]) -> Result<Arc<[Node]>, QueryError> {
        self.query(path, args, &QueryOptions::all())
    }

    /// How many results are cached.
    #[must_use]
    pub fn cached(&self) -> usize {
        lock(&self.results).len()
    }

    /// Forgets the cached results.
    pub fn clear_cache(&self) {
        lock(&self.results).clear();
    }

    fn parse(&self, path: &str) -> Result<Arc<Query>, QueryError> {
        if let Some(q) = lock(&self.parsed).get(path) {
            return Ok(Arc::clone(q));
        }
        let query = Arc::new(Query::parse(path)?);
        lock(&self.parsed).insert(path.to_owned(), Arc::clone(&query));
        Ok(query)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
