//! One direction of a TCP connection, put back in order.
//!
//! Segments arrive in any order, whole or in overlapping pieces, with
//! sequence numbers that wrap at 2^32. A [`Stream`] hands its bytes to a
//! [`StreamSink`] in stream order, each byte once, and reports a run of
//! bytes as lost when it knows they will never come:
//!
//! * the peer acknowledged bytes past it (the receiver holds them, so they
//!   will not be sent again: the capture missed them) and a segment that
//!   starts past it arrived (so segments captured after the
//!   acknowledgement of them, as a capture on a busy host may order them,
//!   still fill their hole);
//! * keeping the bytes after it would pass the out-of-order caps (the
//!   stream's own and the capture's [`Budget`]): the earliest hole is given
//!   up, so memory stays bounded whatever the capture holds;
//! * the stream ends ([`Stream::flush`]).
//!
//! Offsets count bytes from the first byte after the SYN.

use std::collections::BTreeMap;

use super::Budget;

/// How far ahead of the next expected byte a segment may start (the
/// largest TCP window, 2^30 bytes); a segment further away is not of this
/// stream (a stale or forged sequence number) and is ignored.
const MAX_AHEAD: i64 = 1 << 30;

/// How far past the next expected byte a RST may start and still be
/// honoured (a generous receive window); a RST outside is ignored, as a
/// receiver ignores one (RFC 5961: a forged RST must guess the window).
const RST_WINDOW: i64 = 1 << 20;

/// Bytes delivered last kept to compare with retransmissions of them.
const RECENT: usize = 4096;

/// Where a stream's bytes go, in order.
pub(crate) trait StreamSink {
    /// The next bytes of the stream.
    fn data(&mut self, bytes: &[u8]);
    /// The next `len` bytes of the stream were never seen.
    fn lost(&mut self, len: u64);
}

/// One direction of a connection (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Stream {
    /// The sequence number of the byte at `offset`, once the start is known.
    next_seq: Option<u32>,
    /// Bytes delivered or lost so far.
    offset: u64,
    /// Bytes seen ahead of `offset`, by offset; never overlapping, each
    /// starting after `offset`.
    pending: BTreeMap<u64, Vec<u8>>,
    /// The bytes in `pending`.
    pending_bytes: usize,
    /// The peer holds every byte before this offset.
    acked: u64,
    /// The offset the FIN takes, once seen.
    fin: Option<u64>,
    /// The sequence number of its SYN, once seen.
    isn: Option<u32>,
    /// The last bytes delivered (at most [`RECENT`]), ending at `offset`.
    recent: Vec<u8>,
    /// Bytes seen again whose value differs from the first copy (which is
    /// kept).
    conflicting: u64,
}

impl Stream {
    /// Whether the first sequence number is known.
    pub(crate) fn started(&self) -> bool {
        self.next_seq.is_some()
    }

    /// The stream's bytes start at `seq` (the SYN's sequence number plus
    /// one, or what the peer acknowledged first). Later calls are ignored.
    pub(crate) fn start_at(&mut self, seq: u32) {
        if self.next_seq.is_none() {
            self.next_seq = Some(seq);
        }
    }

    /// Its SYN at sequence number `seq`: the stream starts after it.
    pub(crate) fn syn(&mut self, seq: u32) {
        self.isn.get_or_insert(seq);
        self.start_at(seq.wrapping_add(1));
    }

    /// Whether a SYN at `seq` from this stream's sender starts another
    /// connection: its SYN had another sequence number.
    pub(crate) fn restarted_by(&self, seq: u32) -> bool {
        self.isn.is_some_and(|isn| isn != seq)
    }

    /// Whether a SYN on these ends starts another connection because this
    /// stream ended: its FIN was seen.
    pub(crate) fn restarted_by_fin(&self) -> bool {
        self.fin.is_some()
    }

    /// Whether a RST at `seq` is honoured: from the next byte expected to
    /// [`RST_WINDOW`] past it (or any, before the start is known).
    pub(crate) fn accepts_reset(&self, seq: u32) -> bool {
        self.offset_of(seq).is_none_or(|at| {
            let next = self.offset as i64;
            (next..=next + RST_WINDOW).contains(&at)
        })
    }

    /// Bytes seen again that differ from their first copy.
    pub(crate) fn conflicting(&self) -> u64 {
        self.conflicting
    }

