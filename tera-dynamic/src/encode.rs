//! Encoding: each struct's [`Program`] run over the value, writing every
//! piece through the runtime's own field types and `tera_packets::Chain`,
//! as the derive's write does, and checking each value's type as it goes.
//! The length is known when the writing ends; counting it first is
//! [`Schema::encoded_len`]'s job (and the error path's).

use std::marker::PhantomData;

use tera_defs_front::model::Scalar;
use tera_packets::{Chain, Error, ErrorKind, HEADER_LEN, MAX_PACKET_LEN, Wire, Writer};

use crate::check;
use crate::error::{EncodeError, EncodeErrorKind};
use crate::program::{Chunk, Entry, Fields, Meta, Op, Program, RefPositions, Run, match_op};
use crate::scalar::{self, ScalarType};
use crate::scalars::with_scalar;
use crate::schema::{ElementKind, Kind, Schema, StructSchema};
use crate::value::{Record, Value};

type Encoded<T> = Result<T, EncodeError>;

impl Schema {
    /// The exact size of the encoded packet, header included; an error
    /// when a field of `value` is missing or has another type than the
    /// def's.
    pub fn encoded_len(&self, value: &Record<'_>) -> Encoded<usize> {
        check::record(&self.root, value)?;
        Ok(HEADER_LEN + block_len(&self.root, value))
    }

    /// Encodes `value` into the front of `buf` with `opcode` in its header
    /// and returns its length. Fails when the value does not fit the def,
    /// the packet would exceed 65535 bytes or `buf` is too small (the error
    /// then says the size needed); the bytes of `buf` are then unspecified.
    // Inlined into the caller: the call and its frame cost about 2 ns a
    // packet (an empty def: 6.3 ns out of line, 4.5 inlined).
    #[inline]
    pub fn encode_into(&self, value: &Record<'_>, opcode: u16, buf: &mut [u8]) -> Encoded<usize> {
        let room = buf.len().min(MAX_PACKET_LEN);
        let mut w = Writer::new(&mut buf[..room], 0);
        let [op_lo, op_hi] = opcode.to_le_bytes();
        w.put_array([0, 0, op_lo, op_hi]);
        let written = write_block(&self.root, value, &mut w);
        if written.is_err() || w.overflowed() {
            return Err(self.why_unwritten(value, written));
        }
        let len = w.pos();
        // `len` fits: the writer stops at 65535 bytes.
        w.patch_u16(0, len as u16);
        Ok(len)
    }

    /// Why `value` was not written: the checking pass says which field does
    /// not fit the def, or how many bytes the packet needs.
    #[cold]
    #[inline(never)]
    fn why_unwritten(&self, value: &Record<'_>, written: Written) -> EncodeError {
        let len = match self.encoded_len(value) {
            Ok(len) => len,
            Err(e) => return e,
        };
        if written.is_err() {
            return misfit_unexplained();
        }
        let size = u32::try_from(len).unwrap_or(u32::MAX);
        let kind = if len > MAX_PACKET_LEN {
            ErrorKind::TooLarge { size }
        } else {
            ErrorKind::BufferTooSmall { needed: size }
        };
        Error::new(kind, 0).into()
    }

    /// Encodes `value` into a new vector with `opcode` in its header.
    pub fn encode(&self, value: &Record<'_>, opcode: u16) -> Encoded<Vec<u8>> {
        let mut buf = vec![0; self.encoded_len(value)?];
        let len = self.encode_into(value, opcode, &mut buf)?;
        buf.truncate(len);
        Ok(buf)
    }
}

/// A value that does not fit the def, met while writing. Writing stops
/// there; [`Schema::encoded_len`]'s checking pass then says which field and
/// why. A unit error comes back in a register: the write path's calls pass
/// no error through memory.
struct Misfit;

type Written = Result<(), Misfit>;

/// What the checking pass found nothing wrong with but writing refused:
/// not expected, as both check the same things; an error all the same.
#[cold]
fn misfit_unexplained() -> EncodeError {
    EncodeErrorKind::Mismatch {
        path: String::new(),
        expected: "a value of the def",
        found: "a value the writer refused",
    }
    .into()
}

/// The values of `record` in the order of `s`'s fields, or [`Misfit`] when
/// one is missing or named otherwise. A record of `s` (decoded, its zero,
/// read from JSON) holds `s` itself: one pointer compared.
#[inline]
fn values_of<'r, 'a>(s: &StructSchema, record: &'r Record<'a>) -> Result<&'r [Value<'a>], Misfit> {
    if check::same_fields(s, record) {
        Ok(&record.values)
    } else {
        Err(Misfit)
    }
}

