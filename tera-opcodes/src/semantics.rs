//! Values against their field names: what the sure packets show a name
//! holds (a `type` a small number, a `time` a large one, a `gameId` an
//! id), learnt from them, weighed for a candidate's fields of the same
//! names. A def that calls a timestamp `type` reads worse than one that
//! calls it `time`.

use std::collections::HashMap;

use crate::links::Digest;
use crate::report::Evidence;

/// Size classes of integers (`leaves::class`).
const CLASSES: usize = crate::leaves::CLASSES;

/// A name needs this many values in the sure packets before it says
/// anything.
const MIN_SEEN: u32 = 8;

/// One field's values count as this many at most.
const FIELD_VALUES: usize = 3;

/// How strongly the learnt share of a class leans to the share over all
/// names, in values.
const PRIOR: f64 = 4.0;

/// The share of a name's values taken to mean what the name means in
/// any packet, not what the sure packets show: field names are reused
/// (a `type` is a small enum in one packet, an id in another), so a value
/// unlike the sure packets' costs `log2` of this at most, 2 bits, not
/// the 9 a single `type` cost the real 376012 session's
/// `S_GMEVENT_OFF_GUIDE_MESSAGE`.
const ANY_MEANING: f64 = 0.25;

/// What agreeing names say at most.
const NAMES_CAP: f64 = 2.0;

/// What the sure packets show each field name holds.
#[derive(Debug, Default)]
pub(crate) struct Semantics {
    by_field: HashMap<u32, [u32; CLASSES]>,
    all: [u32; CLASSES],
}

impl Semantics {
    /// Learns from the sure packets' digests.
    pub(crate) fn learn<'d>(digests: impl Iterator<Item = &'d Digest>) -> Semantics {
        let mut s = Semantics::default();
        for d in digests {
            for &(field, class) in &d.classes {
                let c = usize::from(class).min(CLASSES - 1);
                s.by_field.entry(field).or_insert([0; CLASSES])[c] += 1;
                s.all[c] += 1;
            }
        }
        s
    }

    /// How well a candidate's integers fit their names, in bits: the
    /// log-odds of each value's class under its name against under any
    /// name, summed, from -32 to [`NAMES_CAP`]: a rival def that names its
    /// fields alike gains as much, and on a real session most packets
    /// hold an id where their defs say `gameId`, so agreeing names say
    /// little, disagreeing ones much.
    pub(crate) fn evidence(&self, digest: &Digest) -> Option<Evidence> {
        let total: u32 = self.all.iter().sum();
        if total == 0 {
            return None;
        }
        let background =
            |c: usize| (f64::from(self.all[c]) + 1.0) / (f64::from(total) + CLASSES as f64);
        // Per field: the mean of its values' log-odds, counted as
        // FIELD_VALUES values at most (one field's values are not
        // independent tests: a few of them show its size class).
        let mut per_field: HashMap<u32, (f64, usize)> = HashMap::new();
        for &(field, class) in &digest.classes {
            let Some(counts) = self.by_field.get(&field) else {
                continue;
            };
            let seen: u32 = counts.iter().sum();
            if seen < MIN_SEEN {
                continue;
            }
            let c = usize::from(class).min(CLASSES - 1);
            let learnt = (f64::from(counts[c]) + PRIOR * background(c)) / (f64::from(seen) + PRIOR);
            let p = (1.0 - ANY_MEANING) * learnt + ANY_MEANING * background(c);
            let e = per_field.entry(field).or_default();
            e.0 += (p / background(c)).log2();
            e.1 += 1;
        }
        let weighed: usize = per_field.values().map(|(_, n)| n).sum();
        let bits: f64 = per_field
            .values()
            .map(|(sum, n)| sum / *n as f64 * (*n).min(FIELD_VALUES) as f64)
            .sum();
        (weighed > 0).then(|| Evidence::Names {
            values: weighed,
            bits: bits.clamp(-32.0, NAMES_CAP),
        })
    }
}
