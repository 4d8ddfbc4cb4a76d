//! Evidence of place from the login's order, as a probability: the places
//! of [`GameRules::login_order`](crate::GameRules::login_order) lined up
//! with the groups a session sends first, over every alignment at once.
//!
//! The model is a pair hidden Markov model (`pair_alignment`). Each step
//! either gives the next place the next group, leaves a place out (a name
//! this build no longer sends), lets in a group the rule does not list (a
//! new name, a packet of the world around), or gives two neighbouring
//! places their groups swapped. A place's def that fits its group makes
//! the step as much likelier as the def is rare among the session's
//! groups; a def that does not fit makes it as unlikely as a stale def.
//! How often a session's build leaves out, lets in or swaps is learnt
//! from the session itself: a session that plays the rule packet for
//! packet makes each place's group near certain, one of a build that
//! drifted makes only the places its fits pin down so.
//!
//! What it gives for a candidate is the odds of its group standing in its
//! name's place over all alignments, its own def's fit included; the
//! weigher takes off what the fit already counts as evidence of its own.

use std::collections::HashMap;

use crate::pair_alignment::PairModel;
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

/// Groups of a session, past as many as the rule has places, that can
/// still stand in a place: the world's packets come among the login's
/// last places.
const TAIL: usize = 64;

/// The odds, in bits, of each (group, name) the login's order favours:
/// for each session, of the group standing in the name's place over every
/// alignment, the name's def fitting it counted as the alignment counts it
/// (as rare as the def's fit is); the most any session says, [`ODDS_CAP`]
/// at most. A group already sure is weighed with its own entry left open
/// (and so are the rivals of that entry), so that the order does not
/// count an entry as evidence for itself.
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
        // The sides let in packets the rule does not list each at its own
        // rate.
        let sides: Vec<usize> = groups
            .iter()
            .map(|&g| usize::from(order.client(g)))
            .collect();
        let mut whole = PairModel::new(ratios(order, places, known, &groups, None), sides.clone());
        whole.learn();
        let mut note = |model: &PairModel, keep: &dyn Fn(usize, usize) -> bool| {
            let Some(aligned) = model.align() else {
                return;
            };
            for (k, name) in places.names.iter().enumerate() {
                let Some(name) = *name else { continue };
                for (j, &g) in groups.iter().enumerate() {
                    if model.ratio(k, j) <= 0.0 || !keep(g, name) {
                        continue;
                    }
                    let p = aligned.takes(k, j);
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
        // Candidates of no sure entry, from the whole session.
        let unsure = |g: usize, name: usize| {
            !known.name_of.contains_key(&g) && !known.group_of.contains_key(&name)
        };
        note(&whole, &unsure);
        // Each sure group's entry and its rivals, with the entry left open
        // and the rates the whole session showed.
        for &g in &groups {
            let Some(&own) = known.name_of.get(&g) else {
                continue;
            };
            // A sure group that no place could take, open or not, changes
            // nothing: most of a long session's.
            let mut placed = places.names.iter().flatten();
            if !placed.any(|&n| n == own || (known.fits)(g, n)) {
                continue;
            }
            let open = PairModel::with_rates(
                ratios(order, places, known, &groups, Some(g)),
                sides.clone(),
                whole.rates(),
            );
            note(&open, &|h: usize, name: usize| h == g || name == own);
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

    /// The client's packets, which the rule's places are not.
    const CLIENT: u16 = 6000;

    /// One session of packets under `opcodes`, one each: the server's
    /// below [`CLIENT`], the client's from it.
    fn session(opcodes: &[u16]) -> (Samples, Order) {
        let mut samples = Samples::new();
        for (k, &op) in opcodes.iter().enumerate() {
            let [lo, hi] = op.to_le_bytes();
            let direction = if op >= CLIENT {
                Direction::ClientToServer
            } else {
                Direction::ServerToClient
            };
            samples.push_packet(
                SessionId(0),
                Timestamp::from_unix_millis(k as i64),
                direction,
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
    fn a_client_that_sends_more_than_the_rule_lists_costs_the_server_nothing() {
        // A request of the client's own after every server packet: the
        // client side strays, the server's follows the rule exactly.
        let chatty: Vec<u16> = (0..PLACES as u16)
            .flat_map(|k| [1000 + k, CLIENT + k])
            .collect();
        let odds = weak_odds(&chatty, &[]).expect("the weak place's packet is named");
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
