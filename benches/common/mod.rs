//! What the benches share: the bench packets of `../shared/bench`, the JS
//! reference figures, the packet types they decode to, and the operations
//! measured on them.
#![allow(dead_code, unused_imports)] // each bench target uses a different part

pub mod data;
pub mod js;
pub mod ops;
#[cfg(tera_corpus)]
pub mod types;
