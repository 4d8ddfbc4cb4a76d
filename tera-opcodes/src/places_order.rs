//! Evidence of place: where a group's packets stand among the names of an
//! ordered scene already named around them: the first packets of a login
//! ([`LOGIN_ORDER`]), a return to the lobby ([`SCENES`]).
//!
//! [`LOGIN_ORDER`]: crate::GameRules::login_order
//! [`SCENES`]: crate::GameRules::scenes

use std::collections::HashMap;

use crate::align::Alignment;
use crate::sequence::Order;

/// An ordered scene as a round of discovery sees it: each place's name
/// (its index in the def set, if the set has it), the group already named
/// there, and its side.
pub(crate) struct Scene {
    names: Vec<Option<usize>>,
    anchored: Vec<Option<usize>>,
    client: Vec<bool>,
}

/// How a scene's places are weighed: [`login_order`] or [`scene_order`].
type Weigh = fn(&Order, usize, usize, &Places<'_>) -> Option<f64>;

impl Scene {
    /// The scene of `names` (by their index in the def set), with the
    /// groups already named (`group_of`, by name).
    pub(crate) fn new(
        names: Vec<Option<usize>>,
        client: Vec<bool>,
        group_of: &HashMap<usize, usize>,
    ) -> Scene {
        let anchored = names
            .iter()
            .map(|n| n.and_then(|n| group_of.get(&n).copied()))
            .collect();
        Scene {
            names,
            anchored,
            client,
        }
    }

    /// The evidence `weigh` gives for `group` as the name `name`, when the
    /// scene has it: its own place left open, `known` saying which defs
    /// fit which groups, which groups are named and what a def pins.
    pub(crate) fn weigh(
        &self,
        weigh: Weigh,
        order: &Order,
        group: usize,
        name: usize,
        known: &Known<'_>,
    ) -> Option<f64> {
        let Known {
            fits,
            sure,
            specific,
        } = *known;
        let position = self.names.iter().position(|&n| n == Some(name))?;
        let mut anchored = self.anchored.clone();
        anchored[position] = None;
        // A place whose name the def set lacks takes any packet: the
        // game sends it there, and no def can say which it is.
        let fits_place = |g: usize, k: usize| self.names[k].is_none_or(|n| fits(g, n));
        let specific = |k: usize| self.names[k].map_or(0.0, specific);
        let places = Places {
            anchored: &anchored,
            client: &self.client,
            sure,
            fits: &fits_place,
            specific: &specific,
        };
        weigh(order, group, position, &places)
    }
}

/// What a round knows of the names, for a scene: `fits(group, name)`
/// whether a def fits a group, `sure(group)` whether a group is named,
/// `specific(name)` what a name's def fitting a group says, in bits.
#[derive(Clone, Copy)]
pub(crate) struct Known<'a> {
    pub fits: &'a dyn Fn(usize, usize) -> bool,
    pub sure: &'a dyn Fn(usize) -> bool,
    pub specific: &'a dyn Fn(usize) -> f64,
}

/// The names of an ordered scene as discovery sees them: for each place,
/// the group already named there and its side; the groups each place's
/// def fits; and the groups already named anything.
pub(crate) struct Places<'a> {
    /// `anchored[k]`: the group named at place k, if any.
    pub anchored: &'a [Option<usize>],
    /// Whether the name at place k is the client's.
    pub client: &'a [bool],
    /// Whether a group is already named (so it fills no open place).
    pub sure: &'a dyn Fn(usize) -> bool,
    /// Whether the def of the name at place k fits a group: `fits(group, k)`.
    pub fits: &'a dyn Fn(usize, usize) -> bool,
    /// What place k's def fitting a group says, in bits: how few of the
    /// session's groups of its side it fits (none for a place any packet
    /// may take).
    pub specific: &'a dyn Fn(usize) -> f64,
}

/// The named places nearest `position` before and after it, and the open
/// places between them, of either side.
struct Bounds {
    lower: Option<usize>,
    upper: Option<usize>,
    /// Open places between the bounds: the client's, the server's.
    open: [Vec<usize>; 2],
}

