//! The wire plan of a TERA block: where each piece of a struct sits on the
//! wire, worked out once.
//!
//! A block (the root of a packet, an array element, or an `object`) is laid
//! out as the wire-format page of the repository describes
//! (`docs/wire-format.md`): metadata slots, fixed fields in runs, variable
//! fields, interleaved arrays, the parts of a split object, repeated fields.
//! Two front ends lower into the same [`FieldSpec`]s: a `.def` file
//! (`tera-defs`) and a struct with `#[derive(Packet)]` or `#[derive(Block)]`
//! (`tera-defs-macros`). [`Plan::new`] checks the placement and orders the
//! pieces; the derive writes each method as a walk over
//! [`Plan::segments`], the emitter writes attributes from the plan's
//! fields, validation and `tera-defs diff` read the same plan.
//!
//! ```
//! use tera_wire_plan::{Encoding, FieldSpec, Named, Plan, Segment, Step, Var};
//!
//! // int32 a; ref s; int16 b; string s
//! let mut b = FieldSpec::new("b", "b", Encoding::Fixed(Some(2)), ());
//! b.refs_before.push(Named { name: "s".into(), span: () });
//! let fields = [
//!     FieldSpec::new("a", "a", Encoding::Fixed(Some(4)), ()),
//!     b,
//!     FieldSpec::new("s", "s", Encoding::Variable(Var::String), ()),
//! ];
//! let plan = Plan::new(&fields, ()).unwrap();
//! assert!(plan.explicit());
//! let steps = plan.steps_of(None);
//! assert_eq!(
//!     plan.segments(&steps),
//!     [
//!         Segment::Run(vec![Step::Field(0), Step::Ref(2), Step::Field(1)]),
//!         Segment::Single(Step::Field(2)),
//!     ]
//! );
//! ```

mod error;
mod fixed;
mod names;
mod plan;
mod segments;
mod spec;

pub use error::{PlanError, PlanErrorKind};
pub use fixed::{FIXED_TYPES, FixedType, TypeHome};
pub use names::camel_case_of_field;
pub use plan::{Meta, Plan, PlannedField, Step};
pub use segments::{CursorReadsAfter, Segment};
pub use spec::{Encoding, FieldSpec, Named, Var};