impl From<check::Mismatch> for EncodeError {
    #[cold]
    fn from(e: check::Mismatch) -> Self {
        EncodeErrorKind::Mismatch {
            path: e.path,
            expected: e.expected,
            found: e.found,
        }
        .into()
    }
}

/// The bytes of a block, its implicit metadata included (`record` checked
/// against `s` first: a value of another type counts nothing).
fn block_len(s: &StructSchema, record: &Record<'_>) -> usize {
    2 * s.meta_words + program_len(s, &s.all, record)
}

/// The bytes the operations of `program` write at the cursor.
fn program_len(s: &StructSchema, program: &Program, record: &Record<'_>) -> usize {
    let values = &record.values;
    let var = |i: usize| values.get(i).map_or(0, |v| field_len(&s.fields[i].kind, v));
    program
        .ops
        .iter()
        .map(|op| match op {
            Op::Var { field, .. } => var(*field),
            Op::Ref { bytes, .. } | Op::Skip(bytes) => *bytes,
            Op::Part { field, part, .. } => match (&s.fields[*field].kind, values.get(*field)) {
                (Kind::Object(child), Some(Value::Object(inner))) => {
                    program_len(child, child.program(Some(*part)), inner)
                }
                _ => 0,
            },
            Op::Interleaved(group) => group.iter().map(|&(i, _)| var(i)).sum(),
            // In `writes` only.
            Op::Chunk(_) | Op::Run(_) => 0,
            scalar => scalar.scalar_fields().map_or(0, |fields| {
                fields.range().map(|i| scalar_len(&s.fields[i].kind)).sum()
            }),
        })
        .sum()
}

fn scalar_len(kind: &Kind) -> usize {
    match kind {
        Kind::Scalar(s) => s.wire_size(),
        _ => 0,
    }
}

fn field_len(kind: &Kind, value: &Value<'_>) -> usize {
    match (kind, value) {
        (Kind::Scalar(s), _) => s.wire_size(),
        (Kind::String, Value::String(v)) => v.wire_len(),
        (Kind::Bytes, Value::Bytes(v)) => v.wire_len(),
        (Kind::Array(element), Value::Array(items)) => items
            .iter()
            .map(|item| 4 + element_len(element, item))
            .sum(),
        (Kind::Object(s), Value::Object(inner)) => program_len(s, &s.all, inner),
        _ => 0,
    }
}

fn element_len(element: &ElementKind, value: &Value<'_>) -> usize {
    match (element, value) {
        (ElementKind::Scalar(s), _) => s.wire_size(),
        (ElementKind::String, Value::String(v)) => 2 + v.wire_len(),
        (ElementKind::Block(s), Value::Object(inner)) => block_len(s, inner),
        _ => 0,
    }
}

/// Writes a block at the cursor.
#[inline]
fn write_block(s: &StructSchema, record: &Record<'_>, w: &mut Writer<'_>) -> Written {
    let values = values_of(s, record)?;
    if s.sequential {
        return write_sequential(s, values, w);
    }
    let meta = w.pos();
    zeros(w, 2 * s.meta_words);
    write_program(s, &s.all, values, w, meta)
}

