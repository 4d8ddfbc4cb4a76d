//! Why a capture cannot be read.

/// Why a capture file cannot be read (further).
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// Reading failed.
    #[error("reading the capture: {0}")]
    Io(#[from] std::io::Error),
    /// The file starts with neither a pcap nor a pcapng header.
    #[error("not a pcap or pcapng file (it starts with {0:02x?})")]
    NotACapture(Vec<u8>),
    /// A block or record is malformed.
    #[error("malformed {format} block at byte {offset}: {what}")]
    Malformed {
        /// `pcap` or `pcapng`.
        format: &'static str,
        /// Where the block starts in the file.
        offset: u64,
        /// What is wrong.
        what: String,
    },
    /// A block claims more bytes than this reader holds at once.
    #[error("{format} block at byte {offset} claims {len} bytes, more than the {max} read at once")]
    BlockTooLarge {
        /// `pcap` or `pcapng`.
        format: &'static str,
        /// Where the block starts in the file.
        offset: u64,
        /// The bytes it needs.
        len: u64,
        /// The most this reader holds.
        max: usize,
    },
    /// The file ends inside a block (a capture cut short while written).
    #[error("the capture ends inside a block at byte {offset}")]
    Truncated {
        /// Where the block starts in the file.
        offset: u64,
    },
}
