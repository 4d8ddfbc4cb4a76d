//! Two sequences lined up over every alignment at once, as a pair hidden
//! Markov model: places (a rule's names, in order) and items (a
//! session's groups, in the order they first came). Each step gives the
//! next place the next item, leaves a place out, lets in an item no place
//! lists, or gives two neighbouring places their items swapped; a
//! place taking an item is weighted by how much likelier it is than
//! chance (`ratio[place][item]`, 0 where it cannot be). How often each
//! kind of step comes is learnt from the sequences themselves
//! (expectation-maximisation), and what comes out is, for each place and
//! item, the share of all alignments' weight in which the place takes
//! the item. Items let in after the last place cost nothing: the
//! sequence of items goes on past the rule.

/// Rounds of expectation-maximisation of how the sequences drift apart:
/// the rates settle within a few.
const EM_ROUNDS: usize = 6;

/// Pseudo-counts of places left out, items let in and neighbours swapped
/// that every pair of sequences is taken to have (Jeffreys' prior, half a count
/// each), so that a session that follows the rule exactly over its ninety
/// places is still taken to drift about once in two hundred steps, not
/// never. With a whole count each, the real 376012 session's places came
/// a bit short of 10 bits apiece (43 of its 65 opcodes named, 51 with
/// half a count); drifted copies wrote nothing wrong either way.
const PSEUDO_COUNT: f64 = 0.5;

/// Kinds of item, each let in at a rate of its own: the two sides of a
/// session drift apart each in its own way (a client build sends
/// requests of its own among the server's answers).
pub(crate) const KINDS: usize = 2;

/// How often each kind of step comes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rates {
    take: f64,
    leave_out: f64,
    /// Letting in an item, by its kind.
    let_in: [f64; KINDS],
    swap: f64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            take: 0.8,
            leave_out: 0.05,
            let_in: [0.05; KINDS],
            swap: 0.05,
        }
    }
}

/// Values of one row of a forward or backward table, scaled: each is
/// `value * 2^exponent`.
#[derive(Debug, Clone)]
struct Row {
    values: Vec<f64>,
    exponent: i32,
}

impl Row {
    fn zeros(len: usize) -> Row {
        Row {
            values: vec![0.0; len],
            exponent: 0,
        }
    }

    /// Scales the row so that its largest value is between 1 and 2.
    fn normalise(&mut self, base: i32) {
        let max = self.values.iter().copied().fold(0.0f64, f64::max);
        self.exponent = base;
        if max > 0.0 && max.is_finite() {
            let shift = max.log2().floor() as i32;
            let factor = (-f64::from(shift)).exp2();
            for v in &mut self.values {
                *v *= factor;
            }
            self.exponent = base + shift;
        }
    }

    /// `log2` of the value at `j`.
    fn log2(&self, j: usize) -> f64 {
        self.values[j].log2() + f64::from(self.exponent)
    }
}

/// Places and items with how likely each place is to take each item, and
/// how often each kind of step comes.
pub(crate) struct PairModel {
    /// `ratio[k][j]`: how much likelier place k taking item j is than
    /// chance.
    ratio: Vec<Vec<f64>>,
    /// Each item's kind, below [`KINDS`].
    kinds: Vec<usize>,
    rates: Rates,
    places: usize,
    items: usize,
}

/// The tables of one pass over a lattice.
struct Tables {
    forward: Vec<Row>,
    backward: Vec<Row>,
    /// `log2` of the weight of all alignments.
    total: f64,
}

/// Expected counts of each kind of step.
#[derive(Debug, Default)]
struct Counts {
    take: f64,
    leave_out: f64,
    let_in: [f64; KINDS],
    swap: f64,
}

impl PairModel {
    /// The weight of a swap from (k, j): place k takes item j + 1 and
    /// place k + 1 item j.
    fn swap(&self, k: usize, j: usize) -> f64 {
        self.rates.swap * self.ratio[k][j + 1] * self.ratio[k + 1][j]
    }

    fn take(&self, k: usize, j: usize) -> f64 {
        self.rates.take * self.ratio[k][j]
    }

