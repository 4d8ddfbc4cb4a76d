//! A scripted TERA session: keys, then packets both ways, the client's
//! first being `C_CHECK_VERSION`. Deterministic from a seed, so that the
//! program that plays it over a real socket (the fixture maker,
//! `examples/scripted_session.rs`) and the tests that read its capture
//! agree on every byte without a list of them.
#![allow(dead_code)]

use tera_net::{Direction, HELLO, KEY_LEN, KeyGeneration, Session, SessionKeys};

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A whole packet: header then `body`.
pub fn packet(opcode: u16, body: &[u8]) -> Vec<u8> {
    let mut p = ((body.len() + 4) as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&opcode.to_le_bytes());
    p.extend_from_slice(body);
    p
}

/// A session to play.
pub struct Script {
    pub keys: SessionKeys,
    pub generation: KeyGeneration,
    /// Packets in the order they are sent, with who sends each.
    pub packets: Vec<(Direction, Vec<u8>)>,
}

/// `count` packets after `C_CHECK_VERSION`: mostly small, some of several
/// KiB (so that they straddle segments), now and then a run in one
/// direction; bodies random bytes.
pub fn script(seed: u64, generation: KeyGeneration, count: usize) -> Script {
    script_of(seed, generation, count, 1000, 50_000)
}

/// [`script`] with opcodes drawn from `kinds` codes from `base` (a real
/// session uses a few hundred, over and over).
pub fn script_of(
    seed: u64,
    generation: KeyGeneration,
    count: usize,
    base: u16,
    kinds: u64,
) -> Script {
    let mut rng = Rng(seed);
    let mut key = || -> [u8; KEY_LEN] { std::array::from_fn(|_| rng.next() as u8) };
    let keys = SessionKeys {
        client_key1: key(),
        server_key1: key(),
        client_key2: key(),
        server_key2: key(),
    };
    let mut rng = Rng(seed ^ 0x5e55_1015);
    let mut packets = vec![(Direction::ClientToServer, check_version(&mut rng))];
    for _ in 0..count {
        let dir = if rng.below(2) == 0 {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        let len = match rng.below(10) {
            0 => 2000 + rng.below(8000),
            1 => 0,
            _ => rng.below(200),
        } as usize;
        let body: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let opcode = base + rng.below(kinds) as u16;
        packets.push((dir, packet(opcode, &body)));
    }
    Script {
        keys,
        generation,
        packets,
    }
}

/// `C_CHECK_VERSION` (opcode 19900) as clients send it first: two
/// (index, value) entries.
fn check_version(rng: &mut Rng) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&2u16.to_le_bytes());
    body.extend_from_slice(&8u16.to_le_bytes());
    for (i, value) in [(0u32, 366_000 + rng.below(1000) as u32), (1, 0x0102_0304)] {
        let here = 8 + 12 * i as u16;
        let next = if i == 0 { here + 12 } else { 0 };
        body.extend_from_slice(&here.to_le_bytes());
        body.extend_from_slice(&next.to_le_bytes());
        body.extend_from_slice(&i.to_le_bytes());
        body.extend_from_slice(&value.to_le_bytes());
    }
    packet(19900, &body)
}

impl Script {
    /// The packets one direction sends, in order.
    pub fn sent(&self, dir: Direction) -> Vec<Vec<u8>> {
        self.packets
            .iter()
            .filter(|(d, _)| *d == dir)
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// The handshake bytes each side sends: (client, server).
    pub fn handshake(&self) -> (Vec<u8>, Vec<u8>) {
        let k = &self.keys;
        let client = [&k.client_key1[..], &k.client_key2[..]].concat();
        let server = [&HELLO[..], &k.server_key1[..], &k.server_key2[..]].concat();
        (client, server)
    }

    /// Each packet encrypted as its sender sends it, in order.
    pub fn encrypted(&self) -> Vec<(Direction, Vec<u8>)> {
        let mut session = Session::with_generation(&self.keys, self.generation);
        self.packets
            .iter()
            .map(|(dir, p)| {
                let mut wire = p.clone();
                session.apply(*dir, &mut wire);
                (*dir, wire)
            })
            .collect()
    }
}
