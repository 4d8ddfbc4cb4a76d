//! Opcode discovery on arbitrary packets: tera-opcodes' `Discovery` and
//! `Check` over sessions built from the input, against a small def set
//! that holds the names its rules of the game speak of (the login, a
//! keepalive, the return to the lobby, a despawn, a system message) and a
//! def that fits anything. Panics are bugs; so is a name or an opcode
//! written twice, or an entry written below the threshold.
//!
//! Input: records of a flag byte (bit 0: the client sent it; bit 1: a new
//! session starts), an opcode byte (one of a few opcodes, so that groups
//! fill up), a length byte and that many body bytes.
#![no_main]

use std::collections::HashSet;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tera_dynamic::Catalog;
use tera_opcodes::{Check, DefSet, Discovery, ProtocolMap, Samples};
use tera_sessions::{Direction, SessionId, Timestamp};

const DEFS: &[(&str, &str)] = &[
    (
        "C_CHECK_VERSION.1.def",
        "array version\n- int32 index\n- int32 value\n",
    ),
    ("S_CHECK_VERSION.1.def", "bool ok\n"),
    ("C_GET_USER_LIST.1.def", ""),
    (
        "S_GET_USER_LIST.1.def",
        "array characters\n- uint32 id\n- string name\n",
    ),
    ("C_SELECT_USER.1.def", "uint32 id\nbyte unk\n"),
    (
        "S_LOGIN.1.def",
        "uint64 gameId\nuint32 playerId\nstring name\n",
    ),
    ("C_REQUEST_GAMESTAT_PING.1.def", ""),
    ("S_RESPONSE_GAMESTAT_PONG.1.def", ""),
    ("C_RETURN_TO_LOBBY.1.def", ""),
    ("S_PREPARE_RETURN_TO_LOBBY.1.def", "uint32 time\n"),
    ("S_RETURN_TO_LOBBY.1.def", ""),
    (
        "S_SPAWN_USER.1.def",
        "uint64 gameId\nuint32 playerId\nstring name\n",
    ),
    ("S_DESPAWN_USER.1.def", "uint64 gameId\nuint32 type\n"),
    ("S_SYSTEM_MESSAGE.1.def", "string message\n"),
    ("S_CHAT.1.def", "uint32 channel\nstring message\n"),
    ("C_START_SKILL.1.def", "uint32 skill\nfloat w\n"),
    (
        "S_START_COOLTIME_SKILL.1.def",
        "uint32 skill\nuint32 cooldown\n",
    ),
    ("S_ANYTHING.1.def", "bytes data\n"),
];

fn defs() -> &'static DefSet {
    static DEFS_SET: OnceLock<DefSet> = OnceLock::new();
    DEFS_SET.get_or_init(|| {
        let mut catalog = Catalog::new();
        for (file, text) in DEFS {
            catalog
                .add_def(file, text)
                .expect("the target's own defs parse");
        }
        DefSet::from_catalog(&catalog)
    })
}

fn samples_of(data: &[u8]) -> Samples {
    let mut samples = Samples::new();
    let (mut session, mut time) = (0u32, 0i64);
    let mut rest = data;
    while let [flags, opcode, len, tail @ ..] = rest {
        let body = &tail[..usize::from(*len).min(tail.len())];
        rest = &tail[body.len()..];
        if flags & 2 != 0 {
            session += 1;
        }
        let direction = if flags & 1 != 0 {
            Direction::ClientToServer
        } else {
            Direction::ServerToClient
        };
        // The fixed opcodes now and then, else one of a few.
        let opcode: u16 = match opcode {
            0 => 19900,
            1 => 19901,
            k => 1000 + u16::from(k % 24),
        };
        let mut packet = Vec::with_capacity(4 + body.len());
        packet.extend_from_slice(&((4 + body.len()) as u16).to_le_bytes());
        packet.extend_from_slice(&opcode.to_le_bytes());
        packet.extend_from_slice(body);
        time += 1;
        let at = Timestamp::from_unix_millis(time);
        samples.push_packet(SessionId(session), at, direction, &packet);
    }
    samples
}

fuzz_target!(|data: &[u8]| {
    let mut samples = samples_of(data);
    let mut previous = ProtocolMap::new();
    previous.insert("S_CHAT", 1003);
    previous.insert("C_GET_USER_LIST", 1004);
    for prior in [false, true] {
        let mut discovery = Discovery::new(defs().clone());
        if prior {
            discovery = discovery.previous(previous.clone());
        }
        let report = discovery.run(&mut samples);
        let mut names = HashSet::new();
        let mut opcodes = HashSet::new();
        for e in &report.entries {
            assert!(names.insert(e.name.clone()), "{} written twice", e.name);
            assert!(
                opcodes.insert((e.direction == Direction::ClientToServer, e.opcode)),
                "opcode {} written twice",
                e.opcode
            );
            assert!(
                e.margin >= report.threshold,
                "{} below the threshold",
                e.name
            );
        }
        let check = Check::new(defs().clone(), report.map()).run(&mut samples);
        let _ = check.swaps();
    }
});
