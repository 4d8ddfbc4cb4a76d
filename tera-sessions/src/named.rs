//! What a packet set made of one packet.

use crate::def::Def;

/// A packet named and decoded: its def when the session's map and the
/// set know its opcode, and its JSON, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The def that read it.
    pub def: Option<Def>,
    /// Its JSON (compact), or why it has none (an opcode no map names, a
    /// name the set lacks, bytes that do not decode).
    pub data: Result<Vec<u8>, String>,
}
