//! Errors.

/// Why world data could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The Brotli stream is invalid.
    #[error("brotli stream: {0}")]
    Brotli(String),
    /// The decompressed data is larger than the limit.
    #[error("decompressed data exceeds {0} bytes")]
    TooLarge(usize),
    /// The data ends inside a structure.
    #[error("truncated {what} at byte {offset}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where.
        offset: usize,
    },
    /// Bytes remain after the last structure.
    #[error("{0} trailing bytes")]
    TrailingBytes(usize),
    /// A file name is not `x0000y0000.zgd`.
    #[error("not a ZGD file name: {0:?}")]
    FileName(String),
}
