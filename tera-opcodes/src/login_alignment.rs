//! Evidence of place from the login's order, as a probability: the places
//! of [`GameRules::login_order`](crate::GameRules::login_order) lined up
//! with the groups a session sends first, over every alignment at once.
//!
//! The model is a pair hidden Markov model. Each step either gives the
//! next place the next group, leaves a place out (a name this build no
//! longer sends), lets in a group the rule does not list (a new name, a
//! packet of the world around), or gives two neighbouring places their
//! groups swapped. A place's def that fits its group makes the step as
//! much likelier as the def is rare among the session's groups; a def
//! that does not fit makes it as unlikely as a stale def. How often a
//! session's build leaves out, lets in or swaps is learnt from the session
//! itself (expectation-maximisation): a session that plays the rule packet
//! for packet makes each place's group near certain, one of a build that
//! drifted makes only the places its fits pin down so.
//!
//! What it gives for a candidate is the odds of its group standing in its
//! name's place over all alignments, its own def's fit included; the
//! weigher takes off what the fit already counts as evidence of its own.

use std::collections::HashMap;

use crate::sequence::Order;

/// The login's places: each one's name (its index in the def set; `None`
/// for a name the set lacks, or whose def fits no group, which any packet
/// may take) and whether the client sends it.
pub(crate) struct Places<'a> {
    pub names: &'a [Option<usize>],
    pub client: &'a [bool],
}

/// What a round knows of the names: which defs fit which groups, how rare
/// each def's fit is, and the entries already sure.
pub(crate) struct Known<'a> {
    /// Whether name `n`'s def fits group `g`: `fits(g, n)`.
    pub fits: &'a dyn Fn(usize, usize) -> bool,
    /// How few of the session's groups a name's def fits, in bits.
    pub specific: &'a dyn Fn(usize) -> f64,
    /// The name of a group already sure.
    pub name_of: &'a HashMap<usize, usize>,
    /// The group of a name already sure.
    pub group_of: &'a HashMap<usize, usize>,
}

/// Odds beyond this are taken as this: a place certain to `f64`'s
/// precision is as certain as the odds need to say.
const ODDS_CAP: f64 = 48.0;

/// The share of places whose true def no longer fits their packet (a def
/// the patch changed): a def that does not fit its place's group makes
/// that step this much less likely than chance would.
const STALE: f64 = 0.05;

/// Rounds of expectation-maximisation of how the session drifts from the
/// rule: the rates settle within a few.
const EM_ROUNDS: usize = 6;

/// Pseudo-counts of places left out, groups let in and neighbours swapped
/// that every session is taken to have (Jeffreys' prior, half a count
/// each), so that a session that follows the rule exactly over its ninety
/// places is still taken to drift about once in two hundred steps, not
/// never. With a whole count each, the real 376012 session's places came
/// a bit short of 10 bits apiece (43 of its 65 opcodes named, 51 with
/// half a count); drifted copies wrote nothing wrong either way.
const PSEUDO_COUNT: f64 = 0.5;

/// Groups of a session, past as many as the rule has places, that can
/// still stand in a place: the world's packets come among the login's
/// last places.
const TAIL: usize = 64;

/// How often each kind of step comes.
#[derive(Debug, Clone, Copy)]
struct Rates {
    take: f64,
    leave_out: f64,
    let_in: f64,
    swap: f64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            take: 0.85,
            leave_out: 0.05,
            let_in: 0.05,
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

/// One session's groups lined up with the login's places.
struct Lattice<'a> {
    /// `ratio[k][j]`: how much likelier place k taking group j is than
    /// chance.
    ratio: Vec<Vec<f64>>,
    rates: Rates,
    places: usize,
    groups: &'a [usize],
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
    let_in: f64,
    swap: f64,
}

