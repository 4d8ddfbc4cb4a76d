//! The plan of one struct: its fields and the order of its pieces on the
//! wire, built once from the front end's [`FieldSpec`]s.

mod order;
mod resolve;
mod rules;

use crate::error::PlanError;
use crate::spec::{Encoding, FieldSpec};
use resolve::{Links, Mistakes};

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
    /// The second copy of field `.0`: a fixed field the def declares twice
    /// (`again_after`). Reading keeps the last copy, writing writes the
    /// value twice.
    Repeat(usize),
}

impl Step {
    /// The field this step belongs to.
    pub fn field(self) -> usize {
        match self {
            Step::Ref(i) | Step::Field(i) | Step::Repeat(i) | Step::Part { field: i, .. } => i,
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
    /// Whether the field joins runs of fixed pieces: a known fixed-size
    /// field, not interleaved, read and written with its fixed neighbours
    /// under one bounds check.
    pub fn joins_runs(&self) -> bool {
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
    /// is reported, in the order of the fields they concern.
    ///
    /// Three stages: the names in placements are resolved to fields
    /// (`resolve`), each rule of placement is checked on its own
    /// (`rules`), and the pieces are put in wire order (`order`).
    pub fn new<S: Clone>(fields: &[FieldSpec<S>], whole: S) -> Result<Plan, Vec<PlanError<S>>> {
        let mut mistakes = Mistakes::default();
        let links = Links::resolve(fields, &mut mistakes);
        rules::parts_count_up(fields, &mut mistakes);
        rules::refs_come_before_their_fields(&links, &mut mistakes);
        rules::one_ref_per_field(&links, &mut mistakes);
        rules::parts_come_after_their_object(&links, &mut mistakes);
        rules::repeats_come_after_their_field(&links, &mut mistakes);
        rules::interleaved_arrays_are_consecutive(fields, &mut mistakes);
        rules::split_objects_have_no_refs(fields, whole, &mut mistakes);
        mistakes.finish()?;
        Ok(order::plan(fields, &links))
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