    /// Bytes delivered or lost so far.
    #[cfg(test)]
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether every byte up to the FIN has been delivered or lost.
    pub(crate) fn finished(&self) -> bool {
        self.fin.is_some_and(|fin| self.offset >= fin)
    }

    /// The stream offset of sequence number `seq`, taken as the nearest to
    /// `offset` (sequence numbers wrap at 2^32).
    fn offset_of(&self, seq: u32) -> Option<i64> {
        let next = self.next_seq?;
        let delta = i64::from(seq.wrapping_sub(next) as i32);
        Some(self.offset as i64 + delta)
    }

    /// The peer acknowledged every byte before `ack`.
    pub(crate) fn ack(&mut self, ack: u32) {
        if let Some(at) = self.offset_of(ack)
            && at > self.acked as i64
        {
            self.acked = at as u64;
        }
    }

    /// A segment: `payload` at sequence number `seq`, and whether it
    /// carries the FIN. Returns `false` when it is out of the window (and
    /// ignored).
    pub(crate) fn segment(
        &mut self,
        seq: u32,
        payload: &[u8],
        fin: bool,
        cap: usize,
        budget: &mut Budget,
        sink: &mut impl StreamSink,
    ) -> bool {
        let Some(start) = self.offset_of(seq) else {
            return true;
        };
        if start - self.offset as i64 > MAX_AHEAD
            || start + (payload.len() as i64) < self.offset as i64 - MAX_AHEAD
        {
            return false;
        }
        let end = start + payload.len() as i64;
        let begins = start.max(0) as u64;
        if fin && self.fin.is_none() && end >= 0 {
            self.fin = Some(end as u64);
        }
        self.compare_delivered(start, payload);
        if end > self.offset as i64 {
            // The part not delivered yet.
            let skip = (self.offset as i64 - start).max(0) as usize;
            let start = start.max(self.offset as i64) as u64;
            let bytes = payload.get(skip..).unwrap_or_default();
            self.compare_pending(start, bytes);
            if start == self.offset {
                self.deliver(bytes, sink);
                self.drain(budget, sink);
            } else {
                self.make_room(start, bytes.len(), cap, budget, sink);
                if start == self.offset {
                    // Room was made by giving up the hole before it.
                    self.deliver(bytes, sink);
                    self.drain(budget, sink);
                } else {
                    self.insert(start, bytes, budget);
                }
            }
        }
        self.settle(begins, budget, sink);
        true
    }

    /// Counts the bytes of `payload` (at stream offset `start`) that were
    /// delivered already, as far as [`RECENT`] keeps them, and differ.
    fn compare_delivered(&mut self, start: i64, payload: &[u8]) {
        let kept_from = self.offset as i64 - self.recent.len() as i64;
        let from = start.max(kept_from);
        let to = (start + payload.len() as i64).min(self.offset as i64);
        if from >= to {
            return;
        }
        let old = self
            .recent
            .get((from - kept_from) as usize..(to - kept_from) as usize);
        let new = payload.get((from - start) as usize..(to - start) as usize);
        if let (Some(old), Some(new)) = (old, new) {
            self.conflicting += old.iter().zip(new).filter(|(a, b)| a != b).count() as u64;
        }
    }

    /// Delivers bytes that start at `offset`.
    fn deliver(&mut self, bytes: &[u8], sink: &mut impl StreamSink) {
        if bytes.is_empty() {
            return;
        }
        sink.data(bytes);
        self.keep_recent(bytes);
        self.advance(bytes.len() as u64);
    }

    fn keep_recent(&mut self, bytes: &[u8]) {
        let tail = bytes
            .get(bytes.len().saturating_sub(RECENT)..)
            .unwrap_or_default();
        let over = (self.recent.len() + tail.len()).saturating_sub(RECENT);
        self.recent.drain(..over.min(self.recent.len()));
        self.recent.extend_from_slice(tail);
    }

    fn advance(&mut self, len: u64) {
        self.offset += len;
        if let Some(next) = &mut self.next_seq {
            *next = next.wrapping_add(len as u32);
        }
    }

