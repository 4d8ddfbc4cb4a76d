//! Evidence of order: a request answered by its response in the packets
//! that follow (`C_X` then `S_X`), known consequences, keepalives. The
//! order of whole scenes (a login) is in `places_order`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use tera_sessions::Direction;

use crate::samples::Samples;

/// How many packets before or after a request its response may come.
const RESPONSE_WINDOW: usize = 4;

/// The packets of each session in order, and where each packet is.
#[derive(Debug)]
pub(crate) struct Order {
    sessions: Vec<Vec<usize>>,
    /// The group of each packet of each session, in order.
    seq: Vec<Vec<usize>>,
    /// Each session's groups, each with the place of its first packet,
    /// in the order they first appear.
    firsts: Vec<Vec<(usize, usize)>>,
    /// Each group's packets' share of all packets.
    share: Vec<f64>,
    /// Each group's packet count.
    counts: Vec<usize>,
    /// Each group's direction.
    client: Vec<bool>,
    /// For each group, the groups near its packets: (group, how many of
    /// its packets have one of theirs within the window), by group.
    near: Vec<Vec<(usize, usize)>>,
    /// For each group, the groups of the other side's next packet after
    /// each of its packets: (group, how many times), by group.
    next_other: Tallies,
    /// ... and of the other side's packet just before each of its packets.
    prev_other: Tallies,
}

impl Order {
    /// How many sessions.
    pub(crate) fn sessions(&self) -> usize {
        self.sessions.len()
    }

    /// The group of each packet of session `s`, in order.
    pub(crate) fn groups_in(&self, s: usize) -> &[usize] {
        &self.seq[s]
    }

    /// The groups that appear in session `s`, each with where it first
    /// does, in that order.
    pub(crate) fn firsts(&self, s: usize) -> &[(usize, usize)] {
        &self.firsts[s]
    }

    /// Whether the client sent `group`'s packets.
    pub(crate) fn client(&self, group: usize) -> bool {
        self.client[group]
    }

    /// The share of all packets that `group`'s side sent.
    fn side_share(&self, group: usize) -> f64 {
        let side = self.client[group];
        let s: f64 = (0..self.share.len())
            .filter(|&g| self.client[g] == side)
            .map(|g| self.share[g])
            .sum();
        s.max(1e-9)
    }

    fn near_count(&self, group: usize, other: usize) -> usize {
        let list = &self.near[group];
        list.binary_search_by_key(&other, |(g, _)| *g)
            .map_or(0, |k| list[k].1)
    }

    /// How `other` stands out among the groups of its direction near
    /// `group`: log2 of how many groups that direction has over how many
    /// (`other` included) are near as often.
    fn rank_bits(&self, group: usize, other: usize) -> f64 {
        let mine = self.near_count(group, other);
        let side = self.client[other];
        let rivals = self.near[group]
            .iter()
            .filter(|(g, n)| *g != other && self.client[*g] == side && *n >= mine)
            .count();
        let total = self.client.iter().filter(|c| **c == side).count();
        (total as f64 / (rivals + 1) as f64).log2()
    }

    /// How many of `first`'s packets are answered by one of `second`'s as
    /// the other side's very next packet, and of `second`'s packets
    /// answer one of `first`'s: the lesser of the two counts.
    fn answered(&self, first: usize, second: usize) -> usize {
        count_of(&self.next_other[first], second).min(count_of(&self.prev_other[second], first))
    }

    /// How `second` stands out as the answer to `first` among the groups
    /// of its side, and `first` as what `second` answers among the groups
    /// of its side: the two ranks' bits, added (each is a test of its own).
    fn answer_rank_bits(&self, first: usize, second: usize) -> f64 {
        let rank = |list: &[(usize, usize)], me: usize| {
            let mine = count_of(list, me);
            let side = self.client[me];
            let rivals = list.iter().filter(|(g, n)| *g != me && *n >= mine).count();
            let total = self.client.iter().filter(|c| **c == side).count();
            (total as f64 / (rivals + 1) as f64).log2()
        };
        rank(&self.next_other[first], second) + rank(&self.prev_other[second], first)
    }
}

fn count_of(list: &[(usize, usize)], group: usize) -> usize {
    list.binary_search_by_key(&group, |(g, _)| *g)
        .map_or(0, |k| list[k].1)
}

