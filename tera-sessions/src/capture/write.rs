//! Writing pcap files: for tests, benchmarks and tools that make captures.

use std::io::{self, Write};
use std::net::{IpAddr, SocketAddr};

use etherparse::PacketBuilder;

use super::Segment;
use crate::Timestamp;

/// The first header of the frames a [`PcapWriter`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// Ethernet (`LINKTYPE_ETHERNET`), what `tcpdump -i eth0` writes.
    Ethernet,
    /// Linux cooked capture v1 (`LINKTYPE_LINUX_SLL`).
    LinuxCooked,
    /// Linux cooked capture v2 (`LINKTYPE_LINUX_SLL2`), what `tcpdump -i
    /// any` writes.
    LinuxCookedV2,
    /// Raw IP (`LINKTYPE_RAW`).
    RawIp,
    /// BSD loopback (`LINKTYPE_NULL`), what BSDs and macOS write for `lo0`.
    BsdLoopback,
}

impl LinkKind {
    /// The link type number in a pcap header.
    #[must_use]
    pub fn linktype(self) -> u32 {
        match self {
            LinkKind::Ethernet => 1,
            LinkKind::LinuxCooked => 113,
            LinkKind::LinuxCookedV2 => 276,
            LinkKind::RawIp => 101,
            LinkKind::BsdLoopback => 0,
        }
    }

    /// The link header in front of an IP packet of version 4 or 6.
    fn header(self, ipv6: bool) -> Vec<u8> {
        let ether_type: u16 = if ipv6 { 0x86dd } else { 0x0800 };
        match self {
            LinkKind::Ethernet => {
                let mut h = vec![0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1];
                h.extend_from_slice(&ether_type.to_be_bytes());
                h
            }
            LinkKind::LinuxCooked => {
                // Packet type 0 (to us), ARPHRD_ETHER, a 6-byte address.
                let mut h = vec![0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0];
                h.extend_from_slice(&ether_type.to_be_bytes());
                h
            }
            LinkKind::LinuxCookedV2 => {
                let mut h = ether_type.to_be_bytes().to_vec();
                // Reserved, interface 1, ARPHRD_ETHER, to us, a 6-byte address.
                h.extend_from_slice(&[0, 0, 0, 0, 0, 1, 0, 1, 0, 6]);
                h.extend_from_slice(&[0x02, 0, 0, 0, 0, 1, 0, 0]);
                h
            }
            LinkKind::RawIp => Vec::new(),
            // AF_INET is 2 everywhere; AF_INET6 is 30 on macOS (24 and 28
            // elsewhere); the family is in the writer's byte order.
            LinkKind::BsdLoopback => u32::to_le_bytes(if ipv6 { 30 } else { 2 }).to_vec(),
        }
    }
}

/// Writes a pcap file (nanosecond timestamps, little endian) of one link
/// kind, frame by frame or segment by segment.
#[derive(Debug)]
pub struct PcapWriter<W: Write> {
    out: W,
    link: LinkKind,
    frame: Vec<u8>,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the file header.
    ///
    /// # Errors
    /// I/O errors.
    pub fn new(mut out: W, link: LinkKind) -> io::Result<PcapWriter<W>> {
        let mut header = Vec::with_capacity(24);
        header.extend_from_slice(&0xa1b2_3c4d_u32.to_le_bytes());
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&4u16.to_le_bytes());
        header.extend_from_slice(&0i32.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(&262_144u32.to_le_bytes());
        header.extend_from_slice(&link.linktype().to_le_bytes());
        out.write_all(&header)?;
        Ok(PcapWriter {
            out,
            link,
            frame: Vec::new(),
        })
    }

    /// Writes one frame (its bytes start with the link header).
    ///
    /// # Errors
    /// I/O errors; a frame longer than `u32::MAX` bytes or a time before
    /// 1970 or after 2106.
    pub fn write_frame(&mut self, time: Timestamp, frame: &[u8]) -> io::Result<()> {
        let invalid = |what: &str| io::Error::new(io::ErrorKind::InvalidInput, what.to_owned());
        let seconds = u32::try_from(time.0.div_euclid(1_000_000_000))
            .map_err(|_| invalid("time out of the pcap range"))?;
        let nanos = time.0.rem_euclid(1_000_000_000) as u32;
        let len = u32::try_from(frame.len()).map_err(|_| invalid("frame too long"))?;
        let mut record = [0u8; 16];
        for (dst, src) in record.chunks_exact_mut(4).zip([seconds, nanos, len, len]) {
            dst.copy_from_slice(&src.to_le_bytes());
        }
        self.out.write_all(&record)?;
        self.out.write_all(frame)
    }

    /// Writes a TCP segment in a frame of the writer's link kind (IPv4 or
    /// IPv6 by its addresses).
    ///
    /// # Errors
    /// I/O errors; addresses of two IP versions; a payload too long for
    /// one IP packet.
    pub fn write_segment(&mut self, segment: &Segment<'_>) -> io::Result<()> {
        let (source, destination) = (segment.source, segment.destination);
        let ip = match (source.ip(), destination.ip()) {
            (IpAddr::V4(s), IpAddr::V4(d)) => PacketBuilder::ipv4(s.octets(), d.octets(), 64),
            (IpAddr::V6(s), IpAddr::V6(d)) => PacketBuilder::ipv6(s.octets(), d.octets(), 64),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a segment between an IPv4 and an IPv6 address",
                ));
            }
        };
        let mut tcp = ip.tcp(source.port(), destination.port(), segment.seq, 65535);
        if let Some(ack) = segment.ack {
            tcp = tcp.ack(ack);
        }
        if segment.syn {
            tcp = tcp.syn();
        }
        if segment.fin {
            tcp = tcp.fin();
        }
        if segment.rst {
            tcp = tcp.rst();
        }
        let mut frame = std::mem::take(&mut self.frame);
        frame.clear();
        frame.extend(self.link.header(is_v6(source)));
        tcp.write(&mut frame, segment.payload)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let result = self.write_frame(segment.time, &frame);
        self.frame = frame;
        result
    }

    /// Flushes and returns the output.
    ///
    /// # Errors
    /// I/O errors of the flush.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

fn is_v6(addr: SocketAddr) -> bool {
    addr.is_ipv6()
}
