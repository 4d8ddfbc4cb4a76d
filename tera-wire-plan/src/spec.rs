//! What a front end tells the planner about each field of a struct.

/// How a field's bytes are laid out, as far as its front end knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// A fixed-size field read and written at the cursor; its size when the
    /// front end knows it (a def does, the derive does not).
    Fixed(Option<usize>),
    /// A string, bytes or array field: metadata words in the block, data
    /// where its offset points.
    Variable(Var),
    /// An `object`: its fields inline, its metadata words hoisted into the
    /// enclosing block.
    Object,
    /// A type whose layout only its own trait impl knows (the derive's view
    /// of anything but the runtime's fixed types).
    Opaque,
}

impl Encoding {
    /// Whether the field is known to be fixed-size.
    pub fn is_fixed(self) -> bool {
        matches!(self, Encoding::Fixed(_))
    }

    /// Whether the field is known to be a string, bytes or array.
    pub fn is_variable(self) -> bool {
        matches!(self, Encoding::Variable(_))
    }
}

/// What a variable field's metadata describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Var {
    /// `string`: `u16 offset`.
    String,
    /// `bytes`: `u16 offset, u16 count`.
    Bytes,
    /// `array` / `array<T>`: `u16 count, u16 offset`.
    Array,
}

impl Var {
    /// The number of `u16` metadata words.
    pub fn meta_words(self) -> usize {
        match self {
            Var::String => 1,
            Var::Bytes | Var::Array => 2,
        }
    }

    /// The def language's word for it.
    pub fn def_name(self) -> &'static str {
        match self {
            Var::String => "string",
            Var::Bytes => "bytes",
            Var::Array => "array",
        }
    }
}

/// A name written in an attribute or a def line, with where it was written
/// (`S` is the front end's span type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named<S> {
    /// The field it names (its identifier, without `r#`).
    pub name: String,
    /// Where the name was written.
    pub span: S,
}

/// One field of a struct, in declaration order, with the placement the
/// front end read for it (`#[tera(...)]` attributes, or a def's `ref`
/// lines, split objects and repeated fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSpec<S> {
    /// The identifier other fields' placements name it by (without `r#`).
    pub ident: String,
    /// The def's name of the field, for errors and JSON.
    pub wire_name: String,
    /// What the front end knows of its layout.
    pub encoding: Encoding,
    /// `[interleaved]`: elements alternate with the neighbouring
    /// interleaved arrays.
    pub interleaved: bool,
    /// Explicit `ref` lines sitting right before this field: the fields
    /// whose metadata they place.
    pub refs_before: Vec<Named<S>>,
    /// For a split object: the fields after which its parts 1, 2, ... sit.
    pub parts_after: Vec<Named<S>>,
    /// For a repeated fixed field: the field after which it is repeated.
    pub again_after: Option<Named<S>>,
    /// In a split object's own struct: this field starts part N.
    pub part: Option<(usize, S)>,
    /// The field as a whole, for errors about it.
    pub span: S,
}

impl<S> FieldSpec<S> {
    /// A field with no placement attributes.
    pub fn new(
        ident: impl Into<String>,
        wire_name: impl Into<String>,
        encoding: Encoding,
        span: S,
    ) -> Self {
        FieldSpec {
            ident: ident.into(),
            wire_name: wire_name.into(),
            encoding,
            interleaved: false,
            refs_before: Vec::new(),
            parts_after: Vec::new(),
            again_after: None,
            part: None,
            span,
        }
    }
}
