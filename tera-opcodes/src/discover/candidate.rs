//! A candidate entry and a pinned one, as discovery weighs them.

use std::collections::HashMap;

use tera_sessions::Direction;

use crate::fit::Fit;
use crate::layout_rates::LayoutRates;
use crate::links::Digest;
use crate::report::Evidence;
use crate::samples::Samples;

/// One candidate: a group, a name, the fit and what its values hold.
pub(super) struct Candidate {
    pub(super) group: usize,
    pub(super) name: usize,
    pub(super) fit: Fit,
    pub(super) digest: Digest,
    /// Evidence that does not change between rounds.
    pub(super) fixed: Vec<Evidence>,
    /// The whole evidence of the last round.
    pub(super) evidence: Vec<Evidence>,
    pub(super) weight: f64,
    /// Of the weight, what any def of a like layout and like field names
    /// would gain on this opcode (fit, values, links, names, the prior):
    /// what a def may gain where the true def is one the set lacks
    /// ([`lacking`](super::lacking)).
    pub(super) generic: f64,
    /// What the fit says against a def the set lacks: as bounded, but
    /// each further length worth only as much as a def that fits another
    /// name's packet at one length seldom fits it at a second
    /// ([`LayoutRates::further`]): a text or list of another length is the
    /// same layout again.
    pub(super) alike_fit: f64,
}

/// Whether a kind of evidence is one any def of a like layout, like field
/// names or a like kind of name gains: what a def that fits by chance, on
/// an opcode whose true def the set lacks, collects as well (a despawn's
/// ids end whichever despawn it is; a name of the same family as a named
/// packet, or the request of a named response, holds its values whatever
/// the family's member). Place, consequences, keepalives and system
/// messages are the name's own.
pub(super) fn is_generic(e: &Evidence) -> bool {
    matches!(
        e,
        Evidence::Fit { .. }
            | Evidence::Values { .. }
            | Evidence::Names { .. }
            | Evidence::Link { .. }
            | Evidence::Tuple { .. }
            | Evidence::Position { .. }
            | Evidence::PreviousMap { .. }
            | Evidence::Family { .. }
            | Evidence::Pair { .. }
            | Evidence::LifeEnds { .. }
    )
}

/// A pinned entry: fixed or known.
pub(super) struct Pin {
    pub(super) name: String,
    pub(super) opcode: u16,
    pub(super) fixed: bool,
    pub(super) group: Option<usize>,
    pub(super) def: Option<usize>,
    pub(super) fit: Option<Fit>,
    pub(super) digest: Digest,
}

/// What each further distinct length a def fits says beyond the first: its
/// offsets tested again where the packet's variable parts differ.
const LENGTH_BITS: f64 = 6.0;

/// What a name's def fitting a group says, in bits, by name: the odds
/// against the def fitting a packet of another name, by the larger of two
/// shares: of the def set's other layouts, those it fits
/// ([`LayoutRates`]); of the session's other groups of its side, those it
/// fits. Real packets share layouts (a list of 8-byte entries, a
/// leading id, a string at the header's end), so the bits a layout pins
/// against random bytes say far more than its fit tells one real packet
/// from another; a def that fits many of the session's groups is common
/// whatever the def set says.
pub(super) fn rarity(
    cands: &[Candidate],
    samples: &Samples,
    layouts: &LayoutRates,
) -> HashMap<usize, f64> {
    let mut fits: HashMap<usize, (usize, Direction)> = HashMap::new();
    let groups = samples.groups();
    for c in cands {
        let e = fits.entry(c.name).or_insert((0, groups[c.group].direction));
        e.0 += 1;
    }
    let side = |d: Direction| groups.iter().filter(|g| g.direction == d).count();
    fits.into_iter()
        .map(|(name, (k, direction))| {
            let others = (k - 1) as f64 / (side(direction) + 1) as f64;
            let share = layouts.share(name).max(others);
            (name, -share.log2())
        })
        .collect()
}

/// Structure below which a fit pins nothing but the packet's length: a
/// text pins its offset and NUL (32 bits), a list element its links; a
/// few bools and empty lists are zeros, which a third of the session's
/// packets hold anywhere.
const WEAK_STRUCTURE: f64 = 32.0;

/// Bounds each candidate's fit by its def's [`rarity`] at one length,
/// [`LENGTH_BITS`] more for each further length, and sets what it says
/// against a lacking def (`Candidate::alike_fit`). A fit of weak structure
/// ([`WEAK_STRUCTURE`]: no text, no list that holds anything) counts no
/// more than the odds against a group of its side having its length: the
/// def set's layouts say how rare a length is among the packets it knows,
/// but a third of a real session's opcodes have no def that fits, and
/// their lengths are anything.
pub(super) fn bound_fits(
    cands: &mut [Candidate],
    samples: &Samples,
    rarity: &HashMap<usize, f64>,
    layouts: &LayoutRates,
) {
    let groups = samples.groups();
    // Groups by side, and by side and shortest length.
    let mut sides: HashMap<Direction, usize> = HashMap::new();
    let mut lengths: HashMap<(Direction, usize), usize> = HashMap::new();
    for g in groups {
        *sides.entry(g.direction).or_default() += 1;
        *lengths.entry((g.direction, g.shortest)).or_default() += 1;
    }
    for c in cands.iter_mut() {
        let group = &groups[c.group];
        let further = group.lengths().saturating_sub(1) as f64;
        let mut specific = rarity[&c.name] + LENGTH_BITS * further;
        if c.fit.structure < WEAK_STRUCTURE {
            let n = sides[&group.direction];
            let same = lengths[&(group.direction, group.shortest)];
            specific = specific.min(((n + 1) as f64 / same as f64).log2());
        }
        // A def with no like layout in the set keeps the offsets' worth.
        let alike = layouts
            .further(c.name)
            .map_or(LENGTH_BITS, |share| (-share.log2()).min(LENGTH_BITS));
        let against_alike = rarity[&c.name] + alike * further;
        for e in &mut c.fixed {
            if let Evidence::Fit { bits, .. } = e {
                *bits = bits.min(specific);
                c.alike_fit = bits.min(against_alike);
            }
        }
    }
}

/// The bits of a candidate's fit, as bounded.
pub(super) fn fit_bits(c: &Candidate) -> f64 {
    c.fixed
        .iter()
        .map(|e| match e {
            Evidence::Fit { bits, .. } => *bits,
            _ => 0.0,
        })
        .sum()
}
