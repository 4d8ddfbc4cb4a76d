//! Lining up the names of an ordered scene with the groups of a session
//! in order: as many as can be, each name's def fitting its group.

/// The alignments of `open` (places of a scene, in order) with `seen`
/// (groups, in the order their packets came) that keep the most pairs in
/// order, each place's def fitting its group.
pub(crate) struct Alignment<'a> {
    open: &'a [usize],
    seen: &'a [usize],
    fits: &'a dyn Fn(usize, usize) -> bool,
    /// `before[i][j]`: the most pairs among `open[..i]` and `seen[..j]`.
    before: Vec<Vec<u32>>,
    /// `after[i][j]`: the most pairs among `open[i..]` and `seen[j..]`.
    after: Vec<Vec<u32>>,
}

impl<'a> Alignment<'a> {
    /// Lines up `open` with `seen`; `fits(group, place)` says whether the
    /// place's def fits the group.
    pub(crate) fn new(
        open: &'a [usize],
        seen: &'a [usize],
        fits: &'a dyn Fn(usize, usize) -> bool,
    ) -> Alignment<'a> {
        let (n, m) = (open.len(), seen.len());
        let fit = |i: usize, j: usize| u32::from(fits(seen[j], open[i]));
        let mut before = vec![vec![0u32; m + 1]; n + 1];
        for i in 1..=n {
            for j in 1..=m {
                let pair = before[i - 1][j - 1] + fit(i - 1, j - 1);
                before[i][j] = pair.max(before[i - 1][j]).max(before[i][j - 1]);
            }
        }
        let mut after = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let pair = after[i + 1][j + 1] + fit(i, j);
                after[i][j] = pair.max(after[i + 1][j]).max(after[i][j + 1]);
            }
        }
        Alignment {
            open,
            seen,
            fits,
            before,
            after,
        }
    }

    /// Whether every place lines up with a group.
    pub(crate) fn complete(&self) -> bool {
        self.before[self.open.len()][self.seen.len()] as usize == self.open.len()
    }

    /// The one group that place `r` (an index into `open`) lines up with
    /// in every alignment that keeps the most pairs, or all but `slack` of
    /// them, if there is one and no alignment keeping the most pairs
    /// leaves the place empty. With a slack, a place the session left out
    /// (a name this build does not send) cannot pass its neighbour's
    /// packet to the next place unseen: the alignment that skips it keeps
    /// one pair fewer and puts the neighbour elsewhere.
    pub(crate) fn only_group(&self, r: usize, slack: u32) -> Option<usize> {
        let best = self.before[self.open.len()][self.seen.len()];
        // A place that an alignment keeping the most pairs leaves empty
        // may be a name this session does not send: it has no group.
        let empty = (0..=self.seen.len()).any(|j| self.before[r][j] + self.after[r + 1][j] == best);
        if empty {
            return None;
        }
        let mut groups: Vec<usize> = (0..self.seen.len())
            .filter(|&j| {
                (self.fits)(self.seen[j], self.open[r])
                    && self.before[r][j] + 1 + self.after[r + 1][j + 1] + slack >= best
            })
            .map(|j| self.seen[j])
            .collect();
        groups.sort_unstable();
        groups.dedup();
        match groups[..] {
            [g] => Some(g),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_lines_up_only_where_the_order_and_the_fits_allow() {
        // Places 0, 1, 2; group 13 fits place 0 only.
        let fits = |g: usize, k: usize| g != 13 || k == 0;
        let open = [0, 1, 2];
        let a = Alignment::new(&open, &[10, 11, 12], &fits);
        assert!(a.complete());
        assert_eq!(a.only_group(1, 0), Some(11));
        // Two groups where one name goes: either could be it.
        let b = Alignment::new(&open, &[10, 11, 14, 12], &fits);
        assert_eq!(b.only_group(1, 0), None);
        // 13 fits only place 0, so it cannot be place 1 or 2.
        let c = Alignment::new(&open, &[13, 11, 12], &fits);
        assert_eq!(c.only_group(0, 0), Some(13));
        // The same group twice is still one group.
        let d = Alignment::new(&open, &[10, 11, 11, 12], &fits);
        assert_eq!(d.only_group(1, 0), Some(11));
        let e = Alignment::new(&open, &[10, 13], &fits);
        assert!(!e.complete());
    }
}
