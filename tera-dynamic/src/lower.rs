//! A def lowered once, at load time, into what decoding and encoding walk:
//! each struct with its walks, lowered from its wire plan (`tera-wire-plan`,
//! made by the same lowering the code emitter uses,
//! `tera_defs_front::plan::StructPlan`, so that both lay a block out the
//! same way) into lists of operations.

use std::sync::Arc;

use tera_defs_front::model::{Def, ElemType, FieldType, Scalar};
use tera_defs_front::plan::{LayoutError, StructPlan};
use tera_wire_plan::{Plan, Segment, Step};

use crate::program::{Chunk, Entry, Fields, Meta, Op, Program, Run};
use crate::schema::{ElementKind, FieldSchema, Kind, Schema, StructSchema};
use crate::slot::Slot;

impl Schema {
    /// Lowers a def that validation accepted (a [`tera_defs_front::Checked`]
    /// def). A def built by hand that cannot be laid out is an error.
    pub fn new(def: &Def) -> Result<Schema, LayoutError> {
        let plan = StructPlan::new(&def.root, &[])?;
        let owner: Arc<str> = format!("{}.{}", def.name, def.version).into();
        Ok(Schema {
            name: def.name.as_str().into(),
            version: def.version,
            platform: def.platform.clone(),
            file_name: def.file_name.clone(),
            root: Arc::new(StructSchema::new(&plan, owner)?),
        })
    }
}

impl StructSchema {
    /// The struct of `sp`, its children lowered first; `owner` names it in
    /// messages (`S_PARTY.2`, `S_PARTY.2 members[]`).
    fn new(sp: &StructPlan<'_>, owner: Arc<str>) -> Result<StructSchema, LayoutError> {
        let mut fields = Vec::with_capacity(sp.fields.len());
        for (i, f) in sp.fields.iter().enumerate() {
            let child = |suffix: &str| -> Result<Arc<StructSchema>, LayoutError> {
                let plan = sp.child(i).unwrap_or_else(|| Err(Vec::new()))?;
                let owner = format!("{owner} {}{suffix}", f.def.name).into();
                Ok(Arc::new(StructSchema::new(&plan, owner)?))
            };
            let kind = match &f.def.ty {
                FieldType::Scalar(s) => Kind::Scalar(*s),
                FieldType::String => Kind::String,
                FieldType::Bytes => Kind::Bytes,
                FieldType::ArrayOf(ElemType::Scalar(s)) => Kind::Array(ElementKind::Scalar(*s)),
                FieldType::ArrayOf(ElemType::String) => Kind::Array(ElementKind::String),
                FieldType::Array(_) => Kind::Array(ElementKind::Block(child("[]")?)),
                FieldType::Object(_) => Kind::Object(child("")?),
            };
            fields.push(FieldSchema {
                name: f.def.name.as_str().into(),
                kind,
            });
        }
        let plan = &sp.plan;
        let all = Program::new(plan, &fields, None);
        let parts = if plan.parts() > 1 {
            (0..plan.parts())
                .map(|p| Program::new(plan, &fields, Some(p)))
                .collect()
        } else {
            Vec::new()
        };
        let unread_objects = (0..fields.len())
            .filter(|&i| matches!(fields[i].kind, Kind::Object(_)) && !all.covers(i))
            .collect();
        let static_slots = fields.len()
            + fields
                .iter()
                .map(|f| match &f.kind {
                    Kind::Object(s) => s.static_slots,
                    _ => 0,
                })
                .sum::<usize>();
        let sequential = all.words == 0 && all.in_field_order(fields.len());
        let chunked = all.writes.iter().any(|op| matches!(op, Op::Chunk(_)));
        let chunked_reads = all.reads.iter().any(|op| matches!(op, Op::Chunk(_)));
        let run = if sequential && !chunked {
            Run::new(&fields)
        } else {
            None
        };
        Ok(StructSchema {
            owner,
            run,
            chunked_reads,
            sequential,
            meta_words: all.words,
            zeros: fields.iter().map(|f| zero_slot(&f.kind)).collect(),
            unread_objects,
            static_slots,
            fields,
            all,
            parts,
        })
    }
}

