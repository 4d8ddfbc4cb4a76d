//! What the game is known to do, as evidence: a keepalive among packets
//! without a body, and a system message among text of one layout. Small
//! def sets where the fit alone cannot tell the names apart.

use tera_dynamic::Catalog;
use tera_opcodes::{DefSet, Discovery, Samples};
use tera_sessions::{Direction, SessionId, Timestamp};

fn catalog(defs: &[(&str, &str)]) -> DefSet {
    let mut catalog = Catalog::new();
    for (file, text) in defs {
        catalog.add_def(file, text).expect("a def");
    }
    DefSet::from_catalog(&catalog)
}

/// Appends packets to one session, a millisecond apart.
struct Session {
    samples: Samples,
    time: i64,
}

impl Session {
    fn new() -> Session {
        Session {
            samples: Samples::new(),
            time: 0,
        }
    }

    fn send(&mut self, direction: Direction, opcode: u16, body: &[u8]) {
        let mut bytes = Vec::with_capacity(4 + body.len());
        bytes.extend_from_slice(&((4 + body.len()) as u16).to_le_bytes());
        bytes.extend_from_slice(&opcode.to_le_bytes());
        bytes.extend_from_slice(body);
        self.time += 1;
        let time = Timestamp::from_unix_millis(self.time);
        self.samples
            .push_packet(SessionId(0), time, direction, &bytes);
    }
}

const C: Direction = Direction::ClientToServer;
const S: Direction = Direction::ServerToClient;

#[test]
fn a_keepalive_is_told_from_other_empty_exchanges() {
    let defs = catalog(&[
        ("C_REQUEST_GAMESTAT_PING.1.def", ""),
        ("S_RESPONSE_GAMESTAT_PONG.1.def", ""),
        ("C_LEAVE_PARTY.1.def", ""),
        ("S_LEAVE_PARTY.1.def", ""),
        ("C_DISMISS_PARTY.1.def", ""),
        ("S_CANT_FLY_ANYMORE.1.def", ""),
    ]);
    let mut session = Session::new();
    for k in 0..12u8 {
        session.send(C, 1000, &[]);
        session.send(S, 2000, &[]);
        // Other traffic between the pings.
        session.send(S, 3000 + u16::from(k % 3), &[k, 1, 2, 3]);
    }
    // Another exchange of empty packets, once.
    session.send(C, 1001, &[]);
    session.send(S, 2001, &[]);
    let report = Discovery::new(defs).run(&mut session.samples);
    let map = report.map();
    assert_eq!(map.code("C_REQUEST_GAMESTAT_PING"), Some(1000));
    assert_eq!(map.code("S_RESPONSE_GAMESTAT_PONG"), Some(2000));
    // Nothing says which of the others the single exchange is.
    for name in ["C_LEAVE_PARTY", "S_LEAVE_PARTY", "C_DISMISS_PARTY"] {
        assert_eq!(map.code(name), None, "{name} written on no evidence");
    }
}

#[test]
fn a_system_message_is_told_by_its_text() {
    let layout = "string message\n";
    let defs = catalog(&[
        ("S_SYSTEM_MESSAGE.1.def", layout),
        ("S_GUILD_ANNOUNCE.1.def", layout),
        ("S_MY_DESCRIPTION.1.def", layout),
    ]);
    let text = |s: &str| -> Vec<u8> {
        // The string's offset (right after the header and itself), then
        // the text in UTF-16 and its NUL.
        let mut body = 6u16.to_le_bytes().to_vec();
        body.extend(s.encode_utf16().chain([0]).flat_map(u16::to_le_bytes));
        body
    };
    let mut session = Session::new();
    session.send(S, 4000, &text("@1234\u{b}UserName\u{b}Kaelric"));
    session.send(S, 4000, &text("@28"));
    session.send(S, 4001, &text("guild meeting at eight"));
    let report = Discovery::new(defs).run(&mut session.samples);
    let map = report.map();
    assert_eq!(map.code("S_SYSTEM_MESSAGE"), Some(4000));
    // Plain text under two names of one layout: neither is written.
    assert_eq!(map.name(4001), None);
}
