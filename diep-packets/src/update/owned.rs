//! The owned Update message: built by hand (or from a view) and encoded
//! through a field table.

use tera_packets::{Codec, Error, ErrorKind, IntoOwned, Result, Writer};

use super::value::Value;
use super::view::{UpcreateKind, UpdateView};
use crate::entid::EntId;
use crate::error::DiepErrorKind;
use crate::field_table::FieldTable;
use crate::jump_table::{CLOSE, jump_len, write_jump};
use crate::varint::{Vu, vu_len, write_vu};

/// An Update message that owns its data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    /// The server's tick.
    pub tick: u32,
    /// The deleted entities.
    pub deletes: Vec<EntId>,
    /// The created and updated entities.
    pub upcreates: Vec<Upcreate>,
}

/// One created or updated entity.
#[derive(Debug, Clone, PartialEq)]
pub struct Upcreate {
    /// The entity.
    pub entity: EntId,
    /// Creation or update.
    pub kind: UpcreateKind,
    /// A creation's group ids, ascending (empty for an update).
    pub groups: Vec<u32>,
    /// The fields by ascending order index: a creation gives every field
    /// of its groups (every element of an array field); an update gives the
    /// changed fields (and the changed elements of an array field).
    pub fields: Vec<FieldEntry>,
}

/// A field's value(s) in an [`Upcreate`].
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEntry {
    /// The field's index in the field order.
    pub index: u32,
    /// The value of a single field, or the elements of an array field.
    pub data: FieldData,
}

/// The value of a single field, or elements of an array field.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldData {
    /// A single field's value.
    One(Value<'static>),
    /// An array field's elements by ascending index.
    Elements(Vec<(u32, Value<'static>)>),
}

impl Update {
    /// The owned copy of a decoded view.
    pub fn from_view(view: &UpdateView<'_>) -> Self {
        let upcreates = view
            .upcreates()
            .map(|u| {
                let mut fields: Vec<FieldEntry> = Vec::new();
                for f in u.fields() {
                    let value = f.value.into_owned();
                    match f.element {
                        None => fields.push(FieldEntry {
                            index: f.index,
                            data: FieldData::One(value),
                        }),
                        Some(e) => match fields.last_mut() {
                            Some(FieldEntry {
                                index,
                                data: FieldData::Elements(elements),
                            }) if *index == f.index => elements.push((e, value)),
                            _ => fields.push(FieldEntry {
                                index: f.index,
                                data: FieldData::Elements(vec![(e, value)]),
                            }),
                        },
                    }
                }
                Upcreate {
                    entity: u.entity(),
                    kind: u.kind(),
                    groups: u.groups().map(|(id, _)| id).collect(),
                    fields,
                }
            })
            .collect();
        Update {
            tick: view.tick(),
            deletes: view.deletes().collect(),
            upcreates,
        }
    }

    /// The size of the encoded message (id byte included), checking the
    /// values against `table` (see [`DiepErrorKind::FieldMismatch`]).
    pub fn encoded_len(&self, table: &FieldTable) -> Result<usize> {
        let mut len = 1 + vu_len(self.tick) + Vu(len_u32(self.deletes.len())).byte_len();
        for d in &self.deletes {
            len += d.byte_len();
        }
        len += vu_len(len_u32(self.upcreates.len()));
        for u in &self.upcreates {
            len += u.entity.byte_len() + u.body_len(table)?;
        }
        Ok(len)
    }

    /// Encodes the message into `out` (cleared first; its capacity is
    /// reused).
    pub fn encode_into(&self, table: &FieldTable, out: &mut Vec<u8>) -> Result<()> {
        let len = self.encoded_len(table)?;
        out.clear();
        out.resize(len, 0);
        self.write(out, len)
    }

    /// Encodes the message into the front of `buf`, returning its length.
    pub fn encode_to_slice(&self, table: &FieldTable, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len(table)?;
        let Some(dst) = buf.get_mut(..len) else {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed: len_u32(len),
                },
                0,
            ));
        };
        self.write(dst, len)?;
        Ok(len)
    }

    /// Encodes the message into a new vector.
    pub fn encode(&self, table: &FieldTable) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_into(table, &mut out)?;
        Ok(out)
    }

    /// Writes the checked message into `buf` of exactly `len` bytes.
    fn write(&self, buf: &mut [u8], len: usize) -> Result<()> {
        let mut w = Writer::new(buf, 0);
        w.put_array([0]);
        write_vu(&mut w, self.tick);
        write_vu(&mut w, len_u32(self.deletes.len()));
        for d in &self.deletes {
            d.write_at(&mut w);
        }
        write_vu(&mut w, len_u32(self.upcreates.len()));
        for u in &self.upcreates {
            u.entity.write_at(&mut w);
            u.write_body(&mut w);
        }
        if w.pos() != len {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed: len_u32(len),
                },
                w.pos(),
            ));
        }
        Ok(())
    }
}

