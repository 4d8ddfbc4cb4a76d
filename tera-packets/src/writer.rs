//! A cursor that writes a packet straight into the caller's buffer.

/// Writes a packet into a buffer whose size was computed beforehand.
///
/// Writes never panic: one that would not fit sets a flag that
/// [`Writer::overflowed`] reports once at the end, so the hot path carries
/// no `Result`.
#[derive(Debug)]
pub struct Writer<'b> {
    buf: &'b mut [u8],
    pos: usize,
    overflow: bool,
}

impl<'b> Writer<'b> {
    /// A writer over `buf` (the whole packet), positioned at `pos`.
    pub fn new(buf: &'b mut [u8], pos: usize) -> Self {
        Writer {
            buf,
            pos,
            overflow: false,
        }
    }

    /// The cursor: an absolute offset in the packet.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Whether a write ever fell outside the buffer.
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Writes `bytes` at the cursor and moves past them.
    #[inline]
    pub fn put(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => dst.copy_from_slice(bytes),
            None => self.overflow = true,
        }
        self.pos = end;
    }

    /// The next `n` bytes of the buffer, to be filled by the caller, moving
    /// past them; `None` (and the overflow flag set) if they do not fit.
    #[inline]
    pub fn take(&mut self, n: usize) -> Option<&mut [u8]> {
        let at = self.pos;
        self.pos += n;
        match self.buf.get_mut(at..at + n) {
            Some(run) => Some(run),
            None => {
                self.overflow = true;
                None
            }
        }
    }

    /// Writes `N` bytes at the cursor and moves past them.
    #[inline]
    pub fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.put(&bytes);
    }

    /// Writes `n` zero bytes at the cursor (reserved metadata slots).
    #[inline]
    pub fn zeros(&mut self, n: usize) {
        let end = self.pos + n;
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => dst.fill(0),
            None => self.overflow = true,
        }
        self.pos = end;
    }

    /// Writes a `u16` at absolute offset `at`, leaving the cursor alone
    /// (patching a metadata slot or a `next` link).
    #[inline]
    pub fn patch_u16(&mut self, at: usize, value: u16) {
        match self.buf.get_mut(at..at + 2) {
            Some(dst) => dst.copy_from_slice(&value.to_le_bytes()),
            None => self.overflow = true,
        }
    }

    /// The cursor as a `u16` offset. The packet's size was checked against
    /// 65535 before writing began, so this does not truncate for a correct
    /// `wire_len`; if it would, the write is marked as overflowed.
    #[inline]
    pub fn offset(&mut self) -> u16 {
        match u16::try_from(self.pos) {
            Ok(v) => v,
            Err(_) => {
                self.overflow = true;
                0
            }
        }
    }
}
