//! The plan of one struct: its fields and the order of its pieces on the
//! wire, built once from the front end's [`FieldSpec`]s.

use crate::error::{PlanError, PlanErrorKind};
use crate::spec::{Encoding, FieldSpec, Named};

/// One piece of a block, in wire order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The metadata words of field `.0`, placed by an explicit ref.
    Ref(usize),
    /// Field `.0`, whole.
    Field(usize),
    /// Part `part` of split object `field`.
    Part {
        /// The split object.
        field: usize,
        /// Which part (0 is where the object is declared).
        part: usize,
    },
    /// Field `.0` again: a fixed field the def declares twice. Reading keeps
    /// the last copy, writing writes the value twice.
    Again(usize),
}

impl Step {
    /// The field this step belongs to.
    pub fn field(self) -> usize {
        match self {
            Step::Ref(i) | Step::Field(i) | Step::Again(i) | Step::Part { field: i, .. } => i,
        }
    }
}

/// A field of a planned struct: what the front end said, resolved to
/// indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedField {
    /// The identifier (without `r#`).
    pub ident: String,
    /// The def's name, for errors and JSON.
    pub wire_name: String,
    /// What the front end knows of its layout.
    pub encoding: Encoding,
    /// `[interleaved]`.
    pub interleaved: bool,
    /// The fields whose explicit refs sit right before this one.
    pub refs_before: Vec<usize>,
    /// Whether an explicit ref places this field's metadata.
    pub has_ref: bool,
    /// For a split object: the fields after which parts 1, 2, ... sit.
    pub parts_after: Vec<usize>,
    /// For a repeated field: the field after which its copy sits.
    pub again_after: Option<usize>,
    /// In a split object's own struct: the part this field belongs to.
    pub part: usize,
    /// Whether this field starts its part (`part = N` on it).
    pub starts_part: bool,
}

impl PlannedField {
    /// Whether the field is a known fixed-size field that can join a run
    /// (read and written with its neighbours under one bounds check).
    pub fn runs(&self) -> bool {
        self.encoding.is_fixed() && !self.interleaved
    }
}

/// The wire plan of a struct: a block (root or array element) or an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    fields: Vec<PlannedField>,
    steps: Vec<Step>,
    explicit: bool,
    parts: usize,
}

impl Plan {
    /// Plans a struct from its fields in declaration order. `whole` is the
    /// span of the struct, for mistakes about it as a whole. Every mistake
    /// is reported.
    pub fn new<S: Clone>(fields: &[FieldSpec<S>], whole: S) -> Result<Plan, Vec<PlanError<S>>> {
        let mut errors = Vec::new();
        let index_of = |named: &Named<S>, errors: &mut Vec<PlanError<S>>| {
            let found = fields.iter().position(|f| f.ident == named.name);
            if found.is_none() {
                errors.push(PlanError {
                    kind: PlanErrorKind::UnknownField(named.name.clone()),
                    span: named.span.clone(),
                });
            }
            found
        };

        let mut planned: Vec<PlannedField> = fields
            .iter()
            .map(|f| PlannedField {
                ident: f.ident.clone(),
                wire_name: f.wire_name.clone(),
                encoding: f.encoding,
                interleaved: f.interleaved,
                refs_before: Vec::new(),
                has_ref: false,
                parts_after: Vec::new(),
                again_after: None,
                part: 0,
                starts_part: f.part.is_some(),
            })
            .collect();

        let mut current_part = 0;
        for (i, f) in fields.iter().enumerate() {
            if let Some((n, span)) = &f.part {
                if *n != current_part + 1 {
                    errors.push(PlanError {
                        kind: PlanErrorKind::PartOutOfOrder {
                            expected: current_part + 1,
                        },
                        span: span.clone(),
                    });
                }
                current_part = *n;
            }
            planned[i].part = current_part;

            for named in &f.refs_before {
                let Some(j) = index_of(named, &mut errors) else {
                    continue;
                };
                if j < i {
                    errors.push(PlanError {
                        kind: PlanErrorKind::RefAfterField(named.name.clone()),
                        span: named.span.clone(),
                    });
                } else if std::mem::replace(&mut planned[j].has_ref, true) {
                    errors.push(PlanError {
                        kind: PlanErrorKind::TwoRefs(named.name.clone()),
                        span: named.span.clone(),
                    });
                } else {
                    planned[i].refs_before.push(j);
                }
            }
            for named in &f.parts_after {
                let Some(a) = index_of(named, &mut errors) else {
                    continue;
                };
                if a <= i {
                    errors.push(PlanError {
                        kind: PlanErrorKind::PartBeforeObject,
                        span: named.span.clone(),
                    });
                } else {
                    planned[i].parts_after.push(a);
                }
            }
            if let Some(named) = &f.again_after
                && let Some(a) = index_of(named, &mut errors)
            {
                // Repeated right after itself (`int32 a` twice in a row) or later.
                if a < i {
                    errors.push(PlanError {
                        kind: PlanErrorKind::AgainBeforeField,
                        span: named.span.clone(),
                    });
                } else {
                    planned[i].again_after = Some(a);
                }
            }
        }

        let marked: Vec<usize> = (0..fields.len())
            .filter(|&i| fields[i].interleaved)
            .collect();
        if let (Some(&first), Some(&last)) = (marked.first(), marked.last()) {
            for gap in (first..=last).filter(|&i| !fields[i].interleaved) {
                errors.push(PlanError {
                    kind: PlanErrorKind::InterleavedNotConsecutive,
                    span: fields[gap].span.clone(),
                });
            }
        }

        let explicit = fields.iter().any(|f| !f.refs_before.is_empty());
        let parts = planned.iter().map(|f| f.part + 1).max().unwrap_or(1);
        if explicit && parts > 1 {
            errors.push(PlanError {
                kind: PlanErrorKind::SplitWithRefs,
                span: whole,
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }

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
                    steps.push(Step::Again(k));
                }
            }
        }
        Ok(Plan {
            fields: planned,
            steps,
            explicit,
            parts,
        })
    }

    /// The fields in declaration order.
    pub fn fields(&self) -> &[PlannedField] {
        &self.fields
    }

    /// Field `i`.
    pub fn field(&self, i: usize) -> &PlannedField {
        &self.fields[i]
    }

    /// Every piece in wire order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The pieces of part `part` of a split object, in wire order (all of
    /// them when `part` is `None`).
    pub fn steps_of(&self, part: Option<usize>) -> Vec<Step> {
        self.steps
            .iter()
            .copied()
            .filter(|s| part.is_none_or(|p| self.fields[s.field()].part == p))
            .collect()
    }

    /// Whether explicit refs place the metadata (implicit metadata is off).
    pub fn explicit(&self) -> bool {
        self.explicit
    }

    /// The number of parts: more than 1 for a split object's struct.
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Where field `i` finds its metadata words.
    pub fn meta_of(&self, i: usize) -> Meta {
        if self.explicit && !self.fields[i].has_ref {
            Meta::AtCursor
        } else {
            Meta::Slot
        }
    }
}

/// Where a field's metadata words are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meta {
    /// In its slot: at the front of the block (implicit layout) or where its
    /// ref sits (explicit).
    Slot,
    /// Nowhere: a field without a ref in an explicit layout has none (its
    /// type must agree), so it is given the cursor.
    AtCursor,
}
