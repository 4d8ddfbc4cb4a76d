//! The zero-copy tree: `DataCenter`, `Element`, `Attribute`, `Value`.

use std::fmt;

use crate::address::Address;
use crate::check::{FirstProblem, check_records};
use crate::hash::{bucket_of, string_hash};
use crate::layout::{Header, Layout, Segment, detect_layout};
use crate::problem::{Place, Problem, ProblemKind, Table};
use crate::records::{
    ADDRESS_SIZE, Arch, AttributeRecord, KEY_SIZE, NodeField, NodeRecord, RawValue,
    STRING_ENTRY_SIZE, StringEntry, read_address, read_key,
};
use crate::string::DcStr;

/// An opened data center (the decompressed `.dec` bytes), borrowed, never
/// copied: elements, names and strings are views into `bytes`.
///
/// Opening checks every used node and attribute record once (name indexes,
/// type codes, addresses within the used part of their region), so that the
/// accessors below cannot fail; a file that fails is refused with the first
/// [`Problem`] found. The [`verify`](crate::verify()) function makes the
/// same checks and the remaining, strict ones, and reports every problem.
#[derive(Debug, Clone)]
pub struct DataCenter<'a> {
    bytes: &'a [u8],
    pub(crate) layout: Layout,
    names: Vec<DcStr<'a>>,
    value_name: Option<u16>,
    node_base: Vec<usize>,
}

impl<'a> DataCenter<'a> {
    /// Opens decompressed bytes, finding the element layout (64- or 32-bit).
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Problem> {
        Self::parse_as(bytes, None)
    }

    /// Opens decompressed bytes with a known element layout, or finds it when
    /// `arch` is `None`.
    pub fn parse_as(bytes: &'a [u8], arch: Option<Arch>) -> Result<Self, Problem> {
        let layout = detect_layout(bytes, arch)?;
        let names = resolve_names(bytes, &layout)?;
        let mut node_base = Vec::with_capacity(layout.nodes.len() + 1);
        let mut total = 0usize;
        for s in &layout.nodes {
            node_base.push(total);
            total += s.used as usize;
        }
        node_base.push(total);
        let value_name = names
            .iter()
            .position(|n| n.eq_str("__value__"))
            .map(|i| (i + 1) as u16);
        let dc = DataCenter {
            bytes,
            layout,
            names,
            value_name,
            node_base,
        };
        let mut first = FirstProblem::default();
        let _ = check_records(bytes, &dc.layout, dc.names.len(), &mut first);
        match first.0 {
            Some(problem) => Err(problem),
            None => Ok(dc),
        }
    }

    /// The decompressed bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The element layout.
    pub fn arch(&self) -> Arch {
        self.layout.arch
    }

    /// The file header.
    pub fn header(&self) -> &Header {
        &self.layout.header
    }

    /// The root element, `__root__` at 0:0.
    pub fn root(&self) -> Element<'_> {
        Element::at(self, Address::ROOT)
    }

    /// All names, in index order (name index `i` is `names()[i - 1]`).
    pub fn names(&self) -> &[DcStr<'a>] {
        &self.names
    }

    /// The name of a one-based name index.
    pub fn name(&self, index: u16) -> Option<DcStr<'a>> {
        index
            .checked_sub(1)
            .and_then(|i| self.names.get(i as usize).copied())
    }

    /// Number of used node records in the nodes region (including any
    /// unreachable or nameless ones).
    pub fn node_count(&self) -> usize {
        self.node_base.last().copied().unwrap_or(0)
    }

    /// Number of used attribute records.
    pub fn attribute_record_count(&self) -> usize {
        self.layout.attributes.iter().map(|s| s.used as usize).sum()
    }

    /// The one-based index of a name, found through the names hash table (or
    /// by a scan when the table does not have it).
    pub fn name_index(&self, name: &str) -> Option<u16> {
        let hash = string_hash(name.encode_utf16());
        let t = &self.layout.names;
        let (off, count) = t.buckets[bucket_of(hash, t.buckets.len())];
        for e in 0..count {
            let entry = StringEntry::read(self.bytes, off + e * STRING_ENTRY_SIZE);
            if entry.hash == hash {
                let index = entry.index;
                if let Some(n) = index
                    .checked_sub(1)
                    .and_then(|i| self.names.get(i as usize))
                    && n.eq_str(name)
                {
                    return Some(index as u16);
                }
            }
        }
        self.names
            .iter()
            .position(|n| n.eq_str(name))
            .map(|i| (i + 1) as u16)
    }

    /// Number of key definitions in the keys region (definition 0, with no
    /// keys, included).
    pub fn key_count(&self) -> usize {
        self.layout.key_count
    }

    /// The four one-based name indexes of key definition `index` (0 where a
    /// slot is unused), or `None` past the keys region.
    pub fn key(&self, index: u16) -> Option<[u16; 4]> {
        let index = index as usize;
        (index < self.layout.key_count)
            .then(|| read_key(self.bytes, self.layout.keys + index * KEY_SIZE))
    }

    /// Dense index of a node (0..node_count), for visited sets.
    pub(crate) fn node_ordinal(&self, a: Address) -> usize {
        self.node_base[a.segment as usize] + a.element as usize
    }
}

