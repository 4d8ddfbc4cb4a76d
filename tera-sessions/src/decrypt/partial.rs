//! A packet being read: its header and some of its body.
//!
//! The fields are private to this module and the one constructor checks
//! them, so that every `Partial` holds a length of at least a header's and
//! fewer bytes than that length: what is missing is never negative.

use tera_net::framing::HEADER_LEN;

/// A packet whose header was read and whose body is not whole yet.
#[derive(Debug)]
pub(crate) struct Partial {
    /// The decrypted bytes so far, header first: at least [`HEADER_LEN`],
    /// fewer than `len`.
    bytes: Vec<u8>,
    /// The length its header gives: more than `bytes.len()`.
    len: usize,
}

impl Partial {
    /// The packet whose first bytes (a header, then some body) are
    /// `bytes`, or `bytes` back when they are no such start: shorter than a
    /// header, a length below the header's, or already whole.
    pub(crate) fn new(bytes: Vec<u8>) -> Result<Partial, Vec<u8>> {
        match tera_net::framing::packet_len(&bytes).map(usize::from) {
            Some(len) if bytes.len() >= HEADER_LEN && len >= HEADER_LEN && bytes.len() < len => {
                Ok(Partial { bytes, len })
            }
            _ => Err(bytes),
        }
    }

    /// The bytes still to come.
    pub(crate) fn missing(&self) -> usize {
        self.len - self.bytes.len()
    }

    /// Takes what it still needs from the front of `bytes`, decrypting it
    /// with `decrypt`; returns how many it took, and the whole packet once
    /// it is.
    pub(crate) fn fill(
        mut self,
        bytes: &[u8],
        decrypt: impl FnOnce(&mut [u8]),
    ) -> (usize, Result<Vec<u8>, Partial>) {
        let n = self.missing().min(bytes.len());
        let at = self.bytes.len();
        self.bytes
            .extend_from_slice(bytes.get(..n).unwrap_or_default());
        if let Some(new) = self.bytes.get_mut(at..) {
            decrypt(new);
        }
        if self.bytes.len() == self.len {
            (n, Ok(self.bytes))
        } else {
            (n, Err(self))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_started_packet_that_is_not_whole() {
        assert!(Partial::new(vec![8, 0, 1]).is_err(), "no whole header");
        assert!(Partial::new(vec![3, 0, 1, 2, 9]).is_err(), "length 3");
        assert!(Partial::new(vec![5, 0, 1, 2, 9]).is_err(), "whole already");
        assert!(Partial::new(vec![5, 0, 1, 2, 9, 9]).is_err(), "longer");
        let p = Partial::new(vec![6, 0, 1, 2, 9]).unwrap();
        assert_eq!(p.missing(), 1);
        let (taken, whole) = p.fill(&[7, 8, 9], |b| b.iter_mut().for_each(|x| *x ^= 1));
        assert_eq!(taken, 1);
        assert_eq!(whole.unwrap(), [6, 0, 1, 2, 9, 6]);
    }
}
