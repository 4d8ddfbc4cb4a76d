//! Exact fit: every distinct packet of a group decodes strictly under a def
//! (offsets, counts and lists consistent, no trailing bytes, strings valid
//! UTF-16 ending in NUL inside the packet, floats finite) and encodes back
//! to the same bytes (which also holds bools to 0 and 1 and every offset
//! to where the game's writer puts it). What a fit proves is counted in
//! bits: the structure the def pins down in each packet, and how plausible
//! its values read.

use std::fmt;

use tera_dynamic::{Schema, Value};

use crate::defset::{Name, Version};
use crate::leaves::{Visit, floats, walk};
use crate::samples::{Group, Samples};

/// Why a def does not explain a group.
#[derive(Debug, Clone, PartialEq)]
pub enum Misfit {
    /// The def's length never varies and a packet has another.
    Length {
        /// The def's length.
        expected: usize,
        /// The packet's.
        found: usize,
    },
    /// A packet is shorter than the def's shortest form.
    TooShort {
        /// The shortest packet the def can be.
        min: usize,
        /// The packet's length.
        found: usize,
    },
    /// A packet does not decode.
    Decode(String),
    /// A float is NaN or infinite.
    NotFinite {
        /// The field.
        field: String,
    },
    /// A string is not valid UTF-16.
    BadString {
        /// The field.
        field: String,
    },
    /// The decoded value does not encode again.
    Encode(String),
    /// The value encodes to other bytes: the first that differs.
    Reencode {
        /// Where the bytes first differ (or the shorter length).
        at: usize,
    },
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misfit::Length { expected, found } => {
                write!(f, "{found} bytes where the def is always {expected}")
            }
            Misfit::TooShort { min, found } => {
                write!(f, "{found} bytes, shorter than the def's {min}")
            }
            Misfit::Decode(e) => write!(f, "does not decode: {e}"),
            Misfit::NotFinite { field } => write!(f, "field `{field}` is not a finite float"),
            Misfit::BadString { field } => write!(f, "field `{field}` is not valid UTF-16"),
            Misfit::Encode(e) => write!(f, "does not encode again: {e}"),
            Misfit::Reencode { at } => write!(f, "encodes to other bytes (from byte {at})"),
        }
    }
}

/// A def that explains every packet of a group.
#[derive(Debug, Clone)]
pub(crate) struct Fit {
    /// The version of the name that fits best.
    pub(crate) version: u32,
    /// Bits of structure pinned down (offsets, counts, list links, NULs,
    /// bools), the most over the packets of each length, summed over the
    /// lengths.
    pub(crate) structure: f64,
    /// Bits of plausibility of the values (floats that read as game
    /// floats, or not), over the first distinct packets.
    pub(crate) plausibility: f64,
}

/// Distinct packets whose values are weighed for plausibility: beyond a
/// few dozen, more packets of one field say nothing new.
const PLAUSIBILITY_SAMPLES: usize = 24;

/// The best version of `name` for `group`, or why none fits (the latest
/// version's reason).
pub(crate) fn fit_name(samples: &Samples, group: &Group, name: &Name) -> Result<Fit, Misfit> {
    let mut best: Option<Fit> = None;
    let mut last_err = None;
    for version in name.versions.iter().rev() {
        match fit_version(samples, group, version) {
            Ok(fit) => {
                let better = best.as_ref().is_none_or(|b| {
                    fit.structure + fit.plausibility > b.structure + b.plausibility
                });
                if better {
                    best = Some(fit);
                }
            }
            Err(e) => {
                if last_err.is_none() {
                    last_err = Some(e);
                }
            }
        }
    }
    best.ok_or_else(|| last_err.unwrap_or(Misfit::Decode("no version".into())))
}

/// Whether every distinct packet of `group` fits `version`.
pub(crate) fn fit_version(
    samples: &Samples,
    group: &Group,
    version: &Version,
) -> Result<Fit, Misfit> {
    if let Some(expected) = version.fixed_len {
        if group.shortest != expected || group.longest != expected {
            let found = if group.shortest != expected {
                group.shortest
            } else {
                group.longest
            };
            return Err(Misfit::Length { expected, found });
        }
    } else if group.shortest < version.min_len {
        return Err(Misfit::TooShort {
            min: version.min_len,
            found: group.shortest,
        });
    }
    let mut structure_by_length = 0.0;
    let mut structure = 0.0;
    let mut plausibility = 0.0;
    let mut last_len = None;
    for (k, &i) in group.distinct.iter().enumerate() {
        let bytes = samples.bytes(i);
        let shape = fit_packet(&version.schema, bytes, group.opcode)?;
        if k < group.lengths {
            // One packet of each length comes first: each length is a test
            // of the def's offsets of its own.
            if last_len != Some(bytes.len()) {
                structure += structure_by_length;
                structure_by_length = 0.0;
                last_len = Some(bytes.len());
            }
            structure_by_length = f64::max(structure_by_length, shape.structure);
        }
        if k < PLAUSIBILITY_SAMPLES {
            plausibility += shape.plausibility;
        }
    }
    structure += structure_by_length;
    Ok(Fit {
        version: version.schema.version(),
        structure,
        plausibility,
    })
}

/// What one packet that fits says.
#[derive(Debug, Default)]
pub(crate) struct Shape {
    pub(crate) structure: f64,
    pub(crate) plausibility: f64,
}

