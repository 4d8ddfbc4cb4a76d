//! The two string hashes of the format.
//!
//! Both use a CRC-32 table built MSB-first (polynomial 0x04C11DB7) but apply it
//! LSB-first, over the UTF-16LE bytes of the string: no CRC crate computes this.

use crate::records::EXTENDED_MAX;

const fn build_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = (i as u32) << 24;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04C1_1DB7
            } else {
                c << 1
            };
            bit += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

static TABLE: [u32; 256] = build_table();

#[inline]
fn step(hash: u32, unit: u16) -> u32 {
    let [lo, hi] = unit.to_le_bytes();
    let hash = TABLE[((hash ^ lo as u32) & 0xff) as usize] ^ (hash >> 8);
    TABLE[((hash ^ hi as u32) & 0xff) as usize] ^ (hash >> 8)
}

/// Hash of a string in a string table (`DataCenterString::hash`), over its
/// UTF-16 code units (without the terminating NUL).
pub fn string_hash(units: impl IntoIterator<Item = u16>) -> u32 {
    units.into_iter().fold(0, step)
}

/// The 14-bit hash a string attribute stores in its extended type code: the
/// string hash of the case-folded string, masked to the 14 bits of the
/// extended code.
pub fn value_hash(units: impl IntoIterator<Item = u16>) -> u16 {
    (units.into_iter().map(fold_case).fold(0, step) & u32::from(EXTENDED_MAX)) as u16
}

/// The client's minimal upper-casing: ASCII and Latin-1 letters, plus three
/// special pairs.
fn fold_case(unit: u16) -> u16 {
    match unit {
        0x9c => 0x8c,
        0xff => 0x9f,
        0x151 => 0x150,
        0xf0 | 0xf7 => unit,
        0x61..=0x7a | 0xe0..=0xfe => unit - 0x20,
        _ => unit,
    }
}

/// The bucket of a hash in a table of `buckets` buckets.
pub fn bucket_of(hash: u32, buckets: usize) -> usize {
    ((hash ^ (hash >> 16)) as usize) % buckets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_published_one() {
        assert_eq!(TABLE[1], 0x04c1_1db7);
        assert_eq!(TABLE[8], 0x2608_edb8);
        assert_eq!(TABLE[255], 0xb1f7_40b4);
    }

    #[test]
    fn value_hash_ignores_ascii_and_latin1_case() {
        let a = value_hash("Élan vital".encode_utf16());
        let b = value_hash("éLAN VITAL".encode_utf16());
        assert_eq!(a, b);
        assert!(a < 0x4000);
        assert_ne!(
            string_hash("abc".encode_utf16()),
            string_hash("ABC".encode_utf16())
        );
    }

    #[test]
    fn special_case_pairs_fold() {
        assert_eq!(value_hash([0x9c]), value_hash([0x8c]));
        assert_eq!(value_hash([0xff]), value_hash([0x9f]));
        assert_eq!(value_hash([0x151]), value_hash([0x150]));
        assert_ne!(value_hash([0xf0]), value_hash([0xd0]));
        assert_ne!(value_hash([0xf7]), value_hash([0xd7]));
    }

    #[test]
    fn empty_string_hashes_to_zero() {
        assert_eq!(string_hash([]), 0);
        assert_eq!(bucket_of(0, 1024), 0);
        assert_eq!(bucket_of(0x0001_0001, 512), 0);
        assert_eq!(bucket_of(0x0001_0003, 512), 2);
    }
}
