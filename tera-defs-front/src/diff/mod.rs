//! Field-by-field comparison of two defs (usually two versions of one
//! packet): what was added, removed, retyped, renamed or moved, and whether
//! the wire layout stayed the same. `tera-defs diff` prints it.
//!
//! ```
//! use tera_defs_front::{Wire, diff, parse_def};
//!
//! let a = parse_def("S_X.1.def", "uint32 id\nstring name\n").def.unwrap();
//! let b = parse_def("S_X.2.def", "uint32 id\nbool gm\nstring name\n").def.unwrap();
//! let d = diff(&a, &b).unwrap();
//! assert_eq!(d.changes[0].to_string(), "+ added      gm: bool (after id)");
//! assert!(!d.is_wire_compatible());
//! assert!(matches!(d.wire, Wire::Incompatible(_)));
//!
//! let renamed = parse_def("S_X.3.def", "uint32 key\nstring name\n").def.unwrap();
//! assert!(diff(&a, &renamed).unwrap().is_wire_compatible());
//! ```

mod layout;

use std::fmt;

use crate::model::{Block, Def, Field, FieldType};
use crate::plan::LayoutError;

/// One difference between def A and def B. Paths name fields as
/// `object.field` and `array[].field`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Only in B; `after` is the field before it in B (`None`: first).
    Added {
        /// The field.
        path: String,
        /// Its type as written in the def.
        ty: String,
        /// The preceding field in B.
        after: Option<String>,
    },
    /// Only in A.
    Removed {
        /// The field.
        path: String,
        /// Its type.
        ty: String,
    },
    /// In both, with another type.
    Retyped {
        /// The field.
        path: String,
        /// Type in A.
        from: String,
        /// Type in B.
        to: String,
        /// Whether both types take the same bytes (a reinterpretation).
        same_size: bool,
    },
    /// A field of A in the same place and with the same type as a field of
    /// B with another name.
    Renamed {
        /// Path in A.
        from: String,
        /// Path in B.
        to: String,
        /// The type.
        ty: String,
    },
    /// In both blocks, but in another order relative to the other fields.
    Moved {
        /// The field.
        path: String,
        /// The field before it in B (`None`: first).
        after: Option<String>,
    },
    /// The same name and type, in another object or array.
    Relocated {
        /// Path in A.
        from: String,
        /// Path in B.
        to: String,
        /// The type.
        ty: String,
    },
    /// The `[interleaved]` flag was set or cleared.
    Interleaved {
        /// The array.
        path: String,
        /// Whether B has the flag.
        now: bool,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = |after: &Option<String>| match after {
            Some(a) => format!("after {a}"),
            None => "first".to_string(),
        };
        match self {
            Change::Added { path, ty, after } => {
                write!(f, "+ added      {path}: {ty} ({})", place(after))
            }
            Change::Removed { path, ty } => write!(f, "- removed    {path}: {ty}"),
            Change::Retyped {
                path,
                from,
                to,
                same_size,
            } => {
                let note = if *same_size { " (same size)" } else { "" };
                write!(f, "~ retyped    {path}: {from} -> {to}{note}")
            }
            Change::Renamed { from, to, ty } => write!(f, "= renamed    {from} -> {to}: {ty}"),
            Change::Moved { path, after } => write!(f, "> moved      {path}: now {}", place(after)),
            Change::Relocated { from, to, ty } => {
                write!(f, "> relocated  {from} -> {to}: {ty}")
            }
            Change::Interleaved { path, now } => {
                let what = if *now { "set" } else { "cleared" };
                write!(f, "~ flag       {path}: [interleaved] {what}")
            }
        }
    }
}

/// Whether packets of A and B share one byte layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wire {
    /// The same layout, and every fixed byte is read as the same type: only
    /// names (which are not on the wire) or nothing differ.
    Identical,
    /// The same layout, but some runs of fixed bytes are read as other
    /// types: one description per run.
    Reinterpreted(Vec<String>),
    /// Different layouts; the reason says where they first differ.
    Incompatible(String),
}

