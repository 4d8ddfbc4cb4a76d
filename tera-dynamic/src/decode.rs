//! Decoding: each struct's [`Program`] run over the packet, every piece
//! read through the runtime's own field types (`Str`, `Bytes`, the
//! scalars) and array links followed as `tera_packets::Array` follows them,
//! with the same checks in the same order, so that it accepts and rejects
//! what the generated packets do. Values go into one vector of slots: the
//! packet's [`View`].

use std::marker::PhantomData;
use std::sync::Arc;

use tera_packets::{Bytes, Error, ErrorKind, Reader, Str, Wire};

use crate::error::DecodeError;
use crate::program::{Entry, Fields, Op, Program, RefPositions, match_op};
use crate::scalar::ScalarType;
use crate::schema::{ElementKind, Kind, Schema, StructSchema};
use crate::slot::{Slot, pos};
use crate::value::Record;
use crate::view::{Slots, View, ViewBuf};

type Decoded<T, E = DecodeError> = Result<T, E>;

/// What a decode that stops gives back: [`DecodeError`] with the field
/// named, or [`Stop`], nothing at all.
trait Failure: From<Error> {
    /// Whether a walk stopping with this reads scalars a chunk at a time
    /// ([`Program::reads`]): the chunk's bytes taken at once, so that a
    /// packet too short for any of its fields stops the walk before the
    /// first is read. A walk that says where must read field by field.
    const BY_CHUNK: bool;

    /// The error inside field `name`.
    fn in_field(self, name: &Arc<str>) -> Self;
}

impl Failure for DecodeError {
    const BY_CHUNK: bool = false;

    #[inline]
    fn in_field(self, name: &Arc<str>) -> Self {
        DecodeError::in_field(self, name)
    }
}

/// Malformed bytes, and nothing more: the first pass over a packet stops
/// with this, which comes back in a register (a `DecodeError` comes back
/// through memory at every step); the second pass, over malformed packets
/// only, says what and where.
struct Stop;

impl From<Error> for Stop {
    #[inline]
    fn from(_: Error) -> Self {
        Stop
    }
}

impl Failure for Stop {
    const BY_CHUNK: bool = true;

    #[inline]
    fn in_field(self, _: &Arc<str>) -> Self {
        Stop
    }
}

