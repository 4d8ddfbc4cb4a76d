//! Key derivation and the two ciphers of a session.

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

impl SessionKeys {
    /// Derives the two stream ciphers: `(client_to_server, server_to_client)`.
    ///
    /// `k = rotl(c2, 29) ^ rotr(s1, 67) ^ c1` seeds cipher A (client to
    /// server); A then encrypts `rotr(s2, 41)`, giving the seed of cipher B
    /// (server to client).
    #[must_use]
    pub fn derive(&self) -> (Pike, Pike) {
        let a_key = rotl(&self.client_key2, 29);
        let b_key = rotr(&self.server_key1, 67);
        let mut k = [0u8; KEY_LEN];
        for (((dst, a), b), c) in k.iter_mut().zip(a_key).zip(b_key).zip(self.client_key1) {
            *dst = a ^ b ^ c;
        }
        let mut cipher_a = Pike::new(&k);
        let mut k2 = rotr(&self.server_key2, 41);
        cipher_a.apply(&mut k2);
        let cipher_b = Pike::new(&k2);
        (cipher_a, cipher_b)
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
    /// Derives both ciphers from the handshake keys.
    #[must_use]
    pub fn new(keys: &SessionKeys) -> Self {
        let (client_to_server, server_to_client) = keys.derive();
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
}
