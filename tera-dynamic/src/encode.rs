//! Encoding: the length of a value, then each struct's [`Program`] run
//! again to write every piece through the runtime's own field types and
//! `tera_packets::Chain`, as the derive's write does. Each value's type is
//! checked once: a scalar field's as it is written, the others' while the
//! length is counted.

use std::sync::Arc;

use tera_packets::{Chain, Error, ErrorKind, HEADER_LEN, MAX_PACKET_LEN, Wire, Writer};

use crate::error::EncodeError;
use crate::program::{Fields, Meta, Op, Program, RefPositions, match_op};
use crate::scalar::{self, ScalarType};
use crate::schema::{Element, Kind, Schema, Struct};
use crate::value::{Record, Value};

type Encoded<T> = Result<T, EncodeError>;

/// Whether counting a length checks the types of scalar fields too, or
/// leaves them to the write that follows.
#[derive(Clone, Copy, PartialEq)]
enum Scalars {
    Check,
    Skip,
}

impl Schema {
    /// The exact size of the encoded packet, header included; an error
    /// when a field of `value` is missing or has another type than the
    /// def's.
    pub fn encoded_len(&self, value: &Record<'_>) -> Encoded<usize> {
        Ok(HEADER_LEN + block_len(&self.root, value, Scalars::Check)?)
    }

    /// Encodes `value` into the front of `buf` with `opcode` in its header
    /// and returns its length. Fails when the value does not fit the def,
    /// the packet would exceed 65535 bytes or `buf` is too small; the bytes
    /// of `buf` are then unspecified (a field of the wrong type is found
    /// while writing).
    pub fn encode_into(&self, value: &Record<'_>, opcode: u16, buf: &mut [u8]) -> Encoded<usize> {
        let len = HEADER_LEN + block_len(&self.root, value, Scalars::Skip)?;
        if len > MAX_PACKET_LEN {
            let size = u32::try_from(len).unwrap_or(u32::MAX);
            return Err(Error::new(ErrorKind::TooLarge { size }, 0).into());
        }
        let needed = ErrorKind::BufferTooSmall {
            needed: u32::try_from(len).unwrap_or(u32::MAX),
        };
        let Some(packet) = buf.get_mut(..len) else {
            return Err(Error::new(needed, 0).into());
        };
        let mut w = Writer::new(packet, 0);
        let ([len_lo, len_hi], [op_lo, op_hi]) = ((len as u16).to_le_bytes(), opcode.to_le_bytes());
        w.put_array([len_lo, len_hi, op_lo, op_hi]);
        write_block(&self.root, value, &mut w)?;
        if w.pos() != len {
            return Err(Error::new(needed, w.pos()).into());
        }
        Ok(len)
    }

    /// Encodes `value` into a new vector with `opcode` in its header.
    pub fn encode(&self, value: &Record<'_>, opcode: u16) -> Encoded<Vec<u8>> {
        let mut buf = vec![0; self.encoded_len(value)?];
        let len = self.encode_into(value, opcode, &mut buf)?;
        buf.truncate(len);
        Ok(buf)
    }
}

/// Puts `name` in front of the path of a mismatch found inside it.
fn inside(name: &str, e: EncodeError) -> EncodeError {
    match e {
        EncodeError::Mismatch {
            path,
            expected,
            found,
        } => EncodeError::Mismatch {
            path: if path.is_empty() {
                name.to_string()
            } else if path.starts_with('[') {
                format!("{name}{path}")
            } else {
                format!("{name}.{path}")
            },
            expected,
            found,
        },
        other => other,
    }
}

fn mismatch(expected: &'static str, found: Option<&Value<'_>>) -> EncodeError {
    EncodeError::Mismatch {
        path: String::new(),
        expected,
        found: found.map_or("nothing", Value::type_name),
    }
}

/// The values of `record` in the order of `s`'s fields, or the first
/// field that is missing or named otherwise.
fn fields_of<'r, 'a>(s: &Struct, record: &'r Record<'a>) -> Encoded<&'r [Value<'a>]> {
    let same = Arc::ptr_eq(&record.names, &s.names) && record.values.len() == s.fields.len();
    if !same {
        for (k, f) in s.fields.iter().enumerate() {
            match (record.names.get(k), record.values.get(k)) {
                (Some(name), Some(_)) if **name == *f.name => {}
                _ => return Err(inside(&f.name, mismatch(kind_name(&f.kind), None))),
            }
        }
    }
    Ok(&record.values)
}

fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Scalar(s) => scalar::def_name(*s),
        Kind::String => "string",
        Kind::Bytes => "bytes",
        Kind::Array(_) => "array",
        Kind::Object(_) => "object",
    }
}

