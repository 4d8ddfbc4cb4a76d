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

/// How strongly the learnt share of a class leans to the share over all
/// names, in values.
const PRIOR: f64 = 4.0;

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
    /// name, summed, from -32 to 16.
    pub(crate) fn evidence(&self, digest: &Digest) -> Option<Evidence> {
        let total: u32 = self.all.iter().sum();
        if total == 0 {
            return None;
        }
        let background =
            |c: usize| (f64::from(self.all[c]) + 1.0) / (f64::from(total) + CLASSES as f64);
        let mut bits = 0.0;
        let mut weighed = 0;
        for &(field, class) in &digest.classes {
            let Some(counts) = self.by_field.get(&field) else {
                continue;
            };
            let seen: u32 = counts.iter().sum();
            if seen < MIN_SEEN {
                continue;
            }
            let c = usize::from(class).min(CLASSES - 1);
            let p = (f64::from(counts[c]) + PRIOR * background(c)) / (f64::from(seen) + PRIOR);
            bits += (p / background(c)).log2();
            weighed += 1;
        }
        (weighed > 0).then(|| Evidence::Names {
            values: weighed,
            bits: bits.clamp(-32.0, 16.0),
        })
    }
}
