//! How common a value is in the session itself: how many groups (opcodes
//! of a direction) hold its bytes anywhere, under any def. Real sessions
//! repeat a few values everywhere (the player's own id, the zone, the
//! server's time), so that a rare-looking number found in a packet
//! already named says little when a third of the session holds it. A
//! value's link is worth no more than the odds against a group holding it
//! by the session's own count, whatever its size.

use std::collections::HashMap;

use crate::samples::Samples;

/// Distinct packets of a group whose bytes are read.
const PACKETS_PER_GROUP: usize = 16;
/// Bytes of a packet read (past its header).
const BYTES_PER_PACKET: usize = 4096;

/// The groups that hold each 32-bit value of the session, counted.
#[derive(Debug, Default)]
pub(crate) struct BaseRates {
    /// Low 32 bits of a value -> (groups holding it, the last group counted).
    holders: HashMap<u32, (u32, u32)>,
    groups: u32,
}

impl BaseRates {
    /// Reads the first distinct packets of every group.
    pub(crate) fn scan(samples: &Samples) -> BaseRates {
        let mut rates = BaseRates {
            groups: samples.groups().len() as u32,
            ..BaseRates::default()
        };
        for (g, group) in samples.groups().iter().enumerate() {
            let g = g as u32;
            for &i in group.distinct.iter().take(PACKETS_PER_GROUP) {
                let bytes = samples.bytes(i);
                let body = &bytes[4.min(bytes.len())..];
                let body = &body[..body.len().min(BYTES_PER_PACKET)];
                for w in body.windows(4) {
                    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    if !(256..=u32::MAX - 256).contains(&v) {
                        continue;
                    }
                    let e = rates.holders.entry(v).or_insert((0, u32::MAX));
                    if e.1 != g {
                        e.0 += 1;
                        e.1 = g;
                    }
                }
            }
        }
        rates
    }

    /// The odds, in bits, against a group holding `v` by the session's
    /// own count of the groups that hold it: `log2(groups / holders)`.
    /// A value no group holds (read from a def that is not the packet's)
    /// counts as held once.
    pub(crate) fn bits(&self, v: u64) -> f64 {
        let low = v as u32;
        let holders = self.holders.get(&low).map_or(1, |e| e.0.max(1));
        (f64::from(self.groups.max(1)) / f64::from(holders))
            .log2()
            .max(0.0)
    }
}
