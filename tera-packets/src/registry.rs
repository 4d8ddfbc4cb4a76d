//! What generated code needs to list and dispatch packets: [`PacketInfo`],
//! [`AnyError`] and header helpers.

use crate::error::{Error, ErrorKind};

/// One compiled-in packet version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PacketInfo {
    /// The packet's name (`S_LOGIN`).
    pub name: &'static str,
    /// The def version.
    pub version: u32,
    /// The platform infix of the def file name (`console`), if any.
    pub platform: Option<&'static str>,
    /// The packet's length when it never varies, header included.
    pub fixed_len: Option<usize>,
}

/// The highest version of packet `name` (without platform) in `packets`.
pub fn latest_version(packets: &[PacketInfo], name: &str) -> Option<u32> {
    packets
        .iter()
        .filter(|p| p.name == name && p.platform.is_none())
        .map(|p| p.version)
        .max()
}

/// The opcode in a packet's header.
pub fn opcode_of(packet: &[u8]) -> Result<u16, Error> {
    match packet {
        [_, _, lo, hi, ..] => Ok(u16::from_le_bytes([*lo, *hi])),
        _ => Err(Error::new(ErrorKind::MissingHeader, 0)),
    }
}

/// An error of dispatching on a name, version or opcode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnyError {
    /// No compiled-in def has this name and version.
    #[error("unknown packet {name}.{version}")]
    UnknownPacket {
        /// The name asked for.
        name: String,
        /// The version asked for (0 when none was found at all).
        version: u32,
    },
    /// The protocol map has no name for this opcode.
    #[error("opcode {0} is not in the protocol map")]
    UnknownOpcode(u16),
    /// The packet did not decode.
    #[error(transparent)]
    Decode(#[from] Error),
}

impl AnyError {
    /// An [`AnyError::UnknownPacket`].
    pub fn unknown(name: &str, version: u32) -> Self {
        AnyError::UnknownPacket {
            name: name.to_owned(),
            version,
        }
    }
}