fn resolve_names<'a>(b: &'a [u8], l: &Layout) -> Result<Vec<DcStr<'a>>, Problem> {
    let t = &l.names;
    (0..t.address_count)
        .map(|i| {
            let o = t.addresses + i * ADDRESS_SIZE;
            let address = read_address(b, o);
            Layout::string_at(b, &t.data, address)
                .map(DcStr::from_utf16le)
                .ok_or_else(|| {
                    let kind = ProblemKind::BadAddress {
                        what: "string",
                        address,
                        count: 1,
                    };
                    Problem::new(o, Place::TableAddress(Table::Names, i as u32 + 1), kind)
                })
        })
        .collect()
}

/// An element (node) of the tree: a view, `Copy`, 16 bytes.
#[derive(Clone, Copy)]
pub struct Element<'d> {
    dc: &'d DataCenter<'d>,
    address: Address,
    offset: usize,
}

impl<'d> Element<'d> {
    fn at(dc: &'d DataCenter<'d>, address: Address) -> Self {
        let s: &Segment = &dc.layout.nodes[address.segment as usize];
        let offset = s.offset + address.element as usize * dc.layout.arch.node_size();
        Element {
            dc,
            address,
            offset,
        }
    }

    fn record(&self) -> NodeRecord {
        NodeRecord::read(self.dc.bytes, self.offset, self.dc.layout.arch)
    }

    /// The data center this element belongs to.
    pub fn data_center(&self) -> &'d DataCenter<'d> {
        self.dc
    }

    /// The element's address in the nodes region.
    pub fn address(&self) -> Address {
        self.address
    }

    /// Byte offset of the node record in the decompressed file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// One-based name index.
    pub fn name_index(&self) -> u16 {
        NodeRecord::read_name(self.dc.bytes, self.offset)
    }

    /// The element's name.
    pub fn name(&self) -> DcStr<'d> {
        self.dc.name(self.name_index()).unwrap_or_default()
    }

    /// Index into the keys region.
    pub fn key_index(&self) -> u16 {
        self.record().key
    }

    /// The names of the attributes of this element's key definition (empty
    /// for definition 0 or an index past the keys region).
    pub fn key_names(&self) -> Vec<DcStr<'d>> {
        self.dc
            .key(self.key_index())
            .into_iter()
            .flatten()
            .filter_map(|i| self.dc.name(i))
            .collect()
    }

    /// The key flags (1: uncached).
    pub fn key_flags(&self) -> u8 {
        self.record().flags
    }

    /// Number of attribute records (including `__value__`).
    pub fn attribute_count(&self) -> usize {
        self.record().attribute_count as usize
    }

    /// Number of child records (including nameless ones, which
    /// [`children`](Self::children) skips).
    pub fn child_count(&self) -> usize {
        self.record().child_count as usize
    }

    /// Address of the first attribute.
    pub fn attributes_address(&self) -> Address {
        self.record().attributes
    }

    /// Address of the first child.
    pub fn children_address(&self) -> Address {
        self.record().children
    }

    /// The attributes, in file order (including `__value__`).
    pub fn attributes(&self) -> Attributes<'d> {
        let record = self.record();
        let count = record.attribute_count as usize;
        let size = self.dc.layout.arch.attribute_size();
        let start = if count == 0 {
            0
        } else {
            Layout::locate(
                &self.dc.layout.attributes,
                record.attributes,
                count as u32,
                size,
            )
            .expect("checked when opened")
        };
        Attributes {
            dc: self.dc,
            next: start,
            end: start + count * size,
            size,
            address: record.attributes,
        }
    }

    /// The value of the attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<Value<'d>> {
        let index = self.dc.name_index(name)?;
        self.attributes()
            .find(|a| a.name_index() == index)
            .map(|a| a.value())
    }

    /// The text (`__value__` attribute), if any.
    pub fn value(&self) -> Option<DcStr<'d>> {
        let index = self.dc.value_name?;
        match self.attributes().find(|a| a.name_index() == index)?.value() {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The children, in file order, skipping nameless records.
    pub fn children(&self) -> Children<'d> {
        let record = self.record();
        let count = record.child_count;
        let first = record.children;
        Children {
            dc: self.dc,
            segment: first.segment,
            next: first.element as u32,
            end: first.element as u32 + count as u32,
        }
    }

    /// The problem of meeting one of this element's children again below
    /// it: its run of children holds it or an ancestor (a cycle).
    pub(crate) fn cycle(&self) -> Problem {
        let arch = self.dc.layout.arch;
        Problem::new(
            NodeField::Children.at(self.offset, arch),
            Place::Node(self.address),
            ProblemKind::Cycle(self.children_address()),
        )
    }

    /// The children called `name` (none when no element has that name).
    pub fn children_named(&self, name: &str) -> impl Iterator<Item = Element<'d>> + 'd {
        let index = self.dc.name_index(name);
        let children = if index.is_some() {
            self.children()
        } else {
            Children::empty(self.dc)
        };
        children.filter(move |c| Some(c.name_index()) == index)
    }

    /// The first child called `name`.
    pub fn child(&self, name: &str) -> Option<Element<'d>> {
        self.children_named(name).next()
    }

    /// The elements at a `/`-separated path of names below this one, such as
    /// `"AreaList/Area"`; an empty path selects this element.
    pub fn select(&self, path: &str) -> Vec<Element<'d>> {
        let mut current = vec![*self];
        for step in path.split('/').filter(|s| !s.is_empty()) {
            current = current
                .iter()
                .flat_map(|e| e.children_named(step))
                .collect();
        }
        current
    }
}

