//! A set of opcodes, for telling a plausible packet header from noise.

/// A set of `u16` opcodes (a bit per opcode, 8 KiB).
///
/// Given to [`CaptureBuilder::known_opcodes`](crate::capture::CaptureBuilder::known_opcodes),
/// it makes the search for the next packet after lost bytes accept only
/// headers whose opcode is in the set (a protocol map's codes).
#[derive(Clone)]
pub struct OpcodeSet {
    bits: Box<[u64; 1024]>,
}

impl core::fmt::Debug for OpcodeSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OpcodeSet")
            .field("len", &self.len())
            .finish()
    }
}

impl Default for OpcodeSet {
    fn default() -> Self {
        OpcodeSet {
            bits: Box::new([0; 1024]),
        }
    }
}

impl FromIterator<u16> for OpcodeSet {
    fn from_iter<I: IntoIterator<Item = u16>>(iter: I) -> Self {
        let mut set = OpcodeSet::default();
        for opcode in iter {
            set.insert(opcode);
        }
        set
    }
}

impl OpcodeSet {
    /// Adds `opcode`.
    pub fn insert(&mut self, opcode: u16) {
        if let Some(word) = self.bits.get_mut(usize::from(opcode >> 6)) {
            *word |= 1 << (opcode & 63);
        }
    }

    /// Whether `opcode` is in the set.
    #[must_use]
    pub fn contains(&self, opcode: u16) -> bool {
        self.bits
            .get(usize::from(opcode >> 6))
            .is_some_and(|word| word & (1 << (opcode & 63)) != 0)
    }

    /// How many opcodes the set holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|w| *w == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_contains() {
        let set: OpcodeSet = [0, 63, 64, 19900, u16::MAX].into_iter().collect();
        for op in [0, 63, 64, 19900, u16::MAX] {
            assert!(set.contains(op), "{op}");
        }
        for op in [1, 62, 65, 19901] {
            assert!(!set.contains(op), "{op}");
        }
        assert_eq!(set.len(), 5);
    }
}