/// A length as the `u32` of a `vu` count (saturating; such lengths do not
/// fit a message anyway).
fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn mismatch(index: u32) -> Error {
    DiepErrorKind::FieldMismatch { index }.at(0)
}

impl Upcreate {
    /// The bytes after the entity, checking the values against `table`.
    fn body_len(&self, table: &FieldTable) -> Result<usize> {
        match self.kind {
            UpcreateKind::Creation => {
                let mut len = 1 + 1;
                let mut mask = 0u128;
                let mut prev = None;
                for &g in &self.groups {
                    if g >= table.group_count() || prev.is_some_and(|p| p >= g) {
                        return Err(DiepErrorKind::IndexPastTable {
                            index: g,
                            len: table.group_count(),
                        }
                        .at(0));
                    }
                    len += jump_len(prev, g);
                    mask |= 1u128 << g;
                    prev = Some(g);
                }
                let mut given = self.fields.iter();
                for (index, field) in table.order().iter().enumerate() {
                    if mask & (1u128 << field.group()) == 0 {
                        continue;
                    }
                    let index = index as u32;
                    let entry = given.next().ok_or_else(|| mismatch(index))?;
                    if entry.index != index {
                        return Err(mismatch(index));
                    }
                    match (&entry.data, field.count()) {
                        (FieldData::One(v), None) => {
                            v.check(field.encoding(), index)?;
                            len += v.byte_len();
                        }
                        (FieldData::Elements(elements), Some(count))
                            if elements.len() == count as usize =>
                        {
                            for (k, (e, v)) in elements.iter().enumerate() {
                                if *e as usize != k {
                                    return Err(mismatch(index));
                                }
                                v.check(field.encoding(), index)?;
                                len += v.byte_len();
                            }
                        }
                        _ => return Err(mismatch(index)),
                    }
                }
                if let Some(extra) = given.next() {
                    return Err(mismatch(extra.index));
                }
                Ok(len)
            }
            UpcreateKind::Update => {
                if !self.groups.is_empty() {
                    return Err(mismatch(0));
                }
                let mut len = 2 + 1;
                let mut prev = None;
                for entry in &self.fields {
                    let index = entry.index;
                    let field = table.field(index).ok_or_else(|| {
                        DiepErrorKind::IndexPastTable {
                            index,
                            len: table.field_count(),
                        }
                        .at(0)
                    })?;
                    if prev.is_some_and(|p| p >= index) {
                        return Err(mismatch(index));
                    }
                    len += jump_len(prev, index);
                    prev = Some(index);
                    match (&entry.data, field.count()) {
                        (FieldData::One(v), None) => {
                            v.check(field.update_encoding(), index)?;
                            len += v.byte_len();
                        }
                        (FieldData::Elements(elements), Some(count)) if !elements.is_empty() => {
                            let mut prev_e = None;
                            for (e, v) in elements {
                                if *e >= count || prev_e.is_some_and(|p| p >= *e) {
                                    return Err(mismatch(index));
                                }
                                v.check(field.update_encoding(), index)?;
                                len += jump_len(prev_e, *e) + v.byte_len();
                                prev_e = Some(*e);
                            }
                            len += 1;
                        }
                        _ => return Err(mismatch(index)),
                    }
                }
                Ok(len)
            }
        }
    }

    /// Writes the checked body (see [`Upcreate::body_len`]).
    fn write_body(&self, w: &mut Writer<'_>) {
        match self.kind {
            UpcreateKind::Creation => {
                w.put_array([1]);
                let mut prev = None;
                for &g in &self.groups {
                    write_jump(w, prev, g);
                    prev = Some(g);
                }
                w.put_array([CLOSE]);
                for entry in &self.fields {
                    match &entry.data {
                        FieldData::One(v) => v.write(w),
                        FieldData::Elements(elements) => {
                            for (_, v) in elements {
                                v.write(w);
                            }
                        }
                    }
                }
            }
            UpcreateKind::Update => {
                w.put_array([0, 1]);
                let mut prev = None;
                for entry in &self.fields {
                    write_jump(w, prev, entry.index);
                    prev = Some(entry.index);
                    match &entry.data {
                        FieldData::One(v) => v.write(w),
                        FieldData::Elements(elements) => {
                            let mut prev_e = None;
                            for (e, v) in elements {
                                write_jump(w, prev_e, *e);
                                v.write(w);
                                prev_e = Some(*e);
                            }
                            w.put_array([CLOSE]);
                        }
                    }
                }
                w.put_array([CLOSE]);
            }
        }
    }
}
