//! The second stage of planning: each rule of placement, checked on its
//! own over the resolved placements.

use super::resolve::{Concern, Link, Links, Mistakes, Placement};
use crate::error::PlanErrorKind;
use crate::spec::FieldSpec;

/// `part = N` markers count up from 1, in field order.
pub(super) fn parts_count_up<S: Clone>(fields: &[FieldSpec<S>], mistakes: &mut Mistakes<S>) {
    let mut current = 0;
    for (at, f) in fields.iter().enumerate() {
        let Some((n, span)) = &f.part else {
            continue;
        };
        if *n != current + 1 {
            mistakes.push(
                Concern::Field {
                    at,
                    placement: Placement::PartMarker,
                    nth: 0,
                },
                PlanErrorKind::PartOutOfOrder {
                    expected: current + 1,
                },
                span.clone(),
            );
        }
        current = *n;
    }
}

/// A ref sits before (or right at) the field whose metadata it places.
pub(super) fn refs_come_before_their_fields<S: Clone>(
    links: &Links<'_, S>,
    mistakes: &mut Mistakes<S>,
) {
    report(
        &links.refs,
        Placement::Ref,
        |l| l.target < l.at,
        |l| PlanErrorKind::RefAfterField(l.named.name.clone()),
        mistakes,
    );
}

/// A field's metadata is placed by one ref at most (a ref after its field,
/// a mistake of its own, places nothing).
pub(super) fn one_ref_per_field<S: Clone>(links: &Links<'_, S>, mistakes: &mut Mistakes<S>) {
    let mut placed = Vec::new();
    for link in links.refs.iter().filter(|l| l.target >= l.at) {
        if placed.contains(&link.target) {
            mistakes.push(
                Concern::Field {
                    at: link.at,
                    placement: Placement::Ref,
                    nth: link.nth,
                },
                PlanErrorKind::TwoRefs(link.named.name.clone()),
                link.named.span.clone(),
            );
        } else {
            placed.push(link.target);
        }
    }
}

/// A split object's later parts sit after later fields.
pub(super) fn parts_come_after_their_object<S: Clone>(
    links: &Links<'_, S>,
    mistakes: &mut Mistakes<S>,
) {
    report(
        &links.parts,
        Placement::Part,
        |l| l.target <= l.at,
        |_| PlanErrorKind::PartBeforeObject,
        mistakes,
    );
}

/// A repeated field is repeated after itself (`int32 a` twice in a row) or
/// a later field.
pub(super) fn repeats_come_after_their_field<S: Clone>(
    links: &Links<'_, S>,
    mistakes: &mut Mistakes<S>,
) {
    report(
        &links.repeats,
        Placement::Repeat,
        |l| l.target < l.at,
        |_| PlanErrorKind::RepeatBeforeField,
        mistakes,
    );
}

/// Each link of `links` (of its field's `placement`) that is `wrong` is a
/// mistake of `kind`, at the name as written.
fn report<S: Clone>(
    links: &[Link<'_, S>],
    placement: Placement,
    wrong: impl Fn(&Link<'_, S>) -> bool,
    kind: impl Fn(&Link<'_, S>) -> PlanErrorKind,
    mistakes: &mut Mistakes<S>,
) {
    for link in links.iter().filter(|l| wrong(l)) {
        mistakes.push(
            Concern::Field {
                at: link.at,
                placement,
                nth: link.nth,
            },
            kind(link),
            link.named.span.clone(),
        );
    }
}

/// `[interleaved]` arrays are consecutive fields: no other field between
/// the first and the last.
pub(super) fn interleaved_arrays_are_consecutive<S: Clone>(
    fields: &[FieldSpec<S>],
    mistakes: &mut Mistakes<S>,
) {
    let first = fields.iter().position(|f| f.interleaved);
    let last = fields.iter().rposition(|f| f.interleaved);
    let (Some(first), Some(last)) = (first, last) else {
        return;
    };
    for (gap, f) in fields.iter().enumerate().take(last + 1).skip(first) {
        if !f.interleaved {
            mistakes.push(
                Concern::Interleaved(gap),
                PlanErrorKind::InterleavedNotConsecutive,
                f.span.clone(),
            );
        }
    }
}

/// A split object's struct places no metadata with refs.
pub(super) fn split_objects_have_no_refs<S: Clone>(
    fields: &[FieldSpec<S>],
    whole: S,
    mistakes: &mut Mistakes<S>,
) {
    let explicit = fields.iter().any(|f| !f.refs_before.is_empty());
    let split = fields
        .iter()
        .any(|f| f.part.as_ref().is_some_and(|(n, _)| *n > 0));
    if explicit && split {
        mistakes.push(Concern::Whole, PlanErrorKind::SplitWithRefs, whole);
    }
}
