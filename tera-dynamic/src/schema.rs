//! A def lowered once, at load time, into what decoding and encoding walk:
//! each struct (the root, an array element, an object) with its walks,
//! lowered from its wire plan (`tera-wire-plan`, made by the same lowering
//! the code emitter uses, `tera_defs_front::plan::StructPlan`, so that both
//! lay a block out the same way) into lists of operations.

use std::sync::Arc;

use tera_defs_front::model::{Def, ElemType, FieldType, Scalar};
use tera_defs_front::plan::{LayoutError, StructPlan};

use crate::program::{Op, Program, Run};
use crate::slot::Slot;
use crate::value::Names;

/// A def ready to decode and encode: its name, version and root block.
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) name: Arc<str>,
    pub(crate) version: u32,
    pub(crate) platform: Option<String>,
    pub(crate) file_name: String,
    pub(crate) root: Struct,
}

impl Schema {
    /// Lowers a def that validation accepted (a [`tera_defs_front::Checked`]
    /// def). A def built by hand that cannot be laid out is an error.
    pub fn new(def: &Def) -> Result<Schema, LayoutError> {
        let plan = StructPlan::new(&def.root, &[])?;
        Ok(Schema {
            name: def.name.as_str().into(),
            version: def.version,
            platform: def.platform.clone(),
            file_name: def.file_name.clone(),
            root: Struct::new(&plan)?,
        })
    }

    /// The packet name (`S_CHAT`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The def version (`4` for `S_CHAT.4.def`).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The platform infix (`console` in `S_CHAT.4.console.def`), if any.
    pub fn platform(&self) -> Option<&str> {
        self.platform.as_deref()
    }

    /// The def's file name.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The root block's fields, in def order.
    pub fn fields(&self) -> impl Iterator<Item = &FieldSchema> {
        self.root.fields.iter()
    }
}

/// One struct: a block or an object, with its walks and its fields in the
/// plan's order (split objects merged, repeated fields once).
#[derive(Debug, Clone)]
pub(crate) struct Struct {
    pub(crate) fields: Vec<FieldSchema>,
    /// The fields' names, shared by every record of the struct.
    pub(crate) names: Names,
    /// Every step, as a block or a whole object walks them.
    pub(crate) all: Program,
    /// The walk of each part, for a split object.
    pub(crate) parts: Vec<Program>,
    /// The metadata words of the implicit slots (0 with explicit refs):
    /// what a block reserves at its front, what an object hoists.
    pub(crate) meta_words: usize,
    /// Each field's zero slot: a decoded record starts as these.
    pub(crate) zeros: Box<[Slot]>,
    /// Object fields no operation reads: they decode as zero records.
    pub(crate) unread_objects: Box<[usize]>,
    /// The slots of a decoded record and its objects, arrays aside: what a
    /// view reserves before reading.
    pub(crate) static_slots: usize,
    /// Whether the struct is scalars only, read in field order, each once,
    /// without metadata: its record is written slot after slot.
    pub(crate) sequential: bool,
    /// How a sequential struct is written when no chunk of its walk does it
    /// in fewer dispatches.
    pub(crate) run: Option<Run>,
    /// Whether the first read of the struct takes some of its scalars a
    /// chunk at a time ([`Program::reads`]).
    pub(crate) chunked_reads: bool,
}

/// A field of a struct: its def name (its JSON name too) and type.
#[derive(Debug, Clone)]
pub struct FieldSchema {
    pub(crate) name: Arc<str>,
    pub(crate) kind: Kind,
}

impl FieldSchema {
    /// The def's name of the field, which is also its JSON name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The type of a field, with the struct behind arrays and objects.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Scalar(Scalar),
    String,
    Bytes,
    Array(Element),
    Object(Box<Struct>),
}

/// The element of an array: `array<T>` or a block of fields.
#[derive(Debug, Clone)]
pub(crate) enum Element {
    Scalar(Scalar),
    String,
    Block(Box<Struct>),
}

impl Kind {
    /// The metadata words of the field in its block.
    pub(crate) fn meta_words(&self) -> usize {
        match self {
            Kind::Scalar(_) => 0,
            Kind::String => 1,
            Kind::Bytes | Kind::Array(_) => 2,
            Kind::Object(s) => s.meta_words,
        }
    }
}

impl Struct {
    fn new(sp: &StructPlan<'_>) -> Result<Struct, LayoutError> {
        let mut fields = Vec::with_capacity(sp.fields.len());
        for (i, f) in sp.fields.iter().enumerate() {
            let child = || -> Result<Box<Struct>, LayoutError> {
                let plan = sp.child(i).unwrap_or_else(|| Err(Vec::new()))?;
                Ok(Box::new(Struct::new(&plan)?))
            };
            let kind = match &f.def.ty {
                FieldType::Scalar(s) => Kind::Scalar(*s),
                FieldType::String => Kind::String,
                FieldType::Bytes => Kind::Bytes,
                FieldType::ArrayOf(ElemType::Scalar(s)) => Kind::Array(Element::Scalar(*s)),
                FieldType::ArrayOf(ElemType::String) => Kind::Array(Element::String),
                FieldType::Array(_) => Kind::Array(Element::Block(child()?)),
                FieldType::Object(_) => Kind::Object(child()?),
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
        Ok(Struct {
            run,
            chunked_reads,
            sequential,
            meta_words: all.words,
            names: fields.iter().map(|f| Arc::clone(&f.name)).collect(),
            zeros: fields.iter().map(|f| Slot::zero(&f.kind)).collect(),
            unread_objects,
            static_slots,
            fields,
            all,
            parts,
        })
    }

    /// The walk of part `part`, or of every step.
    pub(crate) fn program(&self, part: Option<usize>) -> &Program {
        part.and_then(|p| self.parts.get(p)).unwrap_or(&self.all)
    }
}
