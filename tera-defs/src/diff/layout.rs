//! The byte layout of a def (`docs/wire-format.md`), stripped of field names
//! and value types, so that two defs can be checked for wire compatibility:
//! the same layout means every packet of one is a packet of the other.

use super::DiffError;
use crate::model::{Block, Def, ElemType, FieldType, Item, Scalar};

/// What a variable field's metadata describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// `string`: u16 offset.
    String,
    /// `bytes`: u16 offset, u16 count.
    Bytes,
    /// `array` / `array<T>`: u16 count, u16 offset.
    Array,
}

impl Var {
    fn meta_size(self) -> usize {
        match self {
            Var::String => 2,
            Var::Bytes | Var::Array => 4,
        }
    }

    fn of(ty: &FieldType) -> Option<Var> {
        match ty {
            FieldType::String => Some(Var::String),
            FieldType::Bytes => Some(Var::Bytes),
            FieldType::Array(_) | FieldType::ArrayOf(_) => Some(Var::Array),
            _ => None,
        }
    }
}

/// One piece of a block's layout, with the fields it comes from (for
/// explanations; names do not take part in comparisons).
#[derive(Debug, Clone)]
pub enum Token {
    /// A run of fixed-size fields: total bytes and the fields with their
    /// types.
    Fixed(usize, Vec<(String, Scalar)>),
    /// The metadata of a variable field.
    Meta(Var, String),
    /// A string's characters or a bytes field's bytes.
    Data(Var, String),
    /// An array's elements: interleaved with its neighbours or not, and the
    /// layout of one element.
    Elements {
        /// The array field.
        field: String,
        /// `[interleaved]`.
        interleaved: bool,
        /// One element's block (after its `here`/`next` header).
        element: Vec<Token>,
    },
}

impl Token {
    fn same_shape(&self, other: &Token) -> bool {
        match (self, other) {
            (Token::Fixed(a, _), Token::Fixed(b, _)) => a == b,
            (Token::Meta(a, _), Token::Meta(b, _)) | (Token::Data(a, _), Token::Data(b, _)) => {
                a == b
            }
            (
                Token::Elements {
                    interleaved: ia,
                    element: ea,
                    ..
                },
                Token::Elements {
                    interleaved: ib,
                    element: eb,
                    ..
                },
            ) => {
                ia == ib && ea.len() == eb.len() && ea.iter().zip(eb).all(|(a, b)| a.same_shape(b))
            }
            _ => false,
        }
    }