    fn run(&self) -> Tables {
        let (n, m) = (self.places, self.items);
        let mut forward: Vec<Row> = Vec::with_capacity(n + 1);
        for i in 0..=n {
            let mut row = Row::zeros(m + 1);
            let base = if i == 0 { 0 } else { forward[i - 1].exponent };
            if i == 0 {
                row.values[0] = 1.0;
            }
            let from = |r: &Row| (f64::from(r.exponent - base)).exp2();
            for j in 0..=m {
                let mut v = row.values[j];
                // Items are let in before the last place, not after: the
                // items go on past the rule.
                if j > 0 && i < n {
                    v += row.values[j - 1] * self.rates.let_in[self.kinds[j - 1]];
                }
                if i > 0 {
                    let up = &forward[i - 1];
                    v += up.values[j] * self.rates.leave_out;
                    if j > 0 {
                        v += up.values[j - 1] * self.take(i - 1, j - 1);
                    }
                }
                if i > 1 && j > 1 {
                    let up2 = &forward[i - 2];
                    v += up2.values[j - 2] * from(up2) * self.swap(i - 2, j - 2);
                }
                row.values[j] = v;
            }
            row.normalise(base);
            forward.push(row);
        }
        let mut backward: Vec<Row> = vec![Row::zeros(m + 1); n + 1];
        backward[n].values.fill(1.0);
        for i in (0..n).rev() {
            let base = backward[i + 1].exponent;
            let mut row = Row::zeros(m + 1);
            for j in (0..=m).rev() {
                let down = &backward[i + 1];
                let mut v = down.values[j] * self.rates.leave_out;
                if j < m {
                    v += row.values[j + 1] * self.rates.let_in[self.kinds[j]];
                    v += down.values[j + 1] * self.take(i, j);
                }
                if i + 2 <= n && j + 2 <= m {
                    let down2 = &backward[i + 2];
                    v += down2.values[j + 2]
                        * (f64::from(down2.exponent - base)).exp2()
                        * self.swap(i, j);
                }
                row.values[j] = v;
            }
            row.normalise(base);
            backward[i] = row;
        }
        let total = backward[0].log2(0);
        Tables {
            forward,
            backward,
            total,
        }
    }

    /// `2^(log2 forward(i, j) + log2 weight + log2 backward(k, l) - total)`:
    /// the share of all alignments that step from (i, j) to (k, l) with
    /// this weight.
    fn share(t: &Tables, (i, j): (usize, usize), weight: f64, (k, l): (usize, usize)) -> f64 {
        if weight <= 0.0 || t.forward[i].values[j] <= 0.0 || t.backward[k].values[l] <= 0.0 {
            return 0.0;
        }
        (t.forward[i].log2(j) + weight.log2() + t.backward[k].log2(l) - t.total).exp2()
    }

    /// How many steps of each kind the alignments take, on average.
    fn counts(&self, t: &Tables) -> Counts {
        let (n, m) = (self.places, self.items);
        let mut c = Counts::default();
        for i in 0..n {
            for j in 0..=m {
                c.leave_out += Self::share(t, (i, j), self.rates.leave_out, (i + 1, j));
                if j < m {
                    let kind = self.kinds[j];
                    c.let_in[kind] += Self::share(t, (i, j), self.rates.let_in[kind], (i, j + 1));
                    c.take += Self::share(t, (i, j), self.take(i, j), (i + 1, j + 1));
                }
                if i + 2 <= n && j + 2 <= m {
                    c.swap += Self::share(t, (i, j), self.swap(i, j), (i + 2, j + 2));
                }
            }
        }
        c
    }

    /// The share of alignments in which place `k` takes item `j`.
    fn posterior(&self, t: &Tables, k: usize, j: usize) -> f64 {
        let (n, m) = (self.places, self.items);
        let mut p = Self::share(t, (k, j), self.take(k, j), (k + 1, j + 1));
        // Swapped: place k takes j from (k, j - 1), or, as the second of
        // the pair, from (k - 1, j).
        if j >= 1 && k + 2 <= n && j < m {
            p += Self::share(t, (k, j - 1), self.swap(k, j - 1), (k + 2, j + 1));
        }
        if k >= 1 && k < n && j + 2 <= m {
            p += Self::share(t, (k - 1, j), self.swap(k - 1, j), (k + 1, j + 2));
        }
        p.min(1.0)
    }
}

/// The rates the alignments imply, with [`PSEUDO_COUNT`]s.
fn learn(c: &Counts) -> Rates {
    let pseudo = (2 + KINDS) as f64 * PSEUDO_COUNT;
    let total = c.take + c.leave_out + c.let_in.iter().sum::<f64>() + c.swap + pseudo;
    Rates {
        take: c.take / total,
        leave_out: (c.leave_out + PSEUDO_COUNT) / total,
        let_in: c.let_in.map(|n| (n + PSEUDO_COUNT) / total),
        swap: (c.swap + PSEUDO_COUNT) / total,
    }
}

impl PairModel {
    /// A model of `ratio` (a row per place, an item per column) and of
    /// each item's kind (below [`KINDS`]), with rates to learn.
    pub(crate) fn new(ratio: Vec<Vec<f64>>, kinds: Vec<usize>) -> PairModel {
        PairModel::with_rates(ratio, kinds, Rates::default())
    }

