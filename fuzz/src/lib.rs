//! Shared input format of the packet fuzz targets, the checks of the
//! data center targets ([`datacenter`]), and the defs loaded at run time
//! for the dynamic target ([`dynamic`]).
//!
//! An input is `u16 index` (little-endian) and then a whole packet. The index
//! picks the def among the compiled-in [`tera_data::PACKETS`] (modulo their
//! number), so that one byte string always means the same packet type and
//! libFuzzer can learn the types apart.

pub mod datacenter;
pub mod dynamic;

use tera_data::{AnyError, AnyPacket, PACKETS, PacketInfo};

/// The def picked by the first two bytes and the packet after them; `None`
/// when the input is shorter than the index or nothing is compiled in.
pub fn split(data: &[u8]) -> Option<(&'static PacketInfo, &[u8])> {
    let (&[lo, hi], packet) = data.split_first_chunk::<2>()?;
    let count = PACKETS.len();
    if count == 0 {
        return None;
    }
    let index = usize::from(u16::from_le_bytes([lo, hi])) % count;
    Some((PACKETS.get(index)?, packet))
}

/// Decodes `packet` as the def `info` names.
pub fn decode<'a>(info: &PacketInfo, packet: &'a [u8]) -> Result<AnyPacket<'a>, AnyError> {
    AnyPacket::decode(info.name, info.version, packet)
}

/// The input that [`split`] reads as `packet` of def `index`: how the seeds
/// are made.
pub fn join(index: usize, packet: &[u8]) -> Vec<u8> {
    let index = u16::try_from(index).unwrap_or(u16::MAX);
    let mut input = index.to_le_bytes().to_vec();
    input.extend_from_slice(packet);
    input
}