impl fmt::Display for Wire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wire::Identical => f.write_str("wire-compatible: identical layout"),
            Wire::Reinterpreted(fields) => write!(
                f,
                "wire-compatible layout, but bytes are read as other types: {}",
                fields.join("; ")
            ),
            Wire::Incompatible(why) => write!(f, "not wire-compatible: {why}"),
        }
    }
}

/// The result of comparing def A with def B.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// Field differences, in the order of the blocks walked.
    pub changes: Vec<Change>,
    /// The verdict on the byte layout.
    pub wire: Wire,
}

impl Diff {
    /// Whether every packet of A is a packet of B (the same layout; maybe
    /// with bytes read as other types of the same size).
    pub fn is_wire_compatible(&self) -> bool {
        !matches!(self.wire, Wire::Incompatible(_))
    }
}

/// Why two defs could not be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// The def has no wire layout: a def that validation rejects (a `ref`
    /// to no string, bytes or array, a variable field without a ref, ...),
    /// built by hand.
    #[error("{file_name}: {error}")]
    Layout {
        /// The def's file name.
        file_name: String,
        /// Why.
        error: LayoutError,
    },
}

/// Compares def `a` with def `b`, field by field and by wire layout.
pub fn diff(a: &Def, b: &Def) -> Result<Diff, DiffError> {
    let mut changes = Vec::new();
    block(&a.root, &b.root, "", &mut changes);
    relocate(&mut changes);
    let (la, lb) = (layout::of_def(a)?, layout::of_def(b)?);
    let wire = match layout::first_difference(&la, &lb) {
        Some(why) => Wire::Incompatible(why),
        None => {
            let mut retyped = layout::type_differences(&la, &lb);
            // A field that moved without changing the layout took the place
            // of another field of the same kind: the bytes mean something
            // else. (Moves between fixed fields already show up above.)
            if retyped.is_empty() {
                retyped = changes
                    .iter()
                    .filter_map(|c| match c {
                        Change::Moved { path, .. } => Some(format!(
                            "{path} moved into the place of a field of the same type"
                        )),
                        _ => None,
                    })
                    .collect();
            }
            if retyped.is_empty() {
                Wire::Identical
            } else {
                Wire::Reinterpreted(retyped)
            }
        }
    };
    Ok(Diff { changes, wire })
}

/// A field with a key that is unique in its block: the name, plus `#2`,
/// `#3`... for the later parts of a split object.
fn keyed(b: &Block) -> Vec<(String, &Field)> {
    let mut seen: Vec<&str> = Vec::new();
    b.fields()
        .map(|f| {
            let n = seen.iter().filter(|s| **s == f.name).count();
            seen.push(&f.name);
            let key = if n == 0 {
                f.name.clone()
            } else {
                format!("{}#{}", f.name, n + 1)
            };
            (key, f)
        })
        .collect()
}

/// The full type of a field, element and object fields included, to tell
/// whether two fields are the same.
fn shape(ty: &FieldType) -> String {
    match ty.block() {
        Some(inner) => {
            let fields: Vec<String> = inner
                .fields()
                .map(|f| format!("{} {}", shape(&f.ty), f.name))
                .collect();
            format!("{}{{{}}}", ty.def_name(), fields.join(", "))
        }
        None => ty.def_name(),
    }
}