impl Places<'_> {
    fn bounds(&self, position: usize) -> Bounds {
        let anchored = self.anchored;
        let lower = (0..position).rev().find(|&k| anchored[k].is_some());
        let upper = (position + 1..anchored.len()).find(|&k| anchored[k].is_some());
        let open = |client: bool| -> Vec<usize> {
            (lower.map_or(0, |k| k + 1)..upper.unwrap_or(anchored.len()))
                .filter(|&k| self.client[k] == client && anchored[k].is_none())
                .collect()
        };
        Bounds {
            lower,
            upper,
            open: [open(true), open(false)],
        }
    }

    /// Whether `g` may fill an open place while `group` is weighed.
    fn open_to(&self, g: usize, group: usize) -> bool {
        g == group || !(self.sure)(g)
    }
}

/// What an ordered scene says when the groups seen between two named
/// places line up with the open places between them only with this group
/// in this name's place: the game plays that scene in its order, and a
/// name from elsewhere would leave the place's own name missing.
const PLACE_BITS: f64 = 12.0;

/// Places a session may leave out of a scene while the others line up (a
/// name its build no longer sends): a group counts for a place only if
/// every alignment that keeps all pairs but these puts it there, so that
/// a missing place cannot pass its neighbour's packet along unnoticed. On
/// the 376012 session drifted as a build years away (300 sessions,
/// `simulate::drift`) this wrote 9 wrong entries where leaving no place
/// out wrote 14, and 24 entries right on the session itself instead of
/// 28.
const DROPPED: u32 = 1;

/// Packets around a named packet of a scene that the scene's other
/// packets may come among (the world goes on while a scene plays).
const SCENE_WINDOW: usize = 24;

/// The login-order evidence for `group` being the name at `position` of
/// [`GameRules::login_order`](crate::GameRules::login_order), given the
/// names already named (`places`). Where both named places around it were
/// seen and the groups of its side first seen between them are exactly as
/// many as the open places of its side there and line up with them in
/// order, each place's def fitting its group, this group in this place
/// ([`TIGHT_BITS`] and what the places' defs pin); or, from one named
/// place, where a run of places lines up so ([`run`]). The bits are the
/// odds against the groups fitting those places by chance: a def that
/// fits a third of the session's groups says little, one that fits one
/// group much. [`LOGIN_CAP`] at most. A session that plays the stretch
/// otherwise (other packets, another order, a packet lost) says nothing,
/// for or against.
pub(crate) fn login_order(
    order: &Order,
    group: usize,
    position: usize,
    places: &Places<'_>,
) -> Option<f64> {
    let side = order.client(group);
    let bounds = places.bounds(position);
    let open = &bounds.open[usize::from(!side)];
    let rank = open.iter().position(|&k| k == position)?;
    let (mut any, mut bits) = (false, 0.0f64);
    for s in 0..order.sessions() {
        if order.first(s, group).is_none() {
            continue;
        }
        let first = |k: Option<usize>| {
            k.and_then(|k| places.anchored[k])
                .and_then(|g| order.first(s, g))
        };
        let (lower, upper) = (first(bounds.lower), first(bounds.upper));
        if lower.is_none() && upper.is_none() {
            continue;
        }
        any = true;
        let lo = lower.unwrap_or(0);
        let hi = upper.unwrap_or(usize::MAX);
        // The groups of this side, not yet named, first seen between the
        // bounds, in order.
        let seen: Vec<usize> = order
            .firsts(s)
            .iter()
            .filter(|&&(g, at)| {
                order.client(g) == side && at > lo && at < hi && places.open_to(g, group)
            })
            .map(|&(g, _)| g)
            .collect();
        let found = if lower.is_some() && upper.is_some() && seen.len() == open.len() {
            let alignment = Alignment::new(open, &seen, places.fits);
            let lined_up =
                alignment.complete() && alignment.only_group(rank, DROPPED) == Some(group);
            if lined_up {
                TIGHT_BITS + open.iter().map(|&k| (places.specific)(k)).sum::<f64>()
            } else {
                0.0
            }
        } else {
            let forward = if lower.is_some() {
                run(open, &seen, rank, group, places)
            } else {
                0.0
            };
            forward.max(if upper.is_some() {
                let (rev_open, rev_seen): (Vec<usize>, Vec<usize>) = (
                    open.iter().rev().copied().collect(),
                    seen.iter().rev().copied().collect(),
                );
                run(&rev_open, &rev_seen, open.len() - 1 - rank, group, places)
            } else {
                0.0
            })
        };
        bits = bits.max(found);
    }
    any.then_some(bits.min(LOGIN_CAP))
}

/// What a login's order says of one group at most.
const LOGIN_CAP: f64 = 24.0;

/// A stretch between two named places holding exactly as many new
/// groups as the rule has places there: a build that sends other packets
/// there seldom sends just as many.
const TIGHT_BITS: f64 = 3.0;

