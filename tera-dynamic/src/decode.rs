//! Decoding: a walk over each struct's plan that reads every piece through
//! the runtime's own field types (`Str`, `Bytes`, the scalars) and follows
//! array links as `tera_packets::Array` does, with the same checks in the
//! same order, so that it accepts and rejects what the generated packets do.

use std::sync::Arc;

use tera_packets::{Bytes, Error, ErrorKind, Reader, Str, Wire};
use tera_wire_plan::{Segment, Step};

use crate::error::DecodeError;
use crate::refs::RefPositions;
use crate::scalar;
use crate::schema::{Element, Kind, Schema, Struct};
use crate::value::{Record, Value};

type Decoded<T> = Result<T, DecodeError>;

impl Schema {
    /// Decodes a whole packet, header included (its opcode is not looked
    /// at), checking every offset, count, string and list as the generated
    /// packets do. Strings and bytes borrow from `packet`.
    pub fn decode<'a>(&self, packet: &'a [u8]) -> Decoded<Record<'a>> {
        let declared = match packet {
            [lo, hi, _, _, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => return Err(Error::new(ErrorKind::MissingHeader, 0).into()),
        };
        if usize::from(declared) != packet.len() {
            let actual = u32::try_from(packet.len()).unwrap_or(u32::MAX);
            return Err(Error::new(ErrorKind::LengthMismatch { declared, actual }, 0).into());
        }
        read_block(&self.root, &mut Reader::new(packet))
    }
}

impl Schema {
    /// A value with every field zero or empty: what the generated packet's
    /// `Default` holds. Set its fields with [`Record::get_mut`].
    pub fn zero(&self) -> Record<'static> {
        zero_record(&self.root)
    }

    /// The packet's length, header included, when it never varies (no
    /// string, bytes or array anywhere in it).
    pub fn fixed_len(&self) -> Option<usize> {
        fn fixed(s: &Struct) -> bool {
            s.fields.iter().all(|f| match &f.kind {
                Kind::Scalar(_) => true,
                Kind::Object(inner) => fixed(inner),
                Kind::String | Kind::Bytes | Kind::Array(_) => false,
            })
        }
        if fixed(&self.root) {
            self.encoded_len(&self.zero()).ok()
        } else {
            None
        }
    }
}

/// The zero value of a struct: what the generated type's `Default` holds.
pub(crate) fn zero_record(s: &Struct) -> Record<'static> {
    Record {
        names: Arc::clone(&s.names),
        values: s.fields.iter().map(|f| zero(&f.kind)).collect(),
    }
}

fn zero(kind: &Kind) -> Value<'static> {
    match kind {
        Kind::Scalar(s) => scalar::zero(*s),
        Kind::String => Value::String(Str::default()),
        Kind::Bytes => Value::Bytes(Bytes::default()),
        Kind::Array(_) => Value::Array(Vec::new()),
        Kind::Object(s) => Value::Object(zero_record(s)),
    }
}

/// A block at the cursor: its implicit metadata words, then its steps.
fn read_block<'a>(s: &Struct, r: &mut Reader<'a>) -> Decoded<Record<'a>> {
    let meta = r.pos();
    r.skip(2 * s.meta_words)?;
    read_struct(s, r, meta)
}

/// A whole struct (a block after its metadata words, or an object) whose
/// implicit slots start at `meta`.
fn read_struct<'a>(s: &Struct, r: &mut Reader<'a>, meta: usize) -> Decoded<Record<'a>> {
    let mut record = Record {
        names: Arc::clone(&s.names),
        values: Vec::with_capacity(s.fields.len()),
    };
    read_steps(s, None, r, meta, &mut record)?;
    // Every field has a step; a def without one would show zeros.
    for f in &s.fields[record.values.len().min(s.fields.len())..] {
        record.values.push(zero(&f.kind));
    }
    Ok(record)
}