/// Decodes, checks and encodes one packet.
pub(crate) fn fit_packet(schema: &Schema, bytes: &[u8], opcode: u16) -> Result<Shape, Misfit> {
    let record = schema
        .decode(bytes)
        .map_err(|e| Misfit::Decode(e.to_string()))?;
    let mut shape = Weigh::default();
    walk(&record, &mut shape);
    if let Some(field) = shape.not_finite {
        return Err(Misfit::NotFinite {
            field: field.into(),
        });
    }
    if let Some(field) = shape.bad_string {
        return Err(Misfit::BadString {
            field: field.into(),
        });
    }
    let again = schema
        .encode(&record, opcode)
        .map_err(|e| Misfit::Encode(e.to_string()))?;
    if again != bytes {
        let at = again
            .iter()
            .zip(bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(bytes.len()));
        return Err(Misfit::Reencode { at });
    }
    Ok(Shape {
        structure: shape.structure,
        plausibility: shape.plausibility,
    })
}

/// Bits a string's or bytes' metadata pins: a `u16` offset (and for bytes
/// a `u16` count), checked against the layout.
const META_BITS: f64 = 16.0;
/// A string's NUL: one `u16` that must be zero.
const NUL_BITS: f64 = 16.0;
/// An array element's `here` and `next` links.
const LINK_BITS: f64 = 32.0;
/// An empty array: a count and an offset of zero. Fields the game leaves
/// at zero are common (about one in three of its 16-bit values, say), so
/// two zeros say about 2 bits each, not 16.
const EMPTY_ARRAY_BITS: f64 = 4.0;
/// A bool: seven bits that must be zero.
const BOOL_BITS: f64 = 7.0;

/// The walk that checks a packet's values and counts what they pin down.
#[derive(Default)]
struct Weigh<'r> {
    structure: f64,
    plausibility: f64,
    not_finite: Option<&'r str>,
    bad_string: Option<&'r str>,
}

impl<'r> Visit<'r> for Weigh<'r> {
    fn leaf(&mut self, name: &'r str, value: &'r Value<'r>) {
        match value {
            Value::Bool(_) => self.structure += BOOL_BITS,
            Value::String(s) => {
                self.structure += META_BITS + NUL_BITS;
                if s.try_to_string().is_err() {
                    self.bad_string.get_or_insert(name);
                }
                self.plausibility += crate::plausible::text(s.units());
            }
            Value::Bytes(_) => self.structure += 2.0 * META_BITS,
            other => floats(other, |v| {
                if !v.is_finite() {
                    self.not_finite.get_or_insert(name);
                }
                self.plausibility += crate::plausible::float(v);
            }),
        }
    }

    fn array(&mut self, _name: &'r str, len: usize) {
        // Its count and offset, then each element's links; an empty
        // array's are two zeros, which other data holds often.
        self.structure += if len == 0 {
            EMPTY_ARRAY_BITS
        } else {
            2.0 * META_BITS + LINK_BITS * len as f64
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_dynamic::Catalog;
    use tera_sessions::{Direction, SessionId, Timestamp};

    fn schema(source: &str) -> std::sync::Arc<Schema> {
        let mut c = Catalog::new();
        c.add_def("S_X.1.def", source).unwrap()
    }

    #[test]
    fn strict_fit_and_its_misfits() {
        let chat = schema("uint32 channel\nstring message\n");
        let good = [14u8, 0, 1, 0, 10, 0, 1, 0, 0, 0, b'h', 0, 0, 0];
        let shape = fit_packet(&chat, &good, 1).unwrap();
        // Offset and NUL pinned, the text plausible.
        assert_eq!(shape.structure, 32.0);
        // A trailing byte: decodes, but encodes to other bytes.
        let mut long = good.to_vec();
        long.push(0);
        long[0] = 15;
        assert!(matches!(
            fit_packet(&chat, &long, 1),
            Err(Misfit::Reencode { .. })
        ));
        // An unpaired surrogate is not text.
        let mut bad = good;
        bad[10..12].copy_from_slice(&0xd800u16.to_le_bytes());
        assert!(matches!(
            fit_packet(&chat, &bad, 1),
            Err(Misfit::BadString { .. })
        ));
        // A bool of 2 reads as true and encodes as 1.
        let flag = schema("bool on\n");
        assert!(fit_packet(&flag, &[5, 0, 1, 0, 1], 1).is_ok());
        assert!(matches!(
            fit_packet(&flag, &[5, 0, 1, 0, 2], 1),
            Err(Misfit::Reencode { at: 4 })
        ));
        // An empty array's count and offset are two zeros: they pin little.
        let list = schema("array items\n- uint32 id\n");
        let shape = fit_packet(&list, &[8, 0, 1, 0, 0, 0, 0, 0], 1).unwrap();
        assert_eq!(shape.structure, EMPTY_ARRAY_BITS);
        // A NaN is not a game float.
        let f = schema("float speed\n");
        let nan = f32::NAN.to_le_bytes();
        let packet = [8, 0, 1, 0, nan[0], nan[1], nan[2], nan[3]];
        assert!(matches!(
            fit_packet(&f, &packet, 1),
            Err(Misfit::NotFinite { .. })
        ));
    }

    #[test]
    fn lengths_turn_fixed_defs_down_before_decoding() {
        let mut catalog = Catalog::new();
        catalog.add_def("S_X.1.def", "uint32 a\n").unwrap();
        let defs = crate::DefSet::from_catalog(&catalog);
        let mut samples = Samples::new();
        for len in [8usize, 9] {
            let mut p = vec![0u8; len];
            p[0] = len as u8;
            samples.push_packet(SessionId(0), Timestamp(0), Direction::ServerToClient, &p);
        }
        samples.finish();
        let group = &samples.groups()[0];
        assert_eq!((group.distinct(), group.lengths()), (2, 2));
        let err = fit_name(&samples, group, &defs.names[0]).unwrap_err();
        assert_eq!(
            err,
            Misfit::Length {
                expected: 8,
                found: 9
            }
        );
    }
}
