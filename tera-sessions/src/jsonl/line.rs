//! The words a JSONL line uses for directions, key generations and end
//! reasons.

use serde::{Deserialize, Serialize};
use tera_net::Direction;

use tera_net::KeyGeneration;

use crate::event::EndReason;

/// A direction as JSONL writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Dir {
    #[serde(rename = "c2s")]
    C2s,
    #[serde(rename = "s2c")]
    S2c,
}

impl From<Direction> for Dir {
    fn from(d: Direction) -> Dir {
        match d {
            Direction::ClientToServer => Dir::C2s,
            Direction::ServerToClient => Dir::S2c,
        }
    }
}

impl From<Dir> for Direction {
    fn from(d: Dir) -> Direction {
        match d {
            Dir::C2s => Direction::ClientToServer,
            Dir::S2c => Direction::ServerToClient,
        }
    }
}

/// A key generation as JSONL writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Keys {
    Current,
    Old,
}

impl From<KeyGeneration> for Keys {
    fn from(k: KeyGeneration) -> Keys {
        match k {
            KeyGeneration::Current => Keys::Current,
            KeyGeneration::Old => Keys::Old,
        }
    }
}

impl From<Keys> for KeyGeneration {
    fn from(k: Keys) -> KeyGeneration {
        match k {
            Keys::Current => KeyGeneration::Current,
            Keys::Old => KeyGeneration::Old,
        }
    }
}

/// An end reason as JSONL writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Reason {
    Closed,
    EndOfInput,
}

impl From<EndReason> for Reason {
    fn from(r: EndReason) -> Reason {
        match r {
            EndReason::Closed => Reason::Closed,
            EndReason::EndOfInput => Reason::EndOfInput,
        }
    }
}

impl From<Reason> for EndReason {
    fn from(r: Reason) -> EndReason {
        match r {
            Reason::Closed => EndReason::Closed,
            Reason::EndOfInput => EndReason::EndOfInput,
        }
    }
}

/// A start line's `start` object.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<std::net::SocketAddr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<std::net::SocketAddr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Keys>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_version: Option<u32>,
}
