//! How to write a file.

use crate::layout::Version;
use crate::records::Arch;

/// How to write a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WriteOptions {
    /// Element layout.
    pub arch: Arch,
    /// Format version.
    pub version: Version,
    /// Data revision (written for version 6 only).
    pub revision: u32,
    /// Header timestamp.
    pub timestamp: f64,
    /// Store identical attribute runs and identical child runs once, as the
    /// official files do (several elements then point at the same records).
    pub dedup: bool,
}

impl Default for WriteOptions {
    /// 64-bit, version 6, revision 0, timestamp -1.0 (what writers put),
    /// deduplicated.
    fn default() -> Self {
        WriteOptions {
            arch: Arch::X64,
            version: Version::V6,
            revision: 0,
            timestamp: -1.0,
            dedup: true,
        }
    }
}
