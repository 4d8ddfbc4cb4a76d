//! Exact fit: whether a packet is what a def describes, byte for byte.
//! Decoding alone accepts bytes past the def's last field and offsets the
//! game's writer never makes, so that two versions of a def may both
//! "decode" a packet; an exact fit also encodes the value back and gets
//! the same bytes.

use crate::error::DecodeError;
use crate::schema::Schema;

/// Why a packet does not fit a def exactly.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Misfit {
    /// The packet does not decode.
    #[error("does not decode: {0}")]
    Decode(DecodeError),
    /// It decodes, but the def's fields end before the packet does.
    #[error("{left} of its {len} bytes are left after the def's fields")]
    Trailing {
        /// The bytes past the def's fields.
        left: usize,
        /// The packet's length.
        len: usize,
    },
    /// The decoded value does not encode again.
    #[error("does not encode again: {0}")]
    Encode(String),
    /// It encodes to other bytes (a bool that is not 0 or 1, an offset the
    /// game's writer would not put there, a layout the def does not make).
    #[error("encodes to other bytes from byte {at}{}", lengths(*again, *len))]
    Reencode {
        /// The first byte that differs (past the length header when the
        /// lengths differ).
        at: usize,
        /// The length of the bytes encoded again.
        again: usize,
        /// The packet's length.
        len: usize,
    },
}

impl Schema {
    /// Whether `packet` (whole, header included) fits the def exactly: it
    /// decodes, and its value encodes back, with the packet's opcode, to
    /// the same bytes (so no byte is left over).
    ///
    /// ```
    /// # use tera_dynamic::{Catalog, Misfit};
    /// let mut catalog = Catalog::new();
    /// let short = catalog.add_def("S_HP.1.def", "uint32 hp\n").unwrap();
    /// let packet = [12, 0, 0x2a, 0x50, 100, 0, 0, 0, 7, 0, 0, 0];
    /// // Version 1 decodes it, four bytes unread: no fit.
    /// assert!(short.decode(&packet).is_ok());
    /// assert_eq!(short.fit(&packet), Err(Misfit::Trailing { left: 4, len: 12 }));
    /// let long = catalog.add_def("S_HP.2.def", "uint32 hp\nuint32 max\n").unwrap();
    /// assert_eq!(long.fit(&packet), Ok(()));
    /// ```
    ///
    /// # Errors
    /// The first way the packet departs from the def.
    pub fn fit(&self, packet: &[u8]) -> Result<(), Misfit> {
        let value = self.decode(packet).map_err(Misfit::Decode)?;
        let opcode = match packet {
            [_, _, lo, hi, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => 0,
        };
        let again = self
            .encode(&value, opcode)
            .map_err(|e| Misfit::Encode(e.to_string()))?;
        Misfit::compare(&again, packet)
    }
}

impl Misfit {
    /// Whether `packet` fits, given the bytes its decoded value encodes
    /// back to (`again`): for any codec that decodes and encodes, as the
    /// generated packets do.
    ///
    /// # Errors
    /// [`Misfit::Trailing`] when `again` is `packet` cut short,
    /// [`Misfit::Reencode`] for other bytes.
    pub fn compare(again: &[u8], packet: &[u8]) -> Result<(), Misfit> {
        if again == packet {
            return Ok(());
        }
        // The length headers differ whenever the lengths do: compare past
        // them.
        let shorter_prefix = again.len() < packet.len()
            && again
                .get(2..)
                .is_some_and(|tail| packet.get(2..again.len()) == Some(tail));
        if shorter_prefix {
            return Err(Misfit::Trailing {
                left: packet.len() - again.len(),
                len: packet.len(),
            });
        }
        Err(Misfit::Reencode {
            at: first_difference(again, packet),
            again: again.len(),
            len: packet.len(),
        })
    }
}

/// Where `a` and `b` first differ; past the length header when their
/// lengths differ (the headers do then).
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let from = if a.len() == b.len() { 0 } else { 2 };
    a.iter()
        .zip(b)
        .skip(from)
        .position(|(x, y)| x != y)
        .map_or(a.len().min(b.len()), |k| k + from)
}

fn lengths(again: usize, len: usize) -> String {
    if again == len {
        String::new()
    } else {
        format!(" ({again} bytes, not {len})")
    }
}
