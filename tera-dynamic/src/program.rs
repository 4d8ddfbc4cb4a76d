//! A struct's walk, lowered once at load time from its wire plan's steps
//! and segments into a flat list of operations, with every metadata
//! position worked out: decoding and encoding then run down the list
//! without looking at the plan again.

use tera_defs_front::model::Scalar;
use tera_wire_plan::{Plan, Segment, Step};

use crate::scalar::with_scalar;
use crate::schema::{FieldSchema, Kind};

/// The operations of one walk over a struct (every step, or a split
/// object's part), in wire order.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub(crate) ops: Box<[Op]>,
    /// The same walk for writing: each run of scalar operations one
    /// [`Op::Chunk`] or [`Op::Run`].
    pub(crate) writes: Box<[Op]>,
    /// The same walk for a first read, which need not say where a packet
    /// ends too soon: runs of scalar operations that a chunk saves
    /// dispatches on are one [`Op::Chunk`].
    pub(crate) reads: Box<[Op]>,
    /// The metadata words of the walk's implicit slots: what a block
    /// reserves at its front, what an object hoists.
    pub(crate) words: usize,
}

/// Where a variable field's metadata words are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Meta {
    /// This many bytes past the struct's metadata position (an implicit
    /// slot).
    Slot(usize),
    /// This many bytes past the start of the walk: an explicit ref with
    /// fields of fixed size only before it.
    Fixed(usize),
    /// Where explicit ref number `k` of the walk put them (a ref after a
    /// string, bytes, array or object).
    Ref(usize),
    /// At the cursor (an explicit block whose ref comes later).
    Cursor,
}

/// One operation of a walk. A scalar field has an operation of its own
/// type, so that running a walk takes one dispatch per field.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    /// Consecutive `bool` fields at the cursor (a repeated field is read
    /// again: the later copy wins, as in the generated packets); and so on
    /// for each scalar.
    Bool(Fields),
    Byte(Fields),
    Int16(Fields),
    UInt16(Fields),
    Int32(Fields),
    UInt32(Fields),
    Int64(Fields),
    UInt64(Fields),
    Float(Fields),
    Double(Fields),
    Vec3(Fields),
    Vec3fa(Fields),
    Angle(Fields),
    SkillId(Fields),
    SkillId32(Fields),
    Customize(Fields),
    /// A string, bytes, array or object field whose metadata is at `meta`.
    Var {
        field: usize,
        meta: Meta,
    },
    /// An explicit `ref`: `bytes` of metadata at the cursor, remembered as
    /// ref number `k`.
    Ref {
        k: usize,
        bytes: usize,
    },
    /// An explicit ref whose place is known from the walk's start
    /// ([`Meta::Fixed`]): `bytes` of metadata at the cursor, nothing to
    /// remember. Consecutive ones are one in [`Program::writes`] and
    /// [`Program::reads`] (a walk that says where a packet ends too soon
    /// names the ref that runs past it, as the generated packets do).
    Skip(usize),
    /// Part `part` of the split object `field`, whose slots are `meta`
    /// bytes past the struct's metadata position.
    Part {
        field: usize,
        part: usize,
        meta: usize,
    },
    /// Arrays whose elements alternate on the wire, with their metadata.
    Interleaved(Box<[(usize, Meta)]>),
    /// Consecutive scalar operations taken as one (only in
    /// [`Program::writes`] and [`Program::reads`]).
    Chunk(Box<Chunk>),
    /// Consecutive scalar operations over fields in field order, of many
    /// types and few of each, taken as one (only in [`Program::writes`]).
    Run(Box<Run>),
}

/// Scalar fields that follow each other on the wire, `bytes` in all, by
/// type: a writer takes the bytes at once and fills them one type after
/// the other, each field at its offset, with one dispatch per type rather
/// than per field. So does a view's first read, which only says whether
/// the packet is whole; the second, over malformed packets, must stop at
/// the first field that runs past the end, in wire order.
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    pub(crate) bytes: usize,
    /// An operation per scalar type, whose [`Fields`] are a span of
    /// `entries`.
    pub(crate) groups: Box<[Op]>,
    pub(crate) entries: Box<[Entry]>,
}

