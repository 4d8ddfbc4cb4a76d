//! A cursor that writes a packet straight into the caller's buffer.

/// The cursor of a writer after a write that did not fit.
const POISONED: usize = usize::MAX / 2;

/// Marks the path that calls it as unlikely. Without it the compiler turns
/// "poison the cursor if the write does not fit" into a conditional move,
/// which makes each write wait for the bounds check of the one before; as a
/// branch that is predicted not taken, the writes of a block run side by
/// side. (`core::hint::cold_path` does this from Rust 1.90; the crate
/// supports 1.88.)
#[cold]
#[inline(never)]
fn overflow_is_rare() {}

/// Copies `src` into `dst`, of the same length (otherwise nothing). Strings
/// and byte fields are mostly short, and a call to the C library's `memmove`
/// costs more than copying them: up to 32 bytes go as two fixed-size copies
/// that overlap in the middle, which compile to a pair of loads and stores.
#[inline(always)]
pub(crate) fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if dst.len() != n {
        return;
    }
    match n {
        0 => {}
        1..4 => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
        }
        4..8 => copy_ends::<4>(dst, src),
        8..16 => copy_ends::<8>(dst, src),
        16..=32 => copy_ends::<16>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}

/// Copies the first and the last `N` bytes of `src` (at least `N` long) to
/// `dst`, of the same length.
#[inline(always)]
fn copy_ends<const N: usize>(dst: &mut [u8], src: &[u8]) {
    let tail = src.len().wrapping_sub(N);
    for at in [0, tail] {
        let from = src
            .get(at..at.wrapping_add(N))
            .and_then(|s| <[u8; N]>::try_from(s).ok());
        let to = dst.get_mut(at..at.wrapping_add(N));
        if let (Some(from), Some(to)) = (from, to) {
            to.copy_from_slice(&from);
        }
    }
}

/// Writes a packet into a buffer whose size was computed beforehand.
///
/// Writes never panic: one that would not fit is skipped and sends the
/// cursor far past the end of any buffer, where it stays; [`Writer::overflowed`]
/// reports it once at the end, so the hot path carries neither a `Result` nor
/// a flag.
#[derive(Debug)]
pub struct Writer<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl<'b> Writer<'b> {
    /// A writer over `buf` (the whole packet), positioned at `pos`.
    pub fn new(buf: &'b mut [u8], pos: usize) -> Self {
        Writer { buf, pos }
    }

    /// The cursor: an absolute offset in the packet.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Whether a write ever fell outside the buffer.
    #[inline]
    pub fn overflowed(&self) -> bool {
        self.pos > self.buf.len()
    }

    /// Marks the write as overflowed: the cursor goes far past any buffer,
    /// where it stays (every later write fails and poisons it again).
    /// Inlined: an out-of-line call would take the writer's address and keep
    /// it out of registers.
    #[inline(always)]
    fn poison(&mut self) {
        overflow_is_rare();
        self.pos = POISONED;
    }

    /// Writes `bytes` at the cursor and moves past them.
    #[inline]
    pub fn put(&mut self, bytes: &[u8]) {
        if let Some(dst) = self.take(bytes.len()) {
            copy_short(dst, bytes);
        }
    }

    /// The next `n` bytes of the buffer, to be filled by the caller, moving
    /// past them; `None` (an overflow) if they do not fit.
    #[inline]
    pub fn take(&mut self, n: usize) -> Option<&mut [u8]> {
        let at = self.pos;
        let end = at.wrapping_add(n);
        // Checked with `get`, then taken with `get_mut` (the compiler folds
        // the second check): matching on one `get_mut` and poisoning in its
        // `None` arm is refused by the borrow checker.
        if self.buf.get(at..end).is_none() {
            self.poison();
            return None;
        }
        self.pos = end;
        self.buf.get_mut(at..end)
    }

    /// Writes `N` bytes at the cursor and moves past them.
    #[inline]
    pub fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.put(&bytes);
    }

    /// Writes `n` zero bytes at the cursor (reserved metadata slots).
    #[inline]
    pub fn zeros(&mut self, n: usize) {
        if let Some(dst) = self.take(n) {
            dst.fill(0);
        }
    }

    /// Writes a `u16` at absolute offset `at`, leaving the cursor alone
    /// (patching a metadata slot or a `next` link).
    #[inline]
    pub fn patch_u16(&mut self, at: usize, value: u16) {
        self.patch(at, value.to_le_bytes());
    }

    /// Writes `bytes` at absolute offset `at`, leaving the cursor alone:
    /// adjacent metadata words patched with one bounds check.
    #[inline]
    pub fn patch<const N: usize>(&mut self, at: usize, bytes: [u8; N]) {
        match self.buf.get_mut(at..at.wrapping_add(N)) {
            Some(dst) => dst.copy_from_slice(&bytes),
            None => self.poison(),
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
                self.poison();
                0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Writer, copy_short};

    #[test]
    fn short_copies_copy_every_byte_of_every_length() {
        let src: Vec<u8> = (1..=80).collect();
        for n in 0..=src.len() {
            let mut dst = vec![0u8; n];
            copy_short(&mut dst, &src[..n]);
            assert_eq!(dst, src[..n], "length {n}");
            // Through the writer, between two other writes.
            let mut buf = vec![0u8; n + 2];
            let mut w = Writer::new(&mut buf, 0);
            w.put_array([0xaa]);
            w.put(&src[..n]);
            w.put_array([0xbb]);
            assert_eq!((w.pos(), w.overflowed()), (n + 2, false));
            assert_eq!(buf[1..=n], src[..n], "length {n}");
            assert_eq!((buf[0], buf[n + 1]), (0xaa, 0xbb));
        }
        // Lengths that differ: nothing is written.
        let mut dst = [0u8; 4];
        copy_short(&mut dst, &src[..5]);
        assert_eq!(dst, [0; 4]);
    }

    #[test]
    fn patch_writes_in_place_and_leaves_the_cursor() {
        let mut buf = [0u8; 8];
        let mut w = Writer::new(&mut buf, 2);
        w.patch(4, [1, 2, 3, 4]);
        w.patch_u16(0, 0x0a0b);
        assert_eq!(w.pos(), 2);
        assert!(!w.overflowed());
        assert_eq!(buf, [0x0b, 0x0a, 0, 0, 1, 2, 3, 4]);
    }

    #[test]
    fn patch_past_the_end_poisons_without_writing() {
        // Straddling the end, starting past it, and an offset whose end
        // wraps around: none writes, and each is reported as an overflow.
        for at in [5, 8, 100, usize::MAX - 1] {
            let mut buf = [0u8; 8];
            let mut w = Writer::new(&mut buf, 0);
            w.patch(at, [9, 9, 9, 9]);
            assert!(w.overflowed(), "at {at}");
            assert_eq!(buf, [0; 8], "at {at}");
        }
    }
}
