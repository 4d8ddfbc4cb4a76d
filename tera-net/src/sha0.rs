//! SHA-0, the 1993 predecessor of SHA-1.
//!
//! SHA-0 is SHA-1 without the one-bit left rotation in the message schedule.
//! It is cryptographically broken and is implemented here only because the
//! PIKE key schedule (see [`crate::pike`]) is built on it.

/// Length of a SHA-0 digest in bytes.
pub const DIGEST_LEN: usize = 20;

const BLOCK_LEN: usize = 64;

const INITIAL_STATE: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// Computes the SHA-0 state words of `data` (the five 32-bit words `h0..h4`).
///
/// Standard hex output writes these words big-endian ([`sha0_be`]); PIKE
/// writes them little-endian ([`sha0_le`]).
#[must_use]
pub fn sha0_words(data: &[u8]) -> [u32; 5] {
    let mut state = INITIAL_STATE;
    let mut blocks = data.chunks_exact(BLOCK_LEN);
    for block in &mut blocks {
        compress(&mut state, block);
    }
    let tail = blocks.remainder();

    // Padding: 0x80, zeros, then the message length in bits (u64 big-endian),
    // filling one or two final blocks.
    let mut last = [0u8; 2 * BLOCK_LEN];
    for (dst, src) in last.iter_mut().zip(tail) {
        *dst = *src;
    }
    if let Some(b) = last.get_mut(tail.len()) {
        *b = 0x80;
    }
    let final_len = if tail.len() < BLOCK_LEN - 8 {
        BLOCK_LEN
    } else {
        2 * BLOCK_LEN
    };
    let bit_len = (data.len() as u64).wrapping_mul(8);
    if let Some(len_field) = last.get_mut(final_len - 8..final_len) {
        len_field.copy_from_slice(&bit_len.to_be_bytes());
    }
    for block in last.chunks_exact(BLOCK_LEN).take(final_len / BLOCK_LEN) {
        compress(&mut state, block);
    }
    state
}

/// SHA-0 digest of `data` in the standard byte order (words big-endian).
#[must_use]
pub fn sha0_be(data: &[u8]) -> [u8; DIGEST_LEN] {
    words_to_bytes(sha0_words(data), u32::to_be_bytes)
}

/// SHA-0 digest of `data` with each state word written little-endian, the
/// form PIKE uses.
#[must_use]
pub fn sha0_le(data: &[u8]) -> [u8; DIGEST_LEN] {
    words_to_bytes(sha0_words(data), u32::to_le_bytes)
}

fn words_to_bytes(words: [u32; 5], to_bytes: fn(u32) -> [u8; 4]) -> [u8; DIGEST_LEN] {
    let mut out = [0u8; DIGEST_LEN];
    for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&to_bytes(word));
    }
    out
}

/// One 64-byte block. `block` is always exactly 64 bytes (callers use
/// `chunks_exact`); a shorter slice would simply leave words at zero.
fn compress(state: &mut [u32; 5], block: &[u8]) {
    // Rolling 16-word window of the message schedule.
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
        if let Ok(bytes) = <[u8; 4]>::try_from(bytes) {
            *word = u32::from_be_bytes(bytes);
        }
    }

    let [mut a, mut b, mut c, mut d, mut e] = *state;
    for t in 0..80 {
        let wt = if t < 16 {
            w[0]
        } else {
            // SHA-0: W[t] = W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16] (no rotation).
            // With the window holding W[t-16..t], those sit at 13, 8, 2, 0.
            let next = w[13] ^ w[8] ^ w[2] ^ w[0];
            w[0] = next;
            next
        };
        w.rotate_left(1);
        let (f, k) = match t {
            0..20 => ((b & c) | (!b & d), 0x5a82_7999),
            20..40 => (b ^ c ^ d, 0x6ed9_eba1),
            40..60 => ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc),
            _ => (b ^ c ^ d, 0xca62_c1d6),
        };
        let temp = a
            .rotate_left(5)
            .wrapping_add(f)
            .wrapping_add(e)
            .wrapping_add(k)
            .wrapping_add(wt);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = temp;
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn abc() {
        assert_eq!(
            hex(&sha0_be(b"abc")),
            "0164b8a914cd2a5e74c4f7ff082c4d97f1edf880"
        );
    }

    #[test]
    fn le_is_wordwise_byte_swap_of_be() {
        let be = sha0_be(b"abc");
        let le = sha0_le(b"abc");
        for (x, y) in be.chunks_exact(4).zip(le.chunks_exact(4)) {
            let mut r = x.to_vec();
            r.reverse();
            assert_eq!(r, y);
        }
    }

    #[test]
    fn two_block_message() {
        // Known SHA-0 answer for the FIPS 180 two-block message.
        assert_eq!(
            hex(&sha0_be(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "d2516ee1acfa5baf33dfc1c471e438449ef134c8"
        );
    }

    #[test]
    fn padding_boundaries_do_not_panic() {
        for len in 0..200 {
            let data = vec![0xa5u8; len];
            let _ = sha0_words(&data);
        }
    }
}
