//! One standard zlib stream, compressed on every core (the method of
//! pigz): the input is cut into pieces, each piece is deflated on its own
//! with the end of the previous piece as its dictionary and ends on a flush
//! boundary (an empty stored block), so the pieces simply follow each other;
//! the Adler-32 of the whole input is combined from the pieces' values.

use flate2::{Compress, FlushCompress, Status};
use rayon::prelude::*;

/// How hard to compress a `.dat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compression {
    /// zlib level 1: the fastest, the largest file.
    Fastest,
    /// zlib level 6, the level of zlib's default and of Novadrop's
    /// `CompressionLevel.Optimal`.
    #[default]
    Default,
    /// zlib level 9: the slowest, the smallest file.
    Best,
}

impl Compression {
    fn level(self) -> u32 {
        match self {
            Compression::Fastest => 1,
            Compression::Default => 6,
            Compression::Best => 9,
        }
    }

    /// The two header bytes zlib writes at this level (FLEVEL says how
    /// hard the stream was compressed; the check bits make it a multiple of
    /// 31).
    fn header(self) -> [u8; 2] {
        match self {
            Compression::Fastest => [0x78, 0x01],
            Compression::Default => [0x78, 0x9c],
            Compression::Best => [0x78, 0xda],
        }
    }
}

/// Bytes per piece: large enough that the flush markers (5 bytes each) and
/// the fresh start of each piece cost nothing measurable, small enough that
/// every core gets many pieces.
const PIECE: usize = 1 << 20;

/// How much of the previous piece a piece may refer back to: deflate's
/// whole window.
const WINDOW: usize = 32 * 1024;

/// The modulus of Adler-32.
const ADLER_MOD: u32 = 65521;

/// Appends the zlib stream of `data` to `out`.
pub(crate) fn compress(data: &[u8], compression: Compression, out: &mut Vec<u8>) {
    let pieces: Vec<(Vec<u8>, u32)> = data
        .par_chunks(PIECE)
        .enumerate()
        .map(|(i, piece)| {
            let start = i * PIECE;
            let dictionary = &data[start.saturating_sub(WINDOW)..start];
            let last = start + piece.len() == data.len();
            (
                deflate_piece(piece, dictionary, last, compression),
                adler32(piece),
            )
        })
        .collect();
    out.reserve(2 + pieces.iter().map(|p| p.0.len()).sum::<usize>() + 4);
    out.extend_from_slice(&compression.header());
    if pieces.is_empty() {
        // The empty input: one final empty block.
        out.extend_from_slice(&deflate_piece(&[], &[], true, compression));
    }
    let mut adler = 1;
    for ((bytes, piece_adler), piece) in pieces.iter().zip(data.chunks(PIECE)) {
        out.extend_from_slice(bytes);
        adler = adler32_combine(adler, *piece_adler, piece.len());
    }
    out.extend_from_slice(&adler.to_be_bytes());
}

/// Raw deflate of one piece: with `dictionary` (the bytes before it), and
/// ending on a byte-aligned flush, or with the final block when `last`.
fn deflate_piece(piece: &[u8], dictionary: &[u8], last: bool, compression: Compression) -> Vec<u8> {
    let mut z = Compress::new(flate2::Compression::new(compression.level()), false);
    if !dictionary.is_empty() {
        z.set_dictionary(dictionary)
            .expect("a raw stream takes a dictionary before any input");
    }
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    let mut out = Vec::with_capacity(piece.len() / 2 + 64);
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(out.capacity().max(4096));
        }
        let consumed = z.total_in() as usize;
        let status = z
            .compress_vec(&piece[consumed..], &mut out, flush)
            .expect("deflate accepts any input");
        let all_in = z.total_in() as usize == piece.len();
        // A flush is complete when deflate stops short of the space it had.
        match status {
            Status::StreamEnd => break,
            Status::Ok | Status::BufError if !last && all_in && out.len() < out.capacity() => break,
            _ => {}
        }
    }
    out
}

/// The Adler-32 checksum of `data`.
pub(crate) fn adler32(data: &[u8]) -> u32 {
    let mut a = adler2::Adler32::new();
    a.write_slice(data);
    a.checksum()
}

/// The Adler-32 of two inputs one after the other, from the value of each
/// and the length of the second. With `A` one plus the sum of the bytes and
/// `B` the sum of the `A`s after each byte: the second input's bytes add to
/// `A` as they did alone, and each of its steps adds the first's `A - 1` to
/// `B` once more.
pub(crate) fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    let (a1, b1) = (first & 0xffff, first >> 16);
    let (a2, b2) = (second & 0xffff, second >> 16);
    let len = (second_len % ADLER_MOD as usize) as u64;
    let a = (a1 + a2 + ADLER_MOD - 1) % ADLER_MOD;
    let b = (u64::from(b1) + u64::from(b2) + len * u64::from(a1 + ADLER_MOD - 1))
        % u64::from(ADLER_MOD);
    (b as u32) << 16 | a
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn combined_adler_is_the_adler_of_the_whole() {
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 31 % 257) as u8).collect();
        for cut in [0, 1, 5552, 65521, 100_000, 300_000] {
            let (x, y) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(x), adler32(y), y.len()),
                adler32(&data)
            );
        }
    }

    #[test]
    fn pieces_make_one_stream_any_inflater_reads() {
        // Several pieces, repetition across piece boundaries, and sizes
        // around the piece size.
        for len in [0, 1, 1000, PIECE - 1, PIECE, PIECE + 1, 3 * PIECE + 12_345] {
            let data: Vec<u8> = (0..len)
                .map(|i| (i / 7 % 251) as u8 ^ (i % 3) as u8)
                .collect();
            for compression in [
                Compression::Fastest,
                Compression::Default,
                Compression::Best,
            ] {
                let mut z = Vec::new();
                compress(&data, compression, &mut z);
                assert_eq!(z[..2], compression.header());
                let mut back = Vec::new();
                flate2::read::ZlibDecoder::new(&z[..])
                    .read_to_end(&mut back)
                    .unwrap();
                assert!(back == data, "len {len} {compression:?}");
            }
        }
    }
}