    /// Reports the bytes up to `to` as lost.
    fn lose_to(&mut self, to: u64, sink: &mut impl StreamSink) {
        if to > self.offset {
            let len = to - self.offset;
            sink.lost(len);
            // What is kept must end at `offset`.
            self.recent.clear();
            self.advance(len);
        }
    }

    /// Delivers the pending pieces that now start at or before `offset`.
    fn drain(&mut self, budget: &mut Budget, sink: &mut impl StreamSink) {
        while let Some(entry) = self.pending.first_entry() {
            let at = *entry.key();
            if at > self.offset {
                break;
            }
            let piece = entry.remove();
            self.pending_bytes -= piece.len();
            budget.give(piece.len());
            let skip = (self.offset - at) as usize;
            self.deliver(piece.get(skip..).unwrap_or_default(), sink);
        }
    }

    /// Gives up holes (reports them lost) until `len` bytes at `start` fit
    /// in the stream's cap and the budget, or until `start` is next.
    fn make_room(
        &mut self,
        start: u64,
        len: usize,
        cap: usize,
        budget: &mut Budget,
        sink: &mut impl StreamSink,
    ) {
        while self.offset < start
            && (self.pending_bytes.saturating_add(len) > cap || !budget.fits(len))
        {
            let hole_end = self
                .pending
                .keys()
                .next()
                .copied()
                .unwrap_or(start)
                .min(start);
            self.lose_to(hole_end, sink);
            self.drain(budget, sink);
        }
    }

    /// Keeps the bytes at `start` (after `offset`) that no pending piece
    /// holds yet.
    fn insert(&mut self, start: u64, bytes: &[u8], budget: &mut Budget) {
        let end = start + bytes.len() as u64;
        let mut at = start;
        if let Some((&k, piece)) = self.pending.range(..=at).next_back() {
            at = at.max(k + piece.len() as u64);
        }
        while at < end {
            let next = self.pending.range(at..).next().map(|(&k, p)| (k, p.len()));
            let piece_end = next.map_or(end, |(k, _)| k.min(end));
            if piece_end > at {
                let from = (at - start) as usize;
                let to = (piece_end - start) as usize;
                let piece = bytes.get(from..to).unwrap_or_default().to_vec();
                self.pending_bytes += piece.len();
                budget.take(piece.len());
                self.pending.insert(at, piece);
            }
            match next {
                Some((k, len)) if k < end => at = k + len as u64,
                _ => break,
            }
        }
    }

    /// Counts the bytes at `start` that pending pieces hold already and
    /// that differ.
    fn compare_pending(&mut self, start: u64, bytes: &[u8]) {
        let end = start + bytes.len() as u64;
        let first = self
            .pending
            .range(..=start)
            .next_back()
            .map_or(start, |(&k, _)| k);
        for (&at, piece) in self.pending.range(first..end) {
            let from = at.max(start);
            let to = (at + piece.len() as u64).min(end);
            if from >= to {
                continue;
            }
            let old = piece.get((from - at) as usize..(to - at) as usize);
            let new = bytes.get((from - start) as usize..(to - start) as usize);
            if let (Some(old), Some(new)) = (old, new) {
                self.conflicting += old.iter().zip(new).filter(|(a, b)| a != b).count() as u64;
            }
        }
    }

    /// Reports as lost the bytes before `limit` that the peer acknowledged
    /// and that were never seen.
    fn settle(&mut self, limit: u64, budget: &mut Budget, sink: &mut impl StreamSink) {
        // The FIN takes a sequence number but is no byte.
        let proven = self.acked.min(limit).min(self.fin.unwrap_or(u64::MAX));
        while proven > self.offset {
            let hole_end = self
                .pending
                .keys()
                .next()
                .copied()
                .unwrap_or(proven)
                .min(proven);
            self.lose_to(hole_end, sink);
            self.drain(budget, sink);
        }
    }

    /// The stream ends: every hole before the last byte seen, acknowledged
    /// or announced by the FIN is lost.
    pub(crate) fn flush(&mut self, budget: &mut Budget, sink: &mut impl StreamSink) {
        self.settle(u64::MAX, budget, sink);
        while let Some(&at) = self.pending.keys().next() {
            self.lose_to(at, sink);
            self.drain(budget, sink);
        }
        if let Some(fin) = self.fin {
            self.lose_to(fin, sink);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Debug, PartialEq)]
    struct Log {
        bytes: Vec<u8>,
        events: Vec<(char, u64)>,
    }

