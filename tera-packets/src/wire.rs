//! The traits that carry the wire format: one per role a type can play.
//!
//! A field's encoding lives in its type's [`Wire`] impl (for types read
//! at the cursor with no metadata, its [`Codec`](crate::Codec) impl, which
//! gives `Wire` through a blanket impl); a block (the root of
//! a packet or an array element) adds its metadata area through [`Block`];
//! [`Packet`] adds the header. The derive macros write these impls for
//! structs by calling the impls of the field types, so adding an encoding is
//! adding a type, not changing the macro.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::{HEADER_LEN, Reader};
use crate::writer::Writer;

/// The largest packet: its length must fit the `u16` header.
pub const MAX_PACKET_LEN: usize = u16::MAX as usize;

/// A type that can be a field of a block.
///
/// Fixed types are read and written at the cursor. Variable types (strings,
/// bytes, arrays) have `META_WORDS` `u16` metadata words in their block
/// (offset, count) and their data wherever the offset points; after reading
/// it the cursor moves to the end of that data, where the writer puts what
/// follows. Objects are fields too: their fixed fields inline, their metadata
/// words hoisted into the enclosing block.
pub trait Wire<'a>: Sized {
    /// The number of `u16` metadata words this field has in its block.
    const META_WORDS: usize;
    /// The size in bytes when it never varies (fixed fields, and objects of
    /// fixed fields only).
    const FIXED_SIZE: Option<usize>;
    /// A lower bound of [`Wire::wire_len`]: the bytes every value writes at
    /// the cursor (a fixed field's size; 0 for bytes and arrays). An encode
    /// checks its buffer against the packet's minimum once, which lets the
    /// compiler drop the bounds checks of the fixed fields before the first
    /// variable one.
    const MIN_WIRE_LEN: usize = match Self::FIXED_SIZE {
        Some(size) => size,
        None => 0,
    };

    /// Whether reading the field reads or moves past bytes at the cursor:
    /// fixed fields and objects do; strings, bytes and arrays read where
    /// their offset points and only move the cursor to the end of their data.
    const READS_AT_CURSOR: bool = true;

    /// Reads the field; `meta` is the absolute offset of its metadata words.
    fn read(r: &mut Reader<'a>, meta: usize) -> Result<Self>;

    /// Reads the field again from a packet that a decode has validated:
    /// the value and cursor of [`Wire::read`], without the work that
    /// cannot fail a second time (an array does not check its elements and
    /// their lists again). Iterating an array view reads its elements so.
    /// Given bytes that were not validated it still never panics or loops,
    /// but its result is unspecified.
    #[inline]
    fn read_validated(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        Self::read(r, meta)
    }

    /// [`Wire::read_validated`] for a field after which nothing is read at
    /// the cursor: the cursor may be left anywhere, which spares an array
    /// following its links to the end of its last element.
    #[inline]
    fn read_validated_loose(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        Self::read_validated(r, meta)
    }

    /// Moves the cursor past the field of a validated packet as
    /// [`Wire::read_validated`] does, without building it.
    #[inline]
    fn skip_validated(r: &mut Reader<'a>, meta: usize) -> Result<()> {
        Self::read_validated(r, meta).map(drop)
    }

    /// The bytes the field writes at the cursor: fixed bytes and variable
    /// data, not its metadata words.
    fn wire_len(&self) -> usize;

    /// Checks the field exactly as [`Wire::read`] does (same errors, same
    /// cursor afterwards) without building it, and returns the `wire_len`
    /// the value would have. Arrays validate their elements with it, so that
    /// a decode does not build and drop every element.
    #[inline]
    fn validate(r: &mut Reader<'a>, meta: usize) -> Result<usize> {
        Self::read(r, meta).map(|v| v.wire_len())
    }

    /// Writes the field at the cursor; `meta` is the absolute offset of its
    /// metadata words, patched with the data's offset and count.
    fn write(&self, w: &mut Writer<'_>, meta: usize);

    /// Copies the field from a packet that a decode has validated (`r`, its
    /// metadata words at `meta`) to `w` (its metadata words at `meta_out`):
    /// what [`Wire::read_validated`] then [`Wire::write`] do, and how the
    /// elements of a decoded array are encoded again. The derives copy runs
    /// of fixed fields as bytes instead of building the value. Given bytes
    /// that were not validated it still never panics or loops.
    #[inline]
    fn copy_validated(
        r: &mut Reader<'a>,
        meta: usize,
        w: &mut Writer<'_>,
        meta_out: usize,
    ) -> Result<()> {
        Self::read_validated(r, meta)?.write(w, meta_out);
        Ok(())
    }
}

/// A type that can be a block: the root of a packet or an array element.
///
/// The provided methods lay out an implicit block: all metadata words first,
/// then the fields. Blocks with explicit `ref` lines place their metadata
/// among the fields themselves (their `META_WORDS` is 0).
pub trait Block<'a>: Wire<'a> {
    /// Reads a block at the cursor.
    #[inline]
    fn read_block(r: &mut Reader<'a>) -> Result<Self> {
        let meta = r.pos();
        r.skip(2 * Self::META_WORDS)?;
        Self::read(r, meta)
    }

    /// Reads a block of a validated packet at the cursor (see
    /// [`Wire::read_validated`]).
    #[inline(always)]
    fn read_block_validated(r: &mut Reader<'a>) -> Result<Self> {
        let meta = r.pos();
        r.skip(2 * Self::META_WORDS)?;
        Self::read_validated(r, meta)
    }

    /// Reads a block of a validated packet at the cursor, leaving the cursor
    /// anywhere (see [`Wire::read_validated_loose`]): how the elements of
    /// an array view are read, each found by its link, not by the cursor.
    #[inline(always)]
    fn read_block_validated_loose(r: &mut Reader<'a>) -> Result<Self> {
        let meta = r.pos();
        r.skip(2 * Self::META_WORDS)?;
        Self::read_validated_loose(r, meta)
    }

    /// Moves the cursor past a block of a validated packet.
    #[inline]
    fn skip_block_validated(r: &mut Reader<'a>) -> Result<()> {
        let meta = r.pos();
        r.skip(2 * Self::META_WORDS)?;
        Self::skip_validated(r, meta)
    }

    /// Checks a block at the cursor as [`Block::read_block`] does and
    /// returns the `block_len` the value would have.
    #[inline]
    fn validate_block(r: &mut Reader<'a>) -> Result<usize> {
        let meta = r.pos();
        r.skip(2 * Self::META_WORDS)?;
        Ok(2 * Self::META_WORDS + Self::validate(r, meta)?)
    }

    /// The size of the block in bytes.
    #[inline]
    fn block_len(&self) -> usize {
        2 * Self::META_WORDS + self.wire_len()
    }

    /// Writes the block at the cursor.
    #[inline]
    fn write_block(&self, w: &mut Writer<'_>) {
        let meta = w.pos();
        w.zeros(2 * Self::META_WORDS);
        self.write(w, meta);
    }

    /// Copies a block of a validated packet at the cursor of `r` to the
    /// cursor of `w` (see [`Wire::copy_validated`]).
    #[inline]
    fn copy_block_validated(r: &mut Reader<'a>, w: &mut Writer<'_>) -> Result<()> {
        let (meta, meta_out) = (r.pos(), w.pos());
        // Skipping or zeroing no bytes would still be a bounds check each.
        if Self::META_WORDS > 0 {
            r.skip(2 * Self::META_WORDS)?;
            w.zeros(2 * Self::META_WORDS);
        }
        Self::copy_validated(r, meta, w, meta_out)
    }
}

/// An object whose fields are laid out in several places of its block (the
/// same `object` name on several lines of a def, e.g. `reaction` in
/// `S_EACH_SKILL_RESULT`). Part `p` holds the fields from the `p`-th line on.
pub trait Parts<'a>: Default {
    /// The number of parts.
    const PARTS: usize;
    /// The metadata words of each part.
    const PART_META_WORDS: &'static [usize];
    /// A lower bound of [`Parts::part_wire_len`] for each part (see
    /// [`Wire::MIN_WIRE_LEN`]); a part missing from the slice counts 0.
    const PART_MIN_WIRE_LEN: &'static [usize] = &[];
    /// Reads part `part` into `self`.
    fn read_part(&mut self, part: usize, r: &mut Reader<'a>, meta: usize) -> Result<()>;
    /// Reads part `part` of a validated packet (see [`Wire::read_validated`]).
    #[inline]
    fn read_part_validated(&mut self, part: usize, r: &mut Reader<'a>, meta: usize) -> Result<()> {
        self.read_part(part, r, meta)
    }
    /// The bytes part `part` writes at the cursor.
    fn part_wire_len(&self, part: usize) -> usize;
    /// Writes part `part` at the cursor.
    fn write_part(&self, part: usize, w: &mut Writer<'_>, meta: usize);
}

/// A whole packet: a root block behind the `u16 length, u16 opcode` header.
pub trait Packet<'a>: Block<'a> {
    /// The packet's name, as in the def file name (`S_LOGIN`).
    const NAME: &'static str;
    /// The def version (`14` for `S_LOGIN.14.def`).
    const VERSION: u32;

    /// Decodes a whole packet, header included, validating every offset,
    /// count, string and list. Allocates nothing: strings, bytes and arrays
    /// borrow from `packet`.
    #[inline]
    fn decode(packet: &'a [u8]) -> Result<Self> {
        let declared = match packet {
            [lo, hi, _, _, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => return Err(Error::new(ErrorKind::MissingHeader, 0)),
        };
        if usize::from(declared) != packet.len() {
            return Err(Error::new(
                ErrorKind::LengthMismatch {
                    declared,
                    actual: u32::try_from(packet.len()).unwrap_or(u32::MAX),
                },
                0,
            ));
        }
        Self::read_block(&mut Reader::new(packet))
    }

    /// The exact size of the encoded packet, header included.
    #[inline]
    fn encoded_len(&self) -> usize {
        HEADER_LEN + self.block_len()
    }

    /// Encodes the packet into the front of `buf` with opcode 0 and returns
    /// its length. Fails, writing nothing, when the packet would exceed 65535
    /// bytes or `buf` is too small.
    #[inline]
    fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        self.encode_into_with_opcode(0, buf)
    }

    /// Encodes the packet into the front of `buf` with `opcode` in its header.
    #[inline]
    fn encode_into_with_opcode(&self, opcode: u16, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len();
        let Ok(len16) = u16::try_from(len) else {
            return Err(Error::new(
                ErrorKind::TooLarge {
                    size: u32::try_from(len).unwrap_or(u32::MAX),
                },
                0,
            ));
        };
        let needed = ErrorKind::BufferTooSmall {
            needed: u32::from(len16),
        };
        let Some(packet) = buf.get_mut(..len) else {
            return Err(Error::new(needed, 0));
        };
        // Never true for impls whose `wire_len` is at least their
        // `MIN_WIRE_LEN`, as the derives' are; knowing that the buffer holds
        // the minimum, the compiler drops the bounds checks of every write
        // at a constant offset (the fixed fields up to the first string,
        // bytes or array).
        if len < HEADER_LEN + 2 * Self::META_WORDS + Self::MIN_WIRE_LEN {
            return Err(Error::new(needed, 0));
        }
        let mut w = Writer::new(packet, 0);
        let ([len_lo, len_hi], [op_lo, op_hi]) = (len16.to_le_bytes(), opcode.to_le_bytes());
        w.put_array([len_lo, len_hi, op_lo, op_hi]);
        self.write_block(&mut w);
        // A write that did not fit left the cursor past `len`.
        if w.pos() != len {
            // A `Wire` impl whose `wire_len` disagrees with its `write`.
            return Err(Error::new(needed, w.pos()));
        }
        Ok(len)
    }

    /// Encodes the packet into a new vector, opcode 0.
    fn encode(&self) -> Result<Vec<u8>> {
        let mut buf = vec![0; self.encoded_len()];
        let len = self.encode_into(&mut buf)?;
        buf.truncate(len);
        Ok(buf)
    }
}

/// A packet type named without the lifetime of the buffer it decodes from:
/// `<S_CHAT::V4 as PacketType>::At<'a>` is the struct decoded from a buffer
/// of lifetime `'a`. Code that decodes packets of a type chosen by its
/// caller, in buffers of its own, names the type through this trait (a hook
/// typed by its packet, `tera_proxy::Hook::on::<P>`).
///
/// `#[derive(Packet)]` implements it for every packet (so every generated
/// packet has it).
///
/// ```
/// use tera_packets::{Packet, PacketType, Str};
///
/// #[derive(Debug, PartialEq, Packet)]
/// #[tera(name = "S_SYSTEM_MESSAGE", version = 1)]
/// struct SystemMessage<'a> {
///     message: Str<'a>,
/// }
///
/// fn decode_as<P: PacketType>(bytes: &[u8]) -> tera_packets::Result<P::At<'_>> {
///     <P::At<'_> as Packet<'_>>::decode(bytes)
/// }
///
/// let bytes = SystemMessage { message: "hi".into() }.encode()?;
/// assert_eq!(decode_as::<SystemMessage>(&bytes)?.message, "hi");
/// # Ok::<(), tera_packets::Error>(())
/// ```
pub trait PacketType {
    /// The packet decoded from a buffer of lifetime `'a`.
    type At<'a>: Packet<'a>;
}

/// Writes `opcode` into the header of an encoded packet.
pub fn set_opcode(packet: &mut [u8], opcode: u16) {
    if let Some(dst) = packet.get_mut(2..4) {
        dst.copy_from_slice(&opcode.to_le_bytes());
    }
}

/// Converts a value that may borrow from a packet into one that owns its
/// data, so that it can outlive the packet's buffer.
pub trait IntoOwned {
    /// The same type, owning its data.
    type Owned: 'static;
    /// Copies whatever is borrowed.
    fn into_owned(self) -> Self::Owned;
}

/// Helpers for the code the derives write. Not a stable API.
#[doc(hidden)]
pub mod __private {
    use crate::error::{Error, ErrorKind, Result};

    /// Names the field of an error.
    #[inline]
    pub fn named<T>(result: Result<T>, field: &'static str) -> Result<T> {
        result.map_err(|e| e.in_field(field))
    }

    /// The sum of fixed sizes, or `None` if any field varies.
    pub const fn sum_fixed(sizes: &[Option<usize>]) -> Option<usize> {
        let mut total = 0;
        let mut rest = sizes;
        while let [first, tail @ ..] = rest {
            match first {
                Some(n) => total += *n,
                None => return None,
            }
            rest = tail;
        }
        Some(total)
    }

    /// A fixed-size field type read and written inside a run of fixed
    /// fields that was bounds-checked once: the derives use it for the
    /// runtime's scalar and value types, whose names they recognise.
    pub trait Fixed: Sized {
        /// The size in bytes.
        const SIZE: usize;
        /// The value at offset `at` of `run` (`run` holds it: the offsets
        /// are constants inside a run of known length, so the checks below
        /// fold away).
        fn get(run: &[u8], at: usize) -> Self;
        /// Writes the value at offset `at` of `run`.
        fn put(&self, run: &mut [u8], at: usize);
        /// Rewrites the bytes at offset `at` of `run`, copied from a packet,
        /// as [`Fixed::put`] would write the value [`Fixed::get`] reads
        /// there: nothing for types that read and write every bit.
        #[inline(always)]
        fn canonicalize(run: &mut [u8], at: usize) {
            let _ = (run, at);
        }
    }

    /// The `N` bytes at `at` of `run` (zeros if they are not there, which
    /// the callers rule out).
    #[inline(always)]
    pub fn bytes_at<const N: usize>(run: &[u8], at: usize) -> [u8; N] {
        match run.get(at..at.wrapping_add(N)) {
            Some(b) => <[u8; N]>::try_from(b).unwrap_or([0; N]),
            None => [0; N],
        }
    }

    /// Writes `bytes` at `at` of `run`, if they fit (the callers make sure).
    #[inline(always)]
    pub fn put_at<const N: usize>(run: &mut [u8], at: usize, bytes: [u8; N]) {
        if let Some(dst) = run.get_mut(at..at.wrapping_add(N)) {
            dst.copy_from_slice(&bytes);
        }
    }

    /// Implements [`Fixed`] from a `from_le_bytes`/`to_le_bytes` pair.
    macro_rules! fixed_le {
        ($($ty:ty = $n:expr),*) => {$(
            impl Fixed for $ty {
                const SIZE: usize = $n;
                #[inline(always)]
                fn get(run: &[u8], at: usize) -> Self {
                    <$ty>::from_le_bytes(bytes_at::<$n>(run, at))
                }
                #[inline(always)]
                fn put(&self, run: &mut [u8], at: usize) {
                    put_at::<$n>(run, at, self.to_le_bytes());
                }
            }
        )*};
    }

    fixed_le!(
        u8 = 1,
        i16 = 2,
        u16 = 2,
        i32 = 4,
        u32 = 4,
        i64 = 8,
        u64 = 8,
        f32 = 4,
        f64 = 8
    );
    // The value types implement `Fixed` where they are defined
    // (`values::value_wire!`).

    impl Fixed for bool {
        const SIZE: usize = 1;
        /// Any non-zero byte is `true`.
        #[inline(always)]
        fn get(run: &[u8], at: usize) -> Self {
            run.get(at).is_some_and(|b| *b != 0)
        }
        #[inline(always)]
        fn put(&self, run: &mut [u8], at: usize) {
            if let Some(b) = run.get_mut(at) {
                *b = u8::from(*self);
            }
        }
        /// `true` is written as 1, whatever non-zero byte it was read from.
        #[inline(always)]
        fn canonicalize(run: &mut [u8], at: usize) {
            if let Some(b) = run.get_mut(at) {
                *b = u8::from(*b != 0);
            }
        }
    }

    /// The error of a run of fixed pieces (`size`, field name) starting at
    /// `pos` that does not fit a packet of `len` bytes: the one reading them
    /// one by one would give. Takes the cursor by value so that the reader
    /// does not escape and can live in registers.
    #[cold]
    #[inline(never)]
    pub fn run_error(pos: usize, len: usize, pieces: &[(usize, Option<&'static str>)]) -> Error {
        let start = pos;
        let mut pos = pos;
        for &(size, name) in pieces {
            if pos.saturating_add(size) > len {
                let e = Error::new(ErrorKind::UnexpectedEnd, pos);
                return match name {
                    Some(name) => e.in_field(name),
                    None => e,
                };
            }
            pos += size;
        }
        Error::new(ErrorKind::UnexpectedEnd, start)
    }

    /// Element `index` of `words`, or 0.
    pub const fn nth(words: &[usize], index: usize) -> usize {
        let mut rest = words;
        let mut i = 0;
        while let [first, tail @ ..] = rest {
            if i == index {
                return *first;
            }
            rest = tail;
            i += 1;
        }
        0
    }
}
