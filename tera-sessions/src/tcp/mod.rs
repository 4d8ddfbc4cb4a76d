//! TCP reassembly: each direction of a connection as one ordered byte
//! stream, with the bytes that were never seen reported as lost.

mod budget;
mod stream;

pub(crate) use budget::Budget;
pub(crate) use stream::{Stream, StreamSink};
