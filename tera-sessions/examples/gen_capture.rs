//! Writes a large capture of many interleaved TERA sessions, for the
//! capture bench (`benches/capture.rs`); the file is not committed.
//!
//! ```text
//! cargo run --release -p tera-sessions --example gen_capture -- OUT.pcap [MEGABYTES] [SESSIONS_AT_ONCE] [VECTORS MAP]
//! ```
//!
//! With `VECTORS` (a JSONL file of packets: `def` and `hex`, as
//! `../shared/vectors/corpus.jsonl`) and `MAP` (a protocol map, as
//! `../shared/tera-data/maps/protocol.365100.map`), the packets are real
//! ones: those of the vectors whose name the map has, with the map's
//! opcodes, after a `C_CHECK_VERSION` announcing the map's revision; so
//! that a reader with the defs names and decodes them. Without, their
//! bodies are random bytes under opcodes 20000 to 21999.
//!
//! Sessions (half with the old key generation) run `SESSIONS_AT_ONCE` at a
//! time (default 32) until the file holds `MEGABYTES` (default 1100), each
//! with its own addresses, keys and a few MB of packets: mostly small
//! (20 to 300 bytes), some of several KiB, in bursts one way, in segments
//! of at most 1460 bytes, acknowledged by the peer now and then, over
//! Ethernet and IPv4. A summary (`OUT.pcap.counts`) gives the sessions and
//! the packets each way, for the bench to check what it reads.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::SocketAddr;
use std::process::ExitCode;

use tera_net::{Direction, HELLO, KeyGeneration, Session, SessionKeys};
use tera_sessions::Timestamp;
use tera_sessions::capture::{LinkKind, PcapWriter, Segment};

const MSS: usize = 1460;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One session being written.
struct Live {
    ends: [SocketAddr; 2],
    /// Next sequence number, by direction (client first).
    seq: [u32; 2],
    session: Session,
    /// Bytes it still sends.
    budget: u64,
}

struct Generator<W: Write> {
    out: PcapWriter<W>,
    rng: Rng,
    time: i64,
    bytes: u64,
    packets: [u64; 2],
    /// Real packets to send, by direction (client first), and the
    /// revision their map is of.
    real: Option<([Vec<Vec<u8>>; 2], u32)>,
}

fn index(dir: Direction) -> usize {
    usize::from(dir == Direction::ServerToClient)
}

impl<W: Write> Generator<W> {
    fn segment(
        &mut self,
        live: &mut Live,
        dir: Direction,
        payload: &[u8],
        syn: bool,
        fin: bool,
    ) -> std::io::Result<()> {
        let i = index(dir);
        let ack = (!(syn && i == 0)).then(|| live.seq[1 - i]);
        self.time += 1 + self.rng.below(20_000) as i64;
        self.out.write_segment(&Segment {
            time: Timestamp(self.time),
            source: live.ends[i],
            destination: live.ends[1 - i],
            seq: live.seq[i],
            ack,
            syn,
            fin,
            rst: false,
            payload,
        })?;
        live.seq[i] = live.seq[i].wrapping_add(payload.len() as u32 + u32::from(syn || fin));
        self.bytes += 16 + 54 + payload.len() as u64;
        Ok(())
    }

