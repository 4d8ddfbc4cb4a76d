//! Alkahest's packet logs (`.pkt`), little endian.
//!
//! A header: `TPPL`, `u32` format version (1), `u8` region, `u32` client
//! version, `u32` server count, then per server `i32` id, a UTF-16LE name
//! ended by a 16-bit NUL, `bool` IPv6, the real address (4 or 16 bytes)
//! and `u16` port, the proxy's address and `u16` port; then `u8`
//! compression: 0 (none) or a deflate level (everything after this byte is
//! one raw deflate stream, no zlib header). Then entries to the end: `i64`
//! Unix time in milliseconds, `i32` server id, `u8` direction (0 client to
//! server, 1 server to client), `u16` opcode, `u16` payload length, the
//! payload (the body, without the 4-byte packet header).
//!
//! Sessions: a `.pkt` has none. The reader makes one session per server
//! id, in the order they first appear; the writer gives each session a
//! server of its own (id = the session's number), so that a round trip
//! keeps them apart. What a `.pkt` cannot hold: the client's address
//! (the proxy address is written as `0.0.0.0:0` and not read), the key
//! generation, gaps (counted, not written), why a session ended, times
//! finer than a millisecond. What it needs that other sources may not
//! give: the region and the client version ([`PktHeader`]).

mod header;
mod read;
mod write;

pub use header::{PktHeader, PktServer, Region};
pub use read::PktReader;
pub use write::{PktOptions, PktWriter};
