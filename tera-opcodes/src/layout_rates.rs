//! How rare a def's layout is among the game's layouts: the share of the
//! other names' packets that a def fits. A session holds one packet or two
//! of most opcodes, so that a def fitting one group of a hundred says at
//! most seven bits by the session's own count; the def set says more. A
//! packet whose def the set lacks has some layout of the game's, and the
//! def set is a sample of those layouts: a def that fits none of the
//! other names' packets seldom fits the packet of a name the set lacks,
//! and one that fits a tenth of them (eight bytes of integers, a lone
//! list) fits a tenth of such packets too.
//!
//! The packets are each name's latest def written three ways: every field
//! zero and every list and text empty, then lists of one element and short
//! texts, then lists of two and longer texts. Integers stay zero, so that
//! every bool of the def tried reads, which overstates the share (a real
//! packet's bytes are seldom all zero): a layout's rarity is never
//! overstated.
//!
//! Of the other names whose packets a def fits at one length, the share it
//! fits at a second says what a group's further lengths are worth against
//! a def of a like layout: an integer and a text fit every other integer
//! and text at every length, so a packet's texts of several lengths tell
//! them apart no better than one.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tera_dynamic::{ElementKind, Kind, Record, Schema, StructSchema, Value};
use tera_packets::{Bytes, Str};

use crate::defset::DefSet;
use crate::fit::fit_packet;

/// Nested lists deeper than this are left empty.
const MAX_DEPTH: usize = 4;

/// The packets each name's def is written as: (list length, text).
const FORMS: [(usize, &str); 3] = [(0, ""), (1, "ab"), (2, "Elinu's grace")];

/// Each name's share of the other names' packets that its def fits:
/// `(k + 1) / (t + 1)` for a def that fits `k` of the `t` packets.
#[derive(Debug, Default)]
pub(crate) struct LayoutRates {
    share: HashMap<usize, f64>,
    further: HashMap<usize, f64>,
}

impl LayoutRates {
    /// The rarity of the layouts of `names` (indices into `defs`), each
    /// against the packets of every other name of the set.
    pub(crate) fn measure(defs: &DefSet, names: impl IntoIterator<Item = usize>) -> LayoutRates {
        let packets = written(defs);
        let mut by_len: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, (_, bytes)) in packets.iter().enumerate() {
            by_len.entry(bytes.len()).or_default().push(k);
        }
        let mut share = HashMap::new();
        let mut further = HashMap::new();
        for n in names {
            let name = &defs.names[n];
            let tried = packets.iter().filter(|(owner, _)| *owner != n).count();
            let mut fits = 0usize;
            let mut lengths: HashMap<usize, HashSet<usize>> = HashMap::new();
            for (&len, ks) in &by_len {
                let versions: Vec<&Arc<Schema>> = name
                    .versions
                    .iter()
                    .filter(|v| v.fixed_len.map_or(len >= v.min_len, |f| f == len))
                    .map(|v| &v.schema)
                    .collect();
                if versions.is_empty() {
                    continue;
                }
                for &k in ks {
                    let owner = packets[k].0;
                    if owner != n
                        && versions
                            .iter()
                            .any(|s| fit_packet(s, &packets[k].1, 0).is_ok())
                    {
                        fits += 1;
                        lengths.entry(owner).or_default().insert(len);
                    }
                }
            }
            share.insert(n, (fits + 1) as f64 / (tried + 1) as f64);
            let once = lengths.len();
            let again = lengths.values().filter(|l| l.len() > 1).count();
            if once > 0 {
                further.insert(n, (again + 1) as f64 / (once + 1) as f64);
            }
        }
        LayoutRates { share, further }
    }

    /// Of the other names whose packets name `n`'s def fits at one length,
    /// the share it fits at a second (None when it fits no other name's).
    pub(crate) fn further(&self, n: usize) -> Option<f64> {
        self.further.get(&n).copied()
    }

    /// The share of the other names' packets that name `n`'s def fits (1
    /// for a name not measured).
    pub(crate) fn share(&self, n: usize) -> f64 {
        self.share.get(&n).copied().unwrap_or(1.0)
    }
}

/// Every name's latest def written in each of [`FORMS`]: (name, packet).
fn written(defs: &DefSet) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    for (n, name) in defs.names.iter().enumerate() {
        let Some(latest) = name.versions.last() else {
            continue;
        };
        for (elements, text) in FORMS {
            let record = record(latest.schema.root(), elements, text, 0);
            if let Ok(bytes) = latest.schema.encode(&record, 0) {
                out.push((n, bytes));
            }
        }
    }
    out
}