/// Places past this one that a run from a named place must also hold.
const RUN_BEYOND: usize = 3;
/// Packets no place of a run explains that it may pass over: none. A
/// packet the rule does not list, sent among the login's, shifts the
/// places after it by one, and where a place takes any packet (a name
/// without a def that fits) the shifted run still lines up, each name a
/// packet late; on the 376012 session drifted as a build years away
/// (`simulate::drift`), passing over one packet wrote 11 wrong entries
/// in 300 sessions and passing over none 9, for the same entries right
/// on the session itself.
const RUN_SLACK: usize = 0;

/// What the open places, from the named one on, say for `group` at
/// `rank`, lined up in order with the groups first seen from it on
/// (`seen`), each def fitting, passing over [`RUN_SLACK`] groups at most,
/// as far as they keep lining up and at least [`RUN_BEYOND`] places past
/// `rank`, `group` at `rank` in every such alignment: as much as the
/// run's defs are specific together (a place without a def takes any
/// packet and says nothing). Nothing when the run does not line up.
fn run(open: &[usize], seen: &[usize], rank: usize, group: usize, places: &Places<'_>) -> f64 {
    let window = &seen[..(open.len() + RUN_SLACK).min(seen.len())];
    let whole = Alignment::new(open, window, places.fits);
    let mut end = rank + 1;
    if !whole.prefix_complete(end, RUN_SLACK) {
        return 0.0;
    }
    while end < open.len() && whole.prefix_complete(end + 1, RUN_SLACK) {
        end += 1;
    }
    if end < (rank + 1 + RUN_BEYOND).min(open.len()) {
        return 0.0;
    }
    let run = Alignment::new(
        &open[..end],
        &seen[..(end + RUN_SLACK).min(seen.len())],
        places.fits,
    );
    if !(run.complete() && run.only_group(rank, DROPPED) == Some(group)) {
        return 0.0;
    }
    open[..end].iter().map(|&k| (places.specific)(k)).sum()
}

/// The scene evidence for `group` being the name at `position` of a
/// scene ([`GameRules::scenes`](crate::GameRules::scenes)), given the names already named
/// (`places`): around each packet of the nearest named place after it (or,
/// without one, before it), within [`SCENE_WINDOW`] packets and not past
/// the other named place, the scene's open places of both sides must all
/// line up with the packets there in order; where they do and this
/// group alone takes this name's place, that is worth [`PLACE_BITS`].
/// Nothing counts against: a scene that did not play leaves no trace.
pub(crate) fn scene_order(
    order: &Order,
    group: usize,
    position: usize,
    places: &Places<'_>,
) -> Option<f64> {
    let side = order.client(group);
    let bounds = places.bounds(position);
    let rank = bounds.open[usize::from(!side)]
        .iter()
        .position(|&k| k == position)?;
    // The named packet the scene is found by, and the one it stops at.
    let (by, stop, before) = match (bounds.upper, bounds.lower) {
        (Some(u), l) => (
            places.anchored[u]?,
            l.and_then(|l| places.anchored[l]),
            true,
        ),
        (None, Some(l)) => (places.anchored[l]?, None, false),
        (None, None) => return None,
    };
    let (mut any, mut placed) = (false, false);
    for s in 0..order.sessions() {
        let list = order.groups_in(s);
        for at in (0..list.len()).filter(|&k| list[k] == by) {
            let window: &[usize] = if before {
                let from = at.saturating_sub(SCENE_WINDOW);
                let from = (from..at)
                    .rev()
                    .find(|&k| Some(list[k]) == stop)
                    .map_or(from, |k| k + 1);
                &list[from..at]
            } else {
                &list[at + 1..(at + 1 + SCENE_WINDOW).min(list.len())]
            };
            let seen = |client: bool| -> Vec<usize> {
                window
                    .iter()
                    .copied()
                    .filter(|&g| order.client(g) == client && places.open_to(g, group))
                    .collect()
            };
            let (client_seen, server_seen) = (seen(true), seen(false));
            let client = Alignment::new(&bounds.open[0], &client_seen, places.fits);
            let server = Alignment::new(&bounds.open[1], &server_seen, places.fits);
            if !client.complete() || !server.complete() {
                continue;
            }
            any = true;
            let mine = if side { &client } else { &server };
            placed |= mine.only_group(rank, DROPPED) == Some(group);
        }
    }
    any.then_some(if placed { PLACE_BITS } else { 0.0 })
}
