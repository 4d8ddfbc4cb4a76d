//! The planner's order of pieces, its groups and its mistakes.

use tera_wire_plan::{
    CursorReadsAfter, Encoding, FieldSpec, Meta, Named, Plan, PlanErrorKind, Segment, Step, Var,
};

fn fixed(name: &str) -> FieldSpec<u32> {
    FieldSpec::new(name, name, Encoding::Fixed(Some(4)), 0)
}

fn var(name: &str, v: Var) -> FieldSpec<u32> {
    FieldSpec::new(name, name, Encoding::Variable(v), 0)
}

fn named(name: &str, span: u32) -> Named<u32> {
    Named {
        name: name.into(),
        span,
    }
}

#[test]
fn implicit_block_groups_fixed_runs_and_interleaved_arrays() {
    let mut a = var("a", Var::Array);
    a.interleaved = true;
    let mut b = var("b", Var::Array);
    b.interleaved = true;
    let fields = [
        fixed("x"),
        fixed("y"),
        var("s", Var::String),
        a,
        b,
        fixed("z"),
    ];
    let plan = Plan::new(&fields, 0).unwrap();
    assert!(!plan.explicit());
    let steps = plan.steps_of(None);
    assert_eq!(
        plan.segments(&steps),
        [
            Segment::Run(vec![Step::Field(0), Step::Field(1)]),
            Segment::Single(Step::Field(2)),
            Segment::Interleaved(vec![3, 4]),
            Segment::Run(vec![Step::Field(5)]),
        ]
    );
    // Every field has an implicit slot (fixed ones of 0 words).
    assert_eq!(
        plan.meta_slots(&steps),
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]
    );
    assert_eq!(plan.meta_of(2), Meta::Slot);
    let segments = plan.segments(&steps);
    // After the string: an interleaved group certainly reads at the cursor.
    assert_eq!(
        plan.cursor_reads_after(&segments, 1),
        CursorReadsAfter::Certainly
    );
    // After the last: nothing.
    assert_eq!(
        plan.cursor_reads_after(&segments, 3),
        CursorReadsAfter::IfAnyOf(vec![])
    );
}

#[test]
fn explicit_refs_sit_in_runs_and_fields_without_one_read_at_the_cursor() {
    let mut b = fixed("b");
    b.refs_before = vec![named("s", 1)];
    let fields = [
        fixed("a"),
        b,
        var("s", Var::String),
        FieldSpec::new("o", "o", Encoding::Opaque, 0),
    ];
    let plan = Plan::new(&fields, 0).unwrap();
    assert!(plan.explicit());
    assert_eq!(plan.meta_of(2), Meta::Slot);
    assert_eq!(plan.meta_of(3), Meta::AtCursor);
    assert!(plan.meta_slots(plan.steps()).is_empty());
    assert_eq!(
        plan.steps(),
        [
            Step::Field(0),
            Step::Ref(2),
            Step::Field(1),
            Step::Field(2),
            Step::Field(3)
        ]
    );
    let segments = plan.segments(plan.steps());
    assert_eq!(
        plan.cursor_reads_after(&segments, 1),
        CursorReadsAfter::IfAnyOf(vec![3])
    );
}

#[test]
fn split_objects_and_repeated_fields_take_their_places() {
    let mut o = FieldSpec::new("o", "o", Encoding::Object, 0);
    o.parts_after = vec![named("x", 1)];
    let mut r = fixed("r");
    r.again_after = Some(named("r", 2));
    let fields = [o, fixed("x"), r, fixed("y")];
    let plan = Plan::new(&fields, 0).unwrap();
    assert_eq!(
        plan.steps(),
        [
            Step::Part { field: 0, part: 0 },
            Step::Field(1),
            Step::Part { field: 0, part: 1 },
            Step::Field(2),
            Step::Repeat(2),
            Step::Field(3),
        ]
    );
    assert_eq!(
        plan.meta_slots(plan.steps()),
        [(0, 0), (1, 0), (0, 1), (2, 0), (3, 0)]
    );
}

#[test]
fn parts_of_a_split_objects_struct_count_up() {
    let mut second = fixed("b");
    second.part = Some((1, 0));
    let plan = Plan::new(&[fixed("a"), second, fixed("c")], 0).unwrap();
    assert_eq!(plan.parts(), 2);
    assert_eq!(plan.steps_of(Some(0)), [Step::Field(0)]);
    assert_eq!(plan.steps_of(Some(1)), [Step::Field(1), Step::Field(2)]);
    assert!(plan.field(1).starts_part);
}

#[test]
fn every_mistake_is_reported_at_its_span() {
    let mut a = var("a", Var::Array);
    a.interleaved = true;
    a.refs_before = vec![named("nope", 10)];
    let mut c = var("c", Var::Array);
    c.interleaved = true;
    let mut s = var("s", Var::String);
    s.refs_before = vec![named("a", 11)];
    let mut t = fixed("t");
    t.part = Some((2, 12));
    let mut gap = fixed("gap");
    gap.span = 13;
    let errors = Plan::new(&[a, gap, c, s, t], 99).unwrap_err();
    let got: Vec<(PlanErrorKind, u32)> = errors.into_iter().map(|e| (e.kind, e.span)).collect();
    assert_eq!(
        got,
        [
            (PlanErrorKind::UnknownField("nope".into()), 10),
            (PlanErrorKind::RefAfterField("a".into()), 11),
            (PlanErrorKind::PartOutOfOrder { expected: 1 }, 12),
            (PlanErrorKind::InterleavedNotConsecutive, 13),
            (PlanErrorKind::SplitWithRefs, 99),
        ]
    );
}

#[test]
fn two_refs_and_backward_anchors_are_mistakes() {
    let mut a = fixed("a");
    a.refs_before = vec![named("s", 1), named("s", 2)];
    let mut o = FieldSpec::new("o", "o", Encoding::Object, 0);
    o.parts_after = vec![named("a", 3)];
    let mut r = fixed("r");
    r.again_after = Some(named("a", 4));
    let errors = Plan::new(&[a, o, r, var("s", Var::String)], 0).unwrap_err();
    let kinds: Vec<PlanErrorKind> = errors.into_iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            PlanErrorKind::TwoRefs("s".into()),
            PlanErrorKind::PartBeforeObject,
            PlanErrorKind::RepeatBeforeField,
        ]
    );
}
