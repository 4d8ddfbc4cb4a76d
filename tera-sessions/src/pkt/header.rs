//! A `.pkt` header: region, client version, servers.

use std::fmt;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

use crate::error::{At, ReadError};
use crate::event::Start;
use crate::format::{Format, PKT_MAGIC};
use crate::read_util::read_full;

/// The regions a `.pkt` names, by their byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// Germany (0).
    De,
    /// France (1).
    Fr,
    /// Japan (2).
    Jp,
    /// Korea (3).
    Kr,
    /// North America (4).
    Na,
    /// Russia (5).
    Ru,
    /// South-East Asia (6).
    Se,
    /// Thailand (7).
    Th,
    /// Taiwan (8).
    Tw,
    /// United Kingdom (9).
    Uk,
}

const REGIONS: [(Region, &str); 10] = [
    (Region::De, "DE"),
    (Region::Fr, "FR"),
    (Region::Jp, "JP"),
    (Region::Kr, "KR"),
    (Region::Na, "NA"),
    (Region::Ru, "RU"),
    (Region::Se, "SE"),
    (Region::Th, "TH"),
    (Region::Tw, "TW"),
    (Region::Uk, "UK"),
];

impl Region {
    /// The region of a `.pkt`'s region byte.
    #[must_use]
    pub fn from_byte(byte: u8) -> Option<Region> {
        REGIONS.get(usize::from(byte)).map(|(r, _)| *r)
    }

    /// The region's byte.
    #[must_use]
    pub fn byte(self) -> u8 {
        let index = REGIONS.iter().position(|(r, _)| *r == self).unwrap_or(0);
        u8::try_from(index).unwrap_or(0)
    }

    /// The region's name (`NA`).
    #[must_use]
    pub fn name(self) -> &'static str {
        REGIONS
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("", |(_, n)| n)
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Region {
    type Err = String;

    /// `NA`, `eu`... (case-insensitive); `EU` is not a `.pkt` region.
    fn from_str(text: &str) -> Result<Region, String> {
        REGIONS
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(text))
            .map(|(r, _)| *r)
            .ok_or_else(|| {
                let names: Vec<&str> = REGIONS.iter().map(|(_, n)| *n).collect();
                format!("`{text}` is not a .pkt region ({})", names.join(", "))
            })
    }
}

/// One server of a `.pkt` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PktServer {
    /// The id its entries carry.
    pub id: i32,
    /// Its name.
    pub name: String,
    /// The game server's address.
    pub real: SocketAddr,
    /// The proxy's address for it.
    pub proxy: SocketAddr,
}

/// A `.pkt` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PktHeader {
    /// The region.
    pub region: Region,
    /// The client version.
    pub client_version: u32,
    /// The servers the entries name.
    pub servers: Vec<PktServer>,
    /// 0 (entries stored as they are) or a deflate level (1 to 9).
    pub compression: u8,
}

/// The most servers a header may list: more is taken as a broken file.
pub(crate) const MAX_SERVERS: u32 = 4096;
/// The longest server name, in UTF-16 units.
const MAX_NAME: usize = 1024;
const UNSPECIFIED: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0);