impl Lattice<'_> {
    /// The weight of a swap from (k, j): place k takes group j + 1 and
    /// place k + 1 group j.
    fn swap(&self, k: usize, j: usize) -> f64 {
        self.rates.swap * self.ratio[k][j + 1] * self.ratio[k + 1][j]
    }

    fn take(&self, k: usize, j: usize) -> f64 {
        self.rates.take * self.ratio[k][j]
    }

    fn run(&self) -> Tables {
        let (n, m) = (self.places, self.groups.len());
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
                // Groups are let in before the last place, not after: the
                // rest of the session is the game's, not the login's.
                if j > 0 && i < n {
                    v += row.values[j - 1] * self.rates.let_in;
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
                    v += row.values[j + 1] * self.rates.let_in;
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
        let (n, m) = (self.places, self.groups.len());
        let mut c = Counts::default();
        for i in 0..n {
            for j in 0..=m {
                c.leave_out += Self::share(t, (i, j), self.rates.leave_out, (i + 1, j));
                if j < m {
                    c.let_in += Self::share(t, (i, j), self.rates.let_in, (i, j + 1));
                    c.take += Self::share(t, (i, j), self.take(i, j), (i + 1, j + 1));
                }
                if i + 2 <= n && j + 2 <= m {
                    c.swap += Self::share(t, (i, j), self.swap(i, j), (i + 2, j + 2));
                }
            }
        }
        c
    }

    /// The share of alignments in which place `k` takes the group at `j`.
    fn posterior(&self, t: &Tables, k: usize, j: usize) -> f64 {
        let (n, m) = (self.places, self.groups.len());
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

/// The rates a session's alignments imply, with [`PSEUDO_COUNT`]s.
fn learn(c: &Counts) -> Rates {
    let total = c.take + c.leave_out + c.let_in + c.swap + 3.0 * PSEUDO_COUNT;
    Rates {
        take: c.take / total,
        leave_out: (c.leave_out + PSEUDO_COUNT) / total,
        let_in: (c.let_in + PSEUDO_COUNT) / total,
        swap: (c.swap + PSEUDO_COUNT) / total,
    }
}

/// The odds, in bits, of each (group, name) the login's order favours:
/// for each session, of the group standing in the name's place over every
/// alignment, the name's def fitting it counted as the alignment counts it
/// (as rare as the def's fit is); the most any session says, [`ODDS_CAP`]
/// at most. A group already sure is
/// weighed with its own entry left open (and so are the rivals of that
/// entry), so that the order does not count an entry as evidence for
/// itself.
pub(crate) fn login_bits(
    order: &Order,
    places: &Places<'_>,
    known: &Known<'_>,
) -> HashMap<(usize, usize), f64> {
    let mut bits: HashMap<(usize, usize), f64> = HashMap::new();
    let n = places.names.len();
    if n == 0 {
        return bits;
    }
    for s in 0..order.sessions() {
        let groups: Vec<usize> = order
            .firsts(s)
            .iter()
            .take(n + TAIL)
            .map(|&(g, _)| g)
            .collect();
        if groups.is_empty() {
            continue;
        }
        let lattice = |open: Option<usize>, rates: Rates| Lattice {
            ratio: ratios(order, places, known, &groups, open),
            rates,
            places: n,
            groups: &groups,
        };
        let mut whole = lattice(None, Rates::default());
        let mut tables = whole.run();
        for _ in 0..EM_ROUNDS {
            if !tables.total.is_finite() {
                break;
            }
            whole.rates = learn(&whole.counts(&tables));
            tables = whole.run();
        }
        let rates = whole.rates;
        let mut note = |lat: &Lattice<'_>, t: &Tables, keep: &dyn Fn(usize, usize) -> bool| {
            // No alignment of weight `f64` can hold: nothing to say.
            if !t.total.is_finite() {
                return;
            }
            for (k, name) in places.names.iter().enumerate() {
                let Some(name) = *name else { continue };
                for (j, &g) in groups.iter().enumerate() {
                    if lat.ratio[k][j] <= 0.0 || !keep(g, name) {
                        continue;
                    }
                    let p = lat.posterior(t, k, j);
                    if p <= 0.5 {
                        continue;
                    }
                    let odds = if p >= 1.0 {
                        ODDS_CAP
                    } else {
                        (p / (1.0 - p)).log2().min(ODDS_CAP)
                    };
                    let slot = bits.entry((g, name)).or_default();
                    *slot = slot.max(odds);
                }
            }
        };
        // Candidates of no sure entry, from the whole lattice.
        let unsure = |g: usize, name: usize| {
            !known.name_of.contains_key(&g) && !known.group_of.contains_key(&name)
        };
        note(&whole, &tables, &unsure);
        // Each sure group's entry and its rivals, with the entry left open.
        for &g in &groups {
            let Some(&own) = known.name_of.get(&g) else {
                continue;
            };
            // A sure group that no place could take, open or not, changes
            // nothing: most of a long session's.
            let placed = places.names.iter().flatten();
            if !placed.clone().any(|&n| n == own || (known.fits)(g, n)) {
                continue;
            }
            let open = lattice(Some(g), rates);
            let t = open.run();
            let rivals = |h: usize, name: usize| h == g || name == own;
            note(&open, &t, &rivals);
        }
    }
    bits
}

/// How much likelier each place taking each group is than chance: a
/// def that fits as much as it is rare, one that does not as a stale def
/// is likely; a sure entry only in its own place; a place any packet may
/// take, as chance. `open` is a sure group weighed as if it were not.
fn ratios(
    order: &Order,
    places: &Places<'_>,
    known: &Known<'_>,
    groups: &[usize],
    open: Option<usize>,
) -> Vec<Vec<f64>> {
    let open_name = open.and_then(|g| known.name_of.get(&g).copied());
    let name_of = |g: usize| {
        if Some(g) == open {
            None
        } else {
            known.name_of.get(&g).copied()
        }
    };
    let group_of = |n: usize| {
        if Some(n) == open_name {
            None
        } else {
            known.group_of.get(&n).copied()
        }
    };
    let fit = |n: usize| {
        let share = (-(known.specific)(n)).exp2().clamp(1e-6, 1.0);
        ((1.0 - STALE) / share, STALE / (1.0 - share).max(STALE))
    };
    places
        .names
        .iter()
        .zip(places.client)
        .map(|(&place, &client)| {
            groups
                .iter()
                .map(|&g| {
                    if order.client(g) != client {
                        return 0.0;
                    }
                    match (name_of(g), place) {
                        (Some(m), Some(n)) if m == n => fit(n).0,
                        (Some(_), _) => 0.0,
                        (None, None) => 1.0,
                        (None, Some(n)) => match group_of(n) {
                            Some(_) => 0.0,
                            None if (known.fits)(g, n) => fit(n).0,
                            None => fit(n).1,
                        },
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use tera_sessions::{Direction, SessionId, Timestamp};

    use super::*;
    use crate::samples::Samples;

    /// Places of a login rule, named 0 to 29, all the server's.
    const PLACES: usize = 30;
    /// The one place whose def fits every packet: only its neighbours
    /// can say which packet is its.
    const WEAK: usize = 15;
    /// A packet of a name the rule does not list, which no def fits.
    const UNLISTED: u16 = 5000;

    /// One session of the server's packets under `opcodes`, one each.
    fn session(opcodes: &[u16]) -> (Samples, Order) {
        let mut samples = Samples::new();
        for (k, &op) in opcodes.iter().enumerate() {
            let [lo, hi] = op.to_le_bytes();
            samples.push_packet(
                SessionId(0),
                Timestamp::from_unix_millis(k as i64),
                Direction::ServerToClient,
                &[4, 0, lo, hi],
            );
        }
        samples.finish();
        let order = Order::new(&samples);
        (samples, order)
    }

    /// The login rule's places, what the test's defs fit, and what the
    /// login says of the weak place's own packet (opcode `1000 + WEAK`),
    /// with `sure` packets (by opcode) already named.
    fn weigh(opcodes: &[u16], sure: &[(u16, usize)]) -> (Option<f64>, Vec<Vec<f64>>) {
        let (samples, order) = session(opcodes);
        let opcode = |g: usize| samples.groups()[g].opcode;
        let fits = |g: usize, n: usize| n == WEAK || u32::from(opcode(g)) == 1000 + n as u32;
        let specific = |n: usize| if n == WEAK { 0.0 } else { 6.0 };
        let group = |op: u16| samples.group(Direction::ServerToClient, op).unwrap();
        let name_of: HashMap<usize, usize> = sure.iter().map(|&(op, n)| (group(op), n)).collect();
        let group_of = name_of.iter().map(|(&g, &n)| (n, g)).collect();
        let names: Vec<Option<usize>> = (0..PLACES).map(Some).collect();
        let client = vec![false; PLACES];
        let places = Places {
            names: &names,
            client: &client,
        };
        let known = Known {
            fits: &fits,
            specific: &specific,
            name_of: &name_of,
            group_of: &group_of,
        };
        let groups: Vec<usize> = order.firsts(0).iter().map(|&(g, _)| g).collect();
        let ratio = ratios(&order, &places, &known, &groups, None);
        let bits = login_bits(&order, &places, &known);
        (bits.get(&(group(1000 + WEAK as u16), WEAK)).copied(), ratio)
    }

    fn weak_odds(opcodes: &[u16], sure: &[(u16, usize)]) -> Option<f64> {
        weigh(opcodes, sure).0
    }

    #[test]
    fn a_session_that_plays_the_rule_names_even_its_weak_place() {
        let exact: Vec<u16> = (0..PLACES as u16).map(|k| 1000 + k).collect();
        let odds = weak_odds(&exact, &[]).expect("the weak place's packet is named");
        assert!(odds >= 10.0, "{odds}");
    }

    #[test]
    fn a_session_that_drifts_from_the_rule_is_trusted_less() {
        let exact: Vec<u16> = (0..PLACES as u16).map(|k| 1000 + k).collect();
        // Every third name gone, and a packet the rule lacks after every
        // third: the weak place keeps its neighbours, but the build is
        // seen to drift.
        let mut drifted = Vec::new();
        for k in 0..PLACES as u16 {
            if k % 3 != 1 {
                drifted.push(1000 + k);
            }
            if k % 3 == 2 {
                drifted.push(UNLISTED + k);
            }
        }
        let sure = weak_odds(&exact, &[]).unwrap();
        let unsure = weak_odds(&drifted, &[]).unwrap_or(0.0);
        assert!(unsure + 2.0 < sure, "{unsure} vs {sure}");
    }

    #[test]
    fn a_packet_already_named_takes_only_its_own_place() {
        let exact: Vec<u16> = (0..PLACES as u16).map(|k| 1000 + k).collect();
        // The weak place's packet (the 16th) sure as a name the rule lacks:
        // no place may take it.
        let (_, ratio) = weigh(&exact, &[(1000 + WEAK as u16, 999)]);
        assert!(ratio.iter().all(|row| row[WEAK] == 0.0));
        // Sure as the weak place's name: that place only, and no other
        // packet there.
        let (_, ratio) = weigh(&exact, &[(1000 + WEAK as u16, WEAK)]);
        for (k, row) in ratio.iter().enumerate() {
            assert_eq!(row[WEAK] > 0.0, k == WEAK, "place {k}");
        }
        assert!((0..PLACES).all(|j| (ratio[WEAK][j] > 0.0) == (j == WEAK)));
        // Its own entry is weighed as if it were not sure: the order does
        // not count the entry as evidence for itself.
        let open = weak_odds(&exact, &[(1000 + WEAK as u16, WEAK)]).unwrap();
        let alone = weak_odds(&exact, &[]).unwrap();
        assert!((open - alone).abs() < 1.0, "{open} vs {alone}");
    }
}