    impl StreamSink for Log {
        fn data(&mut self, bytes: &[u8]) {
            self.bytes.extend_from_slice(bytes);
            self.events.push(('d', bytes.len() as u64));
        }
        fn lost(&mut self, len: u64) {
            self.events.push(('l', len));
        }
    }

    fn stream(isn: u32) -> Stream {
        let mut s = Stream::default();
        s.start_at(isn);
        s
    }

    #[test]
    fn in_order_out_of_order_and_overlaps() {
        let data: Vec<u8> = (0..100).collect();
        let mut s = stream(1000);
        let mut budget = Budget::new(1 << 20);
        let mut log = Log::default();
        s.segment(1030, &data[30..60], false, 1 << 20, &mut budget, &mut log);
        s.segment(1010, &data[10..40], false, 1 << 20, &mut budget, &mut log);
        assert!(log.bytes.is_empty());
        assert_eq!(budget.used(), 50);
        s.segment(1000, &data[0..20], false, 1 << 20, &mut budget, &mut log);
        assert_eq!(log.bytes, &data[..60]);
        s.segment(1000, &data[0..70], true, 1 << 20, &mut budget, &mut log);
        assert_eq!(log.bytes, &data[..70]);
        assert!(s.finished());
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn sequence_numbers_wrap() {
        let data: Vec<u8> = (0..64).collect();
        let isn = u32::MAX - 20;
        let mut s = stream(isn);
        let mut budget = Budget::new(1 << 20);
        let mut log = Log::default();
        s.segment(
            isn.wrapping_add(32),
            &data[32..],
            false,
            1 << 20,
            &mut budget,
            &mut log,
        );
        s.segment(isn, &data[..32], false, 1 << 20, &mut budget, &mut log);
        assert_eq!(log.bytes, data);
        assert_eq!(s.offset(), 64);
    }

    #[test]
    fn acknowledged_holes_are_lost_once_later_bytes_come() {
        let mut s = stream(0);
        let mut budget = Budget::new(1 << 20);
        let mut log = Log::default();
        s.segment(0, &[1; 10], false, 1 << 20, &mut budget, &mut log);
        s.segment(40, &[4; 5], false, 1 << 20, &mut budget, &mut log);
        s.ack(30);
        // The hole's own segments, captured after the ack, still fill it.
        s.segment(10, &[2; 10], false, 1 << 20, &mut budget, &mut log);
        s.segment(20, &[3; 10], false, 1 << 20, &mut budget, &mut log);
        assert_eq!(log.events, [('d', 10), ('d', 10), ('d', 10)]);
        // Bytes past the acknowledged ones prove what is before them lost.
        s.ack(40);
        s.segment(50, &[5; 5], false, 1 << 20, &mut budget, &mut log);
        assert_eq!(
            log.events,
            [('d', 10), ('d', 10), ('d', 10), ('l', 10), ('d', 5)]
        );
        // 45..50 was not acknowledged: lost only when the stream ends.
        s.flush(&mut budget, &mut log);
        assert_eq!(log.events[5..], [('l', 5), ('d', 5)]);
    }

    #[test]
    fn the_cap_gives_up_the_earliest_hole() {
        let mut s = stream(0);
        let mut budget = Budget::new(1 << 20);
        let mut log = Log::default();
        s.segment(10, &[1; 10], false, 25, &mut budget, &mut log);
        s.segment(30, &[2; 10], false, 25, &mut budget, &mut log);
        assert!(log.events.is_empty());
        s.segment(50, &[3; 10], false, 25, &mut budget, &mut log);
        assert_eq!(log.events, [('l', 10), ('d', 10)]);
        assert_eq!(budget.used(), 20);
        s.flush(&mut budget, &mut log);
        assert_eq!(
            log.events,
            [
                ('l', 10),
                ('d', 10),
                ('l', 10),
                ('d', 10),
                ('l', 10),
                ('d', 10)
            ]
        );
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn far_segments_are_out_of_window() {
        let mut s = stream(0);
        let mut budget = Budget::new(1 << 20);
        let mut log = Log::default();
        assert!(!s.segment(0x8000_0000, &[1; 10], false, 1 << 20, &mut budget, &mut log));
        assert_eq!(budget.used(), 0);
    }
}
