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
    /// scene has it: its own place left open, `fits(group, name)` saying
    /// which defs fit which groups, `sure` which groups are named.
    pub(crate) fn weigh(
        &self,
        weigh: Weigh,
        order: &Order,
        group: usize,
        name: usize,
        fits: &dyn Fn(usize, usize) -> bool,
        sure: &dyn Fn(usize) -> bool,
    ) -> Option<f64> {
        let position = self.names.iter().position(|&n| n == Some(name))?;
        let mut anchored = self.anchored.clone();
        anchored[position] = None;
        // A place whose name the def set lacks takes any packet: the
        // game sends it there, and no def can say which it is.
        let fits_place = |g: usize, k: usize| self.names[k].is_none_or(|n| fits(g, n));
        let with_def = |k: usize| self.names[k].is_some();
        let places = Places {
            anchored: &anchored,
            client: &self.client,
            sure,
            fits: &fits_place,
            with_def: &with_def,
        };
        weigh(order, group, position, &places)
    }
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
    /// Whether place k has a def (not a place any packet may take).
    pub with_def: &'a dyn Fn(usize) -> bool,
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

    /// Whether place k is one a def must fit.
    fn fitting(&self, k: usize) -> bool {
        (self.with_def)(k)
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

/// Packets around a named packet of a scene that the scene's other
/// packets may come among (the world goes on while a scene plays).
const SCENE_WINDOW: usize = 24;

/// The login-order evidence for `group` being the name at `position` of
/// [`GameRules::login_order`](crate::GameRules::login_order), given the
/// names already named (`places`): in a session where both named places
/// around it were seen, the groups of its side first seen between them
/// must be exactly as many as the open places of its side there and line
/// up with them in order, each place's def fitting its group, this group
/// in this place: that is worth [`PLACE_BITS`]. A session that plays the
/// stretch otherwise (other packets, another order, a packet lost) says
/// nothing, for or against.
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
    let (mut any, mut placed) = (false, false);
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
        placed |= if lower.is_some() && upper.is_some() && seen.len() == open.len() {
            let alignment = Alignment::new(open, &seen, places.fits);
            alignment.complete() && alignment.only_group(rank) == Some(group)
        } else {
            (lower.is_some() && run(open, &seen, rank, group, places))
                || (upper.is_some() && {
                    let (rev_open, rev_seen): (Vec<usize>, Vec<usize>) = (
                        open.iter().rev().copied().collect(),
                        seen.iter().rev().copied().collect(),
                    );
                    run(&rev_open, &rev_seen, open.len() - 1 - rank, group, places)
                })
        };
    }
    any.then_some(if placed { PLACE_BITS } else { 0.0 })
}

/// Places past this one that a run from a named place must also hold.
const RUN_BEYOND: usize = 3;
/// Places of a run, this one's included, whose def fits (not places any
/// packet may take): what makes a run more than a chance.
const RUN_FITTING: usize = 4;

/// Whether the open places, from the named one on, line up packet for
/// packet with the groups first seen from it on (`seen`), each def
/// fitting, up to [`RUN_BEYOND`] places past `rank`, `group` at `rank`,
/// and at least [`RUN_FITTING`] of them by a def that fits (a place
/// without one takes any packet and proves nothing).
fn run(open: &[usize], seen: &[usize], rank: usize, group: usize, places: &Places<'_>) -> bool {
    let end = rank + RUN_BEYOND + 1;
    if seen.get(rank) != Some(&group)
        || open.len() < end.min(open.len())
        || seen.len() < end.min(open.len())
    {
        return false;
    }
    let end = end.min(open.len());
    let mut fitting = 0;
    for i in 0..end {
        if !(places.fits)(seen[i], open[i]) {
            return false;
        }
        fitting += usize::from(places.fitting(open[i]));
    }
    fitting >= RUN_FITTING
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
            placed |= mine.only_group(rank) == Some(group);
        }
    }
    any.then_some(if placed { PLACE_BITS } else { 0.0 })
}
