//! The little a hand-written codec shares: a checked input with the same
//! validation as the runtime (offsets, NUL terminators, list links, a work
//! budget of the packet's size) and an output that writes fixed runs through
//! one bounds check each.

/// What went wrong; the hand-written code reports the kind only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    Header,
    Length,
    End,
    OffsetInHeader,
    OffsetOutOfBounds,
    Unterminated,
    OddString,
    BytesOutOfBounds,
    ListTooShort,
    ListTooLong,
    Overlap,
    TooLarge,
    BufferTooSmall,
}

pub type Result<T> = core::result::Result<T, Error>;

#[cold]
#[inline(never)]
pub fn fail<T>(e: Error) -> Result<T> {
    Err(e)
}

/// Reads a little-endian number at a constant offset of a fixed run.
macro_rules! le {
    ($b:expr, $at:expr, $ty:ty) => {
        <$ty>::from_le_bytes(
            $b[$at..$at + size_of::<$ty>()]
                .try_into()
                .expect("constant range of a fixed run"),
        )
    };
}

/// Writes a little-endian number at a constant offset of a fixed run.
macro_rules! set {
    ($b:expr, $at:expr, $v:expr) => {{
        let bytes = $v.to_le_bytes();
        $b[$at..$at + bytes.len()].copy_from_slice(&bytes);
    }};
}

pub(crate) use {le, set};

pub fn vec3(b: &[u8], at: usize) -> [f32; 3] {
    [le!(b, at, f32), le!(b, at + 4, f32), le!(b, at + 8, f32)]
}

pub fn put_vec3(b: &mut [u8], at: usize, v: [f32; 3]) {
    set!(b, at, v[0]);
    set!(b, at + 4, v[1]);
    set!(b, at + 8, v[2]);
}

/// A packet being decoded.
pub struct Input<'a> {
    pub buf: &'a [u8],
    budget: usize,
}

impl<'a> Input<'a> {
    /// Checks the header: at least 4 bytes, length word equal to the size.
    #[inline]
    pub fn packet(buf: &'a [u8]) -> Result<Self> {
        let Some(&[lo, hi]) = buf.get(..2) else {
            return fail(Error::Header);
        };
        if buf.len() < 4 {
            return fail(Error::Header);
        }
        if usize::from(u16::from_le_bytes([lo, hi])) != buf.len() {
            return fail(Error::Length);
        }
        Ok(Input {
            buf,
            budget: buf.len(),
        })
    }

    /// The `N` bytes at `at`: one check for a whole run of fixed fields.
    #[inline]
    pub fn fixed<const N: usize>(&self, at: usize) -> Result<&'a [u8; N]> {
        match self.buf.get(at..at + N) {
            Some(s) => Ok(s.try_into().expect("N bytes")),
            None => fail(Error::End),
        }
    }

    #[inline]
    pub fn word(&self, at: usize) -> Result<usize> {
        let b = self.fixed::<2>(at)?;
        Ok(usize::from(u16::from_le_bytes(*b)))
    }

    #[inline]
    fn offset(&self, offset: usize) -> Result<()> {
        if offset < 4 {
            fail(Error::OffsetInHeader)
        } else if offset > self.buf.len() {
            fail(Error::OffsetOutOfBounds)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn spend(&mut self, n: usize) -> Result<()> {
        match self.budget.checked_sub(n) {
            Some(rest) => {
                self.budget = rest;
                Ok(())
            }
            None => fail(Error::Overlap),
        }
    }

    /// The UTF-16LE text of the string whose offset word is `start`.
    #[inline]
    pub fn string(&mut self, start: usize) -> Result<&'a [u8]> {
        self.offset(start)?;
        let tail = &self.buf[start..];
        let mut len = None;
        for (i, pair) in tail.chunks_exact(2).enumerate() {
            if pair == [0, 0] {
                len = Some(2 * i);
                break;
            }
        }
        let Some(len) = len else {
            return fail(if tail.len().is_multiple_of(2) {
                Error::Unterminated
            } else {
                Error::OddString
            });
        };
        self.spend(len + 2)?;
        Ok(&tail[..len])
    }

    /// The data of a `bytes` field with offset `start` and `count`.
    #[inline]
    pub fn bytes(&mut self, start: usize, count: usize) -> Result<&'a [u8]> {
        self.offset(start)?;
        let Some(data) = self.buf.get(start..start + count) else {
            return fail(Error::BytesOutOfBounds);
        };
        self.spend(count)?;
        Ok(data)
    }

    /// Walks the list of `len` elements starting at `first`, checking each
    /// element's block with `elem` (given the block's offset).
    #[inline]
    pub fn list(
        &mut self,
        len: usize,
        first: usize,
        mut elem: impl FnMut(&mut Self, usize) -> Result<()>,
    ) -> Result<List<'a>> {
        let mut pos = first;
        for left in (0..len).rev() {
            self.offset(pos)?;
            self.spend(4)?;
            let next = self.word(pos + 2)?;
            elem(self, pos + 4)?;
            match (left, next) {
                (0, 0) => {}
                (0, _) => return fail(Error::ListTooLong),
                (_, 0) => return fail(Error::ListTooShort),
                (_, next) => pos = next,
            }
        }
        Ok(List {
            buf: self.buf,
            first,
            len,
        })
    }
}

