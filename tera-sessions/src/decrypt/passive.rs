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

/// Bytes the server may send after its handshake before the client's first
/// packet decides the key generation (servers send nothing then).
const MAX_EARLY_SERVER: usize = 4096;

/// Why a connection is not read as a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Its server's stream does not start with `01 00 00 00`.
    NotTera,
    /// Bytes of the handshake, or of the client's first header, were lost.
    HandshakeLost,
    /// No key generation gives `C_CHECK_VERSION` first.
    NoCheckVersion,
    /// The server sent more than [`MAX_EARLY_SERVER`] bytes before the
    /// client's first packet.
    EarlyServer,
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

/// What a chosen-generation candidate holds.
struct Candidate {
    generation: KeyGeneration,
    client: Pike,
    server: ServerSeed,
}

/// Early server bytes, kept until the generation is chosen.
#[derive(Debug)]
enum Early {
    Data(Vec<u8>),
    Lost(u64),
}

enum Phase {
    Handshake {
        server: Vec<u8>,
        client: Vec<u8>,
    },
    Choosing {
        candidates: Box<[Candidate; 2]>,
        client: Vec<u8>,
        server: Vec<Early>,
        server_bytes: usize,
    },
    Running(Box<[Framer; 2]>),
    Ignored,
}

impl core::fmt::Debug for Phase {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Phase::Handshake { .. } => "Handshake",
            Phase::Choosing { .. } => "Choosing",
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
            phase: Phase::Handshake {
                server: Vec::new(),
                client: Vec::new(),
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
        match &mut self.phase {
            Phase::Running(framers) => {
                if let Some(framer) = framers.get_mut(index(dir)) {
                    framer.data(bytes, known, &mut |o| out(dir, o));
                }
                Progress::Running
            }
            Phase::Ignored => Progress::Ignored,
            Phase::Handshake { server, client } => {
                let (buf, need) = match dir {
                    Direction::ServerToClient => (server, SERVER_HANDSHAKE),
                    Direction::ClientToServer => (client, CLIENT_HANDSHAKE),
                };
                let n = (need - buf.len()).min(bytes.len());
                let (now, rest) = bytes.split_at(n);
                buf.extend_from_slice(now);
                if dir == Direction::ServerToClient
                    && buf.len() >= HELLO.len()
                    && buf.get(..HELLO.len()) != Some(&HELLO[..])
                {
                    return self.refuse(Refusal::NotTera);
                }
                self.after_handshake();
                if rest.is_empty() {
                    Progress::Pending
                } else {
                    self.data(dir, rest, known, out)
                }
            }
            Phase::Choosing {
                client,
                server,
                server_bytes,
                ..
            } => match dir {
                Direction::ClientToServer => {
                    client.extend_from_slice(bytes);
                    self.choose(known, out)
                }
                Direction::ServerToClient => {
                    *server_bytes += bytes.len();
                    if *server_bytes > MAX_EARLY_SERVER {
                        return self.refuse(Refusal::EarlyServer);
                    }
                    server.push(Early::Data(bytes.to_vec()));
                    Progress::Pending
                }
            },
        }
    }

    /// The next `len` bytes of direction `dir` were not seen.
    pub(crate) fn lost(
        &mut self,
        dir: Direction,
        len: u64,
        out: &mut impl FnMut(Direction, Output),
    ) -> Progress {
        match &mut self.phase {
            Phase::Running(framers) => {
                if let Some(framer) = framers.get_mut(index(dir)) {
                    framer.lost(len, &mut |o| out(dir, o));
                }
                Progress::Running
            }
            Phase::Ignored => Progress::Ignored,
            Phase::Handshake { .. } => self.refuse(Refusal::HandshakeLost),
            Phase::Choosing { server, .. } => match dir {
                Direction::ClientToServer => self.refuse(Refusal::HandshakeLost),
                Direction::ServerToClient => {
                    server.push(Early::Lost(len));
                    Progress::Pending
                }
            },
        }
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

    /// Moves on to choosing once both handshakes are whole.
    fn after_handshake(&mut self) {
        let Phase::Handshake { server, client } = &self.phase else {
            return;
        };
        if server.len() < SERVER_HANDSHAKE || client.len() < CLIENT_HANDSHAKE {
            return;
        }
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
        let candidates = KeyGeneration::ALL.map(|generation| {
            let (client, server) = keys.derive_client(generation);
            Candidate {
                generation,
                client,
                server,
            }
        });
        self.phase = Phase::Choosing {
            candidates: Box::new(candidates),
            client: Vec::new(),
            server: Vec::new(),
            server_bytes: 0,
        };
    }

    /// Chooses the generation once the client's first header is there, and
    /// decrypts what waited.
    fn choose(
        &mut self,
        known: Option<&OpcodeSet>,
        out: &mut impl FnMut(Direction, Output),
    ) -> Progress {
        let Phase::Choosing {
            candidates, client, ..
        } = &mut self.phase
        else {
            return Progress::Pending;
        };
        let Some(head) = client.first_chunk::<4>() else {
            return Progress::Pending;
        };
        let chosen = candidates.iter().position(|c| {
            let mut header = *head;
            c.client.clone().apply(&mut header);
            u16::from_le_bytes([header[2], header[3]]) == C_CHECK_VERSION
                && usize::from(u16::from_le_bytes([header[0], header[1]])) >= 4
        });
        let Some(chosen) = chosen else {
            return self.refuse(Refusal::NoCheckVersion);
        };
        let Phase::Choosing {
            candidates,
            client,
            server,
            ..
        } = std::mem::replace(&mut self.phase, Phase::Ignored)
        else {
            return Progress::Pending;
        };
        let [first, second] = *candidates;
        let Candidate {
            generation,
            client: client_cipher,
            server: seed,
        } = if chosen == 0 { first } else { second };
        let mut framers = Box::new([Framer::new(client_cipher), Framer::new(seed.cipher())]);
        let [to_server, to_client] = &mut *framers;
        to_server.data(&client, known, &mut |o| out(Direction::ClientToServer, o));
        for early in server {
            let mut emit = |o| out(Direction::ServerToClient, o);
            match early {
                Early::Data(bytes) => to_client.data(&bytes, known, &mut emit),
                Early::Lost(len) => to_client.lost(len, &mut emit),
            }
        }
        self.phase = Phase::Running(framers);
        Progress::Started(generation)
    }
}