    fn start(&mut self, n: u32, budget: u64) -> std::io::Result<Live> {
        let generation = if n.is_multiple_of(2) {
            KeyGeneration::Current
        } else {
            KeyGeneration::Old
        };
        let mut key = || -> [u8; 128] { std::array::from_fn(|_| self.rng.next() as u8) };
        let keys = SessionKeys {
            client_key1: key(),
            server_key1: key(),
            client_key2: key(),
            server_key2: key(),
        };
        let client =
            SocketAddr::from(([10, 1, (n >> 8) as u8, n as u8], 40000 + (n % 20000) as u16));
        let server = SocketAddr::from(([10, 200, 0, (n % 8) as u8], 7801 + (n % 4) as u16));
        let mut live = Live {
            ends: [client, server],
            seq: [self.rng.next() as u32, self.rng.next() as u32],
            session: Session::with_generation(&keys, generation),
            budget,
        };
        use Direction::{ClientToServer as C, ServerToClient as S};
        self.segment(&mut live, C, &[], true, false)?;
        self.segment(&mut live, S, &[], true, false)?;
        self.segment(&mut live, S, &HELLO, false, false)?;
        self.segment(&mut live, C, &keys.client_key1, false, false)?;
        self.segment(&mut live, S, &keys.server_key1, false, false)?;
        self.segment(&mut live, C, &keys.client_key2, false, false)?;
        self.segment(&mut live, S, &keys.server_key2, false, false)?;
        let revision = self.real.as_ref().map_or(366_000, |(_, r)| *r);
        let mut first = check_version(revision);
        self.send(&mut live, C, &mut first)?;
        Ok(live)
    }

    /// Encrypts `wire` (whole packets) and sends it in segments.
    fn send(&mut self, live: &mut Live, dir: Direction, wire: &mut [u8]) -> std::io::Result<()> {
        live.session.apply(dir, wire);
        for piece in wire.chunks(MSS) {
            self.segment(live, dir, piece, false, false)?;
        }
        live.budget = live.budget.saturating_sub(wire.len() as u64);
        Ok(())
    }

    /// A burst of packets one way, then sometimes an acknowledgement.
    fn burst(&mut self, live: &mut Live) -> std::io::Result<()> {
        let dir = if self.rng.below(3) == 0 {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        let count = 1 + self.rng.below(8);
        let mut wire = Vec::new();
        for _ in 0..count {
            if let Some((real, _)) = &self.real {
                let pool = &real[index(dir)];
                if let Some(p) = pool.get(self.rng.below(pool.len() as u64) as usize) {
                    wire.extend_from_slice(p);
                    self.packets[index(dir)] += 1;
                }
                continue;
            }
            let len = match self.rng.below(20) {
                0 => 1000 + self.rng.below(7000),
                1..=4 => 300 + self.rng.below(700),
                _ => 16 + self.rng.below(280),
            } as usize;
            let opcode = 20000 + self.rng.below(2000) as u16;
            let body: Vec<u8> = (0..len).map(|_| self.rng.next() as u8).collect();
            wire.extend(packet(opcode, &body));
            self.packets[index(dir)] += 1;
        }
        self.send(live, dir, &mut wire)?;
        if self.rng.below(2) == 0 {
            self.segment(live, dir.reverse(), &[], false, false)?;
        }
        Ok(())
    }

    fn end(&mut self, live: &mut Live) -> std::io::Result<()> {
        self.segment(live, Direction::ClientToServer, &[], false, true)?;
        self.segment(live, Direction::ServerToClient, &[], false, true)
    }
}

/// `C_CHECK_VERSION` announcing `revision` (entries of index 0 and 1).
fn check_version(revision: u32) -> Vec<u8> {
    let mut body = vec![2, 0, 8, 0];
    for (i, value) in [(0u32, revision), (1, 0)] {
        let here = 8 + 12 * i as u16;
        let next = if i == 0 { here + 12 } else { 0 };
        body.extend_from_slice(&here.to_le_bytes());
        body.extend_from_slice(&next.to_le_bytes());
        body.extend_from_slice(&i.to_le_bytes());
        body.extend_from_slice(&value.to_le_bytes());
    }
    packet(19900, &body)
}

/// The packets of `vectors` whose name `map` has, with its opcodes, by
/// direction; and the map's revision (from its file name,
/// `protocol.REVISION.map`).
fn real_packets(vectors: &str, map: &str) -> std::io::Result<([Vec<Vec<u8>>; 2], u32)> {
    let invalid = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let revision = map
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_prefix("protocol."))
        .and_then(|f| f.strip_suffix(".map"))
        .and_then(|r| r.parse().ok())
        .ok_or_else(|| invalid(format!("{map}: not protocol.REVISION.map")))?;
    let mut codes = std::collections::HashMap::new();
    for line in std::fs::read_to_string(map)?.lines() {
        let line = line.split('#').next().unwrap_or("");
        let mut words = line
            .split(|c: char| c == '=' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        if let (Some(name), Some(code)) = (words.next(), words.next())
            && let Ok(code) = code.parse::<u16>()
        {
            codes.insert(name.to_owned(), code);
        }
    }
    let mut real: [Vec<Vec<u8>>; 2] = Default::default();
    for line in std::fs::read_to_string(vectors)?.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| invalid(e.to_string()))?;
        let (Some(def), Some(hex)) = (v["def"].as_str(), v["hex"].as_str()) else {
            continue;
        };
        let name = def.split('.').next().unwrap_or("");
        let (Some(&code), Some(dir)) = (codes.get(name), name.get(..2)) else {
            continue;
        };
        let i = match dir {
            "C_" => 0,
            "S_" => 1,
            _ => continue,
        };
        let mut bytes: Vec<u8> = (0..hex.len() / 2)
            .filter_map(|k| u8::from_str_radix(hex.get(2 * k..2 * k + 2)?, 16).ok())
            .collect();
        if bytes.len() >= 4 {
            bytes[2..4].copy_from_slice(&code.to_le_bytes());
            real[i].push(bytes);
        }
    }
    if real.iter().any(Vec::is_empty) {
        return Err(invalid("no packets of the map in the vectors".to_owned()));
    }
    Ok((real, revision))
}

