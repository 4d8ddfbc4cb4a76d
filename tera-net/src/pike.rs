//! The PIKE stream cipher used for each direction of a TERA session.
//!
//! PIKE is Ross Anderson's 1994 variant of the FISH generator: three lagged
//! Fibonacci generators (55, 57 and 58 words) clocked by majority carry. TERA
//! seeds it from a 128-byte key expanded with SHA-0 ([`crate::sha0`]).
//! Encryption and decryption are the same XOR ([`Pike::apply`]).
//!
//! TERA's generators never write their sums back into their words, so each
//! generator's sum and carry depend only on how far its pointers have moved,
//! and the whole cipher's state is three positions: at most
//! 55 * 57 * 58 = 181,830 states. The key stream is therefore a run of words
//! followed by a cycle that repeats for ever, and both are short in practice
//! (a few thousand words for random keys; the bound is 181,830 words, 710
//! KiB). [`Pike::new`] walks the states once, finds where the cycle starts
//! and how long it is (Brent's algorithm), and keeps the key stream's bytes:
//! from then on [`apply`](Pike::apply) is a XOR of two slices and
//! [`skip`](Pike::skip) an addition. Clocking word by word ran at about 480
//! MiB/s (`cargo bench -p tera-net --bench cipher`, the branchy form) and no
//! faster without branches; the kept stream runs at memory speed.

use std::sync::Arc;

use crate::sha0::{DIGEST_LEN, sha0_le};

/// Length in bytes of a PIKE key (and of each handshake key).
pub const KEY_LEN: usize = 128;

/// Size in bytes of the expanded key buffer (170 little-endian words).
const STATE_BYTES: usize = 680;

/// One lagged Fibonacci generator of `N` words, as a table: entry `p` holds
/// the sum (low 32 bits) and carry (bit 32) of the clock that moved the first
/// pointer to `p`.
struct Generator<const N: usize> {
    table: [u64; N],
}

impl<const N: usize> Generator<N> {
    /// Takes `N` words from `source` (missing words stay zero); the second
    /// pointer starts `lag` words after the first.
    fn new(source: &mut impl Iterator<Item = u32>, lag: usize) -> Self {
        let mut words = [0u32; N];
        for (dst, src) in words.iter_mut().zip(source) {
            *dst = src;
        }
        let mut table = [0u64; N];
        for (p, entry) in table.iter_mut().enumerate() {
            // The clock that moved the first pointer to `p` added the words
            // at `p - 1` and `p - 1 + lag`.
            let first = (p + N - 1) % N;
            let second = (first + lag) % N;
            let a = words.get(first).copied().unwrap_or(0);
            let b = words.get(second).copied().unwrap_or(0);
            let (sum, carry) = a.overflowing_add(b);
            *entry = u64::from(sum) | (u64::from(carry) << 32);
        }
        Self { table }
    }

    /// The sum and carry at position `pos` (always < N).
    fn entry(&self, pos: u32) -> u64 {
        self.table.get(pos as usize).copied().unwrap_or(0)
    }

    /// The position after `pos` when the generator advances (`step` 1) or
    /// not (`step` 0).
    fn step(pos: u32, step: u32) -> u32 {
        let next = pos + step;
        if next as usize == N { 0 } else { next }
    }
}

/// The three generators of a key; a state is their three positions.
struct Generators {
    g1: Generator<55>,
    g2: Generator<57>,
    g3: Generator<58>,
}

/// The positions of the three generators.
type State = [u32; 3];

impl Generators {
    /// The key word of a state.
    fn key_word(&self, [p1, p2, p3]: State) -> u32 {
        (self.g1.entry(p1) ^ self.g2.entry(p2) ^ self.g3.entry(p3)) as u32
    }

    /// The state after one clock: every generator whose carry equals the
    /// majority carry advances.
    fn clock(&self, [p1, p2, p3]: State) -> State {
        let c1 = (self.g1.entry(p1) >> 32) as u32;
        let c2 = (self.g2.entry(p2) >> 32) as u32;
        let c3 = (self.g3.entry(p3) >> 32) as u32;
        let majority = (c1 & c2) | (c1 & c3) | (c2 & c3);
        [
            Generator::<55>::step(p1, 1 ^ c1 ^ majority),
            Generator::<57>::step(p2, 1 ^ c2 ^ majority),
            Generator::<58>::step(p3, 1 ^ c3 ^ majority),
        ]
    }

    /// Where the walk from `start` begins to repeat, and the length of the
    /// cycle, in clocks (Brent's cycle detection: no memory, at most about
    /// three walks of the cycle and the run before it).
    fn cycle(&self, start: State) -> (usize, usize) {
        let mut power = 1;
        let mut period = 1;
        let mut tortoise = start;
        let mut hare = self.clock(start);
        while tortoise != hare {
            if power == period {
                tortoise = hare;
                power *= 2;
                period = 0;
            }
            hare = self.clock(hare);
            period += 1;
        }
        let mut tortoise = start;
        let mut hare = start;
        for _ in 0..period {
            hare = self.clock(hare);
        }
        let mut run = 0;
        while tortoise != hare {
            tortoise = self.clock(tortoise);
            hare = self.clock(hare);
            run += 1;
        }
        (run, period)
    }
}

