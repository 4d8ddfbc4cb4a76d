//! Where the explicit `ref` lines of one block placed their fields'
//! metadata, kept during a walk without allocating for the usual few.

/// Positions of explicit refs by field: eight inline (blocks rarely have
/// more; the corpus's most is five), the rest on the heap.
#[derive(Default)]
pub(crate) struct RefPositions {
    inline: [(usize, usize); 8],
    len: usize,
    more: Vec<(usize, usize)>,
}

impl RefPositions {
    /// Field `field`'s metadata is at byte `at`.
    pub(crate) fn push(&mut self, field: usize, at: usize) {
        match self.inline.get_mut(self.len) {
            Some(slot) => {
                *slot = (field, at);
                self.len += 1;
            }
            None => self.more.push((field, at)),
        }
    }

    /// Where field `field`'s metadata is, if a ref placed it.
    pub(crate) fn get(&self, field: usize) -> Option<usize> {
        self.inline[..self.len]
            .iter()
            .chain(&self.more)
            .find(|&&(f, _)| f == field)
            .map(|&(_, at)| at)
    }
}
