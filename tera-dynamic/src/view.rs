//! A decoded packet as one vector of slots ([`View`]), and the borrowed
//! handles that read it: records, arrays and field values. Every field is
//! read and checked when the view is made; the handles only look up slots.

use std::sync::Arc;

use tera_packets::{Bytes, Str};

use crate::scalars::for_each_scalar;
use crate::schema::{ElementKind, Kind, StructSchema};
use crate::slot::Slot;
use crate::value::{Record, Value};

/// A packet decoded by [`Schema::view`](crate::Schema::view): every value
/// in one vector (one allocation, and its growth for arrays), strings and
/// bytes borrowed from the packet. Read it through [`View::get`] and
/// [`View::iter`], serialize it to the generated packets' JSON, or turn it
/// into a [`Record`] to change and encode.
#[derive(Debug, Clone)]
pub struct View<'s, 'a> {
    root: &'s Arc<StructSchema>,
    packet: &'a [u8],
    slots: Slots<'s>,
}

/// A view's slots: its own, or a [`ViewBuf`]'s.
#[derive(Debug, Clone)]
pub(crate) enum Slots<'s> {
    Owned(Vec<Slot>),
    Borrowed(&'s [Slot]),
}

impl Slots<'_> {
    fn as_slice(&self) -> &[Slot] {
        match self {
            Slots::Owned(slots) => slots,
            Slots::Borrowed(slots) => slots,
        }
    }
}

/// Room for the values of views, kept from packet to packet:
/// [`Schema::view_in`](crate::Schema::view_in) decodes into it, and
/// allocates nothing once it has grown to the size of the packets read.
/// A proxy keeps one per connection.
#[derive(Debug, Clone, Default)]
pub struct ViewBuf {
    pub(crate) slots: Vec<Slot>,
}

impl ViewBuf {
    /// An empty buffer; the first views grow it.
    pub fn new() -> Self {
        ViewBuf::default()
    }
}

/// The fields of a block or object of a [`View`].
#[derive(Debug, Clone, Copy)]
pub struct RecordView<'v, 'a> {
    s: &'v Arc<StructSchema>,
    packet: &'a [u8],
    slots: &'v [Slot],
    start: usize,
}

/// The elements of an array of a [`View`].
#[derive(Debug, Clone, Copy)]
pub struct ArrayView<'v, 'a> {
    element: &'v ElementKind,
    packet: &'a [u8],
    slots: &'v [Slot],
    first: usize,
    len: usize,
}

/// A field's value in a [`View`].
#[derive(Debug, Clone, PartialEq)]
pub enum ViewValue<'v, 'a> {
    /// A scalar, string or bytes (never [`Value::Array`] or
    /// [`Value::Object`]); strings and bytes borrow from the packet.
    Value(Value<'a>),
    /// `array` or `array<T>`.
    Array(ArrayView<'v, 'a>),
    /// `object`, and each element of an `array` with fields.
    Object(RecordView<'v, 'a>),
}

impl<'s, 'a> View<'s, 'a> {
    pub(crate) fn new(root: &'s Arc<StructSchema>, packet: &'a [u8], slots: Slots<'s>) -> Self {
        View {
            root,
            packet,
            slots,
        }
    }

    /// The root block's fields.
    pub fn record(&self) -> RecordView<'_, 'a> {
        RecordView {
            s: self.root,
            packet: self.packet,
            slots: self.slots.as_slice(),
            start: 0,
        }
    }

    /// The value of the root block's field `name`.
    pub fn get(&self, name: &str) -> Option<ViewValue<'_, 'a>> {
        self.record().get(name)
    }

    /// The root block's fields and their values, in def order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, ViewValue<'_, 'a>)> {
        self.record().iter()
    }

    /// The packet as a [`Record`] (a vector per record and array), to
    /// change and encode.
    pub fn to_record(&self) -> Record<'a> {
        self.record().to_record()
    }

    /// The packet the view reads.
    pub fn packet(&self) -> &'a [u8] {
        self.packet
    }
}

impl<'v, 'a> RecordView<'v, 'a> {
    /// The value of field `name`.
    pub fn get(&self, name: &str) -> Option<ViewValue<'v, 'a>> {
        let i = self.s.fields.iter().position(|f| &*f.name == name)?;
        Some(self.value(i))
    }

    /// The fields and their values, in def order.
    pub fn iter(&self) -> impl Iterator<Item = (&'v str, ViewValue<'v, 'a>)> + use<'v, 'a> {
        let this = *self;
        (0..this.s.fields.len()).map(move |i| (&*this.s.fields[i].name, this.value(i)))
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.s.fields.len()
    }

    /// Whether the block has no fields.
    pub fn is_empty(&self) -> bool {
        self.s.fields.is_empty()
    }