/// A validated list: where its elements' blocks are.
#[derive(Clone, Copy)]
pub struct List<'a> {
    pub buf: &'a [u8],
    first: usize,
    pub len: usize,
}

impl<'a> List<'a> {
    /// The offsets of the elements' blocks, in list order.
    #[inline]
    pub fn blocks(self) -> impl Iterator<Item = usize> + use<'a> {
        let buf = self.buf;
        let mut pos = self.first;
        (0..self.len).map(move |_| {
            let here = pos;
            pos = usize::from(u16::from_le_bytes([buf[here + 2], buf[here + 3]]));
            here + 4
        })
    }

    /// A fixed run of a validated element.
    #[inline]
    pub fn fixed<const N: usize>(&self, at: usize) -> &'a [u8; N] {
        self.buf[at..at + N].try_into().expect("validated")
    }

    /// A validated string.
    #[inline]
    pub fn string(&self, start: usize) -> &'a [u8] {
        let tail = &self.buf[start..];
        let len = tail
            .chunks_exact(2)
            .position(|p| p == [0, 0])
            .expect("validated");
        &tail[..2 * len]
    }

    /// A validated sub-list whose `count, offset` words are at `meta`.
    #[inline]
    pub fn sublist(&self, meta: usize) -> List<'a> {
        let b: &[u8; 4] = self.fixed(meta);
        List {
            buf: self.buf,
            len: usize::from(le!(b, 0, u16)),
            first: usize::from(le!(b, 2, u16)),
        }
    }
}

/// A packet being encoded: its size was computed first and checked against
/// the buffer, so the writes below cannot fail.
pub struct Output<'b> {
    buf: &'b mut [u8],
    pub pos: usize,
}

impl<'b> Output<'b> {
    /// Writes the header of a packet of `len` bytes.
    #[inline]
    pub fn packet(buf: &'b mut [u8], len: usize) -> Result<Self> {
        let Ok(len16) = u16::try_from(len) else {
            return fail(Error::TooLarge);
        };
        let Some(buf) = buf.get_mut(..len) else {
            return fail(Error::BufferTooSmall);
        };
        set!(buf, 0, len16);
        set!(buf, 2, 0u16);
        Ok(Output { buf, pos: 4 })
    }

    /// The next `N` bytes, for a run of fixed fields.
    #[inline]
    pub fn fixed<const N: usize>(&mut self) -> &mut [u8; N] {
        let at = self.pos;
        self.pos += N;
        (&mut self.buf[at..at + N]).try_into().expect("sized")
    }

    /// A fixed run written earlier (metadata words).
    #[inline]
    pub fn at<const N: usize>(&mut self, at: usize) -> &mut [u8; N] {
        (&mut self.buf[at..at + N]).try_into().expect("sized")
    }

    #[inline]
    pub fn here(&self) -> u16 {
        self.pos as u16
    }

    #[inline]
    pub fn put(&mut self, data: &[u8]) {
        self.buf[self.pos..self.pos + data.len()].copy_from_slice(data);
        self.pos += data.len();
    }

    /// A string: its offset into the word at `slot`, then text and NUL.
    #[inline]
    pub fn string(&mut self, slot: usize, utf16: &[u8]) {
        let here = self.here();
        set!(self.buf, slot, here);
        self.put(utf16);
        self.put(&[0, 0]);
    }

    /// A `bytes` field: offset and count into the words at `slot`.
    #[inline]
    pub fn bytes(&mut self, slot: usize, data: &[u8]) {
        let here = self.here();
        set!(self.buf, slot, here);
        set!(self.buf, slot + 2, data.len() as u16);
        self.put(data);
    }

    /// Starts a list of `len` elements whose `count, offset` words are at
    /// `meta`; returns the link to patch with the first element.
    #[inline]
    pub fn list(&mut self, meta: usize, len: usize) -> usize {
        set!(self.buf, meta, len as u16);
        set!(self.buf, meta + 2, 0u16);
        meta + 2
    }

    /// Starts the next element: links it from `link`, writes its `here,
    /// next` words; its block follows at the cursor.
    #[inline]
    pub fn element(&mut self, link: &mut usize) {
        let here = self.here();
        set!(self.buf, *link, here);
        set!(self.buf, self.pos, here);
        set!(self.buf, self.pos + 2, 0u16);
        *link = self.pos + 2;
        self.pos += 4;
    }
}
