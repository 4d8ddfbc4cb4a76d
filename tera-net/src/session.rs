//! Key derivation and the two ciphers of a session, for both generations
//! of key constants.

use crate::Direction;
use crate::pike::{KEY_LEN, Pike};

/// The four 128-byte keys exchanged in the handshake.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionKeys {
    /// First key sent by the client.
    pub client_key1: [u8; KEY_LEN],
    /// First key sent by the server.
    pub server_key1: [u8; KEY_LEN],
    /// Second key sent by the client.
    pub client_key2: [u8; KEY_LEN],
    /// Second key sent by the server.
    pub server_key2: [u8; KEY_LEN],
}

impl core::fmt::Debug for SessionKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SessionKeys").finish_non_exhaustive()
    }
}

/// Moves the first `n mod 128` bytes to the end.
fn rotl(key: &[u8; KEY_LEN], n: usize) -> [u8; KEY_LEN] {
    let mut out = *key;
    out.rotate_left(n % KEY_LEN);
    out
}

/// Moves the last `n mod 128` bytes to the front.
fn rotr(key: &[u8; KEY_LEN], n: usize) -> [u8; KEY_LEN] {
    let mut out = *key;
    out.rotate_right(n % KEY_LEN);
    out
}

/// Which constants derive a session's ciphers from its handshake keys.
///
/// Both generations put the same rotations in the same places (see
/// [`SessionKeys::derive_with`]); only the amounts differ. A passive reader
/// tells them apart by the first client packet, which is `C_CHECK_VERSION`
/// (opcode 19900) in every version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyGeneration {
    /// Clients of major patch 45 and later: rotations 29, 67 and 41.
    #[default]
    Current,
    /// Clients before major patch 45: rotations 17, 31 and 79.
    Old,
}

impl KeyGeneration {
    /// Both generations, today's first.
    pub const ALL: [KeyGeneration; 2] = [KeyGeneration::Current, KeyGeneration::Old];

    /// The rotations `(client key 2 left, server key 1 right, server key 2
    /// right)`.
    #[must_use]
    pub const fn rotations(self) -> (usize, usize, usize) {
        match self {
            KeyGeneration::Current => (29, 67, 41),
            KeyGeneration::Old => (17, 31, 79),
        }
    }

    /// The generation a client of major patch `major` uses (the old
    /// constants before patch 45).
    #[must_use]
    pub const fn for_major_patch(major: u32) -> KeyGeneration {
        if major < 45 {
            KeyGeneration::Old
        } else {
            KeyGeneration::Current
        }
    }
}

/// The seed of the server to client cipher, the second half of a
/// derivation (see [`SessionKeys::derive_client`]).
#[derive(Clone)]
pub struct ServerSeed([u8; KEY_LEN]);

impl core::fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ServerSeed").finish_non_exhaustive()
    }
}

impl ServerSeed {
    /// The server to client cipher (cipher B).
    #[must_use]
    pub fn cipher(&self) -> Pike {
        Pike::new(&self.0)
    }
}

impl SessionKeys {
    /// Derives the two stream ciphers of today's key generation:
    /// `(client_to_server, server_to_client)`.
    #[must_use]
    pub fn derive(&self) -> (Pike, Pike) {
        self.derive_with(KeyGeneration::Current)
    }

    /// Derives the two stream ciphers of `generation`:
    /// `(client_to_server, server_to_client)`.
    ///
    /// With the rotations `(r1, r2, r3)` of the generation,
    /// `k = rotl(c2, r1) ^ rotr(s1, r2) ^ c1` seeds cipher A (client to
    /// server); A then encrypts `rotr(s2, r3)`, giving the seed of cipher B
    /// (server to client).
    #[must_use]
    pub fn derive_with(&self, generation: KeyGeneration) -> (Pike, Pike) {
        let (client_to_server, seed) = self.derive_client(generation);
        (client_to_server, seed.cipher())
    }

    /// The first half of [`derive_with`](SessionKeys::derive_with): cipher A,
    /// ready for the client's first byte, and the seed of cipher B. Seeding a
    /// cipher is most of a derivation's cost: a reader that tries both
    /// generations on the client's first bytes seeds B only for the one
    /// that fits.
    #[must_use]
    pub fn derive_client(&self, generation: KeyGeneration) -> (Pike, ServerSeed) {
        let (r1, r2, r3) = generation.rotations();
        let a_key = rotl(&self.client_key2, r1);
        let b_key = rotr(&self.server_key1, r2);
        let mut k = [0u8; KEY_LEN];
        for (((dst, a), b), c) in k.iter_mut().zip(a_key).zip(b_key).zip(self.client_key1) {
            *dst = a ^ b ^ c;
        }
        let mut cipher_a = Pike::new(&k);
        let mut k2 = rotr(&self.server_key2, r3);
        cipher_a.apply(&mut k2);
        (cipher_a, ServerSeed(k2))
    }
}

