//! Where each id is last mentioned: an entity's despawn ends its life, and
//! after it no packet of the session names it again. Ids are searched as
//! bytes in every packet, whatever its opcode or def, so that the test
//! needs no name already known.

use std::collections::{HashMap, HashSet};

use crate::samples::Samples;

/// The first and the last packet of each session that holds each id
/// asked about.
#[derive(Debug, Default)]
pub(crate) struct Lives {
    span: HashMap<(u32, u64), (usize, usize)>,
}

impl Lives {
    /// Searches every packet's body for the 64-bit ids in `ids`
    /// (little-endian, at any offset).
    pub(crate) fn scan(samples: &Samples, ids: &HashSet<u64>) -> Lives {
        let mut span: HashMap<(u32, u64), (usize, usize)> = HashMap::new();
        if ids.is_empty() {
            return Lives { span };
        }
        for (i, p) in samples.packets().iter().enumerate() {
            let body = samples.bytes(i).get(4..).unwrap_or_default();
            for window in body.windows(8) {
                let v = u64::from_le_bytes(window.try_into().unwrap_or_default());
                if ids.contains(&v) {
                    span.entry((p.session, v)).or_insert((i, i)).1 = i;
                }
            }
        }
        Lives { span }
    }

    /// Where the life of `id` that ends at `packet` began: the first
    /// packet of the session to hold it, when `packet` is the last and
    /// another came before.
    pub(crate) fn ended_at(&self, samples: &Samples, packet: usize, id: u64) -> Option<usize> {
        let session = samples.packet(packet).session;
        let &(first, last) = self.span.get(&(session, id))?;
        (last == packet && first != packet).then_some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_sessions::{Direction, SessionId, Timestamp};

    #[test]
    fn a_life_ends_where_its_id_is_last_held() {
        let mut samples = Samples::new();
        let id: u64 = 0x0123_4567_89ab_cdef;
        let mut packet = |opcode: u8, body: &[u8]| {
            let mut bytes = vec![(4 + body.len()) as u8, 0, opcode, 0];
            bytes.extend_from_slice(body);
            samples.push_packet(
                SessionId(0),
                Timestamp(0),
                Direction::ServerToClient,
                &bytes,
            );
        };
        let other: u64 = 0x0fed_cba9_8765_4321;
        packet(1, &id.to_le_bytes());
        packet(2, &[&[9u8][..], &id.to_le_bytes()].concat());
        packet(3, &other.to_le_bytes());
        samples.finish();
        let lives = Lives::scan(&samples, &HashSet::from([id, other]));
        assert_eq!(lives.ended_at(&samples, 0, id), None);
        assert_eq!(lives.ended_at(&samples, 1, id), Some(0));
        assert_eq!(lives.ended_at(&samples, 2, id), None);
        // Held once: no life seen to begin before it.
        assert_eq!(lives.ended_at(&samples, 2, other), None);
    }
}
