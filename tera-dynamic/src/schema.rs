//! A def as decoding and encoding walk it, and as tools inspect it: the
//! packet ([`Schema`]), each struct (the root, an array element, an object:
//! [`StructSchema`]) with its fields ([`FieldSchema`]) and their types
//! ([`Kind`]), and each struct's walks. `lower` makes them from the def's
//! wire plans.

use std::fmt;
use std::sync::Arc;

use tera_defs_front::model::Scalar;

use crate::program::{Program, Run};
use crate::slot::Slot;

/// A def ready to decode and encode: its name, version and root block.
///
/// Its fields and their types are public, for tools that render or
/// generate from a def:
///
/// ```
/// use tera_dynamic::{Catalog, ElementKind, Kind, Scalar};
///
/// let mut catalog = Catalog::new();
/// let schema = catalog
///     .add_def("S_PARTY.2.def", "array members\n- uint32 id\n- string name\nuint16 leader\n")
///     .map_err(|report| report.render(false))?;
/// let kinds: Vec<String> = schema
///     .fields()
///     .iter()
///     .map(|f| format!("{} {}", f.kind(), f.name()))
///     .collect();
/// assert_eq!(kinds, ["array members", "uint16 leader"]);
/// let Kind::Array(ElementKind::Block(member)) = schema.field("members").unwrap().kind() else {
///     panic!("an array of blocks");
/// };
/// assert!(matches!(member.field("id").unwrap().kind(), Kind::Scalar(Scalar::UInt32)));
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) name: Arc<str>,
    pub(crate) version: u32,
    pub(crate) platform: Option<String>,
    pub(crate) file_name: String,
    pub(crate) root: Arc<StructSchema>,
}

impl Schema {
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

    /// The root block.
    pub fn root(&self) -> &Arc<StructSchema> {
        &self.root
    }

    /// The root block's fields, in def order.
    pub fn fields(&self) -> &[FieldSchema] {
        self.root.fields()
    }

    /// The root block's field `name`.
    pub fn field(&self, name: &str) -> Option<&FieldSchema> {
        self.root.field(name)
    }
}

/// The fields of a block (the root, an array element) or an object, in
/// def order (a split object's parts merged, a repeated field once), with
/// the walks that decode and encode them.
#[derive(Debug, Clone)]
pub struct StructSchema {
    /// What the struct is, for messages: `S_PARTY.2` for a root,
    /// `S_PARTY.2 members[]` for an array's element.
    pub(crate) owner: Arc<str>,
    pub(crate) fields: Vec<FieldSchema>,
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

impl StructSchema {
    /// What the struct is, as messages name it: `NAME.VERSION` of the
    /// def for its root block, followed by the field for an array's
    /// element (`S_PARTY.2 members[]`) or an object (`S_X.1 pos`).
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The fields, in def order.
    pub fn fields(&self) -> &[FieldSchema] {
        &self.fields
    }

    /// Field `name`.
    pub fn field(&self, name: &str) -> Option<&FieldSchema> {
        self.fields.get(self.index_of(name)?)
    }

    /// The position of field `name` in [`fields`](StructSchema::fields).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| &*f.name == name)
    }

    /// The walk of part `part`, or of every step.
    pub(crate) fn program(&self, part: Option<usize>) -> &Program {
        part.and_then(|p| self.parts.get(p)).unwrap_or(&self.all)
    }
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

    /// The field's type.
    pub fn kind(&self) -> &Kind {
        &self.kind
    }
}

/// The type of a field, with the struct behind arrays and objects. Its
/// `Display` is the def language's word (`uint32`, `array<string>`,
/// `array`, `object`).
#[derive(Debug, Clone)]
pub enum Kind {
    /// A simple or value type (`uint32`, `vec3`, ...).
    Scalar(Scalar),
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `array<T>` or `array` (of blocks).
    Array(ElementKind),
    /// `object`: its fields inline.
    Object(Arc<StructSchema>),
}

/// The element of an array: `array<T>` or a block of fields.
#[derive(Debug, Clone)]
pub enum ElementKind {
    /// `array<T>` of a simple or value type.
    Scalar(Scalar),
    /// `array<string>`.
    String,
    /// `array` with fields: each element a block.
    Block(Arc<StructSchema>),
}

impl Kind {
    /// The struct of an object, or of an array's block elements: what
    /// [`Record::zero`](crate::Record::zero) makes a record of.
    pub fn struct_schema(&self) -> Option<&Arc<StructSchema>> {
        match self {
            Kind::Object(s) | Kind::Array(ElementKind::Block(s)) => Some(s),
            _ => None,
        }
    }

    /// The metadata words of the field in its block.
    pub(crate) fn meta_words(&self) -> usize {
        match self {
            Kind::Scalar(_) => 0,
            Kind::String => 1,
            Kind::Bytes | Kind::Array(_) => 2,
            Kind::Object(s) => s.meta_words,
        }
    }

    /// The def language's word for the type, without an array's element
    /// (`array`): what a type mismatch names.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Kind::Scalar(s) => s.def_name(),
            Kind::String => "string",
            Kind::Bytes => "bytes",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }
}

impl ElementKind {
    /// The def language's word for an element (`object` for a block).
    pub(crate) fn word(&self) -> &'static str {
        match self {
            ElementKind::Scalar(s) => s.def_name(),
            ElementKind::String => "string",
            ElementKind::Block(_) => "object",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Array(ElementKind::Block(_)) => f.write_str("array"),
            Kind::Array(element) => write!(f, "array<{}>", element.word()),
            kind => f.write_str(kind.word()),
        }
    }
}
