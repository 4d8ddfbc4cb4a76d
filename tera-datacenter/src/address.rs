//! `Address`: where a record or a string is, as `segment:element`.

use std::fmt;

/// An address `segment:element` in a segmented region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address {
    /// Zero-based segment index.
    pub segment: u16,
    /// Zero-based element index in the segment.
    pub element: u16,
}

impl Address {
    /// `65535:65535`, the address of an empty list.
    pub const NONE: Address = Address {
        segment: u16::MAX,
        element: u16::MAX,
    };

    /// `0:0`, where the root node is.
    pub const ROOT: Address = Address {
        segment: 0,
        element: 0,
    };

    /// The address `i` elements further in the same segment.
    pub(crate) fn plus(self, i: u16) -> Address {
        Address {
            segment: self.segment,
            element: self.element.wrapping_add(i),
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.segment, self.element)
    }
}
