//! The block types of a `.TeraLog` and its clock.

/// The magic block.
pub(crate) const MAGIC: u8 = 1;
/// The end of the header.
pub(crate) const START: u8 = 2;
/// A time for the blocks after it.
pub(crate) const TIMESTAMP: u8 = 3;
/// A packet the client sent.
pub(crate) const CLIENT: u8 = 4;
/// A packet the server sent.
pub(crate) const SERVER: u8 = 5;
/// The region (ASCII).
pub(crate) const REGION: u8 = 6;

/// The magic block's text.
pub(crate) const MAGIC_TEXT: &[u8] = b"TeraConnectionLog";

/// 2015-01-01 00:00 UTC, where a `.TeraLog`'s milliseconds count from, in
/// milliseconds since the Unix epoch.
pub(crate) const EPOCH_UNIX_MILLIS: i64 = 1_420_070_400_000;