/// A PIKE key stream: XOR it over data to encrypt or decrypt.
///
/// The state is position dependent: the same instance must see every byte of
/// its direction, in order, or [`skip`](Pike::skip) the bytes it does not
/// see. Cloning gives an independent copy at the same position (a proxy uses
/// one copy to decrypt and one to re-encrypt); clones share the key stream.
#[derive(Clone)]
pub struct Pike {
    /// The key stream's bytes: the run before the cycle, then one cycle.
    stream: Arc<[u8]>,
    /// Where the cycle starts in `stream`.
    cycle_start: usize,
    /// The next key byte's index in `stream`.
    pos: usize,
}

impl core::fmt::Debug for Pike {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print key material.
        f.debug_struct("Pike").finish_non_exhaustive()
    }
}

impl Pike {
    /// Seeds a key stream from a 128-byte key.
    #[must_use]
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        let mut buf = [0u8; STATE_BYTES];
        for (dst, src) in buf.iter_mut().zip(key.iter().cycle()) {
            *dst = *src;
        }
        // Byte 0 is the key length; byte i (i >= 1) is key[i % 128].
        buf[0] = KEY_LEN as u8;

        // Replace each 20-byte slice with the digest of the whole buffer.
        for start in (0..STATE_BYTES).step_by(DIGEST_LEN) {
            let digest = sha0_le(&buf);
            if let Some(dst) = buf.get_mut(start..start + DIGEST_LEN) {
                dst.copy_from_slice(&digest);
            }
        }