fn packet(opcode: u16, body: &[u8]) -> Vec<u8> {
    let mut p = ((body.len() + 4) as u16).to_le_bytes().to_vec();
    p.extend_from_slice(&opcode.to_le_bytes());
    p.extend_from_slice(body);
    p
}

fn run(path: &str, megabytes: u64, at_once: usize, real: Option<&[String]>) -> std::io::Result<()> {
    let real = match real {
        Some([vectors, map]) => Some(real_packets(vectors, map)?),
        _ => None,
    };
    let out = PcapWriter::new(
        BufWriter::with_capacity(1 << 20, File::create(path)?),
        LinkKind::Ethernet,
    )?;
    let mut g = Generator {
        out,
        rng: Rng(0x7e4a),
        time: 1_700_000_000_000_000_000,
        bytes: 24,
        packets: [0; 2],
        real,
    };
    let target = megabytes * 1_000_000;
    let per_session = (target / (at_once as u64 * 3)).max(1 << 20);
    let mut live = Vec::new();
    let mut started = 0u32;
    while g.bytes < target || !live.is_empty() {
        while live.len() < at_once && g.bytes < target {
            let budget = per_session / 2 + g.rng.below(per_session);
            live.push(g.start(started, budget)?);
            g.packets[0] += 1;
            started += 1;
        }
        let i = g.rng.below(live.len() as u64) as usize;
        g.burst(&mut live[i])?;
        if live[i].budget == 0 || (g.bytes >= target && g.rng.below(4) == 0) {
            let mut done = live.swap_remove(i);
            g.end(&mut done)?;
        }
    }
    g.out.into_inner()?.flush()?;
    let counts = format!(
        "sessions {started}\nclient_packets {}\nserver_packets {}\n",
        g.packets[0], g.packets[1]
    );
    std::fs::write(format!("{path}.counts"), &counts)?;
    print!("{path}: {} MB\n{counts}", g.bytes / 1_000_000);
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: gen_capture OUT.pcap [MEGABYTES] [SESSIONS_AT_ONCE] [VECTORS MAP]");
        return ExitCode::from(2);
    };
    let megabytes = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1100);
    let at_once = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(32)
        .max(1);
    match run(path, megabytes, at_once, args.get(3..5)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_capture: {e}");
            ExitCode::FAILURE
        }
    }
}
