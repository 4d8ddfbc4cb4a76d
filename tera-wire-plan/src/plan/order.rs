//! The last stage of planning: the checked placements turned into planned
//! fields and the pieces put in wire order.

use super::resolve::Links;
use super::{Plan, PlannedField, Step};
use crate::spec::FieldSpec;

/// The plan of `fields`, whose placements `links` passed every rule.
pub(super) fn plan<S>(fields: &[FieldSpec<S>], links: &Links<'_, S>) -> Plan {
    let mut current_part = 0;
    let mut planned: Vec<PlannedField> = fields
        .iter()
        .map(|f| {
            if let Some((n, _)) = f.part {
                current_part = n;
            }
            PlannedField {
                ident: f.ident.clone(),
                wire_name: f.wire_name.clone(),
                encoding: f.encoding,
                interleaved: f.interleaved,
                refs_before: Vec::new(),
                has_ref: false,
                parts_after: Vec::new(),
                again_after: None,
                part: current_part,
                starts_part: f.part.is_some(),
            }
        })
        .collect();
    for link in &links.refs {
        planned[link.at].refs_before.push(link.target);
        planned[link.target].has_ref = true;
    }
    for link in &links.parts {
        planned[link.at].parts_after.push(link.target);
    }
    for link in &links.repeats {
        planned[link.at].again_after = Some(link.target);
    }
    let steps = steps(&planned);
    Plan {
        explicit: fields.iter().any(|f| !f.refs_before.is_empty()),
        parts: planned.iter().map(|f| f.part + 1).max().unwrap_or(1),
        fields: planned,
        steps,
    }
}

/// Every piece in wire order: each field's refs, then the field (or the
/// first part of a split object), then the later parts and the repeats
/// anchored after it.
fn steps(planned: &[PlannedField]) -> Vec<Step> {
    let mut steps = Vec::new();
    for (i, f) in planned.iter().enumerate() {
        steps.extend(f.refs_before.iter().map(|&j| Step::Ref(j)));
        steps.push(if f.parts_after.is_empty() {
            Step::Field(i)
        } else {
            Step::Part { field: i, part: 0 }
        });
        for (k, other) in planned.iter().enumerate() {
            if let Some(p) = other.parts_after.iter().position(|&a| a == i) {
                steps.push(Step::Part {
                    field: k,
                    part: p + 1,
                });
            }
        }
        for (k, other) in planned.iter().enumerate() {
            if other.again_after == Some(i) {
                steps.push(Step::Repeat(k));
            }
        }
    }
    steps
}