/// Scalar fields from field `first` on, each once and in field order,
/// `bytes` in all: a writer takes the bytes at once and writes field after
/// field through a cursor of its own (which stays in a register), with one
/// dispatch per field and no operation loop around it.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    pub(crate) first: usize,
    pub(crate) bytes: usize,
    pub(crate) scalars: Box<[Scalar]>,
}

/// A field of a [`Chunk`] and its offset in it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) field: u32,
    pub(crate) offset: u32,
}

/// Fields `first..first + count` of a struct: consecutive scalars of one
/// type, one operation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub(crate) first: usize,
    pub(crate) count: usize,
}

impl Fields {
    /// The fields' indices.
    #[inline]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.first..self.first + self.count
    }
}

/// The pattern of every scalar operation, binding its fields to `$f`.
macro_rules! scalar_op {
    ($f:pat) => {
        Op::Bool($f)
            | Op::Byte($f)
            | Op::Int16($f)
            | Op::UInt16($f)
            | Op::Int32($f)
            | Op::UInt32($f)
            | Op::Int64($f)
            | Op::UInt64($f)
            | Op::Float($f)
            | Op::Double($f)
            | Op::Vec3($f)
            | Op::Vec3fa($f)
            | Op::Angle($f)
            | Op::SkillId($f)
            | Op::SkillId32($f)
            | Op::Customize($f)
    };
}

/// `match $op { ... }` with an arm per scalar operation that calls
/// `$call(PhantomData::<RuntimeType>, $args)` (then `?` when written
/// `$call(..)?`): the runtime type is told by its first argument, so that
/// `$call`'s other type parameters are inferred;
/// `$field` bound to the operation's [`Fields`], followed by the arms given
/// for the other operations.
macro_rules! match_op {
    // `$call(..)?`: the arm is the call's value after `?`.
    ($op:expr, $field:ident => $call:ident($($arg:expr),*)?, $($arm:tt)*) => {
        match_op!($op, $field => $call($($arg),*), Err(e) => return Err(e.into()), $($arm)*)
    };
    ($op:expr, $field:ident => $call:ident($($arg:expr),*), Err(e) => return Err(e.into()), $($arm:tt)*) => {
        match $op {
            Op::Bool($field) => $call(std::marker::PhantomData::<bool>, $($arg),*)?,
            Op::Byte($field) => $call(std::marker::PhantomData::<u8>, $($arg),*)?,
            Op::Int16($field) => $call(std::marker::PhantomData::<i16>, $($arg),*)?,
            Op::UInt16($field) => $call(std::marker::PhantomData::<u16>, $($arg),*)?,
            Op::Int32($field) => $call(std::marker::PhantomData::<i32>, $($arg),*)?,
            Op::UInt32($field) => $call(std::marker::PhantomData::<u32>, $($arg),*)?,
            Op::Int64($field) => $call(std::marker::PhantomData::<i64>, $($arg),*)?,
            Op::UInt64($field) => $call(std::marker::PhantomData::<u64>, $($arg),*)?,
            Op::Float($field) => $call(std::marker::PhantomData::<f32>, $($arg),*)?,
            Op::Double($field) => $call(std::marker::PhantomData::<f64>, $($arg),*)?,
            Op::Vec3($field) => $call(std::marker::PhantomData::<tera_packets::Vec3>, $($arg),*)?,
            Op::Vec3fa($field) => $call(std::marker::PhantomData::<tera_packets::Vec3fa>, $($arg),*)?,
            Op::Angle($field) => $call(std::marker::PhantomData::<tera_packets::Angle>, $($arg),*)?,
            Op::SkillId($field) => $call(std::marker::PhantomData::<tera_packets::SkillId>, $($arg),*)?,
            Op::SkillId32($field) => $call(std::marker::PhantomData::<tera_packets::SkillId32>, $($arg),*)?,
            Op::Customize($field) => $call(std::marker::PhantomData::<tera_packets::Customize>, $($arg),*)?,
            $($arm)*
        }
    };
    ($op:expr, $field:ident => $call:ident($($arg:expr),*), $($arm:tt)*) => {
        match $op {
            Op::Bool($field) => $call(std::marker::PhantomData::<bool>, $($arg),*),
            Op::Byte($field) => $call(std::marker::PhantomData::<u8>, $($arg),*),
            Op::Int16($field) => $call(std::marker::PhantomData::<i16>, $($arg),*),
            Op::UInt16($field) => $call(std::marker::PhantomData::<u16>, $($arg),*),
            Op::Int32($field) => $call(std::marker::PhantomData::<i32>, $($arg),*),
            Op::UInt32($field) => $call(std::marker::PhantomData::<u32>, $($arg),*),
            Op::Int64($field) => $call(std::marker::PhantomData::<i64>, $($arg),*),
            Op::UInt64($field) => $call(std::marker::PhantomData::<u64>, $($arg),*),
            Op::Float($field) => $call(std::marker::PhantomData::<f32>, $($arg),*),
            Op::Double($field) => $call(std::marker::PhantomData::<f64>, $($arg),*),
            Op::Vec3($field) => $call(std::marker::PhantomData::<tera_packets::Vec3>, $($arg),*),
            Op::Vec3fa($field) => $call(std::marker::PhantomData::<tera_packets::Vec3fa>, $($arg),*),
            Op::Angle($field) => $call(std::marker::PhantomData::<tera_packets::Angle>, $($arg),*),
            Op::SkillId($field) => $call(std::marker::PhantomData::<tera_packets::SkillId>, $($arg),*),
            Op::SkillId32($field) => $call(std::marker::PhantomData::<tera_packets::SkillId32>, $($arg),*),
            Op::Customize($field) => $call(std::marker::PhantomData::<tera_packets::Customize>, $($arg),*),
            $($arm)*
        }
    };
}
pub(crate) use match_op;