/// A record of `schema` with lists of `elements` and texts `text`, every
/// number zero.
fn record(
    schema: &Arc<StructSchema>,
    elements: usize,
    text: &str,
    depth: usize,
) -> Record<'static> {
    let mut out = Record::zero(schema);
    for field in schema.fields() {
        let value = match field.kind() {
            Kind::Scalar(_) => continue,
            Kind::String => Value::String(Str::from(text.to_owned())),
            Kind::Bytes => Value::Bytes(Bytes::from(text.as_bytes().to_vec())),
            Kind::Object(inner) => Value::Object(record(inner, elements, text, depth + 1)),
            Kind::Array(element) => {
                let n = if depth < MAX_DEPTH { elements } else { 0 };
                Value::Array(
                    (0..n)
                        .map(|_| match element {
                            ElementKind::Scalar(s) => Value::zero(&Kind::Scalar(*s)),
                            ElementKind::String => Value::String(Str::from(text.to_owned())),
                            ElementKind::Block(inner) => {
                                Value::Object(record(inner, elements, text, depth + 1))
                            }
                        })
                        .collect(),
                )
            }
        };
        if let Some(slot) = out.get_mut(field.name()) {
            *slot = value;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tera_dynamic::Catalog;

    #[test]
    fn a_layout_many_defs_share_is_common_and_a_rich_one_rare() {
        let mut catalog = Catalog::new();
        // Four defs of eight bytes of integers, one of a text and a list.
        for (k, name) in ["S_A", "S_B", "S_C", "S_D"].iter().enumerate() {
            let body = if k % 2 == 0 {
                "uint32 a\nuint32 b\n"
            } else {
                "uint64 id\n"
            };
            catalog.add_def(&format!("{name}.1.def"), body).unwrap();
        }
        catalog
            .add_def(
                "S_RICH.1.def",
                "string name\narray items\n- uint32 id\n- string label\n",
            )
            .unwrap();
        let defs = DefSet::from_catalog(&catalog);
        let all: Vec<usize> = (0..defs.len()).collect();
        let rates = LayoutRates::measure(&defs, all);
        let a = defs.index("S_A").unwrap();
        let rich = defs.index("S_RICH").unwrap();
        // S_A fits the three other eight-byte defs' packets (each written
        // three times alike) and S_RICH's empty one (an empty text's NUL
        // and three zero words): 10 of the 12 other packets.
        assert_eq!(rates.share(a), 11.0 / 13.0);
        // S_RICH fits none of the 12 others'.
        assert_eq!(rates.share(rich), 1.0 / 13.0);
        // A name not measured is as common as can be.
        assert_eq!(LayoutRates::default().share(a), 1.0);
    }

    #[test]
    fn a_def_that_fits_a_like_layout_once_fits_it_at_every_length() {
        let mut catalog = Catalog::new();
        // Two defs of an integer and a text: each fits the other's three
        // packets, whatever the text's length.
        catalog
            .add_def("C_INVITE.1.def", "int32 unk\nstring name\n")
            .unwrap();
        catalog
            .add_def("C_ADVERTISE.1.def", "int32 kills\nstring text\n")
            .unwrap();
        // A list of pairs, and eight bytes of id.
        catalog
            .add_def("S_LIST.1.def", "array items\n- uint32 id\n- uint32 count\n")
            .unwrap();
        catalog.add_def("S_ID.1.def", "uint64 id\n").unwrap();
        let defs = DefSet::from_catalog(&catalog);
        let all: Vec<usize> = (0..defs.len()).collect();
        let rates = LayoutRates::measure(&defs, all);
        let invite = defs.index("C_INVITE").unwrap();
        let list = defs.index("S_LIST").unwrap();
        // C_INVITE fits C_ADVERTISE at three lengths: a second length says
        // nothing against a like layout.
        assert_eq!(rates.further(invite), Some(1.0));
        // S_ID fits the two texts' empty packets (eight bytes) and no
        // longer one: (0 + 1) / (2 + 1).
        let id = defs.index("S_ID").unwrap();
        assert_eq!(rates.further(id), Some(1.0 / 3.0));
        // S_LIST fits no other name's packet: nothing to say.
        assert_eq!(rates.further(list), None);
    }
}