    /// The record as a [`Record`] of owned vectors, strings and bytes still
    /// borrowed from the packet.
    pub fn to_record(&self) -> Record<'a> {
        // Builds each `Value` in place rather than through `value()`: a
        // `ViewValue` made and then unpacked costs 60% more here (the
        // `decode/` figures of `cargo bench -p tera-dynamic --bench dynamic`).
        let slots = self.slots.get(self.start..).unwrap_or_default();
        let values = self
            .s
            .fields
            .iter()
            .zip(slots)
            .map(|(f, &slot)| match (&f.kind, slot) {
                (Kind::Array(element), Slot::Array { first, len }) => {
                    let items = ArrayView {
                        element,
                        packet: self.packet,
                        slots: self.slots,
                        first: first as usize,
                        len: len as usize,
                    };
                    Value::Array(items.iter().map(|v| v.into_value()).collect())
                }
                (Kind::Object(s), Slot::Object { start }) => Value::Object(
                    RecordView {
                        s,
                        packet: self.packet,
                        slots: self.slots,
                        start: start as usize,
                    }
                    .to_record(),
                ),
                (kind, slot) => leaf(slot, self.packet).unwrap_or_else(|| Value::zero(kind)),
            })
            .collect();
        Record {
            schema: Arc::clone(self.s),
            values,
        }
    }

    /// Field `i`'s value.
    fn value(&self, i: usize) -> ViewValue<'v, 'a> {
        let slot = self
            .slots
            .get(self.start + i)
            .copied()
            .unwrap_or(Slot::Next(0));
        match (&self.s.fields[i].kind, slot) {
            (Kind::Array(element), Slot::Array { first, len }) => ViewValue::Array(ArrayView {
                element,
                packet: self.packet,
                slots: self.slots,
                first: first as usize,
                len: len as usize,
            }),
            (Kind::Object(s), Slot::Object { start }) => ViewValue::Object(RecordView {
                s,
                packet: self.packet,
                slots: self.slots,
                start: start as usize,
            }),
            (kind, slot) => {
                ViewValue::Value(leaf(slot, self.packet).unwrap_or_else(|| Value::zero(kind)))
            }
        }
    }
}

impl<'v, 'a> ArrayView<'v, 'a> {
    /// Element `i`, if the array has that many.
    pub fn get(&self, i: usize) -> Option<ViewValue<'v, 'a>> {
        self.iter().nth(i)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements, in wire order.
    pub fn iter(&self) -> impl Iterator<Item = ViewValue<'v, 'a>> + use<'v, 'a> {
        let this = *self;
        // A block element is a link to the next one, then its record; the
        // records of a block of scalars in field order follow each other.
        let mut at = this.first;
        (0..this.len).map(move |_| match this.element {
            ElementKind::Block(s) if s.sequential => {
                let record = RecordView {
                    s,
                    packet: this.packet,
                    slots: this.slots,
                    start: at,
                };
                at += s.fields.len();
                ViewValue::Object(record)
            }
            ElementKind::Block(s) => {
                let record = RecordView {
                    s,
                    packet: this.packet,
                    slots: this.slots,
                    start: at + 1,
                };
                if let Some(Slot::Next(next)) = this.slots.get(at) {
                    at = *next as usize;
                }
                ViewValue::Object(record)
            }
            ElementKind::Scalar(_) | ElementKind::String => {
                let slot = this.slots.get(at).copied().unwrap_or(Slot::Next(0));
                at += 1;
                ViewValue::Value(
                    leaf(slot, this.packet).unwrap_or_else(|| match this.element {
                        ElementKind::Scalar(s) => Value::zero_scalar(*s),
                        _ => Value::String(Str::default()),
                    }),
                )
            }
        })
    }
}

impl<'a> ViewValue<'_, 'a> {
    /// The value as a [`Value`], arrays and objects in vectors of their own.
    pub fn into_value(self) -> Value<'a> {
        match self {
            ViewValue::Value(v) => v,
            ViewValue::Array(items) => Value::Array(items.iter().map(|v| v.into_value()).collect()),
            ViewValue::Object(record) => Value::Object(record.to_record()),
        }
    }
}

impl PartialEq for RecordView<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl PartialEq for ArrayView<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

/// Declares [`leaf`] from the scalar list.
macro_rules! leaf_fn {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        /// A scalar, string or bytes slot as a value borrowing from `packet`;
        /// `None` for arrays, objects and links.
        #[inline(always)]
        fn leaf(slot: Slot, packet: &[u8]) -> Option<Value<'_>> {
            let range = |start: u32, len: u32| {
                let start = start as usize;
                packet.get(start..start + len as usize).unwrap_or_default()
            };
            Some(match slot {
                $(Slot::$v(v) => Value::$v(v),)*
                Slot::String { start, len } => Value::String(Str::from_utf16le(range(start, len))),
                Slot::Bytes { start, len } => Value::Bytes(Bytes::from(range(start, len))),
                Slot::Array { .. } | Slot::Object { .. } | Slot::Next(_) => return None,
            })
        }
    };
}
for_each_scalar!(leaf_fn);
