//! `stringNT`: UTF-8 bytes, then `00`.

use core::fmt;
use std::borrow::Cow;

use tera_packets::{Codec, Error, ErrorKind, IntoOwned, Reader, Result, Visit, Visitor, Writer};

use crate::error::DiepErrorKind;

/// A `stringNT` field: UTF-8 text without NUL. After a decode it borrows
/// from the message; built from a `String` it owns its text.
///
/// Built only through [`StringNt::new`] and friends, which refuse a NUL
/// (it would end the string on the wire), so every value can be written.
/// Compared, ordered and hashed by its text alone.
#[derive(Clone)]
pub struct StringNt<'a>(Text<'a>);

/// The text, borrowed or owned. Not a `Cow`: dropping a message whose
/// variant might hold a `Cow<str>` reads the `String`'s capacity word,
/// which the other variants fill with two 4-byte fields (an Input's mouse),
/// and such a load waits for both stores (the Input bench: +60%). This
/// enum's tag is one byte where a message keeps its own tag.
#[derive(Clone)]
enum Text<'a> {
    Borrowed(&'a str),
    Owned(Box<str>),
}

impl<'a> StringNt<'a> {
    /// The text, or [`DiepErrorKind::NulInString`] if it holds a NUL.
    pub fn new(text: impl Into<Cow<'a, str>>) -> Result<Self> {
        let text = match text.into() {
            Cow::Borrowed(s) => Text::Borrowed(s),
            Cow::Owned(s) => Text::Owned(s.into_boxed_str()),
        };
        let string = StringNt(text);
        match string.as_str().bytes().position(|b| b == 0) {
            Some(at) => Err(DiepErrorKind::NulInString.at(at)),
            None => Ok(string),
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Borrowed(s) => s,
            Text::Owned(s) => s,
        }
    }

    /// Whether the text borrows from a message.
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Text::Borrowed(_))
    }
}

impl Default for StringNt<'_> {
    fn default() -> Self {
        StringNt(Text::Borrowed(""))
    }
}

impl PartialEq for StringNt<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for StringNt<'_> {}

impl PartialOrd for StringNt<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for StringNt<'_> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl core::hash::Hash for StringNt<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl core::ops::Deref for StringNt<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for StringNt<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for StringNt<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for StringNt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for StringNt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text before the NUL at or after `start`, checked as UTF-8.
#[inline]
pub(crate) fn read_text<'a>(r: &mut Reader<'a>) -> Result<&'a str> {
    let start = r.pos();
    let tail = r.buf().get(start..).unwrap_or_default();
    let Some(len) = tail.iter().position(|&b| b == 0) else {
        return Err(Error::new(ErrorKind::UnterminatedString, start));
    };
    let bytes = tail.get(..len).unwrap_or_default();
    match core::str::from_utf8(bytes) {
        Ok(text) => {
            r.set_pos(start + len + 1);
            Ok(text)
        }
        Err(e) => Err(DiepErrorKind::InvalidUtf8.at(start + e.valid_up_to())),
    }
}

impl<'a> Codec<'a> for StringNt<'a> {
    const FIXED_SIZE: Option<usize> = None;
    /// The NUL of the empty string.
    const MIN_WIRE_LEN: usize = 1;

    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_text(r).map(|text| StringNt(Text::Borrowed(text)))
    }

    #[inline]
    fn validate_at(r: &mut Reader<'a>) -> Result<usize> {
        read_text(r).map(|text| text.len() + 1)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        self.as_str().len() + 1
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        w.put(self.as_str().as_bytes());
        w.put_array([0]);
    }
}

impl Visit for StringNt<'_> {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.text(self.as_str());
    }
}

impl IntoOwned for StringNt<'_> {
    type Owned = StringNt<'static>;
    fn into_owned(self) -> StringNt<'static> {
        StringNt(Text::Owned(match self.0 {
            Text::Borrowed(s) => s.into(),
            Text::Owned(s) => s,
        }))
    }
}

impl TryFrom<String> for StringNt<'static> {
    type Error = Error;
    fn try_from(s: String) -> Result<Self> {
        StringNt::new(s)
    }
}

impl<'a> TryFrom<&'a str> for StringNt<'a> {
    type Error = Error;
    fn try_from(s: &'a str) -> Result<Self> {
        StringNt::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_view_and_refuses_bad_text() {
        let buf = b"hi\0";
        let s = StringNt::read_at(&mut Reader::at(buf, 0)).unwrap();
        assert!(s.is_borrowed());
        assert_eq!(s, "hi");
        let e = StringNt::read_at(&mut Reader::at(b"hi", 0)).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::UnterminatedString, 0));
        let e = StringNt::read_at(&mut Reader::at(b"ab\xff\0", 0)).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (DiepErrorKind::InvalidUtf8.into(), 2)
        );
        assert_eq!(
            StringNt::new("a\0b").unwrap_err().kind(),
            DiepErrorKind::NulInString.into()
        );
    }
}