impl PktHeader {
    /// A header for sessions that start as `starts` say: one server per
    /// session (id = the session's number, named `session N`, its real
    /// address the session's server or `0.0.0.0:0`), no proxy address.
    pub fn for_sessions<'a>(
        region: Region,
        client_version: u32,
        starts: impl IntoIterator<Item = &'a Start>,
    ) -> PktHeader {
        let servers = starts
            .into_iter()
            .map(|s| PktServer {
                id: i32::try_from(s.session.0).unwrap_or(i32::MAX),
                name: format!("session {}", s.session.0),
                real: s.server.unwrap_or(UNSPECIFIED),
                proxy: UNSPECIFIED,
            })
            .collect();
        PktHeader {
            region,
            client_version,
            servers,
            compression: 6,
        }
    }

    /// Writes the header, its compression byte last.
    pub(crate) fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(PKT_MAGIC)?;
        out.write_all(&1u32.to_le_bytes())?;
        out.write_all(&[self.region.byte()])?;
        out.write_all(&self.client_version.to_le_bytes())?;
        let count = u32::try_from(self.servers.len()).unwrap_or(u32::MAX);
        out.write_all(&count.to_le_bytes())?;
        for server in &self.servers {
            out.write_all(&server.id.to_le_bytes())?;
            for unit in server.name.encode_utf16().chain([0]) {
                out.write_all(&unit.to_le_bytes())?;
            }
            let v6 = server.real.is_ipv6() || server.proxy.is_ipv6();
            out.write_all(&[u8::from(v6)])?;
            for addr in [server.real, server.proxy] {
                match (addr.ip(), v6) {
                    (IpAddr::V4(ip), false) => out.write_all(&ip.octets())?,
                    (IpAddr::V4(ip), true) => out.write_all(&ip.to_ipv6_mapped().octets())?,
                    (IpAddr::V6(ip), _) => out.write_all(&ip.octets())?,
                }
                out.write_all(&addr.port().to_le_bytes())?;
            }
        }
        out.write_all(&[self.compression])
    }

    /// Reads a header (magic included); returns it and its length.
    pub(crate) fn read(input: &mut impl Read) -> Result<(PktHeader, u64), ReadError> {
        let mut r = HeaderReader { input, offset: 0 };
        let magic: [u8; 4] = r.array("the magic")?;
        if magic != PKT_MAGIC {
            return Err(r.error(0, "no TPPL magic"));
        }
        let version = u32::from_le_bytes(r.array("the format version")?);
        if version != 1 {
            return Err(r.error(4, format!("format version {version} (only 1 is known)")));
        }
        let [byte] = r.array("the region")?;
        let region =
            Region::from_byte(byte).ok_or_else(|| r.error(8, format!("region byte {byte}")))?;
        let client_version = u32::from_le_bytes(r.array("the client version")?);
        let count = u32::from_le_bytes(r.array("the server count")?);
        if count > MAX_SERVERS {
            return Err(r.error(13, format!("{count} servers (at most {MAX_SERVERS} read)")));
        }
        let mut servers = Vec::new();
        for _ in 0..count {
            servers.push(r.server()?);
        }
        let at = r.offset;
        let [compression] = r.array("the compression byte")?;
        if compression > 9 {
            return Err(r.error(at, format!("compression {compression} (0 to 9 expected)")));
        }
        let header = PktHeader {
            region,
            client_version,
            servers,
            compression,
        };
        Ok((header, r.offset))
    }
}

/// Reads a header's fields, counting bytes.
struct HeaderReader<'r, R> {
    input: &'r mut R,
    offset: u64,
}

impl<R: Read> HeaderReader<'_, R> {
    fn error(&self, at: u64, message: impl Into<String>) -> ReadError {
        ReadError::malformed(Format::Pkt, At::Byte(at), message)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ReadError> {
        let mut bytes = [0; N];
        let got = read_full(self.input, &mut bytes)?;
        if got < N {
            return Err(self.error(self.offset, format!("the file ends inside {what}")));
        }
        self.offset += N as u64;
        Ok(bytes)
    }

    fn server(&mut self) -> Result<PktServer, ReadError> {
        let id = i32::from_le_bytes(self.array("a server id")?);
        let at = self.offset;
        let mut units = Vec::new();
        loop {
            let unit = u16::from_le_bytes(self.array("a server name")?);
            if unit == 0 {
                break;
            }
            if units.len() == MAX_NAME {
                return Err(self.error(at, format!("a server name over {MAX_NAME} characters")));
            }
            units.push(unit);
        }
        let name = String::from_utf16(&units)
            .map_err(|_| self.error(at, "a server name that is not UTF-16"))?;
        let [v6] = self.array("a server's address family")?;
        let real = self.address(v6 != 0)?;
        let proxy = self.address(v6 != 0)?;
        Ok(PktServer {
            id,
            name,
            real,
            proxy,
        })
    }

    fn address(&mut self, v6: bool) -> Result<SocketAddr, ReadError> {
        let ip = if v6 {
            IpAddr::V6(Ipv6Addr::from(self.array::<16>("an address")?))
        } else {
            IpAddr::V4(Ipv4Addr::from(self.array::<4>("an address")?))
        };
        let port = u16::from_le_bytes(self.array("a port")?);
        Ok(SocketAddr::new(ip.to_canonical(), port))
    }
}
