//! What the formats share: the buffered output, and the events of a walk
//! that each format writes.

use std::io::{self, Write};

use crate::tree::Element;

/// Buffered output that counts bytes.
pub(crate) struct Sink<'w> {
    out: &'w mut dyn Write,
    buf: Vec<u8>,
    pub(crate) written: u64,
}

impl<'w> Sink<'w> {
    pub(crate) fn new(out: &'w mut dyn Write) -> Self {
        Sink {
            out,
            buf: Vec::with_capacity(1 << 16),
            written: 0,
        }
    }

    pub(crate) fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= (1 << 16) - 1024 {
            self.flush()?;
        }
        Ok(())
    }

    pub(crate) fn put_char(&mut self, c: char) -> io::Result<()> {
        let mut tmp = [0u8; 4];
        self.put(c.encode_utf8(&mut tmp).as_bytes())
    }

    pub(crate) fn indent(&mut self, pretty: bool, depth: usize) -> io::Result<()> {
        if pretty {
            self.put(b"\n")?;
            for _ in 0..depth {
                self.put(b"  ")?;
            }
        }
        Ok(())
    }

    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }
}

/// What comes before an element in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sep {
    /// Nothing: the first top-level element.
    None,
    /// The first child: opens the list.
    Open,
    /// A later element.
    Comma,
}

/// The events of a walk.
pub(crate) trait Emit {
    fn prologue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()>;
    fn begin(
        &mut self,
        out: &mut Sink<'_>,
        e: &Element<'_>,
        depth: usize,
        sep: Sep,
    ) -> io::Result<()>;
    fn end(
        &mut self,
        out: &mut Sink<'_>,
        e: &Element<'_>,
        depth: usize,
        had_children: bool,
    ) -> io::Result<()>;
    fn epilogue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()>;
}
