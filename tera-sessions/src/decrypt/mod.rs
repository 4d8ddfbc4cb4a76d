//! From a connection's two byte streams to a session's packets: the
//! plain-text handshake read passively, the key generation chosen by the
//! first client packet, each direction decrypted and split into packets,
//! with lost bytes skipped and framing found again after them.

mod framer;
mod opcodes;
mod partial;
mod passive;
mod resync;

pub(crate) use framer::{Framer, Output};
pub use opcodes::OpcodeSet;
pub(crate) use passive::{Passive, Progress, Refusal};
