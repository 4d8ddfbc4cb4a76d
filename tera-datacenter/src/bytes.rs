//! Little-endian integers read at a byte offset (the caller has checked the
//! bounds; a slip panics rather than reading elsewhere).

pub(crate) fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes(*b[o..].first_chunk().expect("checked bounds"))
}

pub(crate) fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(*b[o..].first_chunk().expect("checked bounds"))
}

pub(crate) fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}
