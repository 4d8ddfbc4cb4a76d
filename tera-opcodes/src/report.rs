//! What discovery found: the entries written into the map, each with its
//! confidence and evidence, the candidates left below the threshold, and
//! the opcodes that no def explains.

use serde::Serialize;
use tera_dynamic::ProtocolMap;
use tera_sessions::Direction;

/// One piece of evidence for an entry, with its weight in bits (log2 of
/// how much likelier the packets are if the entry is right).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// A fixed opcode of the protocol (19900 `C_CHECK_VERSION`, 19901
    /// `S_CHECK_VERSION`): the same in every version.
    Fixed,
    /// Given in the partial map of the new version.
    Known,
    /// Every distinct packet decodes strictly and encodes to the same
    /// bytes.
    Fit {
        /// The def's version that fits.
        version: u32,
        /// Distinct packets checked (all of them).
        distinct: usize,
        /// Distinct lengths among them.
        lengths: usize,
        /// Bits of structure the def pinned down.
        bits: f64,
    },
    /// How the values read: floats that read as game floats, text as text.
    Values {
        /// Bits (negative when values read badly).
        bits: f64,
    },
    /// How the integers fit the names of their fields, as the sure
    /// packets show what each name holds (a `type` small, a `time` large).
    Names {
        /// Values weighed.
        values: usize,
        /// Bits (negative when values read badly under their names).
        bits: f64,
    },
    /// Values of a field that recur in same-named fields of packets
    /// already named (the player's ids, an entity's id, a skill).
    Link {
        /// The field.
        field: String,
        /// Distinct values that recur.
        values: usize,
        /// The names they recur in (a few).
        with: Vec<String>,
        /// Bits.
        bits: f64,
    },
    /// Packets whose values recur together (two fields or more) in one
    /// packet already named.
    Tuple {
        /// Packets of this opcode whose values recur together.
        matched: usize,
        /// Packets read.
        of: usize,
        /// The names they recur in (a few).
        with: Vec<String>,
        /// Bits.
        bits: f64,
    },
    /// A value tied to a packet whose name shares a word that says what
    /// both are about (`S_SPAWN_DROPITEM`, `C_TRY_LOOT_DROPITEM`).
    Family {
        /// The packet.
        with: String,
        /// Distinct values tied to the family.
        values: usize,
        /// Bits.
        bits: f64,
    },
    /// Positions near the positions of packets already named (the
    /// player's moves), at the same time.
    Position {
        /// The field.
        field: String,
        /// Packets whose position is near.
        near: usize,
        /// Bits.
        bits: f64,
    },
    /// The request and its response: how often this opcode's packets are
    /// answered by (or answer) the named packet's.
    Pair {
        /// The other packet.
        with: String,
        /// Packets followed (or preceded) by it.
        matched: usize,
        /// Packets of this opcode.
        of: usize,
        /// Bits (negative when the pair does not hold).
        bits: f64,
    },
    /// A known consequence ([`GameRules::consequences`](crate::GameRules::consequences)): how
    /// often this opcode's packets come within a few packets of its
    /// cause's (or of what follows from it).
    Follows {
        /// The other packet.
        with: String,
        /// Packets near one of it.
        matched: usize,
        /// Packets of this opcode.
        of: usize,
        /// Bits (negative when it mostly does not follow).
        bits: f64,
    },
    /// Empty packets exchanged with another opcode's empty packets, each
    /// request answered at once, again and again: a keepalive
    /// ([`GameRules::keepalives`](crate::GameRules::keepalives)).
    Keepalive {
        /// The other side's name of the exchange.
        with: String,
        /// Exchanges.
        exchanges: usize,
        /// Bits.
        bits: f64,
    },
    /// Every string reads as a system message, and the name's text is
    /// one ([`GameRules::system_message_text`](crate::GameRules::system_message_text)).
    SystemMessage {
        /// Strings read.
        texts: usize,
        /// Bits.
        bits: f64,
    },
    /// Ids that no later packet of the session holds, under a name that
    /// ends an entity's life (a despawn).
    LifeEnds {
        /// Ids seen before and no more after this opcode's packet.
        ends: usize,
        /// Ids read.
        of: usize,
        /// The packet most of those lives began in, when it is the other
        /// end of this name's life cycle (`S_SPAWN_USER` for
        /// `S_DESPAWN_USER`).
        begun_by: Option<String>,
        /// Bits.
        bits: f64,
    },
    /// Where the opcode's packets stand in a scene the game plays in order
    /// ([`GameRules::scenes`](crate::GameRules::scenes)), against the names already named there.
    Scene {
        /// The scene, by its first name.
        scene: String,
        /// Bits.
        bits: f64,
    },
    /// Where the opcode first appears in a login, against the order of a
    /// login: the odds, over every way the session's first packets line
    /// up with the login's names, of the opcode standing in this name's
    /// place, less what the def's fit counts on its own.
    LoginOrder {
        /// Bits, never below 0.
        bits: f64,
    },
    /// The previous version's map names it (a prior: it breaks ties).
    PreviousMap {
        /// Whether its opcode there was the same.
        same_opcode: bool,
        /// Bits.
        bits: f64,
    },
}

impl Evidence {
    /// The weight of this evidence in bits (fixed and known entries are
    /// certain: infinity).
    pub fn bits(&self) -> f64 {
        match self {
            Evidence::Fixed | Evidence::Known => f64::INFINITY,
            Evidence::Fit { bits, .. }
            | Evidence::Values { bits }
            | Evidence::Names { bits, .. }
            | Evidence::Link { bits, .. }
            | Evidence::Tuple { bits, .. }
            | Evidence::Family { bits, .. }
            | Evidence::Position { bits, .. }
            | Evidence::Pair { bits, .. }
            | Evidence::Follows { bits, .. }
            | Evidence::Keepalive { bits, .. }
            | Evidence::SystemMessage { bits, .. }
            | Evidence::LifeEnds { bits, .. }
            | Evidence::Scene { bits, .. }
            | Evidence::LoginOrder { bits }
            | Evidence::PreviousMap { bits, .. } => *bits,
        }
    }