    /// Size in bytes when it does not depend on the packet.
    fn fixed_size(&self) -> Option<usize> {
        match self {
            Token::Fixed(n, _) => Some(*n),
            Token::Meta(var, _) => Some(var.meta_size()),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        match self {
            Token::Fixed(n, fields) => {
                let names: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
                format!("{n} fixed bytes ({})", names.join(", "))
            }
            Token::Meta(Var::String, f) => format!("the offset of string `{f}`"),
            Token::Meta(Var::Bytes, f) => format!("the offset and count of bytes `{f}`"),
            Token::Meta(Var::Array, f) => format!("the count and offset of array `{f}`"),
            Token::Data(Var::Bytes, f) => format!("the data of bytes `{f}`"),
            Token::Data(_, f) => format!("the characters of string `{f}`"),
            Token::Elements {
                field, interleaved, ..
            } => {
                let how = if *interleaved { "interleaved " } else { "" };
                format!("the {how}elements of array `{field}`")
            }
        }
    }
}

/// The layout of a def's root block; an error when a `ref` names no
/// variable field of its block (validation rejects such a def, but a
/// [`Def`] can be built by hand).
pub fn of_def(def: &Def) -> Result<Vec<Token>, DiffError> {
    let mut out = Vec::new();
    block(&def.root, def.explicit_refs, "", &mut out).map_err(|path| DiffError::UnresolvedRef {
        file_name: def.file_name.clone(),
        path,
    })?;
    Ok(out)
}

fn push_fixed(out: &mut Vec<Token>, ty: Scalar, field: String) {
    if let Some(Token::Fixed(n, fields)) = out.last_mut() {
        *n += ty.wire_size();
        fields.push((field, ty));
    } else {
        out.push(Token::Fixed(ty.wire_size(), vec![(field, ty)]));
    }
}

/// `Err(path)`: a `ref` to no variable field of its block.
fn block(b: &Block, explicit: bool, prefix: &str, out: &mut Vec<Token>) -> Result<(), String> {
    if !explicit {
        implicit_meta(b, prefix, out);
    }
    fields(b, explicit, prefix, out)
}

/// Implicit metadata: every variable field of the block in def order,
/// looking through objects but not into arrays.
fn implicit_meta(b: &Block, prefix: &str, out: &mut Vec<Token>) {
    for f in b.fields() {
        let path = format!("{prefix}{}", f.name);
        match &f.ty {
            FieldType::Object(inner) => implicit_meta(inner, &format!("{path}."), out),
            ty => {
                if let Some(var) = Var::of(ty) {
                    out.push(Token::Meta(var, path));
                }
            }
        }
    }
}

fn fields(b: &Block, explicit: bool, prefix: &str, out: &mut Vec<Token>) -> Result<(), String> {
    for item in &b.items {
        match item {
            Item::Ref(r) => {
                let path = format!("{prefix}{}", r.path.join("."));
                let Some(var) = resolve(b, &r.path) else {
                    return Err(path);
                };
                out.push(Token::Meta(var, path));
            }
            Item::Field(f) => {
                let path = format!("{prefix}{}", f.name);
                match &f.ty {
                    FieldType::Scalar(s) => push_fixed(out, *s, path),
                    FieldType::Object(inner) => fields(inner, explicit, &format!("{path}."), out)?,
                    FieldType::String => out.push(Token::Data(Var::String, path)),
                    FieldType::Bytes => out.push(Token::Data(Var::Bytes, path)),
                    FieldType::Array(inner) => {
                        let mut element = Vec::new();
                        block(inner, explicit, &format!("{path}[]."), &mut element)?;
                        out.push(elements(path, f.interleaved, element));
                    }
                    FieldType::ArrayOf(elem) => {
                        let item = format!("{path}[]");
                        let element = match elem {
                            ElemType::Scalar(s) => {
                                vec![Token::Fixed(s.wire_size(), vec![(item, *s)])]
                            }
                            ElemType::String => vec![
                                Token::Meta(Var::String, item.clone()),
                                Token::Data(Var::String, item),
                            ],
                        };
                        out.push(elements(path, f.interleaved, element));
                    }
                }
            }
        }
    }
    Ok(())
}

fn elements(field: String, interleaved: bool, element: Vec<Token>) -> Token {
    Token::Elements {
        field,
        interleaved,
        element,
    }
}

/// The kind of the variable field a `ref` path names.
fn resolve(b: &Block, path: &[String]) -> Option<Var> {
    let (last, objects) = path.split_last()?;
    // A split object has several parts; the field may be in any of them.
    let mut blocks = vec![b];
    for name in objects {
        blocks = blocks.iter().flat_map(|bl| bl.object_parts(name)).collect();
    }
    blocks
        .iter()
        .flat_map(|bl| bl.fields())
        .find(|f| f.name == *last)
        .and_then(|f| Var::of(&f.ty))
}

/// `None` when the layouts are the same; otherwise where and how they
/// first differ. Byte positions count from the start of the packet (its
/// 4-byte header included) or of an array element (its 4-byte `here`/`next`
/// header included).
pub fn first_difference(a: &[Token], b: &[Token]) -> Option<String> {
    difference(a, b, "the packet")
}

fn difference(a: &[Token], b: &[Token], place: &str) -> Option<String> {
    let mut offset = Some(4usize);
    let mut after: Option<&Token> = None;
    for i in 0..a.len().max(b.len()) {
        let at = match (offset, after) {
            (Some(n), _) => format!("at byte {n} of {place}"),
            (None, Some(t)) => format!("in {place}, after {}", t.describe()),
            (None, None) => unreachable!("the offset is known until a token is passed"),
        };
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) if x.same_shape(y) => {
                offset = offset.and_then(|n| x.fixed_size().map(|s| n + s));
                after = Some(x);
            }
            (Some(x), Some(y)) => {
                if let (
                    Token::Elements {
                        element: ea,
                        field,
                        interleaved: ia,
                    },
                    Token::Elements {
                        element: eb,
                        interleaved: ib,
                        ..
                    },
                ) = (x, y)
                {
                    if ia != ib {
                        return Some(format!(
                            "{at}: array `{field}` is {} in A but {} in B",
                            interleaving(*ia),
                            interleaving(*ib)
                        ));
                    }
                    return difference(ea, eb, &format!("each element of `{field}`"));
                }
                if let (Token::Fixed(_, fx), Token::Fixed(_, fy), Some(start)) = (x, y, offset) {
                    return Some(fixed_difference(fx, fy, start, place));
                }
                return Some(format!(
                    "{at}: A has {} where B has {}",
                    x.describe(),
                    y.describe()
                ));
            }
            (Some(x), None) => {
                return Some(format!(
                    "{at}: A goes on with {} where B ends",
                    x.describe()
                ));
            }
            (None, Some(y)) => {
                return Some(format!(
                    "{at}: B goes on with {} where A ends",
                    y.describe()
                ));
            }
            (None, None) => unreachable!("the loop stops at the longer layout"),
        }
    }
    None
}