/// Both directions of an established session.
///
/// Client to server bytes use cipher A, server to client bytes cipher B.
/// The same `Session` decrypts what it sees on the wire; a client encrypts
/// with [`Direction::ClientToServer`] and a server with
/// [`Direction::ServerToClient`].
#[derive(Clone, Debug)]
pub struct Session {
    client_to_server: Pike,
    server_to_client: Pike,
}

impl Session {
    /// Derives both ciphers from the handshake keys, with today's key
    /// generation.
    #[must_use]
    pub fn new(keys: &SessionKeys) -> Self {
        Self::with_generation(keys, KeyGeneration::Current)
    }

    /// Derives both ciphers from the handshake keys with the constants of
    /// `generation`.
    #[must_use]
    pub fn with_generation(keys: &SessionKeys, generation: KeyGeneration) -> Self {
        let (client_to_server, server_to_client) = keys.derive_with(generation);
        Self {
            client_to_server,
            server_to_client,
        }
    }

    /// XORs the key stream of direction `dir` over `data` in place.
    pub fn apply(&mut self, dir: Direction, data: &mut [u8]) {
        self.cipher_mut(dir).apply(data);
    }

    /// The cipher of one direction.
    pub fn cipher_mut(&mut self, dir: Direction) -> &mut Pike {
        match dir {
            Direction::ClientToServer => &mut self.client_to_server,
            Direction::ServerToClient => &mut self.server_to_client,
        }
    }

    /// Splits into `(client_to_server, server_to_client)` ciphers.
    #[must_use]
    pub fn into_ciphers(self) -> (Pike, Pike) {
        (self.client_to_server, self.server_to_client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations() {
        let mut k = [0u8; KEY_LEN];
        for (i, b) in k.iter_mut().enumerate() {
            *b = i as u8;
        }
        assert_eq!(rotl(&k, 29)[0], 29);
        assert_eq!(rotl(&k, 29)[127], 28);
        assert_eq!(rotr(&k, 67)[0], 128 - 67);
        assert_eq!(rotr(&k, 67 + 128), rotr(&k, 67));
    }

    fn keys() -> SessionKeys {
        SessionKeys {
            client_key1: std::array::from_fn(|i| i as u8),
            server_key1: std::array::from_fn(|i| (i * 3) as u8),
            client_key2: std::array::from_fn(|i| (i * 7 + 1) as u8),
            server_key2: std::array::from_fn(|i| (i * 11 + 5) as u8),
        }
    }

    fn first_bytes(mut cipher: Pike) -> [u8; 16] {
        let mut out = [0u8; 16];
        cipher.apply(&mut out);
        out
    }

    #[test]
    fn generations_derive_different_ciphers() {
        let keys = keys();
        let (a_new, b_new) = keys.derive_with(KeyGeneration::Current);
        let (a_old, b_old) = keys.derive_with(KeyGeneration::Old);
        assert_ne!(first_bytes(a_new.clone()), first_bytes(a_old));
        assert_ne!(first_bytes(b_new.clone()), first_bytes(b_old));
        let (a, b) = keys.derive();
        assert_eq!(first_bytes(a), first_bytes(a_new));
        assert_eq!(first_bytes(b), first_bytes(b_new));
    }

    #[test]
    fn old_generation_is_the_rotations_17_31_79() {
        // The derivation written out with the old constants.
        let keys = keys();
        let mut k = [0u8; KEY_LEN];
        let (c2, s1) = (rotl(&keys.client_key2, 17), rotr(&keys.server_key1, 31));
        for i in 0..KEY_LEN {
            k[i] = c2[i] ^ s1[i] ^ keys.client_key1[i];
        }
        let mut a = Pike::new(&k);
        let mut k2 = rotr(&keys.server_key2, 79);
        a.apply(&mut k2);
        let (got_a, got_b) = keys.derive_with(KeyGeneration::Old);
        assert_eq!(first_bytes(got_a), first_bytes(a));
        assert_eq!(first_bytes(got_b), first_bytes(Pike::new(&k2)));
    }

    #[test]
    fn major_patch_picks_the_generation() {
        assert_eq!(KeyGeneration::for_major_patch(44), KeyGeneration::Old);
        assert_eq!(KeyGeneration::for_major_patch(45), KeyGeneration::Current);
        assert_eq!(KeyGeneration::for_major_patch(100), KeyGeneration::Current);
    }
}
