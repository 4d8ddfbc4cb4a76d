//! Evidence of place: where a group's packets stand among the names of an
//! ordered scene already named around them, such as a return to the lobby
//! ([`SCENES`]). The login, one long scene played once, is weighed over
//! all its alignments at once in `login_alignment`.
//!
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

/// How a scene's places are weighed: [`scene_order`].
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
    /// fit which groups and which groups are named.
    pub(crate) fn weigh(
        &self,
        weigh: Weigh,
        order: &Order,
        group: usize,
        name: usize,
        known: &Known<'_>,
    ) -> Option<f64> {
        let Known { fits, sure } = *known;
        let position = self.names.iter().position(|&n| n == Some(name))?;
        let mut anchored = self.anchored.clone();
        anchored[position] = None;
        // A place whose name the def set lacks takes any packet: the
        // game sends it there, and no def can say which it is.
        let fits_place = |g: usize, k: usize| self.names[k].is_none_or(|n| fits(g, n));
        let places = Places {
            anchored: &anchored,
            client: &self.client,
            sure,
            fits: &fits_place,
        };
        weigh(order, group, position, &places)
    }
}

/// What a round knows of the names, for a scene: `fits(group, name)`
/// whether a def fits a group, `sure(group)` whether a group is named.
#[derive(Clone, Copy)]
pub(crate) struct Known<'a> {
    pub fits: &'a dyn Fn(usize, usize) -> bool,
    pub sure: &'a dyn Fn(usize) -> bool,
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
/// a missing place cannot pass its neighbour's packet along unnoticed.
/// Chosen when the login's order was weighed this way too: on the 376012
/// session drifted as a build years away (300 sessions, `simulate::drift`)
/// it wrote 9 wrong entries where leaving no place out wrote 14. The
/// login is now weighed over all its alignments (`login_alignment`).
const DROPPED: u32 = 1;

/// Packets around a named packet of a scene that the scene's other
/// packets may come among (the world goes on while a scene plays).
const SCENE_WINDOW: usize = 24;

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