/// Counts of groups, sorted by group.
fn tally(counts: HashMap<usize, usize>) -> Vec<(usize, usize)> {
    let mut list: Vec<(usize, usize)> = counts.into_iter().collect();
    list.sort_unstable();
    list
}

impl Order {
    pub(crate) fn new(samples: &Samples) -> Order {
        let mut sessions: Vec<Vec<usize>> = vec![Vec::new(); samples.sessions()];
        let mut place = vec![0; samples.len()];
        let mut first = HashMap::new();
        let mut firsts: Vec<Vec<(usize, usize)>> = vec![Vec::new(); samples.sessions()];
        for (i, p) in samples.packets().iter().enumerate() {
            let list = &mut sessions[p.session as usize];
            place[i] = list.len();
            if let Entry::Vacant(slot) = first.entry((p.session, p.group)) {
                slot.insert(list.len());
                firsts[p.session as usize].push((p.group, list.len()));
            }
            list.push(i);
        }
        let total = samples.len().max(1) as f64;
        let groups = samples.groups();
        let share = groups.iter().map(|g| g.len() as f64 / total).collect();
        let counts = groups.iter().map(|g| g.len()).collect();
        let client = groups
            .iter()
            .map(|g| g.direction == tera_sessions::Direction::ClientToServer)
            .collect();
        let mut near = Vec::with_capacity(groups.len());
        let mut seen: Vec<usize> = Vec::new();
        for g in groups {
            let mut counts: HashMap<usize, usize> = HashMap::new();
            for &i in &g.packets {
                let p = samples.packet(i);
                let list = &sessions[p.session as usize];
                let k = place[i];
                let from = k.saturating_sub(RESPONSE_WINDOW);
                let to = (k + 1 + RESPONSE_WINDOW).min(list.len());
                seen.clear();
                for &j in list.get(from..to).unwrap_or_default() {
                    let h = samples.packet(j).group;
                    if j != i && !seen.contains(&h) {
                        seen.push(h);
                        *counts.entry(h).or_default() += 1;
                    }
                }
            }
            near.push(tally(counts));
        }
        let (next_other, prev_other) = answers(samples, &sessions, groups.len());
        let seq = sessions
            .iter()
            .map(|list| list.iter().map(|&i| samples.packet(i).group).collect())
            .collect();
        Order {
            sessions,
            seq,
            firsts,
            share,
            counts,
            client,
            near,
            next_other,
            prev_other,
        }
    }
}

/// Counts of groups, by group, for each group.
type Tallies = Vec<Vec<(usize, usize)>>;

/// For each group, the groups of the other side's next packet after each
/// of its packets, and of the other side's packet just before.
fn answers(samples: &Samples, sessions: &[Vec<usize>], groups: usize) -> (Tallies, Tallies) {
    let mut next: Vec<HashMap<usize, usize>> = vec![HashMap::new(); groups];
    let mut prev: Vec<HashMap<usize, usize>> = vec![HashMap::new(); groups];
    for list in sessions {
        // The packets of each side since the other side last sent: the
        // other side's next packet follows each of them, and comes just
        // after the last.
        let mut waiting: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for &i in list {
            let p = samples.packet(i);
            let side =
                usize::from(samples.groups()[p.group].direction == Direction::ClientToServer);
            let asked = std::mem::take(&mut waiting[1 - side]);
            for &g in &asked {
                *next[g].entry(p.group).or_default() += 1;
            }
            if let Some(&g) = asked.last() {
                *prev[p.group].entry(g).or_default() += 1;
            }
            waiting[side].push(p.group);
        }
    }
    (
        next.into_iter().map(tally).collect(),
        prev.into_iter().map(tally).collect(),
    )
}