    /// A model of `ratio` and `kinds` with rates already learnt.
    pub(crate) fn with_rates(ratio: Vec<Vec<f64>>, kinds: Vec<usize>, rates: Rates) -> PairModel {
        let places = ratio.len();
        let items = ratio.first().map_or(0, Vec::len);
        let kinds = (0..items)
            .map(|j| kinds.get(j).map_or(0, |&k| k.min(KINDS - 1)))
            .collect();
        PairModel {
            ratio,
            kinds,
            rates,
            places,
            items,
        }
    }

    /// `ratio[place][item]`.
    pub(crate) fn ratio(&self, place: usize, item: usize) -> f64 {
        self.ratio[place][item]
    }

    /// The rates, as learnt so far.
    pub(crate) fn rates(&self) -> Rates {
        self.rates
    }

    /// Learns how often each kind of step comes from the alignments
    /// themselves ([`EM_ROUNDS`] rounds).
    pub(crate) fn learn(&mut self) {
        for _ in 0..EM_ROUNDS {
            let tables = self.run();
            if !tables.total.is_finite() {
                return;
            }
            self.rates = learn(&self.counts(&tables));
        }
    }

    /// Every alignment weighed; `None` when no alignment has a weight
    /// `f64` holds.
    pub(crate) fn align(&self) -> Option<Aligned<'_>> {
        let tables = self.run();
        tables.total.is_finite().then_some(Aligned {
            model: self,
            tables,
        })
    }
}

/// A model with every alignment weighed.
pub(crate) struct Aligned<'a> {
    model: &'a PairModel,
    tables: Tables,
}

impl Aligned<'_> {
    /// The share of all alignments' weight in which `place` takes `item`.
    pub(crate) fn takes(&self, place: usize, item: usize) -> f64 {
        self.model.posterior(&self.tables, place, item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `places` places and as many items, each place likelier by `fit`
    /// to take its own item and as likely as chance to take any other.
    fn diagonal(places: usize, fit: f64) -> Vec<Vec<f64>> {
        (0..places)
            .map(|k| {
                (0..places)
                    .map(|j| if j == k { fit } else { 1.0 })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn each_place_takes_its_own_item() {
        let mut model = PairModel::new(diagonal(20, 64.0), Vec::new());
        model.learn();
        let aligned = model.align().unwrap();
        for k in 0..20 {
            assert!(aligned.takes(k, k) > 0.999, "place {k}");
            assert!(aligned.takes(k, (k + 1) % 20) < 0.001, "place {k}");
        }
    }

    #[test]
    fn swapped_neighbours_are_found_swapped() {
        let mut ratio = diagonal(20, 64.0);
        // Places 7 and 8 take each other's items only.
        ratio[7][7] = 0.0;
        ratio[8][8] = 0.0;
        ratio[7][8] = 64.0;
        ratio[8][7] = 64.0;
        let mut model = PairModel::new(ratio, Vec::new());
        model.learn();
        let aligned = model.align().unwrap();
        assert!(aligned.takes(7, 8) > 0.99);
        assert!(aligned.takes(8, 7) > 0.99);
    }

    #[test]
    fn rates_follow_what_the_sequences_show() {
        // As many places as items, each taking its own: nothing left out,
        // let in or swapped but the pseudo-counts.
        let mut exact = PairModel::new(diagonal(40, 64.0), Vec::new());
        exact.learn();
        // Every other item is one no place takes.
        let ratio: Vec<Vec<f64>> = (0..40)
            .map(|k| {
                (0..80)
                    .map(|j| {
                        if j == 2 * k {
                            64.0
                        } else if j % 2 == 1 {
                            0.0
                        } else {
                            1.0
                        }
                    })
                    .collect()
            })
            .collect();
        let mut loose = PairModel::new(ratio, Vec::new());
        loose.learn();
        let (exact, loose) = (exact.rates(), loose.rates());
        assert!(exact.let_in[0] < 0.02, "{exact:?}");
        assert!(loose.let_in[0] > 0.3, "{loose:?}");
        // A place taking its item is less certain where items are let in
        // often.
        let sure = PairModel::with_rates(diagonal(3, 4.0), Vec::new(), exact)
            .align()
            .unwrap()
            .takes(1, 1);
        let unsure = PairModel::with_rates(diagonal(3, 4.0), Vec::new(), loose)
            .align()
            .unwrap()
            .takes(1, 1);
        assert!(unsure < sure, "{unsure} vs {sure}");
    }
}
