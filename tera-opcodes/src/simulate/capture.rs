//! A played session written as a capture: the TCP connection, the TERA
//! handshake with keys from the seed, every packet encrypted by the
//! session cipher and cut into segments, as a passive capture of the game
//! would hold it.

use std::io::{self, Write};
use std::net::SocketAddr;

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use tera_net::{Direction, HandshakeStep, KEY_LEN, Session as Cipher, SessionKeys};
use tera_sessions::capture::{LinkKind, PcapWriter, Segment};
use tera_sessions::{Event, Timestamp};

use super::Session;

/// The largest payload of one segment.
const MSS: usize = 1460;

/// One side of the connection: its address and the next sequence number.
struct End {
    addr: SocketAddr,
    seq: u32,
}

/// Writes what one connection holds.
struct Wire<W: Write> {
    pcap: PcapWriter<W>,
    client: End,
    server: End,
}

impl<W: Write> Wire<W> {
    /// Sends `payload` from `dir`'s side in segments of at most [`MSS`].
    fn send(
        &mut self,
        time: Timestamp,
        dir: Direction,
        payload: &[u8],
        flags: (bool, bool),
    ) -> io::Result<()> {
        let (from, to) = match dir {
            Direction::ClientToServer => (&mut self.client, &self.server),
            Direction::ServerToClient => (&mut self.server, &self.client),
        };
        let (syn, fin) = flags;
        let chunks: Vec<&[u8]> = if payload.is_empty() {
            vec![&[]]
        } else {
            payload.chunks(MSS).collect()
        };
        for chunk in chunks {
            self.pcap.write_segment(&Segment {
                time,
                source: from.addr,
                destination: to.addr,
                seq: from.seq,
                ack: (!syn || dir == Direction::ServerToClient).then_some(to.seq),
                syn,
                fin,
                rst: false,
                payload: chunk,
            })?;
            from.seq = from
                .seq
                .wrapping_add(chunk.len() as u32 + u32::from(syn) + u32::from(fin));
        }
        Ok(())
    }
}

/// Writes `session` as a pcap file (Ethernet frames, IPv4) of one TCP
/// connection between a client and a game server, with handshake keys
/// drawn from `seed`.
///
/// # Errors
/// I/O errors of `out`.
pub fn write_capture<W: Write>(session: &Session, seed: u64, out: W) -> io::Result<W> {
    let mut rng = XorShiftRng::seed_from_u64(seed ^ 0x6b65_7973);
    let mut key = || -> [u8; KEY_LEN] { std::array::from_fn(|_| rng.random::<u8>()) };
    let keys = SessionKeys {
        client_key1: key(),
        server_key1: key(),
        client_key2: key(),
        server_key2: key(),
    };
    let start = session.events.first().map_or(Timestamp(0), Event::time);
    let mut wire = Wire {
        pcap: PcapWriter::new(out, LinkKind::Ethernet)?,
        client: End {
            addr: SocketAddr::from(([10, 0, 0, 2], 50_123)),
            seq: 0x1000_0000,
        },
        server: End {
            addr: SocketAddr::from(([10, 1, 0, 1], 7_801)),
            seq: 0x7000_0000,
        },
    };
    wire.send(start, Direction::ClientToServer, &[], (true, false))?;
    wire.send(start, Direction::ServerToClient, &[], (true, false))?;
    for step in HandshakeStep::ALL {
        wire.send(start, step.sender(), step.message(&keys), (false, false))?;
    }
    let mut cipher = Cipher::new(&keys);
    let mut end = start;
    for event in &session.events {
        if let Event::Packet(p) = event {
            let mut bytes = p.bytes.clone();
            cipher.apply(p.direction, &mut bytes);
            wire.send(p.time, p.direction, &bytes, (false, false))?;
            end = p.time;
        }
    }
    wire.send(end, Direction::ClientToServer, &[], (false, true))?;
    wire.send(end, Direction::ServerToClient, &[], (false, true))?;
    wire.pcap.into_inner()
}
