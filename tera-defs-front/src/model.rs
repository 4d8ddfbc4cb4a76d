//! The typed model of one `.def` file.
//!
//! The model keeps the definition exactly as written: items stay in def
//! order, `ref` lines stay where they are, and a split `object` (the same
//! object name used twice in one block) stays as two [`Field`] entries.
//! Consumers that need one type per object (the code emitter) merge the parts
//! themselves: see [`Block::object_parts`].

use std::fmt;

use tera_wire_plan::{FIXED_TYPES, FixedType, TypeHome};

/// A location in the source text of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, counted in characters (a byte-order mark
    /// counts as one character).
    pub column: u32,
}

impl Span {
    /// The byte range of the span, for diagnostics.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// One parsed and validated `.def` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Def {
    /// File name as given, e.g. `S_LOGIN.15.def`.
    pub file_name: String,
    /// Packet name from the file name, e.g. `S_LOGIN`.
    pub name: String,
    /// Version from the file name, e.g. `15`.
    pub version: u32,
    /// Optional platform infix from the file name (`pc`, `console`, `classic`).
    pub platform: Option<String>,
    /// The leading comment block of the file (the comment lines before the
    /// first field or meta line), `#` and surrounding whitespace stripped,
    /// lines joined by `\n`. `None` when the file has no leading comment.
    pub doc: Option<String>,
    /// `true` when the def has at least one `ref` (or legacy `offset`) line
    /// anywhere: then the metadata of every variable field is placed by its
    /// `ref` line, and implicit metadata is off for the whole def.
    pub explicit_refs: bool,
    /// The root block (the packet body).
    pub root: Block,
}

/// A sequence of items: the root of a def, the fields of an object, or the
/// fields of one array element.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Block {
    /// Items in def order. Legacy `count` lines are dropped; legacy `offset X`
    /// lines appear as [`Item::Ref`].
    pub items: Vec<Item>,
}

/// One line of a block that survives parsing.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A field.
    Field(Field),
    /// An explicit metadata line (`ref NAME` or legacy `offset NAME`).
    Ref(RefLine),
}

/// A `ref NAME` line: the metadata (count/offset) of variable field `NAME` is
/// placed here.
#[derive(Debug, Clone, PartialEq)]
pub struct RefLine {
    /// The referred field, split at dots: `["o", "s"]` for `ref o.s` (field
    /// `s` of object `o` of the same block).
    pub path: Vec<String>,
    /// `true` when the line was written as legacy `offset NAME`.
    pub legacy_offset: bool,
    /// The whole meta line (from the first `-` or the keyword to the end of
    /// the path).
    pub span: Span,
    /// The path alone.
    pub path_span: Span,
}

/// One field of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field name as written in the def (used as the serde name).
    pub name: String,
    /// The type of the field.
    pub ty: FieldType,
    /// `true` when the field has the `[interleaved]` flag (arrays only).
    pub interleaved: bool,
    /// The comment on the field's line or, when there is none, the comment
    /// line(s) directly above it (without a blank line in between). A trailing
    /// comment continues on comment-only lines right below the field.
    pub doc: Option<String>,
    /// The whole field line (from the first `-` or the type to the end of
    /// the name).
    pub span: Span,
    /// The type (with subtype and flags) alone.
    pub type_span: Span,
    /// The name alone.
    pub name_span: Span,
}

/// The type of a field.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldType {
    /// A fixed-size simple or value type.
    Scalar(Scalar),
    /// `string`: UTF-16LE, NUL terminated, placed by an offset.
    String,
    /// `bytes`: raw bytes, placed by an offset and a count.
    Bytes,
    /// `array NAME` with the element's fields as a block.
    Array(Block),
    /// `array<T> NAME`.
    ArrayOf(ElemType),
    /// `object NAME` with its fields, laid out inline.
    Object(Block),
}

/// The element type of an `array<T>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElemType {
    /// A simple or value type.
    Scalar(Scalar),
    /// `array<string>`.
    String,
}

/// Fixed-size simple and value types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `bool`: one byte, non-zero is true.
    Bool,
    /// `byte`: u8.
    Byte,
    /// `int16`.
    Int16,
    /// `uint16`.
    UInt16,
    /// `int32`.
    Int32,
    /// `uint32`.
    UInt32,
    /// `int64`.
    Int64,
    /// `uint64`.
    UInt64,
    /// `float`: f32.
    Float,
    /// `double`: f64.
    Double,
    /// `vec3`: three f32.
    Vec3,
    /// `vec3fa`: three f32 in int16-angle units.
    Vec3fa,
    /// `angle`: i16, radians = v * pi / 0x8000.
    Angle,
    /// `skillid`: packed u64.
    SkillId,
    /// `skillid32`: packed u32.
    SkillId32,
    /// `customize`: packed u64 of appearance bytes.
    Customize,
}

impl Scalar {
    /// Every scalar type, in the order of the language description.
    pub const ALL: [Scalar; 16] = [
        Scalar::Bool,
        Scalar::Byte,
        Scalar::Int16,
        Scalar::UInt16,
        Scalar::Int32,
        Scalar::UInt32,
        Scalar::Int64,
        Scalar::UInt64,
        Scalar::Float,
        Scalar::Double,
        Scalar::Vec3,
        Scalar::Vec3fa,
        Scalar::Angle,
        Scalar::SkillId,
        Scalar::SkillId32,
        Scalar::Customize,
    ];

