//! Reading whole records from a stream that may end anywhere.

use std::io::{ErrorKind, Read};

/// Fills `buf` from `input`; returns how many bytes it got, fewer than
/// `buf.len()` only at the end of the input.
pub(crate) fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        let Some(rest) = buf.get_mut(filled..) else {
            break;
        };
        match input.read(rest) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
