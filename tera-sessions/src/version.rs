//! The protocol revision a client announces in its first packet,
//! `C_CHECK_VERSION`, read as the proxy reads it.

use tera_packets::{Array, Block, Packet};

/// The opcode of `C_CHECK_VERSION` in every client build's protocol map:
/// it is read before the map is known.
pub const C_CHECK_VERSION_OPCODE: u16 = 19900;

/// `C_CHECK_VERSION.1`: `array version { int32 index; int32 value }`; the
/// value at index 0 is the protocol revision.
#[derive(Debug, Clone, Default, PartialEq, Packet)]
#[tera(name = "C_CHECK_VERSION", version = 1)]
struct CheckVersion<'a> {
    version: Array<'a, VersionEntry>,
}

#[derive(Debug, Clone, Default, PartialEq, Block)]
struct VersionEntry {
    index: i32,
    value: i32,
}

/// Why a `C_CHECK_VERSION` packet announces no revision.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RevisionError {
    /// The packet does not decode as `C_CHECK_VERSION.1`.
    #[error("C_CHECK_VERSION does not decode: {0}")]
    Decode(tera_packets::Error),
    /// It has no version entry of index 0.
    #[error("C_CHECK_VERSION has no version entry of index 0")]
    NoRevision,
    /// Its entry of index 0 is negative.
    #[error("C_CHECK_VERSION announces a negative revision, {0}")]
    Negative(i32),
}

/// The protocol revision a `C_CHECK_VERSION` packet (whole, header
/// included) announces: the value of its entry of index 0. The proxy and
/// session logs read it here.
///
/// # Errors
/// Why there is none: the packet does not decode, has no entry of index 0,
/// or a negative one.
pub fn announced_revision(packet: &[u8]) -> Result<u32, RevisionError> {
    let check = CheckVersion::decode(packet).map_err(RevisionError::Decode)?;
    let value = check
        .version
        .iter()
        .find(|entry| entry.index == 0)
        .map(|entry| entry.value)
        .ok_or(RevisionError::NoRevision)?;
    u32::try_from(value).map_err(|_| RevisionError::Negative(value))
}

/// A `C_CHECK_VERSION` packet announcing `revision` (entries of index 0
/// and 1, as clients send), for tests and tools.
#[must_use]
pub fn check_version_packet(revision: u32) -> Vec<u8> {
    let revision = i32::try_from(revision).unwrap_or(i32::MAX);
    check_version_packet_of(&[(0, revision), (1, 0)])
}

/// A `C_CHECK_VERSION` packet with these `(index, value)` entries, in
/// order (for tests of what a client might send).
#[must_use]
pub fn check_version_packet_of(entries: &[(i32, i32)]) -> Vec<u8> {
    let packet = CheckVersion {
        version: entries
            .iter()
            .map(|&(index, value)| VersionEntry { index, value })
            .collect(),
    };
    let mut bytes = packet.encode().unwrap_or_default();
    tera_packets::set_opcode(&mut bytes, C_CHECK_VERSION_OPCODE);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_revision_is_the_value_of_index_0() {
        let packet = check_version_packet(365_100);
        assert_eq!(&packet[..4], [0x20, 0, 0xbc, 0x4d]);
        assert_eq!(announced_revision(&packet), Ok(365_100));
        assert!(announced_revision(&packet[..10]).is_err());
        assert!(matches!(
            announced_revision(&[9, 0, 0xbc, 0x4d, 1, 0, 200, 0, 0]),
            Err(RevisionError::Decode(_))
        ));
        assert_eq!(
            announced_revision(&check_version_packet_of(&[(1, 7), (0, 365_100)])),
            Ok(365_100)
        );
        assert_eq!(
            announced_revision(&check_version_packet_of(&[(1, 7)])),
            Err(RevisionError::NoRevision)
        );
        assert_eq!(
            announced_revision(&check_version_packet_of(&[(0, -1)])),
            Err(RevisionError::Negative(-1))
        );
    }
}
