//! The pieces of a plan grouped the way code walks them: runs of fixed
//! pieces under one bounds check, groups of interleaved arrays, and single
//! pieces.

use crate::plan::{Plan, Step};

/// Whether the pieces after a segment read at the cursor (see
/// [`Plan::cursor_reads_after`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CursorReadsAfter {
    /// Something certainly does: a run, a part, a repeated or an
    /// interleaved field.
    Certainly,
    /// Exactly when the type of one of these fields reads at the cursor
    /// (`Wire::READS_AT_CURSOR`); never when the list is empty.
    IfAnyOf(Vec<usize>),
}

/// A group of consecutive steps that code handles together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Fixed pieces in a row (known fixed-size fields and explicit refs):
    /// one bounds check covers them all. Never empty.
    Run(Vec<Step>),
    /// Consecutive `[interleaved]` arrays: their elements alternate.
    Interleaved(Vec<usize>),
    /// Any other piece: a variable, object or opaque field, a part of a
    /// split object, a repeated field.
    Single(Step),
}

impl Plan {
    /// Groups `steps` (of [`Plan::steps_of`]) into segments.
    pub fn segments(&self, steps: &[Step]) -> Vec<Segment> {
        let mut out: Vec<Segment> = Vec::new();
        for &step in steps {
            let runs = match step {
                Step::Ref(_) => true,
                Step::Field(i) => self.field(i).joins_runs(),
                Step::Part { .. } | Step::Repeat(_) => false,
            };
            let interleaved = matches!(step, Step::Field(i) if self.field(i).interleaved);
            match (out.last_mut(), step) {
                (Some(Segment::Run(run)), _) if runs => run.push(step),
                (Some(Segment::Interleaved(group)), Step::Field(i)) if interleaved => group.push(i),
                (_, _) if runs => out.push(Segment::Run(vec![step])),
                (_, Step::Field(i)) if interleaved => out.push(Segment::Interleaved(vec![i])),
                _ => out.push(Segment::Single(step)),
            }
        }
        out
    }

    /// The implicit metadata slots of `steps`, in order: each whole field
    /// and each part of a split object has one (of its type's size, maybe
    /// 0 words). Empty for an explicit layout, whose refs place them.
    pub fn meta_slots(&self, steps: &[Step]) -> Vec<(usize, usize)> {
        if self.explicit() {
            return Vec::new();
        }
        steps
            .iter()
            .filter_map(|&s| match s {
                Step::Field(i) => Some((i, 0)),
                Step::Part { field, part } => Some((field, part)),
                Step::Ref(_) | Step::Repeat(_) => None,
            })
            .collect()
    }

    /// Whether anything after segment `k` of `segments` reads at the
    /// cursor (a loose read may leave the cursor anywhere only when nothing
    /// does).
    pub fn cursor_reads_after(&self, segments: &[Segment], k: usize) -> CursorReadsAfter {
        let mut fields = Vec::new();
        for segment in segments.iter().skip(k + 1) {
            match segment {
                Segment::Single(Step::Field(i)) => fields.push(*i),
                _ => return CursorReadsAfter::Certainly,
            }
        }
        CursorReadsAfter::IfAnyOf(fields)
    }
}
