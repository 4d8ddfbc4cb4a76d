//! This project's JSONL form of sessions: one JSON object a line, one line
//! per event (docs/sessions-jsonl.md describes it).
//!
//! Every line has `session` (a number) and `time` (RFC 3339 text, UTC, to
//! the nanosecond). Then, by event: `start` (an object: `client`,
//! `server`, `keys`, `region`, `client_version`, each when known); a
//! packet's `dir` (`"c2s"` or `"s2c"`), `opcode`, `hex` (the whole packet,
//! header included) and, when a packet set named it, `name`, `version`
//! and `data` (its JSON) or `error`; a gap's `dir`, `gap` (its length) and
//! `offset`; `end` (`"closed"` or `"end_of_input"`). Readers take the
//! event from `start`, `hex`, `gap` or `end` and ignore the other keys, so
//! the lines `tera-defs capture --hex` prints read back as a log.

mod line;
mod read;
mod write;

pub use read::JsonlReader;
pub use write::{JsonlWriter, write_line};