/// Where two runs of fixed fields of different sizes part: the first field
/// of another size, or the fields one run has beyond the other.
fn fixed_difference(
    a: &[(String, Scalar)],
    b: &[(String, Scalar)],
    start: usize,
    place: &str,
) -> String {
    let mut offset = start;
    for (i, ((na, ta), (nb, tb))) in a.iter().zip(b).enumerate() {
        if ta.wire_size() != tb.wire_size() {
            return format!(
                "at byte {offset} of {place}: A has `{na}` ({ta}, {} bytes) where B has `{nb}` ({tb}, {} bytes)",
                ta.wire_size(),
                tb.wire_size()
            );
        }
        offset += ta.wire_size();
        if i + 1 == a.len().min(b.len()) {
            let (longer, which, other) = if a.len() > b.len() {
                (a, "A", "B")
            } else {
                (b, "B", "A")
            };
            let extra = &longer[i + 1..];
            let bytes: usize = extra.iter().map(|(_, t)| t.wire_size()).sum();
            let mut names: Vec<String> = extra
                .iter()
                .take(4)
                .map(|(n, t)| format!("{n}: {t}"))
                .collect();
            if extra.len() > 4 {
                names.push("...".into());
            }
            return format!(
                "at byte {offset} of {place}, after `{na}`: {which} has {bytes} more fixed bytes ({}) that {other} lacks",
                names.join(", ")
            );
        }
    }
    unreachable!("runs of different sizes differ in a field or in length")
}

/// For two layouts without a [`first_difference`]: the runs of fixed bytes
/// that the two defs split into other types (`int32 a, int32 b` against
/// `int64 c`, or `int32` against `float`), one description per run.
pub fn type_differences(a: &[Token], b: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    types(a, b, &mut out);
    out
}

fn types(a: &[Token], b: &[Token], out: &mut Vec<String>) {
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Token::Fixed(_, fx), Token::Fixed(_, fy)) => {
                let kinds = |f: &[(String, Scalar)]| f.iter().map(|(_, t)| *t).collect::<Vec<_>>();
                if kinds(fx) != kinds(fy) {
                    out.push(format!("{} read as {}", typed(fx), typed(fy)));
                }
            }
            (Token::Elements { element: ex, .. }, Token::Elements { element: ey, .. }) => {
                types(ex, ey, out);
            }
            _ => {}
        }
    }
}

fn typed(fields: &[(String, Scalar)]) -> String {
    let parts: Vec<String> = fields.iter().map(|(f, t)| format!("{f}: {t}")).collect();
    format!("({})", parts.join(", "))
}