/// The zero slot of a field of kind `kind`: the empty string, bytes and
/// array; an object's slot is set when it is read.
fn zero_slot(kind: &Kind) -> Slot {
    match kind {
        Kind::Scalar(s) => Slot::zero_scalar(*s),
        Kind::String => Slot::String { start: 0, len: 0 },
        Kind::Bytes => Slot::Bytes { start: 0, len: 0 },
        Kind::Array(_) => Slot::Array { first: 0, len: 0 },
        Kind::Object(_) => Slot::Object { start: 0 },
    }
}

impl Op {
    /// Takes `next` into this operation when both read scalars of one type
    /// into consecutive fields.
    fn merge(&mut self, next: &Op) -> bool {
        let same_type = std::mem::discriminant(&*self) == std::mem::discriminant(next);
        match (self.scalar_fields_mut(), next.scalar_fields()) {
            (Some(this), Some(next)) if same_type && this.first + this.count == next.first => {
                this.count += next.count;
                true
            }
            _ => false,
        }
    }
}

impl Program {
    /// The walk over part `part` of a struct (every step when `None`).
    pub(crate) fn new(plan: &Plan, fields: &[FieldSchema], part: Option<usize>) -> Program {
        let steps = plan.steps_of(part);
        // Implicit slots: (field, part) -> word offset, in slot order.
        let mut slots = Vec::new();
        let mut words = 0;
        for (i, p) in plan.meta_slots(&steps) {
            slots.push((i, p, words));
            words += slot_words(plan, fields, i, p);
        }
        let slot = |i: usize, p: usize| {
            slots
                .iter()
                .find(|&&(f, q, _)| f == i && q == p)
                .map_or(0, |&(_, _, w)| 2 * w)
        };
        // Explicit refs: the first ref of each field, at a fixed offset from
        // the walk's start while every field before it has a fixed size,
        // else numbered in walk order.
        let mut refs: Vec<(usize, Meta)> = Vec::new();
        let mut numbered = 0;
        let meta_of = |i: usize, refs: &[(usize, Meta)]| {
            if !plan.explicit() {
                Meta::Slot(slot(i, 0))
            } else {
                refs.iter()
                    .find(|&&(f, _)| f == i)
                    .map_or(Meta::Cursor, |&(_, at)| at)
            }
        };
        // The bytes from the walk's start to the cursor, while known.
        let mut fixed = Some(0);
        let mut ops = Vec::new();
        for segment in plan.segments(&steps) {
            let run = match segment {
                Segment::Run(run) => run,
                Segment::Single(step) => vec![step],
                Segment::Interleaved(group) => {
                    let group = group.iter().map(|&i| (i, meta_of(i, &refs))).collect();
                    ops.push(Op::Interleaved(group));
                    fixed = None;
                    continue;
                }
            };
            for step in run {
                match step {
                    Step::Ref(i) => {
                        let bytes = 2 * fields[i].kind.meta_words();
                        match fixed {
                            Some(at) => {
                                refs.push((i, Meta::Fixed(at)));
                                ops.push(Op::Skip(bytes));
                                fixed = Some(at + bytes);
                            }
                            None => {
                                let k = numbered;
                                numbered += 1;
                                refs.push((i, Meta::Ref(k)));
                                ops.push(Op::Ref { k, bytes });
                            }
                        }
                    }
                    Step::Field(i) | Step::Repeat(i) => match fields[i].kind {
                        Kind::Scalar(scalar) => {
                            let op = Op::scalar(scalar, Fields { first: i, count: 1 });
                            if !ops.last_mut().is_some_and(|last: &mut Op| last.merge(&op)) {
                                ops.push(op);
                            }
                            fixed = fixed.map(|at| at + scalar.wire_size());
                        }
                        // A repeated field is a scalar (the planner's rule).
                        _ if matches!(step, Step::Repeat(_)) => {}
                        _ => {
                            ops.push(Op::Var {
                                field: i,
                                meta: meta_of(i, &refs),
                            });
                            fixed = None;
                        }
                    },
                    Step::Part { field, part } => {
                        ops.push(Op::Part {
                            field,
                            part,
                            meta: slot(field, part),
                        });
                        fixed = None;
                    }
                }
            }
        }
        Program {
            writes: chunked(&ops, fields, true),
            reads: chunked(&ops, fields, false),
            ops: ops.into(),
            words,
        }
    }