/// The steps of part `part` (all when `None`) into `record`.
fn read_steps<'a>(
    s: &Struct,
    part: Option<usize>,
    r: &mut Reader<'a>,
    meta: usize,
    record: &mut Record<'a>,
) -> Decoded<()> {
    let steps = s.steps(part);
    // Explicit refs: where each placed its field's metadata.
    let mut refs = RefPositions::default();
    let mut read = |step: Step, r: &mut Reader<'a>, record: &mut Record<'a>| -> Decoded<()> {
        let i = step.field();
        let field = &s.fields[i];
        let named = |e: DecodeError| e.in_field(&field.name);
        match step {
            Step::Ref(i) => {
                refs.push(i, r.pos());
                r.skip(2 * s.fields[i].kind.meta_words())?;
            }
            Step::Field(i) => {
                let at = if s.plan.explicit() {
                    refs.get(i).unwrap_or(r.pos())
                } else {
                    meta + 2 * steps.slot(i, 0)
                };
                put(
                    &mut record.values,
                    i,
                    read_field(&field.kind, r, at).map_err(named)?,
                );
            }
            Step::Repeat(i) => {
                if let Kind::Scalar(sc) = field.kind {
                    put(
                        &mut record.values,
                        i,
                        scalar::read(sc, r).map_err(|e| named(e.into()))?,
                    );
                }
            }
            Step::Part { field: i, part: p } => {
                let Kind::Object(child) = &field.kind else {
                    return Ok(());
                };
                if p == 0 {
                    put(&mut record.values, i, Value::Object(zero_record(child)));
                }
                if let Some(Value::Object(inner)) = record.values.get_mut(i) {
                    let at = meta + 2 * steps.slot(i, p);
                    read_steps(child, Some(p), r, at, inner).map_err(named)?;
                }
            }
        }
        Ok(())
    };
    for segment in &steps.segments {
        match segment {
            Segment::Run(run) => {
                for &step in run {
                    read(step, r, record)?;
                }
            }
            Segment::Single(step) => read(*step, r, record)?,
            Segment::Interleaved(group) => {
                // The group ends where the writer's cursor ends: after the
                // furthest element.
                let mut end = r.pos();
                for &i in group {
                    read(Step::Field(i), r, record)?;
                    end = end.max(r.pos());
                }
                r.set_pos(end);
            }
        }
    }
    Ok(())
}

/// Sets field `i`: fields are mostly read in order, so usually a push.
#[inline]
fn put<'a>(values: &mut Vec<Value<'a>>, i: usize, value: Value<'a>) {
    if i == values.len() {
        values.push(value);
    } else if let Some(slot) = values.get_mut(i) {
        *slot = value;
    } else {
        // A field read before one declared earlier (a split object's part):
        // the earlier ones are set by their own steps later.
        values.resize(i, Value::Bool(false));
        values.push(value);
    }
}

/// A field whose metadata words are at `meta`.
#[inline]
fn read_field<'a>(kind: &Kind, r: &mut Reader<'a>, meta: usize) -> Decoded<Value<'a>> {
    Ok(match kind {
        Kind::Scalar(s) => scalar::read(*s, r)?,
        Kind::String => Value::String(Str::read(r, meta)?),
        Kind::Bytes => Value::Bytes(Bytes::read(r, meta)?),
        Kind::Array(element) => read_array(element, r, meta)?,
        Kind::Object(s) => Value::Object(read_struct(s, r, meta)?),
    })
}

/// An array's linked list, as `tera_packets::Array` walks it: each element
/// inside the packet, the budget of bytes spent (no loops, no overlap),
/// exactly `count` links. The vector grows with the elements read, never
/// from the count on the wire.
fn read_array<'a>(element: &Element, r: &mut Reader<'a>, meta: usize) -> Decoded<Value<'a>> {
    let count = r.u16_at(meta)?;
    let first = r.u16_at(meta + 2)?;
    let mut items = Vec::new();
    let mut pos = usize::from(first);
    let mut link = meta + 2;
    for left in (0..count).rev() {
        r.check_offset(pos, link)?;
        r.spend(4, pos)?;
        let next = r.u16_at(pos + 2)?;
        r.set_pos(pos + 4);
        items.push(read_element(element, r)?);
        link = pos + 2;
        match (left, next) {
            (0, 0) => {}
            (0, _) => return Err(Error::new(ErrorKind::ListTooLong, link).into()),
            (_, 0) => return Err(Error::new(ErrorKind::ListTooShort, link).into()),
            (_, next) => pos = usize::from(next),
        }
    }
    Ok(Value::Array(items))
}

/// One element's block at the cursor (after its `here` and `next`).
fn read_element<'a>(element: &Element, r: &mut Reader<'a>) -> Decoded<Value<'a>> {
    Ok(match element {
        Element::Scalar(s) => scalar::read(*s, r)?,
        Element::String => {
            let meta = r.pos();
            r.skip(2)?;
            Value::String(Str::read(r, meta)?)
        }
        Element::Block(s) => Value::Object(read_block(s, r)?),
    })
}
