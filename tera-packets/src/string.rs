//! `string`: UTF-16LE text, NUL-terminated on the wire.

use core::fmt;
use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use crate::utf16;
use crate::wire::{Block, IntoOwned, Wire};
use crate::writer::Writer;

/// A string field: its UTF-16LE code units (without the terminator),
/// borrowed from the packet after a decode or owned when built.
///
/// Decoding keeps the units as they are, so unpaired surrogates survive a
/// decode/encode round trip; [`Str::to_string_lossy`] replaces them with
/// U+FFFD and [`Str::to_string`](ToString::to_string) does the same.
/// A string compares equal to a `&str` with the same text.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Str<'a> {
    utf16le: Cow<'a, [u8]>,
}

impl<'a> Str<'a> {
    /// A string over UTF-16LE bytes (without terminator). An odd trailing
    /// byte is dropped; a NUL unit would end the string on the wire.
    pub fn from_utf16le(bytes: impl Into<Cow<'a, [u8]>>) -> Self {
        let mut utf16le = bytes.into();
        if utf16le.len() % 2 == 1 {
            let even = utf16le.len() - 1;
            utf16le.to_mut().truncate(even);
        }
        Str { utf16le }
    }

    /// The UTF-16LE bytes, without terminator.
    pub fn as_utf16le(&self) -> &[u8] {
        &self.utf16le
    }

    /// The number of UTF-16 code units.
    pub fn len_utf16(&self) -> usize {
        self.utf16le.len() / 2
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.utf16le.is_empty()
    }

    /// The UTF-16 code units.
    pub fn units(&self) -> impl Iterator<Item = u16> + Clone + '_ {
        utf16::units(&self.utf16le)
    }

    /// The characters, with U+FFFD for unpaired surrogates.
    pub fn chars(&self) -> impl Iterator<Item = char> + '_ {
        char::decode_utf16(self.units()).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// The text, with U+FFFD for unpaired surrogates.
    #[inline]
    pub fn to_string_lossy(&self) -> String {
        utf16::decode_lossy(&self.utf16le)
    }

    /// Appends the text to `out`, with U+FFFD for unpaired surrogates.
    ///
    /// With a `String` the caller clears and reuses, decoding allocates
    /// nothing once it has room: [`len_utf16`](Str::len_utf16) bytes for
    /// ASCII text, three times that for any text.
    ///
    /// ```
    /// use tera_packets::Str;
    ///
    /// let mut name = String::with_capacity(32);
    /// for s in [Str::from("Elin"), Str::from("Castanic")] {
    ///     name.clear();
    ///     s.decode_into(&mut name);
    ///     assert_eq!(name, s.to_string_lossy());
    /// }
    /// assert_eq!(name, "Castanic");
    /// ```
    #[inline]
    pub fn decode_into(&self, out: &mut String) {
        utf16::decode_lossy_into(&self.utf16le, out);
    }

    /// The text, or an error if it holds an unpaired surrogate.
    pub fn try_to_string(&self) -> Result<String, core::char::DecodeUtf16Error> {
        char::decode_utf16(self.units()).collect()
    }

    /// Whether the text equals `s`.
    pub fn eq_str(&self, s: &str) -> bool {
        let mut units = self.units();
        let mut buf = [0u16; 2];
        for c in s.chars() {
            for &u in c.encode_utf16(&mut buf).iter() {
                if units.next() != Some(u) {
                    return false;
                }
            }
        }
        units.next().is_none()
    }
}

impl From<&str> for Str<'_> {
    fn from(s: &str) -> Self {
        let mut bytes = Vec::new();
        utf16::encode_into(s, &mut bytes);
        Str {
            utf16le: Cow::Owned(bytes),
        }
    }
}

impl From<String> for Str<'_> {
    fn from(s: String) -> Self {
        Str::from(s.as_str())
    }
}

impl PartialEq<str> for Str<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<Str<'_>> for &str {
    fn eq(&self, other: &Str<'_>) -> bool {
        other.eq_str(self)
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for c in self.chars() {
            f.write_char(c)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}

impl IntoOwned for Str<'_> {
    type Owned = Str<'static>;
    fn into_owned(self) -> Str<'static> {
        Str {
            utf16le: Cow::Owned(self.utf16le.into_owned()),
        }
    }
}

/// Finds the NUL terminator of the string starting at `start`: the length in
/// bytes of the text before it.
#[inline]
fn text_len(buf: &[u8], start: usize) -> Result<usize> {
    let tail = buf.get(start..).unwrap_or_default();
    match utf16::find_nul(tail) {
        Some(len) => Ok(len),
        None if tail.len() % 2 == 0 => Err(Error::new(ErrorKind::UnterminatedString, start)),
        None => Err(Error::new(ErrorKind::OddStringLength, start)),
    }
}

impl<'a> Wire<'a> for Str<'a> {
    /// `u16 offset`.
    const META_WORDS: usize = 1;
    const FIXED_SIZE: Option<usize> = None;
    /// The NUL terminator of the empty string.
    const MIN_WIRE_LEN: usize = 2;
    const READS_AT_CURSOR: bool = false;

    #[inline]
    fn read(r: &mut Reader<'a>, meta: usize) -> Result<Self> {
        let start = usize::from(r.u16_at(meta)?);
        r.check_offset(start, meta)?;
        let len = text_len(r.buf(), start)?;
        r.spend(len + 2, start)?;
        let text = r.buf().get(start..start + len).unwrap_or_default();
        r.set_pos(start + len + 2);
        Ok(Str {
            utf16le: Cow::Borrowed(text),
        })
    }

    #[inline]
    fn validate(r: &mut Reader<'a>, meta: usize) -> Result<usize> {
        let start = usize::from(r.u16_at(meta)?);
        r.check_offset(start, meta)?;
        let len = text_len(r.buf(), start)?;
        r.spend(len + 2, start)?;
        r.set_pos(start + len + 2);
        Ok(len + 2)
    }

    #[inline]
    fn wire_len(&self) -> usize {
        self.utf16le.len() + 2
    }

    // Always: callers that write many kinds of field (`tera-dynamic`'s
    // encoder) otherwise call it, at about 2 ns a string.
    #[inline(always)]
    fn write(&self, w: &mut Writer<'_>, meta: usize) {
        let offset = w.offset();
        w.patch_u16(meta, offset);
        let text: &[u8] = &self.utf16le;
        if let Some(dst) = w.take(text.len() + 2) {
            let (body, nul) = dst.split_at_mut(text.len());
            crate::writer::copy_short(body, text);
            nul.fill(0);
        }
    }
}

impl<'a> Block<'a> for Str<'a> {}