    /// Whether the walk reads scalars only, fields `0..n` in order, each
    /// once.
    pub(crate) fn in_field_order(&self, n: usize) -> bool {
        let mut next = 0;
        for op in &self.ops {
            match op.scalar_fields() {
                Some(f) if f.first == next => next += f.count,
                _ => return false,
            }
        }
        next == n
    }

    /// Whether some operation of the walk reads or fills field `field`.
    pub(crate) fn covers(&self, field: usize) -> bool {
        self.ops.iter().any(|op| match op {
            Op::Var { field: f, .. } | Op::Part { field: f, .. } => *f == field,
            Op::Interleaved(group) => group.iter().any(|&(f, _)| f == field),
            Op::Ref { .. } | Op::Skip(_) | Op::Chunk(_) | Op::Run(_) => false,
            scalar => scalar
                .scalar_fields()
                .is_some_and(|f| f.range().contains(&field)),
        })
    }
}

/// The dispatches a chunk must save over its run's operations: taking its
/// bytes and going through its groups costs about as much as three
/// (`cargo bench -p tera-dynamic --bench dynamic`; smaller savings measured
/// slower).
///
/// What the chunked lists ([`Program::reads`], [`Program::writes`]) buy
/// over running [`Program::ops`] alone, counted by `benches/instructions.rs`
/// (callgrind) on 2026-11-28 with this constant set past any run's length:
/// without them a view takes 10% more instructions (geometric mean of the
/// eight bench packets; S_LOGIN.15 31%, S_SPAWN_USER.17 23%, S_ITEMLIST.7
/// 20%) and an encode 13% more (S_LOGIN.15 34%, S_SPAWN_USER.17 27%,
/// S_ITEMLIST.7 20%); packets without long scalar runs (S_CHAT.4,
/// C_PLAYER_LOCATION.5, S_ABNORMALITY_BEGIN.5) are unchanged. Encode stood
/// at 3.1-3.3x the JS writer with them, so without them it would fall under
/// the 3x guard of the bench table.
const SAVED_DISPATCHES: usize = 3;

/// `ops` with each run of scalar operations one chunk, where grouping the
/// run by type saves [`SAVED_DISPATCHES`] or more. For writing (`runs`),
/// one [`Run`] instead where its types have fewer than two and a half
/// fields each on average, or where it has more operations than
/// [`SAVED_DISPATCHES`] but no chunk saves them (and its fields are in
/// field order): a writer's loop over a run's fields costs less than as
/// many operations (`cargo bench -p tera-dynamic --bench dynamic`,
/// S_ABNORMALITY_BEGIN.5). A reader's does not: it reads each field of a
/// run through a dispatch of its own, as the operations do. Consecutive
/// [`Op::Skip`]s are one.
fn chunked(ops: &[Op], fields: &[FieldSchema], runs: bool) -> Box<[Op]> {
    let mut lowered = Vec::new();
    let mut rest = ops;
    while let Some(first) = rest.first() {
        let run = rest
            .iter()
            .take_while(|op| op.scalar_fields().is_some())
            .count();
        if run > SAVED_DISPATCHES {
            let chunk = Chunk::new(&rest[..run], fields);
            if chunk.groups.len() + SAVED_DISPATCHES <= run {
                // A chunk of many types with few fields each is written
                // faster as a run (`cargo bench -p tera-dynamic --bench
                // dynamic`, S_ACTION_STAGE.9).
                let sparse = 2 * chunk.entries.len() < 5 * chunk.groups.len();
                let op = match Run::of_ops(&rest[..run], fields) {
                    Some(r) if sparse && runs => Op::Run(Box::new(r)),
                    _ => Op::Chunk(Box::new(chunk)),
                };
                lowered.push(op);
                rest = &rest[run..];
                continue;
            }
            if let Some(r) = Run::of_ops(&rest[..run], fields).filter(|_| runs) {
                // Many types, one or two fields each: a run.
                lowered.push(Op::Run(Box::new(r)));
                rest = &rest[run..];
                continue;
            }
        }
        match (lowered.last_mut(), first) {
            (Some(Op::Skip(bytes)), Op::Skip(more)) => *bytes += more,
            _ => lowered.push(first.clone()),
        }
        rest = &rest[1..];
    }
    lowered.into()
}

