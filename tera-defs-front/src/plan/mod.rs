//! A def lowered into wire plans (the `tera-wire-plan` crate): one plan per
//! struct the emitter writes (the root, each array element, each merged
//! object), and the flattened layout of a level read from them. Nothing
//! else in tera-defs works the layout out.

mod level;
mod lower;

pub use level::{LayoutError, Leaf, Token, level_tokens};
pub use lower::{LoweredField, StructPlan};