fn interleaving(yes: bool) -> &'static str {
    if yes {
        "interleaved"
    } else {
        "not interleaved"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, text: &str) -> Def {
        let checked = crate::parse_def(name, text);
        checked
            .def
            .unwrap_or_else(|| panic!("{}", checked.report.render(false)))
    }

    fn diff(a: &str, b: &str) -> Option<String> {
        let layout = |name, text| of_def(&def(name, text)).unwrap();
        first_difference(&layout("A.1.def", a), &layout("A.2.def", b))
    }

    #[test]
    fn names_and_same_size_types_do_not_matter() {
        assert_eq!(diff("int32 a\nstring s\n", "uint32 b\nstring t\n"), None);
        // Two int32 and one int64 are the same 8 bytes.
        assert_eq!(diff("int32 a\nint32 b\n", "int64 c\n"), None);
        assert_eq!(
            diff("object o\n- byte x\nbyte y\n", "byte x\nbyte y\n"),
            None
        );
    }

    #[test]
    fn fixed_sizes_differ() {
        assert_eq!(
            diff(
                "uint32 channel\nstring m\n",
                "uint32 channel\nbool gm\nstring m\n"
            )
            .unwrap(),
            "at byte 10 of the packet, after `channel`: B has 1 more fixed bytes (gm: bool) that A lacks"
        );
    }

    #[test]
    fn metadata_order_and_kinds() {
        let d = diff("string a\nbytes b\n", "bytes b\nstring a\n").unwrap();
        assert_eq!(
            d,
            "at byte 4 of the packet: A has the offset of string `a` where B has the offset and count of bytes `b`"
        );
        // Implicit metadata of a variable field inside an object sits at
        // the front of the block.
        assert_eq!(
            diff("byte x\nobject o\n- string s\n", "byte x\nstring s\n"),
            None
        );
    }

    #[test]
    fn explicit_refs_place_metadata() {
        // A ref at the front is where implicit metadata goes.
        assert_eq!(
            diff("ref s\nbyte x\nstring s\n", "byte x\nstring s\n"),
            None
        );
        assert_eq!(diff("byte x\nref s\nstring s\n", "byte x\nstring s\n"), Some(
            "at byte 4 of the packet: A has 1 fixed bytes (x) where B has the offset of string `s`".into()
        ));
    }

    #[test]
    fn type_splits() {
        let types = |a: &str, b: &str| {
            let (a, b) = (
                of_def(&def("A.1.def", a)).unwrap(),
                of_def(&def("A.2.def", b)).unwrap(),
            );
            assert!(first_difference(&a, &b).is_none());
            type_differences(&a, &b)
        };
        assert!(types("int32 a\nstring s\n", "int32 b\nstring t\n").is_empty());
        assert_eq!(
            types("int32 a\nint32 b\n", "int64 c\n"),
            ["(a: int32, b: int32) read as (c: int64)"]
        );
        assert_eq!(
            types("array x\n- float f\n", "array x\n- int32 f\n"),
            ["(x[].f: float) read as (x[].f: int32)"]
        );
    }

    #[test]
    fn arrays_recurse() {
        assert_eq!(
            diff("array a\n- int32 x\n", "array a\n- int16 x\n").unwrap(),
            "at byte 4 of each element of `a`: A has `a[].x` (int32, 4 bytes) where B has `a[].x` (int16, 2 bytes)"
        );
        assert_eq!(diff("array<int32> a\n", "array b\n- uint32 y\n"), None);
        assert_eq!(
            diff(
                "array[interleaved] a\n- byte x\narray<byte>[interleaved] b\n",
                "array a\n- byte x\narray<byte> b\n"
            )
            .unwrap(),
            "at byte 12 of the packet: array `a` is interleaved in A but not interleaved in B"
        );
        assert_eq!(
            diff("string s\nbyte x\n", "string s\nbyte x\nbyte y\n").unwrap(),
            "in the packet, after the characters of string `s`: A has 1 fixed bytes (x) where B has 2 fixed bytes (x, y)"
        );
        assert_eq!(
            diff("byte x\n", "byte x\nstring s\n").unwrap(),
            "at byte 4 of the packet: A has 1 fixed bytes (x) where B has the offset of string `s`"
        );
        assert_eq!(
            diff("byte x\n", "byte x\narray<byte> s\n").unwrap(),
            "at byte 4 of the packet: A has 1 fixed bytes (x) where B has the count and offset of array `s`"
        );
        assert_eq!(
            diff("array a\n- byte x\n", "array a\n- byte x\n- byte y\n").unwrap(),
            "at byte 5 of each element of `a`, after `a[].x`: B has 1 more fixed bytes (a[].y: byte) that A lacks"
        );
        assert_eq!(
            diff("uint16 x\n", "uint16 x\nbyte y\n").unwrap(),
            "at byte 6 of the packet, after `x`: B has 1 more fixed bytes (y: byte) that A lacks"
        );
        assert_eq!(
            diff("string s\n", "string s\nbyte x\n").unwrap(),
            "in the packet, after the characters of string `s`: B goes on with 1 fixed bytes (x) where A ends"
        );
    }
}