fn block(a: &Block, b: &Block, prefix: &str, out: &mut Vec<Change>) {
    let fa = keyed(a);
    let fb = keyed(b);
    let in_b = |k: &str| fb.iter().position(|(key, _)| key == k);
    let in_a = |k: &str| fa.iter().position(|(key, _)| key == k);
    let path = |key: &str| format!("{prefix}{key}");
    // The nearest preceding field that both blocks have, to place renames.
    let anchor = |fields: &[(String, &Field)], i: usize, other: &dyn Fn(&str) -> Option<usize>| {
        fields[..i]
            .iter()
            .rev()
            .find(|(k, _)| other(k).is_some())
            .map(|(k, _)| k.clone())
    };
    let mut renamed_b: Vec<usize> = Vec::new();
    for (i, (key, fa_field)) in fa.iter().enumerate() {
        if in_b(key).is_some() {
            continue;
        }
        let place = anchor(&fa, i, &in_b);
        let rename = fb.iter().enumerate().position(|(j, (kb, fb_field))| {
            in_a(kb).is_none()
                && !renamed_b.contains(&j)
                && shape(&fa_field.ty) == shape(&fb_field.ty)
                && anchor(&fb, j, &in_a) == place
        });
        match rename {
            Some(j) => {
                renamed_b.push(j);
                out.push(Change::Renamed {
                    from: path(key),
                    to: path(&fb[j].0),
                    ty: fa_field.ty.def_name(),
                });
            }
            None => out.push(Change::Removed {
                path: path(key),
                ty: fa_field.ty.def_name(),
            }),
        }
    }
    for (j, (key, field)) in fb.iter().enumerate() {
        if in_a(key).is_none() && !renamed_b.contains(&j) {
            out.push(Change::Added {
                path: path(key),
                ty: field.ty.def_name(),
                after: (j > 0).then(|| path(&fb[j - 1].0)),
            });
        }
    }
    moves(&fa, &fb, prefix, out);
    for (key, x) in &fa {
        let Some(j) = in_b(key) else { continue };
        let y = fb[j].1;
        field(x, y, &path(key), out);
    }
}

/// Fields of both blocks that changed their order: the ones outside the
/// longest run kept in order.
fn moves(fa: &[(String, &Field)], fb: &[(String, &Field)], prefix: &str, out: &mut Vec<Change>) {
    let common: Vec<(usize, &str)> = fa
        .iter()
        .filter_map(|(k, _)| {
            fb.iter()
                .position(|(kb, _)| kb == k)
                .map(|j| (j, k.as_str()))
        })
        .collect();
    let kept = longest_increasing(&common.iter().map(|(j, _)| *j).collect::<Vec<_>>());
    for (index, (j, key)) in common.iter().enumerate() {
        if !kept.contains(&index) {
            out.push(Change::Moved {
                path: format!("{prefix}{key}"),
                after: (*j > 0).then(|| format!("{prefix}{}", fb[j - 1].0)),
            });
        }
    }
}

/// Indices of one longest strictly increasing subsequence (quadratic; a
/// block has few fields).
fn longest_increasing(values: &[usize]) -> Vec<usize> {
    let n = values.len();
    let mut len = vec![1usize; n];
    let mut prev = vec![usize::MAX; n];
    for i in 0..n {
        for j in 0..i {
            if values[j] < values[i] && len[j] + 1 > len[i] {
                len[i] = len[j] + 1;
                prev[i] = j;
            }
        }
    }
    let mut out = Vec::new();
    let Some(mut i) = (0..n).max_by_key(|&i| (len[i], usize::MAX - i)) else {
        return out;
    };
    loop {
        out.push(i);
        if prev[i] == usize::MAX {
            break;
        }
        i = prev[i];
    }
    out.reverse();
    out
}

fn field(a: &Field, b: &Field, path: &str, out: &mut Vec<Change>) {
    if a.interleaved != b.interleaved {
        out.push(Change::Interleaved {
            path: path.to_string(),
            now: b.interleaved,
        });
    }
    match (&a.ty, &b.ty) {
        (FieldType::Object(x), FieldType::Object(y)) => block(x, y, &format!("{path}."), out),
        (FieldType::Array(x), FieldType::Array(y)) => block(x, y, &format!("{path}[]."), out),
        (x, y) if x != y => out.push(Change::Retyped {
            path: path.to_string(),
            from: x.def_name(),
            to: y.def_name(),
            same_size: x.fixed_size().is_some() && x.fixed_size() == y.fixed_size(),
        }),
        _ => {}
    }
}

