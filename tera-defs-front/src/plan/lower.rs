//! A block of the model lowered into the field specs of the wire plan:
//! `ref` lines attach to the field after them, a split object becomes one
//! field whose later parts sit after the field before them, a fixed field
//! declared twice becomes one field repeated on the wire.
//!
//! Fields are named by their def names: two lines are one field only when
//! their names are equal (`fooBar` and `foo_bar` are two fields). What a
//! name becomes in a target language is its emitter's business.

use tera_wire_plan::{Encoding, FieldSpec, Named, Plan, PlanError, Var};

use crate::model::{Block, Field, FieldType, Item, Span};

/// A field of a lowered struct (splits and repeats merged).
#[derive(Debug, Clone)]
pub struct LoweredField<'d> {
    /// The first line that declares the field (its name is the field's
    /// name in the plan).
    pub def: &'d Field,
    /// For an object: the merged block of its parts, the struct of the
    /// object's own plan, and the indexes of the fields that start parts
    /// 1, 2, ... in it.
    pub object: Option<(Block, Vec<usize>)>,
}

/// The plan of one struct of a def, with the def's fields behind it.
#[derive(Debug, Clone)]
pub struct StructPlan<'d> {
    /// The wire plan; its fields are `fields`, in the same order.
    pub plan: Plan,
    /// The fields.
    pub fields: Vec<LoweredField<'d>>,
}

/// The planner's view of a def field's type.
fn encoding(ty: &FieldType) -> Encoding {
    match ty {
        FieldType::Scalar(s) => Encoding::Fixed(Some(s.wire_size())),
        FieldType::String => Encoding::Variable(Var::String),
        FieldType::Bytes => Encoding::Variable(Var::Bytes),
        FieldType::Array(_) | FieldType::ArrayOf(_) => Encoding::Variable(Var::Array),
        FieldType::Object(_) => Encoding::Object,
    }
}

impl<'d> StructPlan<'d> {
    /// Lowers and plans `block`; `part_starts` are the fields that start
    /// parts 1, 2, ... when the block is a split object's merged block.
    pub fn new(block: &'d Block, part_starts: &[usize]) -> Result<Self, Vec<PlanError<Span>>> {
        let (specs, fields) = lower(block, part_starts);
        let whole = block.fields().next().map(|f| f.span).unwrap_or_default();
        let plan = Plan::new(&specs, whole)?;
        Ok(StructPlan { plan, fields })
    }

    /// The plan of the object or array element behind field `i`, if it has
    /// one: a merged object's, or an `array`'s element.
    pub fn child(&self, i: usize) -> Option<Result<StructPlan<'_>, Vec<PlanError<Span>>>> {
        let f = &self.fields[i];
        match (&f.object, &f.def.ty) {
            (Some((merged, starts)), _) => Some(StructPlan::new(merged, starts)),
            (None, FieldType::Array(element)) => Some(StructPlan::new(element, &[])),
            _ => None,
        }
    }
}

fn named(name: &str, span: Span) -> Named<Span> {
    Named {
        name: name.to_string(),
        span,
    }
}

/// The field specs of `block` and the fields behind them.
fn lower<'d>(
    block: &'d Block,
    part_starts: &[usize],
) -> (Vec<FieldSpec<Span>>, Vec<LoweredField<'d>>) {
    let mut specs: Vec<FieldSpec<Span>> = Vec::new();
    let mut fields: Vec<LoweredField<'d>> = Vec::new();
    let mut pending_refs: Vec<Named<Span>> = Vec::new();
    let mut previous: Option<(&'d str, Span)> = None;
    for item in &block.items {
        let field = match item {
            Item::Ref(r) => {
                let Some(first) = r.path.first() else {
                    continue;
                };
                // `ref o.s`: the metadata of object `o`, placed once.
                let placed = pending_refs.last().is_some_and(|n| &n.name == first)
                    || specs
                        .iter()
                        .flat_map(|s| &s.refs_before)
                        .any(|n| &n.name == first);
                if !placed {
                    pending_refs.push(named(first, r.path_span));
                }
                continue;
            }
            Item::Field(f) => f,
        };
        let name = field.name.as_str();
        // Only an object (split) or a fixed field (repeated) may be declared
        // twice; any other repeat is the name checks' error, planned as a
        // field of its own so that the rest of the layout is still checked.
        let merges = |o: &LoweredField<'_>| {
            o.def.name == name
                && matches!(
                    (&o.def.ty, &field.ty),
                    (FieldType::Object(_), FieldType::Object(_))
                        | (FieldType::Scalar(_), FieldType::Scalar(_))
                )
        };
        if let Some(k) = fields.iter().position(merges) {
            match (&field.ty, &mut fields[k].object) {
                (FieldType::Object(part), Some((merged, starts))) => {
                    if part.is_empty() {
                        continue;
                    }
                    if let Some((anchor, span)) = &previous
                        && *anchor != name
                    {
                        starts.push(merged.fields().count());
                        specs[k].parts_after.push(named(anchor, *span));
                    }
                    merged.items.extend(part.items.iter().cloned());
                }
                _ => {
                    specs[k].again_after = previous.as_ref().map(|(a, span)| named(a, *span));
                }
            }
            previous = Some((name, field.name_span));
            continue;
        }
        let index = fields.len();
        let mut spec = FieldSpec::new(name, name, encoding(&field.ty), field.span);
        spec.interleaved = field.interleaved;
        spec.refs_before = std::mem::take(&mut pending_refs);
        if let Some(p) = part_starts.iter().position(|&s| s == index) {
            spec.part = Some((p + 1, field.span));
        }
        specs.push(spec);
        fields.push(LoweredField {
            def: field,
            object: match &field.ty {
                FieldType::Object(b) => Some((b.clone(), Vec::new())),
                _ => None,
            },
        });
        previous = Some((name, field.name_span));
    }
    (specs, fields)
}
