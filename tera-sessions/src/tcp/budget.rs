//! The out-of-order bytes all connections buffer together.

/// A count of buffered out-of-order bytes against a cap shared by every
/// stream of a capture.
#[derive(Debug)]
pub(crate) struct Budget {
    used: usize,
    max: usize,
}

impl Budget {
    /// A budget of `max` bytes.
    pub(crate) fn new(max: usize) -> Budget {
        Budget { used: 0, max }
    }

    /// Whether `len` more bytes fit.
    pub(crate) fn fits(&self, len: usize) -> bool {
        self.used.saturating_add(len) <= self.max
    }

    /// Counts `len` bytes in.
    pub(crate) fn take(&mut self, len: usize) {
        self.used = self.used.saturating_add(len);
    }

    /// Counts `len` bytes out.
    pub(crate) fn give(&mut self, len: usize) {
        self.used = self.used.saturating_sub(len);
    }

    /// Bytes buffered now.
    pub(crate) fn used(&self) -> usize {
        self.used
    }
}