impl fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Element")
            .field("address", &self.address)
            .field("name", &self.name())
            .field("attributes", &self.attribute_count())
            .field("children", &self.child_count())
            .finish()
    }
}

/// Iterator over the children of an element.
#[derive(Clone)]
pub struct Children<'d> {
    dc: &'d DataCenter<'d>,
    segment: u16,
    next: u32,
    end: u32,
}

impl<'d> Children<'d> {
    fn empty(dc: &'d DataCenter<'d>) -> Self {
        Children {
            dc,
            segment: 0,
            next: 0,
            end: 0,
        }
    }
}

impl<'d> Iterator for Children<'d> {
    type Item = Element<'d>;

    fn next(&mut self) -> Option<Element<'d>> {
        while self.next < self.end {
            let e = Element::at(
                self.dc,
                Address {
                    segment: self.segment,
                    element: self.next as u16,
                },
            );
            self.next += 1;
            if e.name_index() != 0 {
                return Some(e);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some((self.end - self.next) as usize))
    }
}

/// Iterator over the attributes of an element.
#[derive(Clone)]
pub struct Attributes<'d> {
    dc: &'d DataCenter<'d>,
    next: usize,
    end: usize,
    size: usize,
    address: Address,
}

impl<'d> Iterator for Attributes<'d> {
    type Item = Attribute<'d>;

    fn next(&mut self) -> Option<Attribute<'d>> {
        if self.next >= self.end {
            return None;
        }
        let a = Attribute {
            dc: self.dc,
            offset: self.next,
            address: self.address,
        };
        self.next += self.size;
        self.address.element = self.address.element.wrapping_add(1);
        Some(a)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) / self.size;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Attributes<'_> {}

/// An attribute: a name and a typed value.
#[derive(Clone, Copy)]
pub struct Attribute<'d> {
    dc: &'d DataCenter<'d>,
    offset: usize,
    address: Address,
}

impl<'d> Attribute<'d> {
    /// One-based name index.
    pub fn name_index(&self) -> u16 {
        AttributeRecord::read_name(self.dc.bytes, self.offset)
    }

    /// The attribute's name.
    pub fn name(&self) -> DcStr<'d> {
        self.dc.name(self.name_index()).unwrap_or_default()
    }

    /// The address of the attribute record.
    pub fn address(&self) -> Address {
        self.address
    }

    /// Byte offset of the attribute record in the decompressed file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The raw type field: the type code (1 int, 2 float, 3 string) in its
    /// low two bits, the extended code (the boolean flag of an int, the
    /// value hash of a string) above them.
    pub fn type_info(&self) -> u16 {
        AttributeRecord::read(self.dc.bytes, self.offset).type_info()
    }

    /// True for `__value__`, the element's text.
    pub fn is_text(&self) -> bool {
        Some(self.name_index()) == self.dc.value_name
    }

    /// The typed value. An integer with the boolean flag is a `Bool` (true
    /// when non-zero; the verifier reports values other than 0 and 1).
    pub fn value(&self) -> Value<'d> {
        match AttributeRecord::read(self.dc.bytes, self.offset).value() {
            RawValue::Bool(raw) => Value::Bool(raw != 0),
            RawValue::Int(v) => Value::Int(v),
            RawValue::Float(v) => Value::Float(v),
            RawValue::Str(a) => {
                let s = Layout::string_at(self.dc.bytes, &self.dc.layout.values.data, a)
                    .expect("checked when opened");
                Value::Str(DcStr::from_utf16le(s))
            }
            RawValue::Untyped(_) => unreachable!("type codes are checked when opened"),
        }
    }
}

impl fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}={:?}", self.name(), self.value())
    }
}

/// A typed attribute value; strings are views into the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// A 32-bit integer.
    Int(i32),
    /// A boolean (an integer with the boolean flag).
    Bool(bool),
    /// A 32-bit float.
    Float(f32),
    /// A string of the values table.
    Str(DcStr<'a>),
}

impl<'a> Value<'a> {
    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i32> {
        match *self {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(v) => Some(v),
            _ => None,
        }
    }

    /// The float, if this is one.
    pub fn as_float(&self) -> Option<f32> {
        match *self {
            Value::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<DcStr<'a>> {
        match *self {
            Value::Str(v) => Some(v),
            _ => None,
        }
    }
}