/// The part of a name that its request and its response share: the name
/// without its `C_`/`S_` prefix and without the words that only say which
/// side it is (`REQUEST`, `RESPONSE`, `REPLY`, `RQ`, and the answers'
/// `RESULT`, `ACK` and `FIN`), `PONG` read as `PING`.
/// `C_REQUEST_GAMESTAT_PING` and `S_RESPONSE_GAMESTAT_PONG` share
/// `GAMESTAT_PING`; `S_LOAD_TOPO` and the client's `C_LOAD_TOPO_FIN`,
/// `LOAD_TOPO`.
pub(crate) fn pair_key(name: &str) -> Option<String> {
    let rest = name
        .strip_prefix("C_")
        .or_else(|| name.strip_prefix("S_"))?;
    let words: Vec<&str> = rest
        .split('_')
        .filter(|w| {
            !matches!(
                *w,
                "REQUEST" | "RESPONSE" | "REPLY" | "RQ" | "RESULT" | "ACK" | "FIN"
            )
        })
        .map(|w| if w == "PONG" { "PING" } else { w })
        .collect();
    (!words.is_empty()).then(|| words.join("_"))
}

/// How often `group`'s packets have one of `other`'s near them (within
/// [`RESPONSE_WINDOW`] packets either side, in their session): a request
/// and its response, whichever comes first. Gives (matched, of, bits).
///
/// Packets of one scene sit near each other whatever their names, so a
/// pair that holds is worth only as much as it stands out: the bits are
/// the lesser of the odds against `other` landing there by chance (at its
/// share of all packets) and the rank of `other` among the groups of its
/// direction near `group` (and of `group` among those near `other`). A
/// pair that does not hold says nothing (a request the server leaves
/// unanswered, a response the session missed), never against.
pub(crate) fn pair(order: &Order, group: usize, other: usize) -> (usize, usize, f64) {
    let (matched, of, chance) = near_odds(order, group, other);
    let bits = if 2 * matched >= of {
        chance
            .min(order.rank_bits(group, other))
            .min(order.rank_bits(other, group))
    } else {
        chance
    };
    match answer(order, group, other) {
        Some((answered, _, tight)) if tight > bits => (answered, of, tight),
        _ => (matched, of, bits.clamp(0.0, FOLLOWS_CAP)),
    }
}

/// The tighter test of a pair: `other`'s packets as the other side's very
/// next packet after `group`'s, or `group`'s after `other`'s, for at least
/// half of the packets of either. Gives (answered, of, bits) when it holds:
/// as much as the answer stands out (both ranks), [`ANSWER_CAP`] at most.
fn answer(order: &Order, group: usize, other: usize) -> Option<(usize, usize, f64)> {
    let (answered, first, second) = [(group, other), (other, group)]
        .into_iter()
        .map(|(a, b)| (order.answered(a, b), a, b))
        .max_by_key(|(n, _, _)| *n)?;
    let most = order.counts[group].max(order.counts[other]);
    if answered == 0 || 2 * answered < most {
        return None;
    }
    let side_share = order.share[second] / order.side_share(second);
    let per_answer = (ANSWERED / side_share.clamp(1e-3, 0.5)).log2();
    let bits = (answered as f64 * per_answer)
        .min(order.answer_rank_bits(first, second))
        .min(ANSWER_CAP);
    Some((answered, order.counts[group], bits))
}

/// How often `group`'s packets have one of `other`'s near them, for a
/// pair the game ties by cause and consequence ([`CONSEQUENCES`]): the
/// odds against `other` landing there by chance, at its share of all
/// packets, [`FOLLOWS_CAP`] at most. Unlike [`pair`], the rank among the
/// groups of one scene does not bound it: the table, not the nearness,
/// says which of them follows. Gives (matched, of, bits).
///
/// [`CONSEQUENCES`]: crate::GameRules::consequences
pub(crate) fn follows(order: &Order, group: usize, other: usize) -> (usize, usize, f64) {
    let (matched, of, bits) = near_odds(order, group, other);
    // A consequence the session does not play (it happens only some of
    // the time, or not in this build) says nothing, never against.
    (matched, of, bits.clamp(0.0, FOLLOWS_CAP))
}

/// How many of `group`'s packets have one of `other`'s near them, of how
/// many, and the log-odds of that against `other` landing there by chance
/// at its share of all packets (a tie that holds nine times in ten).
fn near_odds(order: &Order, group: usize, other: usize) -> (usize, usize, f64) {
    let matched = order.near_count(group, other);
    let of = order.counts[group];
    let by_chance = 1.0 - (1.0 - order.share[other]).powi(2 * RESPONSE_WINDOW as i32);
    let (p1, p0) = (0.9, by_chance.clamp(1e-6, 0.99));
    let holds = matched as f64 * (p1 / p0).log2();
    let fails = (of - matched) as f64 * ((1.0 - p1) / (1.0 - p0)).log2();
    (matched, of, holds + fails)
}

