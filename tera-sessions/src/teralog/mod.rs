//! ShinraMeter's TeraConnectionLog (`.TeraLog`): decrypted packets of one
//! connection, both directions, with millisecond times.
//!
//! A sequence of blocks: `u8 type`, `u16 size` (little endian, counting
//! its own two bytes), `size - 2` bytes of payload. Type 1 is the magic
//! (`TeraConnectionLog`, first), 2 the start (blocks before it are the
//! header), 3 a timestamp (a little-endian integer of the payload's
//! length: milliseconds since 2015-01-01 00:00 UTC, for the blocks after
//! it), 4 a client message, 5 a server message (a message block is the
//! packet itself: its size field is the packet's length field), 6 the
//! region (ASCII). Unknown types are skipped.
//!
//! What a `.TeraLog` cannot hold: the client's and server's addresses and
//! the key generation (read as unknown), gaps (not written; the writer
//! counts them), more than one session (the writer refuses a second), why
//! the session ended (read as the end of the input), times finer than a
//! millisecond (written rounded down).

mod blocks;
mod read;
mod write;

pub use read::TeraLogReader;
pub use write::{TeraLogOptions, TeraLogWriter};
