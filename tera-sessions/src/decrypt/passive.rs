//! A connection read passively: the plain-text handshake, the choice of key
//! generation, then both directions decrypted.
//!
//! The server sends `01 00 00 00`, then its two keys; the client its two
//! keys: 260 bytes of the server's stream and 256 of the client's (the
//! order between directions needs no check: each direction's stream is in
//! order). Both generations' client ciphers are derived; the client's first
//! packet header must carry opcode 19900 (`C_CHECK_VERSION`) under one of
//! them, and that one is kept. A connection that fails any of this is not
//! a TERA session (or cannot be read) and is left alone.

use tera_net::{Direction, HELLO, KEY_LEN, KeyGeneration, Pike, ServerSeed, SessionKeys};

use super::{Framer, OpcodeSet, Output};

/// `C_CHECK_VERSION`'s opcode, the same in every version seen.
const C_CHECK_VERSION: u16 = 19900;

/// The server's handshake bytes: hello and two keys.
const SERVER_HANDSHAKE: usize = HELLO.len() + 2 * KEY_LEN;

/// The client's handshake bytes: two keys.
const CLIENT_HANDSHAKE: usize = 2 * KEY_LEN;

/// Bytes of a direction kept after its handshake until the key generation
/// is chosen: the server sends nothing before the client's first packet,
/// but a capture may deliver its bytes first (the client's first segment
/// captured late).
pub(crate) const MAX_EARLY: usize = 64 * 1024;

/// Pieces of a direction kept after its handshake until the key
/// generation is chosen.
const MAX_EARLY_PIECES: usize = 1024;

/// Why a connection is not read as a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Its server's stream does not start with `01 00 00 00`.
    NotTera,
    /// Bytes of the handshake, or of the client's first header, were lost.
    HandshakeLost,
    /// No key generation gives `C_CHECK_VERSION` first.
    NoCheckVersion,
    /// A direction sent more than [`MAX_EARLY`] bytes (or
    /// [`MAX_EARLY_PIECES`] pieces) before the generation could be chosen.
    EarlyBytes,
}

/// Where a passive reading stands.
#[derive(Debug)]
pub(crate) enum Progress {
    /// Still reading the handshake or choosing the generation.
    Pending,
    /// Decrypting, with this generation (reported once, by the call that
    /// chose it).
    Started(KeyGeneration),
    /// Decrypting.
    Running,
    /// Not read (reported once, by the call that refused).
    Refused(Refusal),
    /// Refused earlier.
    Ignored,
}

/// What a key generation derives before it is chosen.
struct Candidate {
    generation: KeyGeneration,
    client: Pike,
    server: ServerSeed,
}

/// Bytes after the handshake, kept until the generation is chosen.
#[derive(Debug)]
enum Early {
    Data(Vec<u8>),
    Lost(u64),
}

/// One direction while the session starts.
#[derive(Debug, Default)]
struct Side {
    /// Its handshake bytes so far.
    handshake: Vec<u8>,
    /// What came after them.
    early: Vec<Early>,
    early_bytes: usize,
}

impl Side {
    fn handshake_done(&self, need: usize) -> bool {
        self.handshake.len() >= need
    }
}

enum Phase {
    /// Reading the handshakes; choosing the generation once they are whole.
    Starting {
        /// Client to server, server to client.
        sides: Box<[Side; 2]>,
        /// Both generations' client ciphers, once the keys are known.
        candidates: Option<Box<[Candidate; 2]>>,
    },
    Running(Box<[Framer; 2]>),
    Ignored,
}

impl core::fmt::Debug for Phase {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Phase::Starting { .. } => "Starting",
            Phase::Running(_) => "Running",
            Phase::Ignored => "Ignored",
        })
    }
}

/// A connection read passively (see the module docs).
#[derive(Debug)]
pub(crate) struct Passive {
    phase: Phase,
}

impl Default for Passive {
    fn default() -> Self {
        Passive {
            phase: Phase::Starting {
                sides: Box::default(),
                candidates: None,
            },
        }
    }
}

fn index(dir: Direction) -> usize {
    match dir {
        Direction::ClientToServer => 0,
        Direction::ServerToClient => 1,
    }
}

/// The handshake bytes a direction sends.
fn handshake_len(dir: Direction) -> usize {
    match dir {
        Direction::ClientToServer => CLIENT_HANDSHAKE,
        Direction::ServerToClient => SERVER_HANDSHAKE,
    }
}

impl Passive {
    /// A connection that is not read.
    pub(crate) fn ignored() -> Passive {
        Passive {
            phase: Phase::Ignored,
        }
    }

    /// Whether the connection is not read.
    pub(crate) fn is_ignored(&self) -> bool {
        matches!(self.phase, Phase::Ignored)
    }

    /// The framers, once running.
    pub(crate) fn framers(&self) -> Option<&[Framer; 2]> {
        match &self.phase {
            Phase::Running(framers) => Some(framers),
            _ => None,
        }
    }

    fn refuse(&mut self, why: Refusal) -> Progress {
        self.phase = Phase::Ignored;
        Progress::Refused(why)
    }