        let mut words = buf
            .chunks_exact(4)
            .filter_map(|c| <[u8; 4]>::try_from(c).ok())
            .map(u32::from_le_bytes);
        let generators = Generators {
            g1: Generator::new(&mut words, 31),
            g2: Generator::new(&mut words, 50),
            g3: Generator::new(&mut words, 39),
        };
        // Before the first clock every carry is false, which need not be
        // what the tables hold at position 0: all three generators advance
        // (the majority of three false carries is false), so the first key
        // word is the one of positions (1, 1, 1), and from then on every
        // state is a table position.
        let first = [1, 1, 1];
        let (run, period) = generators.cycle(first);
        let mut stream = Vec::with_capacity(4 * (run + period));
        let mut state = first;
        for _ in 0..run + period {
            stream.extend_from_slice(&generators.key_word(state).to_le_bytes());
            state = generators.clock(state);
        }
        Self {
            stream: stream.into(),
            cycle_start: 4 * run,
            pos: 0,
        }
    }

    /// XORs the key stream over `data` in place (encrypts or decrypts).
    ///
    /// Calls may split the stream anywhere: `apply(a); apply(b)` equals
    /// `apply(a ++ b)`.
    pub fn apply(&mut self, data: &mut [u8]) {
        let mut data = data;
        while !data.is_empty() {
            let key = self.stream.get(self.pos..).unwrap_or_default();
            let n = key.len().min(data.len());
            let (now, rest) = data.split_at_mut(n);
            for (b, k) in now.iter_mut().zip(key) {
                *b ^= k;
            }
            self.advance(n);
            data = rest;
        }
    }

    /// Like [`Pike::apply`] but returns a new buffer, leaving `data` intact.
    #[must_use]
    pub fn apply_copy(&mut self, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        self.apply(&mut out);
        out
    }

    /// Advances the key stream by `len` bytes without data, exactly as
    /// [`apply`](Pike::apply) over `len` bytes would: for bytes that were
    /// lost (a capture that missed a segment), so that the bytes after them
    /// still decrypt. It takes the same time whatever `len` is.
    pub fn skip(&mut self, len: u64) {
        let to_end = (self.stream.len() - self.pos) as u64;
        if len < to_end {
            self.pos += len as usize;
        } else {
            // The stream is never empty, so the cycle is at least 4 bytes.
            let cycle = (self.stream.len() - self.cycle_start).max(1) as u64;
            self.pos = self.cycle_start + ((len - to_end) % cycle) as usize;
        }
    }

    /// Moves `n` bytes on, `n` at most the bytes left before the end of the
    /// kept stream.
    fn advance(&mut self, n: usize) {
        self.pos += n;
        if self.pos == self.stream.len() {
            self.pos = self.cycle_start;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PIKE as `PIKE.md` states it, word by word, for comparison.
    struct Reference {
        gens: [(Vec<u32>, usize, usize, bool, u32); 3],
        pending: Vec<u8>,
    }

    impl Reference {
        fn new(key: &[u8; KEY_LEN]) -> Self {
            let mut buf = [0u8; STATE_BYTES];
            for (i, b) in buf.iter_mut().enumerate() {
                *b = key[i % KEY_LEN];
            }
            buf[0] = 128;
            for start in (0..STATE_BYTES).step_by(DIGEST_LEN) {
                let d = sha0_le(&buf);
                buf[start..start + DIGEST_LEN].copy_from_slice(&d);
            }
            let w: Vec<u32> = buf
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            Self {
                gens: [
                    (w[..55].to_vec(), 0, 31, false, 0),
                    (w[55..112].to_vec(), 0, 50, false, 0),
                    (w[112..].to_vec(), 0, 39, false, 0),
                ],
                pending: Vec::new(),
            }
        }

        fn byte(&mut self) -> u8 {
            if self.pending.is_empty() {
                let majority = self.gens.iter().filter(|g| g.3).count() >= 2;
                for g in &mut self.gens {
                    if g.3 == majority {
                        let n = g.0.len();
                        let (s, c) = g.0[g.1].overflowing_add(g.0[g.2]);
                        g.4 = s;
                        g.3 = c;
                        g.1 = (g.1 + 1) % n;
                        g.2 = (g.2 + 1) % n;
                    }
                }
                let word = self.gens[0].4 ^ self.gens[1].4 ^ self.gens[2].4;
                self.pending = word.to_le_bytes().iter().rev().copied().collect();
            }
            self.pending.pop().unwrap()
        }
    }

    fn key_of(seed: u8) -> [u8; KEY_LEN] {
        std::array::from_fn(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
    }

    #[test]
    fn kept_stream_matches_the_reference() {
        for seed in [0u8, 1, 0x5a, 0xff] {
            let key = key_of(seed);
            let mut reference = Reference::new(&key);
            // Well past the run and several laps of the cycle.
            let len = 8 * Pike::new(&key).stream.len();
            let expected: Vec<u8> = (0..len).map(|_| reference.byte()).collect();
            let mut got = vec![0u8; len];
            Pike::new(&key).apply(&mut got);
            assert_eq!(got, expected, "seed {seed}");
        }
    }

    #[test]
    fn split_calls_match_one_call() {
        let key = [0x5au8; KEY_LEN];
        let data: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut whole = data.clone();
        Pike::new(&key).apply(&mut whole);
        for step in 1..9 {
            let mut parts = data.clone();
            let mut p = Pike::new(&key);
            for chunk in parts.chunks_mut(step) {
                p.apply(chunk);
            }
            assert_eq!(parts, whole, "step {step}");
        }
    }

    #[test]
    fn apply_twice_restores() {
        let key = [7u8; KEY_LEN];
        let data = b"hello, pike".to_vec();
        let enc = Pike::new(&key).apply_copy(&data);
        assert_ne!(enc, data);
        assert_eq!(Pike::new(&key).apply_copy(&enc), data);
    }

    #[test]
    fn empty_apply_is_noop() {
        let key = [1u8; KEY_LEN];
        let mut a = Pike::new(&key);
        let mut b = Pike::new(&key);
        a.apply(&mut []);
        a.apply(&mut [0u8; 1]);
        a.apply(&mut []);
        let mut x = [0u8; 9];
        a.apply(&mut x[1..]);
        let mut y = [0u8; 9];
        b.apply(&mut y);
        assert_eq!(x[1..], y[1..]);
    }

    /// `skip(n)` then `apply` gives what `apply` over `n` more bytes gives.
    fn check_skip(key: &[u8; KEY_LEN], before: usize, skip: usize) {
        let mut stream = vec![0u8; before + skip + 64];
        Pike::new(key).apply(&mut stream);
        let mut p = Pike::new(key);
        let mut head = vec![0u8; before];
        p.apply(&mut head);
        p.skip(skip as u64);
        let mut after = [0u8; 64];
        p.apply(&mut after);
        assert_eq!(
            after[..],
            stream[before + skip..],
            "before {before}, skip {skip}"
        );
    }

    #[test]
    fn skip_matches_apply() {
        let key = key_of(3);
        for before in 0..9 {
            for skip in 0..13 {
                check_skip(&key, before, skip);
            }
        }
        check_skip(&key, 3, 100_003);
    }

    #[test]
    fn long_skips_match_apply() {
        for seed in 0..4 {
            let key = key_of(seed);
            let p = Pike::new(&key);
            let kept = p.stream.len();
            for skip in [kept - 1, kept, kept + 1, 3 * kept + 7, 200_003] {
                for before in [0, 1, p.cycle_start + 2] {
                    check_skip(&key, before, skip);
                }
            }
        }
    }

    #[test]
    fn huge_skip_is_bounded() {
        // A 1 TiB skip finishes (the test would hang otherwise) and lands
        // where two skips of half its length land.
        let key = key_of(11);
        let mut a = Pike::new(&key);
        a.skip(1 << 40);
        let mut b = Pike::new(&key);
        b.skip(1 << 39);
        b.skip(1 << 39);
        let mut x = [0u8; 16];
        a.apply(&mut x);
        let mut y = [0u8; 16];
        b.apply(&mut y);
        assert_eq!(x, y);
    }
}
