//! One writer per method the derives implement, each a walk over the plan.

pub mod copy;
pub mod len;
pub mod read;
pub mod validate;
pub mod write;