    /// The next bytes of direction `dir`.
    pub(crate) fn data(
        &mut self,
        dir: Direction,
        bytes: &[u8],
        known: Option<&OpcodeSet>,
        out: &mut impl FnMut(Direction, Output),
    ) -> Progress {
        let sides = match &mut self.phase {
            Phase::Running(framers) => {
                if let Some(framer) = framers.get_mut(index(dir)) {
                    framer.data(bytes, known, &mut |o| out(dir, o));
                }
                return Progress::Running;
            }
            Phase::Ignored => return Progress::Ignored,
            Phase::Starting { sides, .. } => sides,
        };
        let Some(side) = sides.get_mut(index(dir)) else {
            return Progress::Pending;
        };
        let need = handshake_len(dir);
        let n = need.saturating_sub(side.handshake.len()).min(bytes.len());
        let (now, rest) = bytes.split_at(n);
        side.handshake.extend_from_slice(now);
        if dir == Direction::ServerToClient
            && side.handshake.len() >= HELLO.len()
            && side.handshake.get(..HELLO.len()) != Some(&HELLO[..])
        {
            return self.refuse(Refusal::NotTera);
        }
        if !rest.is_empty() {
            side.early_bytes += rest.len();
            side.early.push(Early::Data(rest.to_vec()));
        }
        self.start(known, out)
    }

    /// The next `len` bytes of direction `dir` were not seen.
    pub(crate) fn lost(
        &mut self,
        dir: Direction,
        len: u64,
        out: &mut impl FnMut(Direction, Output),
    ) -> Progress {
        let sides = match &mut self.phase {
            Phase::Running(framers) => {
                if let Some(framer) = framers.get_mut(index(dir)) {
                    framer.lost(len, &mut |o| out(dir, o));
                }
                return Progress::Running;
            }
            Phase::Ignored => return Progress::Ignored,
            Phase::Starting { sides, .. } => sides,
        };
        let Some(side) = sides.get_mut(index(dir)) else {
            return Progress::Pending;
        };
        if !side.handshake_done(handshake_len(dir)) {
            return self.refuse(Refusal::HandshakeLost);
        }
        side.early.push(Early::Lost(len));
        self.start(None, out)
    }

    /// Both directions ended.
    pub(crate) fn finish(
        &mut self,
        known: Option<&OpcodeSet>,
        out: &mut impl FnMut(Direction, Output),
    ) {
        if let Phase::Running(framers) = &mut self.phase {
            let [client, server] = &mut **framers;
            client.finish(known, &mut |o| out(Direction::ClientToServer, o));
            server.finish(known, &mut |o| out(Direction::ServerToClient, o));
        }
    }

    /// Moves the start on: derives both generations' ciphers once both
    /// handshakes are whole, and chooses one once the client's first
    /// header is there.
    fn start(
        &mut self,
        known: Option<&OpcodeSet>,
        out: &mut impl FnMut(Direction, Output),
    ) -> Progress {
        let Phase::Starting { sides, candidates } = &mut self.phase else {
            return Progress::Ignored;
        };
        if sides
            .iter()
            .any(|s| s.early_bytes > MAX_EARLY || s.early.len() > MAX_EARLY_PIECES)
        {
            return self.refuse(Refusal::EarlyBytes);
        }
        let [client, server] = &**sides;
        if !client.handshake_done(CLIENT_HANDSHAKE) || !server.handshake_done(SERVER_HANDSHAKE) {
            return Progress::Pending;
        }
        let candidates =
            candidates.get_or_insert_with(|| derive(&client.handshake, &server.handshake));
        // The client's first header, if it came whole before any loss.
        let mut head = [0u8; 4];
        let mut have = 0;
        for piece in &client.early {
            match piece {
                Early::Data(bytes) => {
                    for (dst, src) in head.iter_mut().skip(have).zip(bytes) {
                        *dst = *src;
                        have += 1;
                    }
                }
                Early::Lost(_) if have < head.len() => return self.refuse(Refusal::HandshakeLost),
                Early::Lost(_) => {}
            }
        }
        if have < head.len() {
            return Progress::Pending;
        }
        let Some(chosen) = candidates.iter().position(|c| {
            let mut header = head;
            c.client.clone().apply(&mut header);
            u16::from_le_bytes([header[2], header[3]]) == C_CHECK_VERSION
                && usize::from(u16::from_le_bytes([header[0], header[1]])) >= 4
        }) else {
            return self.refuse(Refusal::NoCheckVersion);
        };
        let Phase::Starting { sides, candidates } =
            std::mem::replace(&mut self.phase, Phase::Ignored)
        else {
            return Progress::Ignored;
        };
        let Some(candidates) = candidates else {
            return Progress::Ignored;
        };
        let [first, second] = *candidates;
        let chosen = if chosen == 0 { first } else { second };
        let mut framers = Box::new([
            Framer::new(chosen.client),
            Framer::new(chosen.server.cipher()),
        ]);
        let [client_side, server_side] = *sides;
        let [to_server, to_client] = &mut *framers;
        for (framer, side, dir) in [
            (to_server, client_side, Direction::ClientToServer),
            (to_client, server_side, Direction::ServerToClient),
        ] {
            let mut emit = |o| out(dir, o);
            for piece in side.early {
                match piece {
                    Early::Data(bytes) => framer.data(&bytes, known, &mut emit),
                    Early::Lost(len) => framer.lost(len, &mut emit),
                }
            }
        }
        self.phase = Phase::Running(framers);
        Progress::Started(chosen.generation)
    }
}

/// Both generations' client ciphers from the handshake bytes.
fn derive(client: &[u8], server: &[u8]) -> Box<[Candidate; 2]> {
    let key = |bytes: &[u8], at: usize| -> [u8; KEY_LEN] {
        let mut key = [0; KEY_LEN];
        if let Some(src) = bytes.get(at..at + KEY_LEN) {
            key.copy_from_slice(src);
        }
        key
    };
    let keys = SessionKeys {
        client_key1: key(client, 0),
        server_key1: key(server, HELLO.len()),
        client_key2: key(client, KEY_LEN),
        server_key2: key(server, HELLO.len() + KEY_LEN),
    };
    Box::new(KeyGeneration::ALL.map(|generation| {
        let (client, server) = keys.derive_client(generation);
        Candidate {
            generation,
            client,
            server,
        }
    }))
}
