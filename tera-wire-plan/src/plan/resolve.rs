//! The first stage of planning: the names that placements give (`ref`
//! lines, split objects' anchors, repeated fields' anchors) resolved to the
//! fields they name; and the mistakes of every stage, collected to be
//! reported in field order.

use crate::error::{PlanError, PlanErrorKind};
use crate::spec::{FieldSpec, Named};

/// A placement's name resolved to the field it names.
pub(super) struct Link<'f, S> {
    /// The field whose attribute or line gives the name.
    pub at: usize,
    /// The name's position in that field's list.
    pub nth: usize,
    /// The name as written.
    pub named: &'f Named<S>,
    /// The field it names.
    pub target: usize,
}

/// Every resolved placement of a struct, by kind, in field order.
pub(super) struct Links<'f, S> {
    /// `refs_before`: the ref of `target` sits right before field `at`.
    pub refs: Vec<Link<'f, S>>,
    /// `parts_after`: part `nth + 1` of split object `at` sits after
    /// field `target`.
    pub parts: Vec<Link<'f, S>>,
    /// `again_after`: field `at` is repeated after field `target`.
    pub repeats: Vec<Link<'f, S>>,
}

impl<'f, S: Clone> Links<'f, S> {
    /// Resolves every name of `fields`; a name of no field is a mistake.
    pub fn resolve(fields: &'f [FieldSpec<S>], mistakes: &mut Mistakes<S>) -> Self {
        let mut links = Links {
            refs: Vec::new(),
            parts: Vec::new(),
            repeats: Vec::new(),
        };
        for (at, f) in fields.iter().enumerate() {
            let placements = [
                (Placement::Ref, &mut links.refs, f.refs_before.as_slice()),
                (Placement::Part, &mut links.parts, f.parts_after.as_slice()),
                (
                    Placement::Repeat,
                    &mut links.repeats,
                    f.again_after.as_slice(),
                ),
            ];
            for (placement, out, names) in placements {
                for (nth, named) in names.iter().enumerate() {
                    match fields.iter().position(|g| g.ident == named.name) {
                        Some(target) => out.push(Link {
                            at,
                            nth,
                            named,
                            target,
                        }),
                        None => mistakes.push(
                            Concern::Field { at, placement, nth },
                            PlanErrorKind::UnknownField(named.name.clone()),
                            named.span.clone(),
                        ),
                    }
                }
            }
        }
        links
    }
}

/// The kinds of a field's placements, in the order their mistakes are
/// reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Placement {
    /// `part = N`.
    PartMarker,
    /// `refs_before(..)`.
    Ref,
    /// `parts_after(..)`.
    Part,
    /// `again_after(..)`.
    Repeat,
}

/// What a mistake concerns. Mistakes are reported in the order a reader
/// meets them: each field's placements in turn, then the fields that
/// separate interleaved arrays, then the struct as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Concern {
    /// The `nth` name of field `at`'s `placement`.
    Field {
        /// The field.
        at: usize,
        /// Which of its placements.
        placement: Placement,
        /// Which name of the placement's list.
        nth: usize,
    },
    /// Field `.0`, which separates interleaved arrays.
    Interleaved(usize),
    /// The struct as a whole.
    Whole,
}

/// The mistakes found by every stage, each with what it concerns.
pub(super) struct Mistakes<S>(Vec<(Concern, PlanError<S>)>);

impl<S> Default for Mistakes<S> {
    fn default() -> Self {
        Mistakes(Vec::new())
    }
}

impl<S> Mistakes<S> {
    /// Records a mistake of `kind` at `span`.
    pub fn push(&mut self, concern: Concern, kind: PlanErrorKind, span: S) {
        self.0.push((concern, PlanError { kind, span }));
    }

    /// Every mistake in the order of what they concern, or `Ok` when there
    /// were none.
    pub fn finish(mut self) -> Result<(), Vec<PlanError<S>>> {
        if self.0.is_empty() {
            return Ok(());
        }
        // Stable: a rule's mistakes about one name keep their order.
        self.0.sort_by_key(|(concern, _)| *concern);
        Err(self.0.into_iter().map(|(_, e)| e).collect())
    }
}
