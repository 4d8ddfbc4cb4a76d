//! The model built from small defs: structure, docs, refs, names.

use tera_defs_front::{Def, ElemType, FieldType, Item, Scalar, codes, parse_def};

fn def(source: &str) -> Def {
    let checked = parse_def("S_TEST.3.def", source);
    match checked.def {
        Some(def) => def,
        None => panic!("{}", checked.report.render(false)),
    }
}

fn codes_of(source: &str) -> Vec<String> {
    parse_def("S_TEST.3.def", source)
        .report
        .diagnostics
        .iter()
        .filter_map(|d| d.code.clone())
        .collect()
}

#[test]
fn empty_file_is_a_packet_without_fields() {
    let d = def("");
    assert!(d.root.items.is_empty());
    assert_eq!(
        (d.name.as_str(), d.version, d.platform),
        ("S_TEST", 3, None)
    );
    assert!(!d.explicit_refs);
    assert!(def("\u{feff}\u{feff}").root.items.is_empty());
    assert!(def("# only a comment").root.items.is_empty());
}

#[test]
fn platform_infix() {
    let c = parse_def("S_TEST.3.classic.def", "int32 a");
    assert_eq!(c.def.and_then(|d| d.platform).as_deref(), Some("classic"));
}

#[test]
fn nesting_and_types() {
    let d = def(
        "uint32 id\narray outer\n- vec3 loc\n- array inner\n- - byte z\n\
                 - array<string> names\nobject o\n- skillid s\nbytes data\n",
    );
    let fields: Vec<_> = d.root.fields().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["id", "outer", "o", "data"]);
    let outer = d
        .root
        .field("outer")
        .and_then(|f| f.ty.block())
        .expect("outer");
    let inner = outer
        .field("inner")
        .and_then(|f| f.ty.block())
        .expect("inner");
    assert_eq!(
        inner.field("z").map(|f| &f.ty),
        Some(&FieldType::Scalar(Scalar::Byte))
    );
    assert_eq!(
        outer.field("names").map(|f| &f.ty),
        Some(&FieldType::ArrayOf(ElemType::String))
    );
    assert!(matches!(
        d.root.field("o").map(|f| &f.ty),
        Some(FieldType::Object(_))
    ));
    assert_eq!(d.root.field("data").map(|f| &f.ty), Some(&FieldType::Bytes));
    assert!(d.is_dynamic());
    assert!(!def("int32 a\nobject o\n- byte b").is_dynamic());
}

#[test]
fn double_dash_equals_spaced_dashes() {
    let a = def("array a\n- array b\n--int32 x\n- - int32 y\n");
    let b = a.root.field("a").and_then(|f| f.ty.block()).expect("a");
    let inner = b.field("b").and_then(|f| f.ty.block()).expect("b");
    assert_eq!(inner.fields().count(), 2);
}

#[test]
fn array_of_with_flags_and_interleaved() {
    let d = def("array[interleaved] t\n- uint32 x\narray<vec3>[interleaved] e\nint32 after\n");
    let t = d.root.field("t").expect("t");
    let e = d.root.field("e").expect("e");
    assert!(t.interleaved && e.interleaved);
    assert_eq!(e.ty, FieldType::ArrayOf(ElemType::Scalar(Scalar::Vec3)));
    assert!(!d.root.field("after").expect("after").interleaved);
}

#[test]
fn docs() {
    let d = def(
        "# packet doc\n# second line\n\n# about a\nint32 a\nint32 b # about b\n\
                 \x20        # b continued\nint32 c\n\n# detached\n\nint32 d\nref s\nstring s # s\n",
    );
    assert_eq!(d.doc.as_deref(), Some("packet doc\nsecond line\nabout a"));
    let doc = |n: &str| d.root.field(n).and_then(|f| f.doc.clone());
    // The leading block belongs to the file, not to the first field.
    assert_eq!(doc("a"), None);
    assert_eq!(doc("b").as_deref(), Some("about b\nb continued"));
    assert_eq!(doc("c"), None);
    assert_eq!(doc("d"), None);
    assert_eq!(doc("s").as_deref(), Some("s"));
    let d = def("int32 a\n# above b\n#  and more\nint32 b\n");
    assert_eq!(d.doc, None);
    assert_eq!(
        d.root.field("b").and_then(|f| f.doc.clone()).as_deref(),
        Some("above b\nand more")
    );
}

#[test]
fn legacy_offset_and_count() {
    let d = def("count list\noffset list\nuint32 id\narray list\n- int32 v\n");
    assert!(d.explicit_refs);
    assert_eq!(d.root.items.len(), 3, "count dropped, offset kept as a ref");
    match d.root.items.first() {
        Some(Item::Ref(r)) => {
            assert_eq!(r.path, ["list"]);
            assert!(r.legacy_offset);
            assert_eq!((r.span.line, r.span.column), (2, 1));
        }
        other => panic!("{other:?}"),
    }
    // count alone does not turn refs explicit.
    assert!(!def("count s\nstring s").explicit_refs);
}

#[test]
fn explicit_refs_with_dotted_paths_and_elements() {
    let d = def("ref o.s\nref list\nobject o\n- string s\narray list\n- ref n\n- array<int32> n\n");
    assert!(d.explicit_refs);
    let refs: Vec<_> = d.root.refs().map(|r| r.path.join(".")).collect();
    assert_eq!(refs, ["o.s", "list"]);
}

#[test]
fn split_object_stays_in_place() {
    let d = def("object r\n- bool enable\nint16 t\nobject r\n- vec3 loc\n");
    let names: Vec<_> = d.root.fields().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["r", "t", "r"]);
    assert_eq!(d.root.object_parts("r").count(), 2);
}

#[test]
fn spans_are_one_based_and_byte_exact() {
    let src = "\u{feff}uint32 id\r\n\t- int32 x";
    let c = parse_def("S_TEST.3.def", src);
    assert_eq!(c.report.error_count(), 1, "{}", c.report.render(false));
    let src = "\u{feff}uint32 id\r\narray a\r\n\t- int32 x";
    let d = def(src);
    let id = d.root.field("id").expect("id");
    assert_eq!((id.span.line, id.span.column), (1, 2));
    assert_eq!(src.get(id.name_span.range()), Some("id"));
    let a = d.root.field("a").and_then(|f| f.ty.block()).expect("a");
    let x = a.field("x").expect("x");
    assert_eq!((x.span.line, x.span.column), (3, 2));
    assert_eq!(src.get(x.type_span.range()), Some("int32"));
}

#[test]
fn warnings_do_not_block_the_def() {
    let c = parse_def("S_TEST.3.def", "string a\nbool b\nobject o\n");
    assert_eq!(c.report.error_count(), 0);
    assert_eq!(c.report.warning_count(), 2);
    assert!(c.def.is_some());
}

#[test]
fn every_problem_is_reported_at_once() {
    let found = codes_of("int33 a\nint32\nstring a\narray<x> b\nint32[bad] c\n");
    assert_eq!(
        found,
        [
            codes::UNKNOWN_TYPE,
            codes::SYNTAX,
            codes::DUPLICATE_FIELD,
            codes::UNKNOWN_SUBTYPE,
            codes::FIXED_AFTER_VARIABLE,
            codes::UNKNOWN_FLAG
        ]
    );
}

#[test]
fn refs_in_elements_are_checked_per_element() {
    // `ref v` at the root cannot place a field of an element.
    let found = codes_of("ref list\nref v\narray list\n- string v\n");
    assert!(found.contains(&codes::UNKNOWN_REF.to_string()), "{found:?}");
    assert!(found.contains(&codes::MISSING_REF.to_string()), "{found:?}");
}
