//! The byte layout of a def (`docs/wire-format.md`), stripped of field names
//! and value types, so that two defs can be checked for wire compatibility:
//! the same layout means every packet of one is a packet of the other.

use super::DiffError;
use crate::model::{Def, Scalar};
use crate::plan::{Leaf, StructPlan, Token, level_tokens};

/// The layout of a def's root block, read from its wire plans; an error
/// for a def that validation rejects, built by hand.
pub fn of_def(def: &Def) -> Result<Vec<Token>, DiffError> {
    let layout = |def: &Def| level_tokens(&StructPlan::new(&def.root, &[])?, "");
    layout(def).map_err(|error| DiffError::Layout {
        file_name: def.file_name.clone(),
        error,
    })
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
                        ..
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
fn fixed_difference(a: &[Leaf], b: &[Leaf], start: usize, place: &str) -> String {
    let mut offset = start;
    for (i, (la, lb)) in a.iter().zip(b).enumerate() {
        let (na, ta, nb, tb) = (&la.path, la.scalar, &lb.path, lb.scalar);
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
            let bytes: usize = extra.iter().map(|l| l.scalar.wire_size()).sum();
            let mut names: Vec<String> = extra
                .iter()
                .take(4)
                .map(|l| format!("{}: {}", l.path, l.scalar))
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
                let kinds = |f: &[Leaf]| f.iter().map(|l| l.scalar).collect::<Vec<Scalar>>();
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

fn typed(fields: &[Leaf]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|l| format!("{}: {}", l.path, l.scalar))
        .collect();
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
    use super::super::tests::def;
    use super::*;

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
