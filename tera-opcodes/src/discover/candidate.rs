//! A candidate entry and a pinned one, as discovery weighs them.

use crate::fit::Fit;
use crate::links::Digest;
use crate::report::Evidence;

/// One candidate: a group, a name, the fit and what its values hold.
pub(super) struct Candidate {
    pub(super) group: usize,
    pub(super) name: usize,
    pub(super) fit: Fit,
    pub(super) digest: Digest,
    /// Evidence that does not change between rounds.
    pub(super) fixed: Vec<Evidence>,
    /// The whole evidence of the last round.
    pub(super) evidence: Vec<Evidence>,
    pub(super) weight: f64,
}

/// A pinned entry: fixed or known.
pub(super) struct Pin {
    pub(super) name: String,
    pub(super) opcode: u16,
    pub(super) fixed: bool,
    pub(super) group: Option<usize>,
    pub(super) def: Option<usize>,
    pub(super) fit: Option<Fit>,
    pub(super) digest: Digest,
}