    /// A short description, for the report's table.
    pub fn summary(&self) -> String {
        match self {
            Evidence::Fixed => "fixed opcode".into(),
            Evidence::Known => "given (--known)".into(),
            Evidence::Fit {
                version,
                distinct,
                lengths,
                bits,
            } => format!("fits v{version}: {distinct} distinct, {lengths} lengths ({bits:.0}b)"),
            Evidence::Values { bits } => format!("values {bits:+.0}b"),
            Evidence::Names { values, bits } => format!("{values} values by name {bits:+.0}b"),
            Evidence::Link {
                field,
                values,
                with,
                bits,
            } => format!(
                "{field}: {values} values in {} ({bits:.0}b)",
                with.join(",")
            ),
            Evidence::Tuple {
                matched,
                of,
                with,
                bits,
            } => format!(
                "values together {matched}/{of} in {} ({bits:.0}b)",
                with.join(",")
            ),
            Evidence::Family { with, values, bits } => {
                format!("{values} values of the family of {with} ({bits:.0}b)")
            }
            Evidence::Position { field, near, bits } => {
                format!("{field} near the player x{near} ({bits:.0}b)")
            }
            Evidence::Pair {
                with,
                matched,
                of,
                bits,
            } => format!("pairs with {with} {matched}/{of} ({bits:+.0}b)"),
            Evidence::Follows {
                with,
                matched,
                of,
                bits,
            } => format!("follows with {with} {matched}/{of} ({bits:+.0}b)"),
            Evidence::Keepalive {
                with,
                exchanges,
                bits,
            } => format!("keepalive with {with} x{exchanges} ({bits:.0}b)"),
            Evidence::LifeEnds {
                ends,
                of,
                begun_by,
                bits,
            } => match begun_by {
                Some(by) => format!("{ends}/{of} ids seen no more, begun by {by} ({bits:.0}b)"),
                None => format!("{ends}/{of} ids seen no more ({bits:.0}b)"),
            },
            Evidence::SystemMessage { texts, bits } => {
                format!("{texts} system messages ({bits:.0}b)")
            }
            Evidence::Scene { scene, bits } => format!("scene of {scene} ({bits:+.0}b)"),
            Evidence::LoginOrder { bits } => format!("login order ({bits:+.0}b)"),
            Evidence::PreviousMap { same_opcode, bits } => format!(
                "previous map{} ({bits:+.0}b)",
                if *same_opcode { ", same opcode" } else { "" }
            ),
        }
    }
}

/// Who sent an opcode's packets, as `"c2s"` or `"s2c"`.
pub fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::ClientToServer => "c2s",
        Direction::ServerToClient => "s2c",
    }
}

fn ser_direction<S: serde::Serializer>(d: &Direction, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(direction_name(*d))
}

/// A name proposed for an opcode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The packet name.
    pub name: String,
    /// The def version that fits (the latest when no packet was seen).
    pub version: Option<u32>,
    /// The opcode.
    pub opcode: u16,
    /// Who sends it.
    #[serde(serialize_with = "ser_direction")]
    pub direction: Direction,
    /// How sure: `1 - 2^-margin`, 1 for fixed and known entries.
    pub confidence: f64,
    /// Bits the whole assignment loses without this entry (infinite for
    /// fixed and known entries).
    #[serde(serialize_with = "ser_margin")]
    pub margin: f64,
    /// Packets of the opcode in the sessions.
    pub samples: usize,
    /// The evidence, strongest kinds first.
    pub evidence: Vec<Evidence>,
    /// What the opcode would be instead, and that name's weight in bits.
    pub beat: Option<(String, f64)>,
}

fn ser_margin<S: serde::Serializer>(m: &f64, s: S) -> Result<S::Ok, S::Error> {
    if m.is_finite() {
        s.serialize_f64((m * 10.0).round() / 10.0)
    } else {
        s.serialize_none()
    }
}

/// An opcode whose packets fit no def.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unexplained {
    /// The opcode.
    pub opcode: u16,
    /// Who sent it.
    #[serde(serialize_with = "ser_direction")]
    pub direction: Direction,
    /// Its packets.
    pub samples: usize,
    /// Their distinct lengths.
    pub lengths: usize,
}

/// Discovery's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The entries written into the map (fixed, known and confident),
    /// by name.
    pub entries: Vec<Entry>,
    /// The best assignment's entries below the threshold: not written.
    pub candidates: Vec<Entry>,
    /// Opcodes seen that no def explains (or whose every candidate is
    /// taken by a better one).
    pub unexplained: Vec<Unexplained>,
    /// The margin in bits an entry needs to be written.
    pub threshold: f64,
    /// Packets read.
    pub packets: usize,
    /// Sessions read.
    pub sessions: usize,
    /// Opcodes seen (per direction).
    pub opcodes: usize,
    /// Names the defs offered.
    pub names: usize,
    /// Rounds of evidence until the assignment settled.
    pub rounds: usize,
}

impl Report {
    /// The map the entries make.
    pub fn map(&self) -> ProtocolMap {
        let mut map = ProtocolMap::new();
        for e in &self.entries {
            map.insert(&e.name, e.opcode);
        }
        map
    }
}
