//! The scripted traffic of a load run: which packets each side sends, what
//! the load hooks do to them, and so what each side must receive.

use tera_data::{AnyPacket, PACKETS, ProtocolMap, latest_version};
use tera_net::Direction;

/// splitmix64: small, fast, and the same sequence on both ends of a
/// connection from the same seed.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What the load hooks do to a scripted packet, told by its opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Passed unchanged.
    Pass,
    /// Changed (10%): opcode [`Action::CHANGED`], body bytes inverted, one
    /// byte longer (one shorter at 65535 bytes).
    Change,
    /// Blocked (5%).
    Block,
    /// Passed, and a notice injected (5%): to the same side before it when
    /// its sequence number is even, to the sender when odd.
    Inject,
}

impl Action {
    /// Opcode of a packet to pass.
    pub const PASS: u16 = 0x7101;
    /// Opcode of a packet to change.
    pub const CHANGE: u16 = 0x7102;
    /// Opcode of a packet to block.
    pub const BLOCK: u16 = 0x7103;
    /// Opcode of a packet that makes the hook inject a notice.
    pub const INJECT: u16 = 0x7104;
    /// Opcode of a changed packet.
    pub const CHANGED: u16 = 0x7105;
    /// Opcode of an injected notice: `u32` sequence number of the packet
    /// that caused it, `u8` its direction (0 client to server), 3 zeros.
    pub const NOTICE: u16 = 0x7106;

    /// The action of an opcode.
    #[must_use]
    pub fn of(opcode: u16) -> Option<Action> {
        match opcode {
            Action::PASS => Some(Action::Pass),
            Action::CHANGE => Some(Action::Change),
            Action::BLOCK => Some(Action::Block),
            Action::INJECT => Some(Action::Inject),
            _ => None,
        }
    }

    fn opcode(self) -> u16 {
        match self {
            Action::Pass => Action::PASS,
            Action::Change => Action::CHANGE,
            Action::Block => Action::BLOCK,
            Action::Inject => Action::INJECT,
        }
    }

    /// The change the load hook makes (in place).
    pub fn change(packet: &mut Vec<u8>) {
        if let Some(op) = packet.get_mut(2..4) {
            op.copy_from_slice(&Action::CHANGED.to_le_bytes());
        }
        for b in packet.iter_mut().skip(4) {
            *b = !*b;
        }
        if packet.len() < usize::from(u16::MAX) {
            packet.push(0xee);
        } else {
            packet.pop();
        }
        let len = u16::try_from(packet.len()).unwrap_or(u16::MAX);
        if let Some(field) = packet.get_mut(..2) {
            field.copy_from_slice(&len.to_le_bytes());
        }
    }

    /// The notice the load hook injects for packet `seq` travelling `dir`.
    #[must_use]
    pub fn notice(seq: u32, dir: Direction) -> Vec<u8> {
        let mut body = [0u8; 8];
        body[..4].copy_from_slice(&seq.to_le_bytes());
        body[4] = u8::from(dir == Direction::ServerToClient);
        super::packet::packet(Action::NOTICE, &body)
    }

    /// Where the notice for packet `seq` travelling `dir` goes.
    #[must_use]
    pub fn notice_direction(seq: u32, dir: Direction) -> Direction {
        if seq.is_multiple_of(2) {
            dir
        } else {
            dir.reverse()
        }
    }
}

/// What kind of packets a script sends.
#[derive(Clone, Debug)]
pub enum ScriptKind {
    /// Sizes 4 to 65535 with the load actions (10% change, 5% block, 5%
    /// inject).
    Mixed,
    /// Sizes 4 to 65535, all [`Action::Pass`].
    Plain,
    /// Packets of the compiled-in defs, cycled (see [`typed_packets`]).
    Typed(std::sync::Arc<Vec<Vec<u8>>>),
}

/// The packets one side of one connection sends, regenerated identically by
/// the receiver: packet 0 has 65535 bytes, packet 1 has 4, the others 4 to
/// 256 bytes (90%), 257 to 4096 (9%) or 4097 to 65535 (1%), uniformly
/// within each range. Bytes 4..8 of a packet of 8 bytes or more hold its
/// sequence number; the rest of the body is a byte from the seed.
#[derive(Clone, Debug)]
pub struct Script {
    rng: SplitMix,
    kind: ScriptKind,
    next: u32,
    count: u32,
}

impl Script {
    /// The script of direction `dir` of connection `conn`: `count` packets.
    #[must_use]
    pub fn new(seed: u64, conn: u32, dir: Direction, count: u32, kind: ScriptKind) -> Script {
        let salt = u64::from(conn) << 1 | u64::from(dir == Direction::ServerToClient);
        Script {
            rng: SplitMix(seed ^ salt.wrapping_mul(0xa076_1d64_78bd_642f)),
            kind,
            next: 0,
            count,
        }
    }

    fn size(&mut self, seq: u32) -> usize {
        match seq {
            0 => 65535,
            1 => 4,
            _ => {
                let (lo, hi) = match self.rng.below(100) {
                    0 => (4097, 65535),
                    1..=9 => (257, 4096),
                    _ => (4, 256),
                };
                (lo + self.rng.below(hi - lo + 1)) as usize
            }
        }
    }
}

impl Iterator for Script {
    /// Sequence number, action, packet.
    type Item = (u32, Action, Vec<u8>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.count {
            return None;
        }
        let seq = self.next;
        self.next += 1;
        if let ScriptKind::Typed(packets) = &self.kind {
            let p = packets.get(seq as usize % packets.len().max(1))?.clone();
            return Some((seq, Action::Pass, p));
        }
        let len = self.size(seq);
        let action = match (&self.kind, self.rng.below(100)) {
            (ScriptKind::Mixed, 0..=9) => Action::Change,
            (ScriptKind::Mixed, 10..=14) => Action::Block,
            (ScriptKind::Mixed, 15..=19) => Action::Inject,
            _ => Action::Pass,
        };
        let fill = self.rng.next() as u8;
        let mut p = vec![fill; len];
        p[..2].copy_from_slice(&(len as u16).to_le_bytes());
        p[2..4].copy_from_slice(&action.opcode().to_le_bytes());
        if let Some(s) = p.get_mut(4..8) {
            s.copy_from_slice(&seq.to_le_bytes());
        }
        Some((seq, action, p))
    }
}

/// Fixed-size packets of the compiled-in defs at their latest version that
/// have an opcode in `map`, with varied bytes, decoded and encoded once so
/// that they are canonical (a `bool` byte of 7 encodes back as 1).
#[must_use]
pub fn typed_packets(map: &ProtocolMap) -> Vec<Vec<u8>> {
    let fixed = PACKETS
        .iter()
        .filter(|p| p.platform.is_none() && latest_version(PACKETS, p.name) == Some(p.version));
    let mut out = Vec::new();
    for info in fixed {
        let (Some(code), Some(len)) = (map.code(info.name), info.fixed_len) else {
            continue;
        };
        let mut p = vec![0u8; len];
        p[..2].copy_from_slice(&(len as u16).to_le_bytes());
        p[2..4].copy_from_slice(&code.to_le_bytes());
        for (j, b) in p.iter_mut().enumerate().skip(4) {
            *b = (j as u8).wrapping_mul(31).wrapping_add(7);
        }
        let Ok(value) = AnyPacket::decode(info.name, info.version, &p) else {
            continue;
        };
        let mut canonical = vec![0u8; len];
        if value.encode_into_with_opcode(code, &mut canonical).is_ok() {
            out.push(canonical);
        }
    }
    out
}