/// A removed and an added field with the same name and type in different
/// blocks is one field that went elsewhere.
fn relocate(changes: &mut Vec<Change>) {
    let leaf = |p: &str| p.rsplit(['.']).next().unwrap_or(p).to_string();
    let mut i = 0;
    while i < changes.len() {
        let Change::Removed { path, ty } = &changes[i] else {
            i += 1;
            continue;
        };
        let (from, ty) = (path.clone(), ty.clone());
        let found = changes.iter().position(|c| {
            matches!(c, Change::Added { path: to, ty: t, .. } if *t == ty && leaf(to) == leaf(&from))
        });
        match found {
            Some(j) => {
                let Change::Added { path: to, .. } = changes.remove(j) else {
                    unreachable!("position found an Added")
                };
                let i = if j < i { i - 1 } else { i };
                changes[i] = Change::Relocated { from, to, ty };
            }
            None => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The def `text`, parsed as file `name`; a test's mistake panics with
    /// the rendered diagnostics.
    pub(super) fn def(name: &str, text: &str) -> Def {
        let checked = crate::parse_def(name, text);
        checked
            .def
            .unwrap_or_else(|| panic!("{}", checked.report.render(false)))
    }

    fn cmp(a: &str, b: &str) -> Diff {
        diff(&def("S_X.1.def", a), &def("S_X.2.def", b)).unwrap()
    }

    fn lines(c: &Diff) -> Vec<String> {
        c.changes.iter().map(Change::to_string).collect()
    }

    #[test]
    fn identical() {
        let c = cmp("uint32 a\nstring s\n", "uint32 a\nstring s\n");
        assert!(c.changes.is_empty());
        assert_eq!(c.wire, Wire::Identical);
    }

    #[test]
    fn own_chat_versions() {
        let a = "uint32 channel\nuint64 authorID\nstring authorName\nstring message\n";
        let b = "uint32 channel\nuint64 authorID\nbool unk1\nbool gm\nbool founder\n\
                 string authorName\nstring message\n";
        let c = cmp(a, b);
        assert_eq!(
            lines(&c),
            [
                "+ added      unk1: bool (after authorID)",
                "+ added      gm: bool (after unk1)",
                "+ added      founder: bool (after gm)",
            ]
        );
        let Wire::Incompatible(why) = &c.wire else {
            panic!("{:?}", c.wire)
        };
        assert_eq!(
            why,
            "at byte 20 of the packet, after `authorID`: B has 3 more fixed bytes \
             (unk1: bool, gm: bool, founder: bool) that A lacks"
        );
    }

    #[test]
    fn removed_and_retyped() {
        let c = cmp("int32 a\nint32 b\nbyte c\n", "uint32 a\nint64 b\n");
        assert_eq!(
            lines(&c),
            [
                "- removed    c: byte",
                "~ retyped    a: int32 -> uint32 (same size)",
                "~ retyped    b: int32 -> int64",
            ]
        );
        assert!(matches!(c.wire, Wire::Incompatible(_)));
    }

    #[test]
    fn same_size_retype_is_a_reinterpretation() {
        let c = cmp("int32 a\nfloat b\n", "uint32 a\nfloat b\n");
        assert_eq!(
            c.wire,
            Wire::Reinterpreted(vec![
                "(a: int32, b: float) read as (a: uint32, b: float)".into()
            ])
        );
        assert!(c.wire.to_string().starts_with("wire-compatible"));
    }

    #[test]
    fn rename_in_place() {
        let c = cmp(
            "int32 a\nint32 unk\nbyte z\n",
            "int32 a\nint32 count\nbyte z\n",
        );
        assert_eq!(lines(&c), ["= renamed    unk -> count: int32"]);
        assert_eq!(c.wire, Wire::Identical);
        // A different type in the same place is a removal and an addition.
        let c = cmp("int32 a\nint32 unk\n", "int32 a\nfloat count\n");
        assert_eq!(
            lines(&c),
            [
                "- removed    unk: int32",
                "+ added      count: float (after a)"
            ]
        );
        assert!(matches!(c.wire, Wire::Reinterpreted(_)));
    }

    #[test]
    fn moved() {
        let c = cmp("int32 a\nint16 b\nbyte c\n", "int16 b\nbyte c\nint32 a\n");
        assert_eq!(lines(&c), ["> moved      a: now after c"]);
        // The same 7 bytes, cut into other fields.
        assert_eq!(
            c.wire,
            Wire::Reinterpreted(vec![
                "(a: int32, b: int16, c: byte) read as (b: int16, c: byte, a: int32)".into()
            ])
        );
        let c = cmp("string s\nstring t\n", "string t\nstring s\n");
        assert_eq!(lines(&c), ["> moved      t: now first"]);
        // The same layout, but the first string of the packet is another
        // field now.
        assert_eq!(
            c.wire,
            Wire::Reinterpreted(vec![
                "t moved into the place of a field of the same type".into()
            ])
        );
    }

    #[test]
    fn nested_blocks() {
        let a = "array items\n- int32 id\n- string name\nobject o\n- byte x\n";
        let b = "array items\n- int32 id\n- int32 amount\n- string name\nobject o\n- uint16 x\n";
        let c = cmp(a, b);
        assert_eq!(
            lines(&c),
            [
                "+ added      items[].amount: int32 (after items[].id)",
                "~ retyped    o.x: byte -> uint16",
            ]
        );
        let Wire::Incompatible(why) = &c.wire else {
            panic!("{:?}", c.wire)
        };
        assert!(
            why.starts_with("at byte 10 of each element of `items`, after `items[].id`"),
            "{why}"
        );
    }

    #[test]
    fn relocated_between_blocks() {
        let c = cmp(
            "int32 id\nobject o\n- byte x\n",
            "object o\n- byte x\n- int32 id\n",
        );
        assert_eq!(lines(&c), ["> relocated  id -> o.id: int32"]);
    }

    #[test]
    fn kinds_and_flags() {
        let c = cmp(
            "array[interleaved] a\n- byte x\narray<byte>[interleaved] b\nstring s\n",
            "array a\n- byte x\narray<byte> b\nbytes s\n",
        );
        assert_eq!(
            lines(&c),
            [
                "~ flag       a: [interleaved] cleared",
                "~ flag       b: [interleaved] cleared",
                "~ retyped    s: string -> bytes",
            ]
        );
    }

    #[test]
    fn split_objects_are_matched_in_order() {
        let a = "object r\n- bool e\nint16 t\nobject r\n- vec3 loc\n";
        let b = "object r\n- bool e\nint16 t\nobject r\n- vec3fa loc\n";
        let c = cmp(a, b);
        assert_eq!(
            lines(&c),
            ["~ retyped    r#2.loc: vec3 -> vec3fa (same size)"]
        );
    }

    #[test]
    fn an_unresolvable_ref_is_an_error_not_a_guess() {
        let good = def("S_X.1.def", "ref s\nstring s\n");
        let mut bad = good.clone();
        let crate::model::Item::Ref(r) = &mut bad.root.items[0] else {
            panic!("the first item is the ref")
        };
        r.path = vec!["nothing".to_string()];
        assert_eq!(
            diff(&good, &bad).unwrap_err().to_string(),
            "S_X.1.def: no field named `nothing`"
        );
        // A ref to a fixed field is no guess either.
        let mut fixed = def("S_X.1.def", "ref s\nbyte x\nstring s\n");
        let crate::model::Item::Ref(r) = &mut fixed.root.items[0] else {
            panic!("the first item is the ref")
        };
        r.path = vec!["x".to_string()];
        let err = diff(&fixed, &good).unwrap_err();
        assert_eq!(
            err.to_string(),
            "S_X.1.def: `ref x` names no string, bytes or array of its block"
        );
    }

    #[test]
    fn lis() {
        assert_eq!(longest_increasing(&[]), Vec::<usize>::new());
        assert_eq!(longest_increasing(&[2, 0, 1]), [1, 2]);
        assert_eq!(longest_increasing(&[0, 1, 2]), [0, 1, 2]);
    }
}