    /// The runtime's fixed type that holds it: its Rust name and size
    /// (`tera_wire_plan::FIXED_TYPES`, listed in the same order as
    /// [`Scalar::ALL`]).
    pub fn fixed_type(self) -> &'static FixedType {
        // `ALL` and `FIXED_TYPES` list the same types in the same order
        // (a test checks it), so a scalar's discriminant indexes both.
        &FIXED_TYPES[self as usize]
    }

    /// Size on the wire in bytes.
    pub fn wire_size(self) -> usize {
        self.fixed_type().size
    }

    /// The name of the type in the def language, e.g. `uint16`.
    pub fn def_name(self) -> &'static str {
        self.fixed_type().def_name
    }

    /// Looks a scalar up by its def name (case sensitive).
    pub fn from_def_name(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.def_name() == name)
    }

    /// `true` for the value types (`vec3`, `vec3fa`, `angle`, `skillid`,
    /// `skillid32`, `customize`), `false` for the simple types.
    pub fn is_value_type(self) -> bool {
        self.fixed_type().home == TypeHome::Runtime
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.def_name())
    }
}

impl ElemType {
    /// The def name of the element type (`int32`, `string`, ...).
    pub fn def_name(self) -> &'static str {
        match self {
            ElemType::Scalar(s) => s.def_name(),
            ElemType::String => "string",
        }
    }
}

impl FieldType {
    /// `true` for the variable-length types that carry metadata (a count
    /// and/or an offset): `string`, `bytes`, `array` and `array<T>`.
    pub fn is_variable(&self) -> bool {
        matches!(
            self,
            FieldType::String | FieldType::Bytes | FieldType::Array(_) | FieldType::ArrayOf(_)
        )
    }

    /// `true` for `array` and `array<T>`.
    pub fn is_array(&self) -> bool {
        matches!(self, FieldType::Array(_) | FieldType::ArrayOf(_))
    }

    /// The nested block of an `array` or `object`.
    pub fn block(&self) -> Option<&Block> {
        match self {
            FieldType::Array(b) | FieldType::Object(b) => Some(b),
            _ => None,
        }
    }

    /// The type as written in a def, e.g. `array<int32>` or `object`.
    pub fn def_name(&self) -> String {
        match self {
            FieldType::Scalar(s) => s.def_name().to_string(),
            FieldType::String => "string".to_string(),
            FieldType::Bytes => "bytes".to_string(),
            FieldType::Array(_) => "array".to_string(),
            FieldType::ArrayOf(e) => format!("array<{}>", e.def_name()),
            FieldType::Object(_) => "object".to_string(),
        }
    }

    /// Wire size of a fixed field (`Some` only for scalars).
    pub fn fixed_size(&self) -> Option<usize> {
        match self {
            FieldType::Scalar(s) => Some(s.wire_size()),
            _ => None,
        }
    }
}

impl Block {
    /// The fields of the block (without the `ref` lines), in def order.
    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.items.iter().filter_map(|item| match item {
            Item::Field(f) => Some(f),
            Item::Ref(_) => None,
        })
    }

    /// The `ref` lines of the block, in def order.
    pub fn refs(&self) -> impl Iterator<Item = &RefLine> {
        self.items.iter().filter_map(|item| match item {
            Item::Ref(r) => Some(r),
            Item::Field(_) => None,
        })
    }

    /// The first field with this name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields().find(|f| f.name == name)
    }

    /// All parts of the object `name` in this block, in def order. A split
    /// object (the same object name used more than once in one block, e.g.
    /// `reaction` in S_EACH_SKILL_RESULT.14) is one object whose fields are
    /// laid out in several places; the emitter merges the parts into one
    /// type whose fields are the parts' fields in def order.
    pub fn object_parts<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.fields().filter_map(move |f| match &f.ty {
            FieldType::Object(b) if f.name == name => Some(b),
            _ => None,
        })
    }

    /// `true` when the block has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields().next().is_none()
    }
}

impl Def {
    /// Whether the def contains a string, bytes or array anywhere.
    pub fn is_dynamic(&self) -> bool {
        fn walk(b: &Block) -> bool {
            b.fields().any(|f| {
                f.ty.is_variable() || matches!(&f.ty, FieldType::Object(inner) if walk(inner))
            })
        }
        walk(&self.root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_scalar_is_the_fixed_type_of_its_index() {
        assert_eq!(Scalar::ALL.len(), FIXED_TYPES.len());
        for (i, s) in Scalar::ALL.into_iter().enumerate() {
            assert_eq!(s as usize, i);
            assert_eq!(s.fixed_type(), &FIXED_TYPES[i]);
            assert_eq!(Scalar::from_def_name(s.def_name()), Some(s));
        }
        assert_eq!(Scalar::UInt16.fixed_type().rust_name, "u16");
        assert_eq!(Scalar::Vec3fa.wire_size(), 12);
        assert!(Scalar::Angle.is_value_type() && !Scalar::Double.is_value_type());
    }
}