fn block_len(s: &Struct, record: &Record<'_>, scalars: Scalars) -> Encoded<usize> {
    Ok(2 * s.meta_words + program_len(s, &s.all, record, scalars)?)
}

/// The bytes the operations of `program` write at the cursor, checking
/// the types of the values (of scalars too with [`Scalars::Check`]).
fn program_len(
    s: &Struct,
    program: &Program,
    record: &Record<'_>,
    scalars: Scalars,
) -> Encoded<usize> {
    let values = fields_of(s, record)?;
    if scalars == Scalars::Skip {
        let mut total = program.fixed_bytes;
        for &k in &program.variable {
            total += op_len(s, &program.ops[k], values, scalars)?;
        }
        return Ok(total);
    }
    let mut total = 0;
    for op in &program.ops {
        total += op_len(s, op, values, scalars)?;
    }
    Ok(total)
}

/// The bytes operation `op` writes.
#[inline]
fn op_len(s: &Struct, op: &Op, values: &[Value<'_>], scalars: Scalars) -> Encoded<usize> {
    Ok(
        match_op!(*op, fields => scalar_len(scalars, s, fields, values)?,
            Op::Var { field, .. } => field_len(&s.fields[field].kind, &values[field], scalars)
                .map_err(|e| inside(&s.fields[field].name, e))?,
            Op::Ref { bytes, .. } => bytes,
            Op::Part { field, part, .. } => {
                let f = &s.fields[field];
                match (&f.kind, &values[field]) {
                    (Kind::Object(child), Value::Object(inner)) => {
                        program_len(child, child.program(Some(part)), inner, scalars)
                    }
                    (_, value) => Err(mismatch("object", Some(value))),
                }
                .map_err(|e| inside(&f.name, e))?
            }
            Op::Interleaved(ref group) => {
                let mut bytes = 0;
                for &(field, _) in group.iter() {
                    bytes += field_len(&s.fields[field].kind, &values[field], scalars)
                        .map_err(|e| inside(&s.fields[field].name, e))?;
                }
                bytes
            }
        ),
    )
}

/// The size of scalar fields `fields`, of runtime type `T`.
#[inline(always)]
fn scalar_len<T: ScalarType>(
    scalars: Scalars,
    s: &Struct,
    fields: Fields,
    values: &[Value<'_>],
) -> Encoded<usize> {
    if scalars == Scalars::Check {
        for field in fields.range() {
            if T::of(&values[field]).is_none() {
                return Err(scalar_mismatch::<T>(s, field, values));
            }
        }
    }
    Ok(fields.count * T::FIXED_SIZE.unwrap_or(0))
}

#[cold]
fn scalar_mismatch<T: ScalarType>(s: &Struct, field: usize, values: &[Value<'_>]) -> EncodeError {
    inside(&s.fields[field].name, mismatch(T::NAME, values.get(field)))
}

fn field_len(kind: &Kind, value: &Value<'_>, scalars: Scalars) -> Encoded<usize> {
    match (kind, value) {
        (Kind::Scalar(s), v) if scalar::matches(*s, v) => Ok(s.wire_size()),
        (Kind::String, Value::String(v)) => Ok(v.wire_len()),
        (Kind::Bytes, Value::Bytes(v)) => Ok(v.wire_len()),
        (Kind::Array(element), Value::Array(items)) => {
            let mut total = 0;
            for (n, item) in items.iter().enumerate() {
                total += 4 + element_len(element, item, scalars)
                    .map_err(|e| inside(&format!("[{n}]"), e))?;
            }
            Ok(total)
        }
        (Kind::Object(s), Value::Object(inner)) => program_len(s, &s.all, inner, scalars),
        (kind, v) => Err(mismatch(kind_name(kind), Some(v))),
    }
}

fn element_len(element: &Element, value: &Value<'_>, scalars: Scalars) -> Encoded<usize> {
    match (element, value) {
        (Element::Scalar(s), v) if scalar::matches(*s, v) => Ok(s.wire_size()),
        (Element::String, Value::String(v)) => Ok(2 + v.wire_len()),
        (Element::Block(s), Value::Object(inner)) => block_len(s, inner, scalars),
        (Element::Scalar(s), v) => Err(mismatch(scalar::def_name(*s), Some(v))),
        (Element::String, v) => Err(mismatch("string", Some(v))),
        (Element::Block(_), v) => Err(mismatch("object", Some(v))),
    }
}

/// Writes a block at the cursor (a value whose length was counted).
fn write_block(s: &Struct, record: &Record<'_>, w: &mut Writer<'_>) -> Encoded<()> {
    let meta = w.pos();
    zeros(w, 2 * s.meta_words);
    write_program(s, &s.all, &record.values, w, meta)
}

/// Writes the operations of `program`; implicit slots from `meta`.
fn write_program(
    s: &Struct,
    program: &Program,
    values: &[Value<'_>],
    w: &mut Writer<'_>,
    meta: usize,
) -> Encoded<()> {
    let mut refs = RefPositions::default();
    for op in &program.ops {
        match_op!(*op, fields => write_scalars(s, fields, values, w)?,
            Op::Var { field, meta: at } => {
                let at = at.at(meta, &refs, w.pos());
                write_field(&s.fields[field].kind, &values[field], w, at)
                    .map_err(|e| inside(&s.fields[field].name, e))?;
            }
            Op::Ref { k, bytes } => {
                refs.set(k, w.pos());
                zeros(w, bytes);
            }
            Op::Part {
                field,
                part,
                meta: at,
            } => {
                if let (Kind::Object(child), Value::Object(inner)) =
                    (&s.fields[field].kind, &values[field])
                {
                    write_program(child, child.program(Some(part)), &inner.values, w, meta + at)
                        .map_err(|e| inside(&s.fields[field].name, e))?;
                }
            }
            Op::Interleaved(ref group) => {
                write_interleaved(s, group, values, w, |at, w| at.at(meta, &refs, w.pos()))?
            }
        );
    }
    Ok(())
}

/// Writes `n` zero bytes (metadata filled in later): the usual sizes
/// without a call to `memset`.
#[inline]
fn zeros(w: &mut Writer<'_>, n: usize) {
    match n {
        0 => {}
        2 => w.put_array([0; 2]),
        4 => w.put_array([0; 4]),
        n => w.zeros(n),
    }
}

/// Writes scalar fields `fields` as their runtime type `T`, or says one
/// holds another type.
#[inline(always)]
fn write_scalars<T: ScalarType>(
    s: &Struct,
    fields: Fields,
    values: &[Value<'_>],
    w: &mut Writer<'_>,
) -> Encoded<()> {
    for field in fields.range() {
        match T::of(&values[field]) {
            Some(x) => x.write(w, 0),
            None => return Err(scalar_mismatch::<T>(s, field, values)),
        }
    }
    Ok(())
}

fn write_field(kind: &Kind, value: &Value<'_>, w: &mut Writer<'_>, meta: usize) -> Encoded<()> {
    match (kind, value) {
        (Kind::String, Value::String(v)) => v.write(w, meta),
        (Kind::Bytes, Value::Bytes(v)) => v.write(w, meta),
        (Kind::Array(element), Value::Array(items)) => {
            let mut chain = Chain::start(w, meta, items.len());
            for (n, item) in items.iter().enumerate() {
                chain
                    .push_with(w, |w| write_element(element, item, w))
                    .map_err(|e| inside(&format!("[{n}]"), e))?;
            }
        }
        (Kind::Object(s), Value::Object(inner)) => {
            write_program(s, &s.all, &inner.values, w, meta)?
        }
        (_, v) => scalar::write(v, w),
    }
    Ok(())
}

fn write_element(element: &Element, value: &Value<'_>, w: &mut Writer<'_>) -> Encoded<()> {
    match (element, value) {
        (Element::String, Value::String(v)) => {
            let meta = w.pos();
            zeros(w, 2);
            v.write(w, meta);
        }
        (Element::Block(s), Value::Object(inner)) => write_block(s, inner, w)?,
        (_, v) => scalar::write(v, w),
    }
    Ok(())
}

/// A group of interleaved arrays: their elements alternate.
fn write_interleaved(
    s: &Struct,
    group: &[(usize, Meta)],
    values: &[Value<'_>],
    w: &mut Writer<'_>,
    meta_of: impl Fn(Meta, &Writer<'_>) -> usize,
) -> Encoded<()> {
    let mut lists: Vec<(usize, &Element, &[Value<'_>], Chain)> = Vec::with_capacity(group.len());
    for &(i, at) in group {
        if let (Kind::Array(element), Value::Array(items)) = (&s.fields[i].kind, &values[i]) {
            let at = meta_of(at, w);
            lists.push((i, element, items, Chain::start(w, at, items.len())));
        }
    }
    for n in 0.. {
        let mut more = false;
        for (i, element, items, chain) in &mut lists {
            if let Some(item) = items.get(n) {
                chain
                    .push_with(w, |w| write_element(element, item, w))
                    .map_err(|e| inside(&s.fields[*i].name, inside(&format!("[{n}]"), e)))?;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    Ok(())
}
