//! The formats a session comes in, told apart by their first bytes.

use std::fmt;
use std::path::Path;

/// A file format of sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A libpcap capture (`.pcap`): magic `a1b2c3d4` or `a1b23c4d` in
    /// either byte order.
    Pcap,
    /// A pcapng capture (`.pcapng`): a section header block, `0a0d0d0a`.
    Pcapng,
    /// ShinraMeter's TeraConnectionLog (`.TeraLog`): a first block of
    /// type 1 holding `TeraConnectionLog`.
    TeraLog,
    /// Alkahest's packet log (`.pkt`): `TPPL`.
    Pkt,
    /// This project's JSONL form (`.jsonl`): one JSON object a line, the
    /// first starting with `{`.
    Jsonl,
}

/// The magic of a `.TeraLog`: block type 1, size 19, the ASCII text.
pub(crate) const TERALOG_MAGIC: &[u8] = b"\x01\x13\x00TeraConnectionLog";
/// The magic of a `.pkt`.
pub(crate) const PKT_MAGIC: &[u8] = b"TPPL";

impl Format {
    /// The format whose magic `head` (the first bytes of a file, at least
    /// 20 when the file has them) starts with.
    #[must_use]
    pub fn detect(head: &[u8]) -> Option<Format> {
        let word = head.get(..4);
        match word {
            Some([0xa1, 0xb2, 0xc3, 0xd4] | [0xd4, 0xc3, 0xb2, 0xa1]) => Some(Format::Pcap),
            Some([0xa1, 0xb2, 0x3c, 0x4d] | [0x4d, 0x3c, 0xb2, 0xa1]) => Some(Format::Pcap),
            Some([0x0a, 0x0d, 0x0d, 0x0a]) => Some(Format::Pcapng),
            _ if head.starts_with(TERALOG_MAGIC) => Some(Format::TeraLog),
            _ if head.starts_with(PKT_MAGIC) => Some(Format::Pkt),
            _ if head.trim_ascii_start().starts_with(b"{") => Some(Format::Jsonl),
            _ => None,
        }
    }

    /// The format a file name's extension names (case-insensitive):
    /// `pcap`, `pcapng`, `TeraLog`, `pkt`, `jsonl`.
    #[must_use]
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pcap" => Some(Format::Pcap),
            "pcapng" => Some(Format::Pcapng),
            "teralog" => Some(Format::TeraLog),
            "pkt" => Some(Format::Pkt),
            "jsonl" => Some(Format::Jsonl),
            _ => None,
        }
    }

    /// How many first bytes [`Format::detect`] looks at.
    pub const HEAD_LEN: usize = 20;
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Pcap => "pcap",
            Format::Pcapng => "pcapng",
            Format::TeraLog => ".TeraLog",
            Format::Pkt => ".pkt",
            Format::Jsonl => "JSONL",
        })
    }
}