/// Writes the operations of `program` (`values` are `s`'s fields, checked
/// by [`values_of`]); implicit slots from `meta`.
fn write_program(
    s: &StructSchema,
    program: &Program,
    values: &[Value<'_>],
    w: &mut Writer<'_>,
    meta: usize,
) -> Written {
    let start = w.pos();
    let mut refs = RefPositions::default();
    for op in &program.writes {
        match_op!(*op, fields => write_scalars(fields, values, w)?,
            Op::Chunk(ref chunk) => write_chunk(chunk, values, w)?,
            Op::Run(ref run) => put_run(run, values.get(run.first..).ok_or(Misfit)?, w)?,
            Op::Var { field, meta: at } => {
                let at = at.at(meta, start, &refs, w.pos());
                write_field(&s.fields[field].kind, &values[field], w, at)?;
            }
            Op::Ref { k, bytes } => {
                refs.set(k, w.pos());
                zeros(w, bytes);
            }
            Op::Skip(bytes) => zeros(w, bytes),
            Op::Part {
                field,
                part,
                meta: at,
            } => {
                let f = &s.fields[field];
                match (&f.kind, &values[field]) {
                    (Kind::Object(child), Value::Object(inner)) => {
                        let inner = values_of(child, inner)?;
                        write_program(child, child.program(Some(part)), inner, w, meta + at)?
                    }
                    _ => return Err(Misfit),
                }
            }
            Op::Interleaved(ref group) => {
                write_interleaved(s, group, values, w, |at, w| at.at(meta, start, &refs, w.pos()))?
            }
        );
    }
    Ok(())
}

/// Writes a struct of scalars in field order, without metadata or refs.
#[inline]
fn write_sequential(s: &StructSchema, values: &[Value<'_>], w: &mut Writer<'_>) -> Written {
    match &s.run {
        Some(run) => write_run(run, values, w),
        None => write_writes(s, values, w),
    }
}

/// Writes a struct of scalars through its walk's operations.
#[inline(never)]
fn write_writes(s: &StructSchema, values: &[Value<'_>], w: &mut Writer<'_>) -> Written {
    for op in &s.all.writes {
        match_op!(*op, fields => write_scalars(fields, values, w)?,
            Op::Chunk(ref chunk) => write_chunk(chunk, values, w)?,
            Op::Run(ref run) => put_run(run, values.get(run.first..).ok_or(Misfit)?, w)?,
            _ => {}
        );
    }
    Ok(())
}

/// [`put_run`], out of line.
#[inline(never)]
fn write_run(run: &Run, values: &[Value<'_>], w: &mut Writer<'_>) -> Written {
    put_run(run, values, w)
}

/// Writes the fields of `run`, `values` from its first on: its bytes taken
/// at once, then each field in turn.
#[inline(always)]
fn put_run(run: &Run, values: &[Value<'_>], w: &mut Writer<'_>) -> Written {
    // Past the end of the buffer the writer is poisoned, and the
    // checking pass then says what was wrong or how much room is needed.
    let Some(bytes) = w.take(run.bytes) else {
        return Ok(());
    };
    put_fields(run, values, &mut Writer::new(bytes, 0))
}

/// Writes the fields of `run` field after field through `out`, a writer of
/// their own whose cursor stays in a register.
#[inline(always)]
fn put_fields(run: &Run, values: &[Value<'_>], out: &mut Writer<'_>) -> Written {
    for (&scalar, value) in run.scalars.iter().zip(values) {
        macro_rules! put {
            ($t:ty, $v:ident) => {
                match value {
                    Value::$v(x) => x.write(out, 0),
                    _ => return Err(Misfit),
                }
            };
        }
        with_scalar!(scalar, put);
    }
    Ok(())
}

/// Writes the scalar fields of `chunk`: its bytes taken at once, then each
/// type's fields at their offsets.
#[inline]
fn write_chunk(chunk: &Chunk, values: &[Value<'_>], w: &mut Writer<'_>) -> Written {
    // Past the end of the buffer the writer is poisoned, and the
    // checking pass then says what was wrong or how much room is needed.
    let Some(bytes) = w.take(chunk.bytes) else {
        return Ok(());
    };
    for group in &chunk.groups {
        match_op!(*group, span => put_group(&chunk.entries[span.range()], values, bytes)?, _ => {});
    }
    Ok(())
}

/// Writes `entries`, fields of runtime type `T`, into a chunk's `bytes`.
#[inline(always)]
fn put_group<T: ScalarType>(
    _: PhantomData<T>,
    entries: &[Entry],
    values: &[Value<'_>],
    bytes: &mut [u8],
) -> Written {
    for entry in entries {
        let value = T::of(&values[entry.field as usize]).ok_or(Misfit)?;
        value.write(&mut Writer::new(bytes, entry.offset as usize), 0);
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
    _: PhantomData<T>,
    fields: Fields,
    values: &[Value<'_>],
    w: &mut Writer<'_>,
) -> Written {
    for field in fields.range() {
        match T::of(&values[field]) {
            Some(x) => x.write(w, 0),
            None => return Err(Misfit),
        }
    }
    Ok(())
}

/// Writes a variable field whose metadata is at `meta`.
fn write_field(kind: &Kind, value: &Value<'_>, w: &mut Writer<'_>, meta: usize) -> Written {
    match (kind, value) {
        // An empty array's metadata, a count and an offset of zero, is what
        // its slot or ref already holds (only metadata at the cursor is not
        // written yet). Common: most items of S_ITEMLIST have four.
        (Kind::Array(_), Value::Array(items)) if items.is_empty() && meta < w.pos() => {}
        (Kind::String, Value::String(v)) => v.write(w, meta),
        (Kind::Bytes, Value::Bytes(v)) => v.write(w, meta),
        // Blocks of scalars, the most common elements, without going
        // through `write_element` for each.
        (Kind::Array(ElementKind::Block(s)), Value::Array(items)) if s.sequential => {
            write_scalar_blocks(s, items, w, meta)?
        }
        // Scalars: the element type chosen once for the whole array.
        (Kind::Array(ElementKind::Scalar(scalar)), Value::Array(items)) => {
            write_scalar_array(*scalar, items, w, meta)?
        }
        (Kind::Array(element), Value::Array(items)) => {
            let mut chain = Chain::start(w, meta, items.len());
            for item in items {
                chain.push_with(w, |w| write_element(element, item, w))?;
            }
        }
        (Kind::Object(s), Value::Object(inner)) if s.sequential => {
            write_sequential(s, values_of(s, inner)?, w)?
        }
        (Kind::Object(s), Value::Object(inner)) => {
            write_program(s, &s.all, values_of(s, inner)?, w, meta)?
        }
        (Kind::Scalar(s), v) if v.scalar() == Some(*s) => scalar::write(v, w),
        _ => return Err(Misfit),
    }
    Ok(())
}

/// Writes an array of blocks of scalars `s` whose metadata is at `meta`,
/// choosing once for the array how a block is written: blocks that are a
/// run, all of one size, are written as one piece.
#[inline(never)]
fn write_scalar_blocks(
    s: &StructSchema,
    items: &[Value<'_>],
    w: &mut Writer<'_>,
    meta: usize,
) -> Written {
    match &s.run {
        Some(run) => Chain::write_fixed(w, meta, items, run.bytes, |item, out| {
            let Value::Object(inner) = item else {
                return Err(Misfit);
            };
            put_fields(run, values_of(s, inner)?, out)
        }),
        None => write_blocks(s, items, w, meta, |values, w| write_writes(s, values, w)),
    }
}

/// Writes an array of blocks `s` whose metadata is at `meta`, each block's
/// fields with `write`.
#[inline(always)]
fn write_blocks(
    s: &StructSchema,
    items: &[Value<'_>],
    w: &mut Writer<'_>,
    meta: usize,
    write: impl Fn(&[Value<'_>], &mut Writer<'_>) -> Written,
) -> Written {
    let mut chain = Chain::start(w, meta, items.len());
    for item in items {
        let Value::Object(inner) = item else {
            return Err(Misfit);
        };
        let values = values_of(s, inner)?;
        chain.push_with(w, |w| write(values, w))?;
    }
    Ok(())
}

/// Writes an array of scalars `scalar` whose metadata is at `meta`. Out of
/// line: inlined, its sixteen loops would weigh on every field's write.
#[inline(never)]
fn write_scalar_array(
    scalar: Scalar,
    items: &[Value<'_>],
    w: &mut Writer<'_>,
    meta: usize,
) -> Written {
    macro_rules! each {
        ($t:ty, $v:ident) => {
            Chain::write_fixed(w, meta, items, scalar.wire_size(), |item, out| {
                <$t as ScalarType>::of(item).ok_or(Misfit)?.write(out, 0);
                Ok(())
            })
        };
    }
    with_scalar!(scalar, each)
}

fn write_element(element: &ElementKind, value: &Value<'_>, w: &mut Writer<'_>) -> Written {
    match (element, value) {
        (ElementKind::Scalar(s), v) if v.scalar() == Some(*s) => scalar::write(v, w),
        (ElementKind::String, Value::String(v)) => {
            let meta = w.pos();
            zeros(w, 2);
            v.write(w, meta);
        }
        (ElementKind::Block(s), Value::Object(inner)) => write_block(s, inner, w)?,
        _ => return Err(Misfit),
    }
    Ok(())
}

/// A group of interleaved arrays: their elements alternate.
fn write_interleaved(
    s: &StructSchema,
    group: &[(usize, Meta)],
    values: &[Value<'_>],
    w: &mut Writer<'_>,
    meta_of: impl Fn(Meta, &Writer<'_>) -> usize,
) -> Written {
    let mut lists: Vec<(&ElementKind, &[Value<'_>], Chain)> = Vec::with_capacity(group.len());
    for &(i, at) in group {
        match (&s.fields[i].kind, &values[i]) {
            (Kind::Array(element), Value::Array(items)) => {
                let at = meta_of(at, w);
                lists.push((element, items, Chain::start(w, at, items.len())));
            }
            _ => return Err(Misfit),
        }
    }
    for n in 0.. {
        let mut more = false;
        for (element, items, chain) in &mut lists {
            if let Some(item) = items.get(n) {
                chain.push_with(w, |w| write_element(element, item, w))?;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    Ok(())
}