impl Op {
    /// The operation reading scalar `s` into field `field`.
    fn scalar(s: Scalar, field: usize) -> Op {
        let fields = Fields {
            first: field,
            count: 1,
        };
        macro_rules! op {
            ($t:ty, $v:ident) => {
                Op::$v(fields)
            };
        }
        with_scalar!(s, op)
    }

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

    /// The fields of a scalar operation.
    fn scalar_fields(&self) -> Option<Fields> {
        match self {
            scalar_op!(f) => Some(*f),
            _ => None,
        }
    }

    /// The fields of a scalar operation, to extend.
    fn scalar_fields_mut(&mut self) -> Option<&mut Fields> {
        match self {
            scalar_op!(f) => Some(f),
            _ => None,
        }
    }
}

impl Meta {
    /// The absolute offset of the metadata, for a struct whose implicit
    /// slots start at `base` and whose walk started at `start`.
    #[inline]
    pub(crate) fn at(self, base: usize, start: usize, refs: &RefPositions, cursor: usize) -> usize {
        match self {
            Meta::Slot(bytes) => base + bytes,
            Meta::Fixed(bytes) => start + bytes,
            Meta::Ref(k) => refs.get(k),
            Meta::Cursor => cursor,
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
                            let op = Op::scalar(scalar, i);
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

/// Where the explicit refs of one walk placed their fields' metadata,
/// by ref number: eight inline (the corpus's most in a block is five), the
/// rest on the heap. Positions are `u32`, as a packet has at most 65535
/// bytes: the inline ones are cleared with one store per walk.
#[derive(Default)]
pub(crate) struct RefPositions {
    inline: [u32; 8],
    more: Vec<u32>,
}

impl RefPositions {
    /// Ref number `k` put its metadata at byte `at`.
    #[inline]
    pub(crate) fn set(&mut self, k: usize, at: usize) {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        match self.inline.get_mut(k) {
            Some(slot) => *slot = at,
            None => {
                let k = k - self.inline.len();
                if self.more.len() <= k {
                    self.more.resize(k + 1, 0);
                }
                self.more[k] = at;
            }
        }
    }

    /// Where ref number `k` put its metadata (refs are set before the
    /// fields that use them are reached).
    #[inline]
    pub(crate) fn get(&self, k: usize) -> usize {
        let at = match self.inline.get(k) {
            Some(&at) => at,
            None => self.more.get(k - self.inline.len()).copied().unwrap_or(0),
        };
        at as usize
    }
}
