//! The PIKE stream cipher used for each direction of a TERA session.
//!
//! PIKE is Ross Anderson's 1994 variant of the FISH generator: three lagged
//! Fibonacci generators (55, 57 and 58 words) clocked by majority carry. TERA
//! seeds it from a 128-byte key expanded with SHA-0 ([`crate::sha0`]).
//! Encryption and decryption are the same XOR ([`Pike::apply`]).

use crate::sha0::{DIGEST_LEN, sha0_le};

/// Length in bytes of a PIKE key (and of each handshake key).
pub const KEY_LEN: usize = 128;

/// Size in bytes of the expanded key buffer (170 little-endian words).
const STATE_BYTES: usize = 680;

/// One lagged Fibonacci generator of `N` words.
#[derive(Clone)]
struct Generator<const N: usize> {
    words: [u32; N],
    p1: usize,
    p2: usize,
    carry: bool,
    sum: u32,
}

impl<const N: usize> Generator<N> {
    /// Takes `N` words from `source` (missing words stay zero).
    fn new(source: &mut impl Iterator<Item = u32>, p2: usize) -> Self {
        let mut words = [0u32; N];
        for (dst, src) in words.iter_mut().zip(source) {
            *dst = src;
        }
        Self {
            words,
            p1: 0,
            p2: p2 % N,
            carry: false,
            sum: 0,
        }
    }

    #[inline(always)]
    fn advance(&mut self) {
        // Both pointers are always < N, so `get` never misses.
        let a = self.words.get(self.p1).copied().unwrap_or(0);
        let b = self.words.get(self.p2).copied().unwrap_or(0);
        let (sum, carry) = a.overflowing_add(b);
        self.sum = sum;
        self.carry = carry;
        self.p1 = if self.p1 + 1 == N { 0 } else { self.p1 + 1 };
        self.p2 = if self.p2 + 1 == N { 0 } else { self.p2 + 1 };
    }
}

/// A PIKE key stream: XOR it over data to encrypt or decrypt.
///
/// The state is position dependent: the same instance must see every byte of
/// its direction, in order. Cloning gives an independent copy at the same
/// position (a proxy uses one copy to decrypt and one to re-encrypt).
#[derive(Clone)]
pub struct Pike {
    g1: Generator<55>,
    g2: Generator<57>,
    g3: Generator<58>,
    /// Unused bytes of the last key word, next byte in the low 8 bits.
    pending: u32,
    /// How many bytes of `pending` are still unused (0..=3).
    pending_len: u8,
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
        let g1 = Generator::new(&mut words, 31);
        let g2 = Generator::new(&mut words, 50);
        let g3 = Generator::new(&mut words, 39);
        Self {
            g1,
            g2,
            g3,
            pending: 0,
            pending_len: 0,
        }
    }

    /// Clocks the generators and returns the next 32-bit key word.
    #[inline(always)]
    fn next_word(&mut self) -> u32 {
        let votes = u8::from(self.g1.carry) + u8::from(self.g2.carry) + u8::from(self.g3.carry);
        let majority = votes >= 2;
        if self.g1.carry == majority {
            self.g1.advance();
        }
        if self.g2.carry == majority {
            self.g2.advance();
        }
        if self.g3.carry == majority {
            self.g3.advance();
        }
        self.g1.sum ^ self.g2.sum ^ self.g3.sum
    }

    /// XORs the key stream over `data` in place (encrypts or decrypts).
    ///
    /// Calls may split the stream anywhere: `apply(a); apply(b)` equals
    /// `apply(a ++ b)`.
    pub fn apply(&mut self, data: &mut [u8]) {
        let mut data = data;
        while self.pending_len > 0 {
            let Some((byte, rest)) = data.split_first_mut() else {
                return;
            };
            *byte ^= self.pending as u8;
            self.pending >>= 8;
            self.pending_len -= 1;
            data = rest;
        }

        let mut chunks = data.chunks_exact_mut(4);
        for chunk in &mut chunks {
            let key = self.next_word().to_le_bytes();
            for (b, k) in chunk.iter_mut().zip(key) {
                *b ^= k;
            }
        }

        let tail = chunks.into_remainder();
        if !tail.is_empty() {
            let mut key = self.next_word();
            for b in tail.iter_mut() {
                *b ^= key as u8;
                key >>= 8;
            }
            self.pending = key;
            // tail.len() is 1..=3.
            self.pending_len = 4 - tail.len() as u8;
        }
    }

    /// Like [`Pike::apply`] but returns a new buffer, leaving `data` intact.
    #[must_use]
    pub fn apply_copy(&mut self, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        self.apply(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
