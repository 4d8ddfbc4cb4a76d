//! `AnyPacket::decode` finds every compiled-in def by name and version (it
//! binary-searches `PACKETS`, so this also checks that `PACKETS` is sorted),
//! in either build mode.

use tera_data::{AnyError, AnyPacket, ErrorKind, PACKETS};

#[test]
fn every_packet_is_found_by_name_and_version() {
    assert!(!PACKETS.is_empty());
    for p in PACKETS.iter().filter(|p| p.platform.is_none()) {
        // An empty slice: found, then refused for its missing header.
        match AnyPacket::decode(p.name, p.version, &[]) {
            Err(AnyError::Decode(e)) => assert_eq!(e.kind(), ErrorKind::MissingHeader),
            other => panic!("{}.{}: {other:?}", p.name, p.version),
        }
    }
    assert!(matches!(
        AnyPacket::decode("NO_SUCH_PACKET", 1, &[]),
        Err(AnyError::UnknownPacket { .. })
    ));
}