impl Schema {
    /// Decodes a whole packet, header included (its opcode is not looked
    /// at), checking every offset, count, string and list as the generated
    /// packets do, into a [`View`]: every value in one vector, strings and
    /// bytes borrowed from `packet`. The fastest way to read a packet;
    /// [`view_in`](Schema::view_in) reads without allocating.
    // Inlined into the caller, as `encode_into` is: the call and its frame
    // cost 1-3 ns a packet (`view` and `view_in` of the bench packets).
    #[inline]
    pub fn view<'a>(&self, packet: &'a [u8]) -> Decoded<View<'_, 'a>> {
        let room = self.room(packet)?;
        let mut decoder = Decoder::<Stop>::new(packet, Vec::with_capacity(room));
        if decoder.block(&self.root).is_err() {
            let slots = self.why_malformed(packet)?;
            return Ok(View::new(&self.root, packet, Slots::Owned(slots)));
        }
        Ok(View::new(&self.root, packet, Slots::Owned(decoder.slots)))
    }

    /// Decodes a whole packet as [`view`](Schema::view) does, into `buf`:
    /// once `buf` has grown to the size of the packets read, a view
    /// allocates nothing. The view borrows `buf` until it is dropped.
    ///
    /// ```
    /// # use tera_dynamic::{Catalog, ViewBuf, Value};
    /// # let mut catalog = Catalog::new();
    /// # catalog.add_def("S_CHAT.4.def", "uint32 channel\nstring message\n").unwrap();
    /// let schema = catalog.get("S_CHAT", 4).expect("loaded");
    /// let mut buf = ViewBuf::new();
    /// for channel in 1..=3u8 {
    ///     let packet = [14, 0, 0x2a, 0x50, 10, 0, channel, 0, 0, 0, b'h', 0, 0, 0];
    ///     let view = schema.view_in(&packet, &mut buf)?;
    ///     assert_eq!(
    ///         view.get("channel").map(|v| v.into_value()),
    ///         Some(Value::UInt32(channel.into()))
    ///     );
    /// }
    /// # Ok::<(), tera_dynamic::DecodeError>(())
    /// ```
    #[inline]
    pub fn view_in<'s, 'a>(
        &'s self,
        packet: &'a [u8],
        buf: &'s mut ViewBuf,
    ) -> Decoded<View<'s, 'a>> {
        let room = self.room(packet)?;
        let mut slots = std::mem::take(&mut buf.slots);
        slots.clear();
        slots.reserve(room);
        let mut decoder = Decoder::<Stop>::new(packet, slots);
        let read = decoder.block(&self.root);
        buf.slots = decoder.slots;
        if read.is_err() {
            let slots = self.why_malformed(packet)?;
            return Ok(View::new(&self.root, packet, Slots::Owned(slots)));
        }
        Ok(View::new(&self.root, packet, Slots::Borrowed(&buf.slots)))
    }

    /// The room a view of `packet` starts with: its records, or a slot
    /// per 4 bytes of the packet (the bench packets fill one per 5 to 8).
    /// Sized from the length the buffer and its header agree on, never
    /// from a count on the wire; arrays denser than that grow the vector.
    #[inline]
    fn room(&self, packet: &[u8]) -> Decoded<usize> {
        let declared = match packet {
            [lo, hi, _, _, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => return Err(Error::new(ErrorKind::MissingHeader, 0).into()),
        };
        if usize::from(declared) != packet.len() {
            let actual = u32::try_from(packet.len()).unwrap_or(u32::MAX);
            return Err(Error::new(ErrorKind::LengthMismatch { declared, actual }, 0).into());
        }
        Ok(self.root.static_slots.max(packet.len() / 4))
    }

    /// The walk again over a packet the first walk stopped in, saying
    /// what and where. (Both walks are the same code: this one stops where
    /// the first did; were it ever to read the packet, its slots are the
    /// view's.)
    #[cold]
    fn why_malformed(&self, packet: &[u8]) -> Decoded<Vec<Slot>> {
        let mut decoder = Decoder::<DecodeError>::new(packet, Vec::new());
        decoder.block(&self.root)?;
        Ok(decoder.slots)
    }

    /// Decodes a whole packet as [`view`](Schema::view) does, into a
    /// [`Record`] to read, change and encode again. Strings and bytes
    /// borrow from `packet`.
    pub fn decode<'a>(&self, packet: &'a [u8]) -> Decoded<Record<'a>> {
        Ok(self.view(packet)?.to_record())
    }

    /// A value with every field zero or empty: what the generated packet's
    /// `Default` holds. Set its fields with [`Record::get_mut`].
    pub fn zero(&self) -> Record<'static> {
        Record::zero(&self.root)
    }

    /// The packet's length, header included, when it never varies (no
    /// string, bytes or array anywhere in it).
    pub fn fixed_len(&self) -> Option<usize> {
        fn fixed(s: &StructSchema) -> bool {
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

/// Scalar fields `fields` of the record of `s` at slot `base`, read at the
/// cursor as their runtime type `T`.
#[inline(always)]
fn read_scalars<T: ScalarType, E: Failure>(
    _: PhantomData<T>,
    d: &mut Decoder<'_, E>,
    s: &StructSchema,
    fields: Fields,
    base: usize,
) -> Decoded<(), E> {
    for field in fields.range() {
        match T::read(&mut d.r, 0) {
            Ok(x) => d.slots[base + field] = x.into_slot(),
            Err(e) => return Err(E::from(e).in_field(&s.fields[field].name)),
        }
    }
    Ok(())
}

/// Scalar fields `entries` of a chunk, of runtime type `T`, read from the
/// chunk's `bytes` into the record at slot `base`.
#[inline(always)]
fn read_group<T: ScalarType, E: Failure>(
    _: PhantomData<T>,
    d: &mut Decoder<'_, E>,
    entries: &[Entry],
    bytes: &[u8],
    base: usize,
) -> Decoded<(), E> {
    for entry in entries {
        let x = T::read(&mut Reader::at(bytes, entry.offset as usize), 0)?;
        d.slots[base + entry.field as usize] = x.into_slot();
    }
    Ok(())
}

/// Scalar fields `fields` of a sequential struct `s`, read at the cursor
/// as their runtime type `T` and pushed.
#[inline(always)]
fn push_scalars<T: ScalarType, E: Failure>(
    _: PhantomData<T>,
    d: &mut Decoder<'_, E>,
    s: &StructSchema,
    fields: Fields,
) -> Decoded<(), E> {
    for field in fields.range() {
        match T::read(&mut d.r, 0) {
            Ok(x) => d.slots.push(x.into_slot()),
            Err(e) => return Err(E::from(e).in_field(&s.fields[field].name)),
        }
    }
    Ok(())
}

/// The cursor over the packet and the slots read so far; its steps stop
/// with an `E`.
struct Decoder<'a, E> {
    r: Reader<'a>,
    slots: Vec<Slot>,
    failure: PhantomData<E>,
}

impl<'a, E: Failure> Decoder<'a, E> {
    /// A decoder at the start of `packet`, pushing onto `slots`.
    fn new(packet: &'a [u8], slots: Vec<Slot>) -> Self {
        Decoder {
            r: Reader::new(packet),
            slots,
            failure: PhantomData,
        }
    }

    /// Room for a record of `s`, every field zero; its first slot.
    fn reserve(&mut self, s: &StructSchema) -> usize {
        let start = self.slots.len();
        // Slot by slot: records are small, and a call to `memcpy` costs
        // more than copying them.
        self.slots.extend(s.zeros.iter().copied());
        for &i in &s.unread_objects {
            if let Kind::Object(child) = &s.fields[i].kind {
                let inner = self.reserve(child);
                self.slots[start + i] = Slot::Object { start: pos(inner) };
            }
        }
        start
    }

    /// A block at the cursor (its implicit metadata words, then its
    /// fields); its record's first slot.
    fn block(&mut self, s: &StructSchema) -> Decoded<usize, E> {
        let meta = self.r.pos();
        self.r.skip(2 * s.meta_words)?;
        self.object(s, meta)
    }

    /// A whole struct whose implicit slots start at `meta`; its record's
    /// first slot.
    fn object(&mut self, s: &StructSchema, meta: usize) -> Decoded<usize, E> {
        if s.sequential {
            return self.sequential(s);
        }
        let start = self.reserve(s);
        self.run(s, &s.all, start, meta)?;
        Ok(start)
    }

    /// A struct of scalars in field order: its slots pushed one by one, with
    /// neither room reserved first nor refs (or, when a first read takes
    /// some a chunk at a time, its record reserved and filled).
    #[inline]
    fn sequential(&mut self, s: &StructSchema) -> Decoded<usize, E> {
        let start = self.slots.len();
        self.push_fields(s)?;
        Ok(start)
    }

    /// The record of a struct of scalars in field order, after the slots
    /// so far. Inlined: an array of such structs calls it per element, and
    /// a call costs more than a small element's fields.
    #[inline(always)]
    fn push_fields(&mut self, s: &StructSchema) -> Decoded<(), E> {
        if E::BY_CHUNK && s.chunked_reads {
            let start = self.reserve(s);
            return self.run(s, &s.all, start, start);
        }
        for op in &s.all.ops {
            match_op!(*op, fields => push_scalars(self, s, fields)?, _ => {});
        }
        Ok(())
    }

    /// The operations of `program` into the record of `s` at slot `base`.
    fn run(
        &mut self,
        s: &StructSchema,
        program: &Program,
        base: usize,
        meta: usize,
    ) -> Decoded<(), E> {
        let start = self.r.pos();
        let mut refs = RefPositions::default();
        let ops = if E::BY_CHUNK {
            &program.reads
        } else {
            &program.ops
        };
        for op in ops {
            match_op!(*op, fields => read_scalars(self, s, fields, base)?,
                Op::Var { field, meta: at } => {
                    let at = at.at(meta, start, &refs, self.r.pos());
                    let f = &s.fields[field];
                    self.var(&f.kind, at, base + field)
                        .map_err(|e| e.in_field(&f.name))?;
                }
                Op::Ref { k, bytes } => {
                    refs.set(k, self.r.pos());
                    self.r.skip(bytes)?;
                }
                Op::Skip(bytes) => self.r.skip(bytes)?,
                Op::Part {
                    field,
                    part,
                    meta: at,
                } => {
                    let f = &s.fields[field];
                    let Kind::Object(child) = &f.kind else {
                        continue;
                    };
                    let start = match self.slots[base + field] {
                        _ if part == 0 => {
                            let start = self.reserve(child);
                            self.slots[base + field] = Slot::Object { start: pos(start) };
                            start
                        }
                        Slot::Object { start } => start as usize,
                        _ => continue,
                    };
                    self.run(child, child.program(Some(part)), start, meta + at)
                        .map_err(|e| e.in_field(&f.name))?;
                }
                Op::Chunk(ref chunk) => {
                    let bytes = self.take(chunk.bytes)?;
                    for group in &chunk.groups {
                        match_op!(*group, span => read_group(self, &chunk.entries[span.range()], bytes, base)?, _ => {});
                    }
                }
                // Only writes take scalars a run at a time.
                Op::Run(_) => {}
                Op::Interleaved(ref group) => {
                    // The group ends where the writer's cursor ends: after
                    // the furthest element.
                    let mut end = self.r.pos();
                    for &(field, at) in group.iter() {
                        let at = at.at(meta, start, &refs, self.r.pos());
                        let f = &s.fields[field];
                        self.var(&f.kind, at, base + field)
                            .map_err(|e| e.in_field(&f.name))?;
                        end = end.max(self.r.pos());
                    }
                    self.r.set_pos(end);
                }
            );
        }
        Ok(())
    }

    /// The `n` bytes at the cursor, moving past them.
    #[inline]
    fn take(&mut self, n: usize) -> Decoded<&'a [u8], E> {
        match self.r.take(n) {
            Some(bytes) => Ok(bytes),
            None => Err(Error::new(ErrorKind::UnexpectedEnd, self.r.pos()).into()),
        }
    }

    /// A string, bytes, array or object field whose metadata is at `meta`,
    /// into slot `dest`. The slot is stored here rather than returned: a
    /// slot returned through memory and copied again stalls the store.
    #[inline]
    fn var(&mut self, kind: &Kind, meta: usize, dest: usize) -> Decoded<(), E> {
        let slot = match kind {
            Kind::Scalar(s) => Slot::read_scalar(*s, &mut self.r)?,
            Kind::String => self.string(meta)?,
            Kind::Bytes => {
                let len = Bytes::read(&mut self.r, meta)?.len();
                let start = self.r.u16_at(meta)?;
                Slot::Bytes {
                    start: start.into(),
                    len: pos(len),
                }
            }
            Kind::Array(element) => return self.array(element, meta, dest),
            Kind::Object(s) => Slot::Object {
                start: pos(self.object(s, meta)?),
            },
        };
        self.slots[dest] = slot;
        Ok(())
    }

    /// A string whose offset is the metadata word at `meta`.
    #[inline]
    fn string(&mut self, meta: usize) -> Decoded<Slot, E> {
        let len = Str::read(&mut self.r, meta)?.as_utf16le().len();
        let start = self.r.u16_at(meta)?;
        Ok(Slot::String {
            start: start.into(),
            len: pos(len),
        })
    }

    /// An array's linked list, as `tera_packets::Array` walks it: each
    /// element inside the packet, the budget of bytes spent (no loops, no
    /// overlap), exactly `count` links; its slot goes to `dest`. The slots
    /// grow with the elements read, never from the count on the wire.
    fn array(&mut self, element: &ElementKind, meta: usize, dest: usize) -> Decoded<(), E> {
        let start = self.slots.len();
        let count = match element {
            ElementKind::Scalar(s) => self.links(meta, |d| {
                let slot = Slot::read_scalar(*s, &mut d.r)?;
                d.slots.push(slot);
                Ok(())
            })?,
            ElementKind::String => self.links(meta, |d| {
                let meta = d.r.pos();
                d.r.skip(2)?;
                let slot = d.string(meta)?;
                d.slots.push(slot);
                Ok(())
            })?,
            // Scalars only: every element's record has as many slots, so
            // the elements follow each other without links.
            ElementKind::Block(s) if s.sequential => self.links(meta, |d| d.push_fields(s))?,
            // Each element's record is linked from the one before.
            ElementKind::Block(s) => {
                let mut previous: Option<usize> = None;
                self.links(meta, |d| {
                    let here = d.slots.len();
                    if let Some(p) = previous.replace(here) {
                        d.slots[p] = Slot::Next(pos(here));
                    }
                    d.slots.push(Slot::Next(0));
                    d.block(s).map(drop)
                })?
            }
        };
        self.slots[dest] = Slot::Array {
            first: pos(start),
            len: count.into(),
        };
        Ok(())
    }

    /// Follows the links of the array whose count and first offset are at
    /// `meta`, reading each element's block (after its `here` and `next`)
    /// with `element`; the count.
    #[inline(always)]
    fn links(
        &mut self,
        meta: usize,
        mut element: impl FnMut(&mut Self) -> Decoded<(), E>,
    ) -> Decoded<u16, E> {
        let count = self.r.u16_at(meta)?;
        let first = self.r.u16_at(meta + 2)?;
        let mut at = usize::from(first);
        let mut link = meta + 2;
        for left in (0..count).rev() {
            self.r.check_offset(at, link)?;
            self.r.spend(4, at)?;
            let next = self.r.u16_at(at + 2)?;
            self.r.set_pos(at + 4);
            element(self)?;
            link = at + 2;
            match (left, next) {
                (0, 0) => {}
                (0, _) => return Err(Error::new(ErrorKind::ListTooLong, link).into()),
                (_, 0) => return Err(Error::new(ErrorKind::ListTooShort, link).into()),
                (_, next) => at = usize::from(next),
            }
        }
        Ok(count)
    }
}
