//! Why a query could not run.

/// A query that could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// The path is not of the language.
    #[error("{path}: at byte {at}, expected {expected}")]
    Syntax {
        /// The path.
        path: String,
        /// The byte where it went wrong.
        at: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// The path's `?` and the arguments differ in number.
    #[error("{path}: {expected} argument(s) for its `?`, {given} given")]
    Arguments {
        /// The path.
        path: String,
        /// Its `?`.
        expected: usize,
        /// The arguments given.
        given: usize,
    },
    /// A result nests deeper than queries copy.
    #[error("a result nests deeper than {depth} levels")]
    TooDeep {
        /// The deepest level copied.
        depth: usize,
    },
    /// A list compared with an ordering (`>=`, `>`, `<=`, `<`).
    #[error("{path}: a list argument compares with `=` or `!=` only")]
    ListOrdering {
        /// The path.
        path: String,
    },
}
