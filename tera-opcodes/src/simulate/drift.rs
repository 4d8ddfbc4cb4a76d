//! A recorded session made to look like another build's: the real packets
//! of one build with the changes a later or earlier build brings to a
//! session, drawn at random. Some names the build no longer sends, some
//! whose def the set lacks (a name new to the set's week), some whose
//! packets carry a field their def lacks (stale), neighbours sent the
//! other way round, and packets of names the rules do not know sent among
//! the others. The packets themselves stay the real ones; what changes is
//! what a rule written from the recording can count on, so that the
//! rules' evidence is measured on sessions they were not written from.

use std::collections::BTreeSet;

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use tera_dynamic::ProtocolMap;
use tera_sessions::{Direction, SessionId, Timestamp};

use crate::defset::DefSet;
use crate::discover::FIXED;
use crate::samples::Samples;

/// How far a drifted session strays from the recording, as the chance of
/// each change per name or per packet.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    /// A name the build no longer sends: its packets are left out.
    pub dropped: f64,
    /// A name the def set lacks: its def is left out of the set.
    pub new: f64,
    /// A name whose packets carry four bytes more than its def.
    pub stale: f64,
    /// A packet sent after the next one of its side instead of before.
    pub swapped: f64,
    /// A packet of a name nobody knows after a packet: under an opcode of
    /// its own, as long as an earlier packet, its bytes drawn at random,
    /// a third of them zero.
    pub inserted: f64,
}

impl Drift {
    /// A build some patches away: a tenth of the names gone, one in twenty
    /// new, stale, each; one packet in twenty sent after its neighbour,
    /// and one in twenty followed by a packet no rule knows.
    pub fn patches_away() -> Self {
        Drift {
            dropped: 0.10,
            new: 0.05,
            stale: 0.05,
            swapped: 0.05,
            inserted: 0.05,
        }
    }
}

impl Drift {
    /// A build years away: a quarter of the names gone, one in ten new,
    /// one in ten stale; one packet in ten sent after its neighbour, and
    /// one in ten followed by a packet no rule knows.
    pub fn years_away() -> Self {
        Drift {
            dropped: 0.25,
            new: 0.10,
            stale: 0.10,
            swapped: 0.10,
            inserted: 0.10,
        }
    }
}

/// A recorded packet: when, which way, its bytes.
pub type Recorded = (Timestamp, Direction, Vec<u8>);

/// A session of the drifted build: its packets, the def set of its week
/// and its map (an inserted packet's opcode named `S_UNKNOWN_n` or
/// `C_UNKNOWN_n`, a name no def set holds).
#[derive(Debug, Clone)]
pub struct Drifted {
    /// The packets, in order.
    pub packets: Vec<Recorded>,
    /// The packets, to discover.
    pub samples: Samples,
    /// The def set without the new names.
    pub defs: DefSet,
    /// The truth.
    pub truth: ProtocolMap,
    /// The names whose packets were left out.
    pub dropped: BTreeSet<String>,
    /// The names whose def was left out.
    pub new: BTreeSet<String>,
    /// The names whose packets carry four bytes more.
    pub stale: BTreeSet<String>,
}

