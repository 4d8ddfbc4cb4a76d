//! From a captured frame to a TCP segment: link, IP and TCP headers.
//!
//! The headers are read by `etherparse` (maintained, no unsafe code, fuzzed
//! upstream), which takes Ethernet (with VLAN tags) and IPv4 and IPv6 with
//! their extension headers, and trims a frame's padding by the IP length.
//! The other link layers are a fixed header in front of an EtherType'd
//! payload or an IP packet:
//!
//! * Linux cooked capture v1 (16 bytes, the EtherType last) and v2 (20
//!   bytes, the EtherType first). etherparse reads v1 itself but refuses
//!   hardware types other than Ethernet, such as the loopback type (772)
//!   that `tcpdump -i any` writes for `lo`; the EtherType is what counts;
//! * BSD loopback (a 4-byte address family, in either byte order; the IP
//!   version nibble tells the rest).

use std::net::{IpAddr, SocketAddr};

use etherparse::{EtherType, NetSlice, SlicedPacket, TransportSlice};
use pcap_parser::Linktype;

use super::{Frame, Segment};

/// Why a frame gave no segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// A link type this reader does not read.
    UnsupportedLink,
    /// Not TCP over IP.
    NotTcp,
    /// Headers that could not be read.
    Bad,
    /// An IP fragment.
    Fragment,
}

/// `LINKTYPE_RAW` as some systems number it (`DLT_RAW` is 12 on most BSDs,
/// 14 on OpenBSD).
const RAW_BSD: [i32; 2] = [12, 14];

/// Length of a Linux cooked capture v1 header, and where its EtherType is.
const SLL_LEN: usize = 16;
const SLL_TYPE_AT: usize = 14;

/// Length of a Linux cooked capture v2 header (its EtherType is first).
const SLL2_LEN: usize = 20;

/// Length of a BSD loopback header.
const LOOPBACK_LEN: usize = 4;

/// The packet after a Linux cooked capture header of `len` bytes whose
/// EtherType is at `type_at`.
fn cooked(
    data: &[u8],
    type_at: usize,
    len: usize,
) -> Result<Result<SlicedPacket<'_>, etherparse::err::packet::SliceError>, Skip> {
    let ether_type = data
        .get(type_at..)
        .and_then(|d| d.first_chunk::<2>())
        .map(|t| EtherType(u16::from_be_bytes(*t)))
        .ok_or(Skip::Bad)?;
    let rest = data.get(len..).ok_or(Skip::Bad)?;
    Ok(SlicedPacket::from_ether_type(ether_type, rest))
}

/// The TCP segment a frame holds.
pub(crate) fn segment<'a>(frame: &Frame<'a>) -> Result<Segment<'a>, Skip> {
    let data = frame.data;
    let sliced = match frame.link {
        Linktype::ETHERNET => SlicedPacket::from_ethernet(data),
        Linktype::LINUX_SLL => cooked(data, SLL_TYPE_AT, SLL_LEN)?,
        Linktype::LINUX_SLL2 => cooked(data, 0, SLL2_LEN)?,
        Linktype::NULL | Linktype::LOOP => {
            SlicedPacket::from_ip(data.get(LOOPBACK_LEN..).ok_or(Skip::Bad)?)
        }
        Linktype::RAW | Linktype::IPV4 | Linktype::IPV6 => SlicedPacket::from_ip(data),
        Linktype(n) if RAW_BSD.contains(&n) => SlicedPacket::from_ip(data),
        _ => return Err(Skip::UnsupportedLink),
    }
    .map_err(|_| Skip::Bad)?;
    let (source, destination): (IpAddr, IpAddr) = match &sliced.net {
        Some(NetSlice::Ipv4(ip)) => (
            ip.header().source_addr().into(),
            ip.header().destination_addr().into(),
        ),
        Some(NetSlice::Ipv6(ip)) => (
            ip.header().source_addr().into(),
            ip.header().destination_addr().into(),
        ),
        _ => return Err(Skip::NotTcp),
    };
    if sliced.is_ip_payload_fragmented() {
        return Err(Skip::Fragment);
    }
    let Some(TransportSlice::Tcp(tcp)) = &sliced.transport else {
        return Err(Skip::NotTcp);
    };
    Ok(Segment {
        time: frame.time,
        source: SocketAddr::new(source, tcp.source_port()),
        destination: SocketAddr::new(destination, tcp.destination_port()),
        seq: tcp.sequence_number(),
        ack: tcp.ack().then(|| tcp.acknowledgment_number()),
        syn: tcp.syn(),
        fin: tcp.fin(),
        rst: tcp.rst(),
        payload: tcp.payload(),
    })
}
