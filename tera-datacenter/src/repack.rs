//! Laying out an open data center again: another element layout, version,
//! revision, or deduplication, with its names, keys and tree unchanged.

use std::collections::HashMap;

use crate::layout::Layout;
use crate::owned::name_order;
use crate::records::AttributeRecord;
use crate::string::DcStr;
use crate::tree::{DataCenter, Element, Value};
use crate::write::{Source, ValueRef, WriteError, WriteOptions, encode};

/// The `.dec` bytes of the tree of `dc` written with `options`: the same
/// elements, attributes and key definitions, names re-indexed in
/// [`name_order`], children in the writer's order. Strings that are not
/// valid UTF-16 (unpaired surrogates) are written with U+FFFD in their place.
///
/// ```
/// use tera_datacenter::{Arch, DataCenter, OwnedElement, WriteOptions, repack, write_dec};
///
/// let tree = OwnedElement::root(vec![OwnedElement::new("Zone").text("a")]);
/// let x64 = write_dec(&tree, &WriteOptions::default()).unwrap();
/// let dc = DataCenter::parse(&x64).unwrap();
/// let x86 = repack(&dc, &WriteOptions { arch: Arch::X86, ..Default::default() }).unwrap();
/// let back = DataCenter::parse_as(&x86, Some(Arch::X86)).unwrap();
/// assert_eq!(back.root().to_owned_tree().unwrap(), tree);
/// ```
pub fn repack(dc: &DataCenter<'_>, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    let decoded: Vec<String> = dc.names().iter().map(|n| n.to_string_lossy()).collect();
    let source = TreeSource::new(dc, &decoded)?;
    Ok(encode(&source, options)?.into_bytes())
}

/// An open data center as a [`Source`] for the writer.
struct TreeSource<'d, 'n> {
    dc: &'d DataCenter<'d>,
    /// Every distinct name, in [`name_order`].
    names: Vec<&'n str>,
    /// The new index of each old one-based name index (index 0 unused).
    remap: Vec<u16>,
    /// Every string value of the file, decoded once.
    values: Vec<String>,
    /// The string of each string value's offset in the file.
    value_at: HashMap<usize, u32>,
}

impl<'d, 'n> TreeSource<'d, 'n> {
    /// `decoded`: the names of `dc`, decoded, in index order.
    fn new(dc: &'d DataCenter<'d>, decoded: &'n [String]) -> Result<Self, WriteError> {
        let mut names: Vec<&str> = decoded.iter().map(String::as_str).collect();
        for special in ["__root__", "__value__"] {
            if !names.contains(&special) {
                names.push(special);
            }
        }
        names.sort_by(|a, b| name_order(a, b));
        names.dedup();
        if names.len() > u16::MAX as usize {
            return Err(WriteError::TooManyNames(names.len()));
        }
        let index: HashMap<&str, u16> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i as u16 + 1))
            .collect();
        let remap = std::iter::once(0)
            .chain(decoded.iter().map(|n| index[n.as_str()]))
            .collect();
        let (values, value_at) = string_values(dc);
        Ok(TreeSource {
            dc,
            names,
            remap,
            values,
            value_at,
        })
    }
}

/// Every string value of the file's attribute records, decoded once, and
/// the index of each by the offset of its text.
fn string_values(dc: &DataCenter<'_>) -> (Vec<String>, HashMap<usize, u32>) {
    let (b, l) = (dc.bytes(), &dc.layout);
    let size = l.arch.attribute_size();
    let mut values = Vec::new();
    let mut value_at = HashMap::new();
    for segment in &l.attributes {
        for i in 0..segment.used as usize {
            let o = segment.offset + i * size;
            let Some(address) = AttributeRecord::read(b, o).text_address() else {
                continue;
            };
            let Some(text) = Layout::string_at(b, &l.values.data, address) else {
                continue;
            };
            let at = text.as_ptr() as usize - b.as_ptr() as usize;
            value_at.entry(at).or_insert_with(|| {
                values.push(DcStr::from_utf16le(text).to_string_lossy());
                values.len() as u32 - 1
            });
        }
    }
    (values, value_at)
}

impl<'d> Source for TreeSource<'d, '_> {
    type Node = Element<'d>;

    fn root(&self) -> Element<'d> {
        self.dc.root()
    }

    fn names(&self) -> &[&str] {
        &self.names
    }

    fn name(&self, node: Element<'d>) -> u16 {
        self.remap[node.name_index() as usize]
    }

    fn key(&self, node: Element<'d>) -> [u16; 4] {
        let key = self.dc.key(node.key_index()).unwrap_or_default();
        key.map(|k| self.remap.get(k as usize).copied().unwrap_or(0))
    }

    fn attributes<'s>(&'s self, node: Element<'d>, out: &mut Vec<(u16, ValueRef<'s>)>) {
        let base = self.dc.bytes().as_ptr() as usize;
        out.extend(node.attributes().map(|a| {
            let value = match a.value() {
                Value::Int(v) => ValueRef::Int(v),
                Value::Bool(v) => ValueRef::Bool(v),
                Value::Float(v) => ValueRef::Float(v),
                Value::Str(s) => {
                    let at = s.as_bytes().as_ptr() as usize - base;
                    ValueRef::Str(&self.values[self.value_at[&at] as usize])
                }
            };
            (self.remap[a.name_index() as usize], value)
        }));
    }

    fn children(&self, node: Element<'d>, out: &mut Vec<Element<'d>>) {
        out.extend(node.children());
    }
}