/// `packets` (a recorded session, in order) and the recording's `defs` and
/// `truth`, drifted by `drift` with `seed`. The fixed opcodes are never
/// changed.
pub fn drift(
    packets: &[Recorded],
    defs: &DefSet,
    truth: &ProtocolMap,
    drift: &Drift,
    seed: u64,
) -> Drifted {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let fixed: BTreeSet<u16> = FIXED.iter().map(|(_, c)| *c).collect();
    let opcode = |p: &[u8]| u16::from_le_bytes([p[2], p[3]]);
    let mut names: Vec<&str> = packets
        .iter()
        .filter(|(_, _, p)| p.len() >= 4 && !fixed.contains(&opcode(p)))
        .filter_map(|(_, _, p)| truth.name(opcode(p)))
        .collect();
    names.sort_unstable();
    names.dedup();
    let (mut dropped, mut new, mut stale) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for name in names {
        let roll: f64 = rng.random();
        let set = if roll < drift.dropped {
            &mut dropped
        } else if roll < drift.dropped + drift.new {
            &mut new
        } else if roll < drift.dropped + drift.new + drift.stale {
            &mut stale
        } else {
            continue;
        };
        set.insert(name.to_owned());
    }

    let mut out: Vec<Recorded> = Vec::new();
    let mut truth = truth.clone();
    let mut unknown = 0u16;
    for (time, direction, bytes) in packets {
        if bytes.len() < 4 {
            continue;
        }
        let name = truth.name(opcode(bytes)).map(str::to_owned);
        if name.as_ref().is_some_and(|n| dropped.contains(n)) {
            continue;
        }
        let mut bytes = bytes.clone();
        if name.as_ref().is_some_and(|n| stale.contains(n)) {
            bytes.extend_from_slice(&(rng.random::<u32>() | 1).to_le_bytes());
            let len = u16::try_from(bytes.len()).unwrap_or(u16::MAX);
            bytes[..2].copy_from_slice(&len.to_le_bytes());
        }
        out.push((*time, *direction, bytes));
        if !fixed.contains(&opcode(&out[out.len() - 1].2)) && rng.random_bool(drift.inserted) {
            let Some(code) = free_opcode(&truth, &mut rng) else {
                continue;
            };
            let earlier = &out[rng.random_range(0..out.len())];
            let (side, mut copy) = (earlier.1, earlier.2.clone());
            copy[2..4].copy_from_slice(&code.to_le_bytes());
            for b in &mut copy[4..] {
                *b = if rng.random_bool(1.0 / 3.0) {
                    0
                } else {
                    rng.random()
                };
            }
            unknown += 1;
            let prefix = if side == Direction::ClientToServer {
                "C"
            } else {
                "S"
            };
            truth.insert(&format!("{prefix}_UNKNOWN_{unknown}"), code);
            out.push((*time, side, copy));
        }
    }
    // Neighbours of one side sent the other way round (the times stay in
    // order: only the packets trade places).
    for k in 0..out.len() {
        let Some(next) = (k + 1..out.len()).find(|&j| out[j].1 == out[k].1) else {
            continue;
        };
        let movable = |p: &[u8]| !fixed.contains(&opcode(p));
        if movable(&out[k].2) && movable(&out[next].2) && rng.random_bool(drift.swapped) {
            let bytes = std::mem::take(&mut out[k].2);
            out[k].2 = std::mem::replace(&mut out[next].2, bytes);
        }
    }

    let mut samples = Samples::new();
    for (time, direction, bytes) in &out {
        samples.push_packet(SessionId(0), *time, *direction, bytes);
    }
    Drifted {
        packets: out,
        samples,
        defs: defs.without(|n| new.contains(n)),
        truth,
        dropped,
        new,
        stale,
    }
}

/// An opcode no name of `truth` holds.
fn free_opcode(truth: &ProtocolMap, rng: &mut XorShiftRng) -> Option<u16> {
    (0..64)
        .map(|_| rng.random_range(1000..u16::MAX))
        .find(|&c| truth.name(c).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drift_changes_what_it_says_and_keeps_the_fixed_opcodes() {
        let mut truth = ProtocolMap::new();
        truth.insert("C_CHECK_VERSION", 19900);
        truth.insert("S_CHECK_VERSION", 19901);
        let mut packets = vec![
            (
                Timestamp(0),
                Direction::ClientToServer,
                vec![4, 0, 0xbc, 0x4d],
            ),
            (
                Timestamp(1),
                Direction::ServerToClient,
                vec![4, 0, 0xbd, 0x4d],
            ),
        ];
        for k in 0..40u16 {
            let code = 2000 + k;
            truth.insert(&format!("S_NAME_{k}"), code);
            let [lo, hi] = code.to_le_bytes();
            packets.push((
                Timestamp(2 + i64::from(k)),
                Direction::ServerToClient,
                vec![8, 0, lo, hi, 1, 2, 3, 4],
            ));
        }
        let all = Drift {
            dropped: 0.25,
            new: 0.25,
            stale: 0.25,
            swapped: 0.0,
            inserted: 1.0,
        };
        let d = drift(&packets, &DefSet::default(), &truth, &all, 7);
        let mut samples = d.samples.clone();
        samples.finish();
        // The fixed opcodes stay, each followed by no unknown packet.
        assert!(samples.group(Direction::ClientToServer, 19900).is_some());
        // Every name kept is followed by an unknown one, named in the truth.
        let kept = 40 - d.dropped.len();
        assert_eq!(samples.len(), 2 + 2 * kept);
        assert_eq!(d.truth.len(), 42 + kept);
        // A stale name's packets carry four bytes more, counted in the header.
        for name in &d.stale {
            let g = samples
                .group(Direction::ServerToClient, truth.code(name).unwrap())
                .unwrap();
            assert_eq!(samples.groups()[g].shortest(), 12);
        }
        assert!(!d.dropped.is_empty() && !d.new.is_empty() && !d.stale.is_empty());
    }
}