impl Chunk {
    /// The chunk of scalar operations `run`, in wire order.
    fn new(run: &[Op], fields: &[FieldSchema]) -> Chunk {
        let mut placed: Vec<(Op, Entry)> = Vec::new();
        let mut bytes = 0;
        for op in run {
            let Some(span) = op.scalar_fields() else {
                continue;
            };
            for field in span.range() {
                let Kind::Scalar(scalar) = fields[field].kind else {
                    continue;
                };
                let offset = u32::try_from(bytes).unwrap_or(u32::MAX);
                let field = u32::try_from(field).unwrap_or(u32::MAX);
                placed.push((op.clone(), Entry { field, offset }));
                bytes += scalar.wire_size();
            }
        }
        // Grouped by type, each group in wire order (a repeated field's
        // later copy is written last, as before).
        let mut groups: Vec<Op> = Vec::new();
        let mut entries = Vec::with_capacity(placed.len());
        while !placed.is_empty() {
            let kind = std::mem::discriminant(&placed[0].0);
            let (same, others): (Vec<_>, Vec<_>) = placed
                .into_iter()
                .partition(|(op, _)| std::mem::discriminant(op) == kind);
            let mut group = same[0].0.clone();
            if let Some(span) = group.scalar_fields_mut() {
                *span = Fields {
                    first: entries.len(),
                    count: same.len(),
                };
            }
            groups.push(group);
            entries.extend(same.into_iter().map(|(_, entry)| entry));
            placed = others;
        }
        Chunk {
            bytes,
            groups: groups.into(),
            entries: entries.into(),
        }
    }
}

impl Run {
    /// The run of a struct's fields: `None` unless each is a scalar.
    pub(crate) fn new(fields: &[FieldSchema]) -> Option<Run> {
        Run::of_fields(0..fields.len(), fields)
    }

    /// The run of scalar operations `ops`: `None` unless their fields
    /// follow each other in field order.
    fn of_ops(ops: &[Op], fields: &[FieldSchema]) -> Option<Run> {
        let first = ops.first()?.scalar_fields()?.first;
        let mut end = first;
        for op in ops {
            end += op.scalar_fields().filter(|f| f.first == end)?.count;
        }
        Run::of_fields(first..end, fields)
    }

    /// The run of fields `range`: `None` unless each is a scalar.
    fn of_fields(range: std::ops::Range<usize>, fields: &[FieldSchema]) -> Option<Run> {
        let first = range.start;
        let scalars: Box<[Scalar]> = fields
            .get(range)?
            .iter()
            .map(|f| match f.kind {
                Kind::Scalar(s) => Some(s),
                _ => None,
            })
            .collect::<Option<_>>()?;
        Some(Run {
            first,
            bytes: scalars.iter().map(|s| s.wire_size()).sum(),
            scalars,
        })
    }
}

/// The words of slot `(i, part)`: a split object's part has its own.
fn slot_words(plan: &Plan, fields: &[FieldSchema], i: usize, part: usize) -> usize {
    match &fields[i].kind {
        Kind::Object(s) if !plan.field(i).parts_after.is_empty() => s.program(Some(part)).words,
        kind => kind.meta_words(),
    }
}
