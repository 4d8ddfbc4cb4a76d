//! Mistakes in a struct's placement, found while planning.

use std::fmt;

/// One mistake, at the span of what was written wrong. The planner reports
/// every mistake of a struct, not only the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError<S> {
    /// What is wrong.
    pub kind: PlanErrorKind,
    /// Where.
    pub span: S,
}

/// What is wrong with a placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanErrorKind {
    /// A placement names a field the struct does not have.
    UnknownField(String),
    /// `refs_before` of a field that comes before the ref.
    RefAfterField(String),
    /// A field placed by two refs.
    TwoRefs(String),
    /// A later part of a split object anchored at or before the object.
    PartBeforeObject,
    /// A repeated field anchored before its first copy.
    RepeatBeforeField,
    /// A field between interleaved arrays.
    InterleavedNotConsecutive,
    /// `part = N` markers that do not count up from 1.
    PartOutOfOrder {
        /// The marker that was expected here.
        expected: usize,
    },
    /// A split object cannot place its metadata with explicit refs.
    SplitWithRefs,
}

impl fmt::Display for PlanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanErrorKind::UnknownField(name) => write!(f, "no field named `{name}`"),
            PlanErrorKind::RefAfterField(name) => {
                write!(f, "the ref of `{name}` must come before the field itself")
            }
            PlanErrorKind::TwoRefs(name) => write!(f, "`{name}` has two refs"),
            PlanErrorKind::PartBeforeObject => {
                f.write_str("a later part of a split object must come after a later field")
            }
            PlanErrorKind::RepeatBeforeField => {
                f.write_str("a repeated field must be repeated after itself or a later field")
            }
            PlanErrorKind::InterleavedNotConsecutive => f.write_str(
                "`interleaved` arrays must be consecutive fields: this field separates them",
            ),
            PlanErrorKind::PartOutOfOrder { expected } => {
                write!(f, "expected `part = {expected}`: parts count up from 1")
            }
            PlanErrorKind::SplitWithRefs => {
                f.write_str("a split object cannot place its metadata with `refs_before`")
            }
        }
    }
}

impl<S> fmt::Display for PlanError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl<S: fmt::Debug> std::error::Error for PlanError<S> {}