/// How many times `request`'s packets are answered by `response`'s as the
/// other side's very next packet, when every packet of both takes part in
/// one such exchange, and no fewer than [`KEEPALIVE_EXCHANGES`].
///
/// [`KEEPALIVE_EXCHANGES`]: KEEPALIVE_EXCHANGES
pub(crate) fn exchanges(order: &Order, request: usize, response: usize) -> Option<usize> {
    let n = order.answered(request, response);
    (n >= KEEPALIVE_EXCHANGES && n == order.counts[request] && n == order.counts[response])
        .then_some(n)
}

/// Exchanges that make a keepalive: fewer could be any request of a
/// scene played twice.
const KEEPALIVE_EXCHANGES: usize = 3;

/// What packets near another's say at most, a pair's or a known
/// consequence's.
const FOLLOWS_CAP: f64 = 24.0;

/// How often a request is answered by its response as the other side's
/// very next packet.
const ANSWERED: f64 = 0.9;
/// What a request answered by its response says at most.
const ANSWER_CAP: f64 = 16.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_responses_share_a_key() {
        assert_eq!(
            pair_key("C_REQUEST_GAMESTAT_PING"),
            pair_key("S_RESPONSE_GAMESTAT_PONG")
        );
        assert_eq!(
            pair_key("C_GET_USER_LIST").as_deref(),
            Some("GET_USER_LIST")
        );
        assert_eq!(pair_key("C_CHAT"), pair_key("S_CHAT"));
        assert_eq!(pair_key("C_LOAD_TOPO_FIN"), pair_key("S_LOAD_TOPO"));
        assert_eq!(
            pair_key("C_CREATE_GUILD"),
            pair_key("S_CREATE_GUILD_RESULT")
        );
        assert_ne!(pair_key("C_LOAD_TOPO_FIN"), pair_key("S_LOAD_TOPO_ANOTHER"));
        assert_eq!(pair_key("I_TELEPORT"), None);
    }

    /// A session where client opcode 1 is answered by server opcode 2 as
    /// the very next server packet, among the traffic of 30 other server
    /// and 10 other client opcodes; client opcode 3 comes just before
    /// each request (same scene) but is never answered by 2.
    fn scene() -> (Samples, Order) {
        use tera_sessions::{SessionId, Timestamp};
        let mut samples = Samples::new();
        let mut t = 0;
        let mut push = |samples: &mut Samples, direction: Direction, opcode: u16| {
            t += 1;
            let [lo, hi] = opcode.to_le_bytes();
            samples.push_packet(SessionId(0), Timestamp(t), direction, &[4, 0, lo, hi]);
        };
        let (c, s) = (Direction::ClientToServer, Direction::ServerToClient);
        for k in 0..12u16 {
            push(&mut samples, c, 3);
            push(&mut samples, s, 100 + k % 30);
            push(&mut samples, c, 1);
            push(&mut samples, s, 2);
            for j in 0..6 {
                push(&mut samples, s, 100 + (k * 7 + j) % 30);
                push(&mut samples, c, 10 + (k + j) % 10);
            }
        }
        samples.finish();
        let order = Order::new(&samples);
        (samples, order)
    }

    #[test]
    fn a_response_that_answers_its_request_stands_out() {
        let (samples, order) = scene();
        let g = |d, op| samples.group(d, op).unwrap();
        let request = g(Direction::ClientToServer, 1);
        let response = g(Direction::ServerToClient, 2);
        let neighbour = g(Direction::ClientToServer, 3);
        assert_eq!(order.answered(request, response), 12);
        assert_eq!(order.answered(neighbour, response), 0);
        let (matched, of, bits) = pair(&order, request, response);
        assert_eq!((matched, of), (12, 12));
        // Both ranks single the pair out: more than the window's test,
        // which the neighbour passes as well.
        let (_, _, near) = pair(&order, neighbour, response);
        assert!(bits > near + 4.0, "{bits} against {near}");
        assert!(bits <= ANSWER_CAP);
    }
}
