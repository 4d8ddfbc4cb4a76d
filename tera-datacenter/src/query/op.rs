//! The comparisons of a filter, which the parser reads and values apply.

/// A comparison of a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=` (with a list: in the list).
    Eq,
    /// `!=` (with a list: not in the list).
    Ne,
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
    /// `<=`.
    Le,
    /// `<`.
    Lt,
}
