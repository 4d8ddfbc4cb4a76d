//! `stringNT`: UTF-8 bytes, then `00`.

use core::fmt;
use std::borrow::Cow;

use tera_packets::{Codec, Error, ErrorKind, IntoOwned, Reader, Result, Visit, Visitor, Writer};

/// A `stringNT` field: UTF-8 text without NUL. After a decode it borrows
/// from the message; built from a `String` it owns its text.
///
/// Built only through [`StringNt::new`] and friends, which refuse a NUL
/// (it would end the string on the wire), so every value can be written.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringNt<'a>(Cow<'a, str>);

impl<'a> StringNt<'a> {
    /// The text, or [`ErrorKind::NulInString`] if it holds a NUL.
    pub fn new(text: impl Into<Cow<'a, str>>) -> Result<Self> {
        let text = text.into();
        match text.bytes().position(|b| b == 0) {
            Some(at) => Err(Error::new(ErrorKind::NulInString, at)),
            None => Ok(StringNt(text)),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the text borrows from a message.
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Cow::Borrowed(_))
    }
}

impl core::ops::Deref for StringNt<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for StringNt<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for StringNt<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl fmt::Debug for StringNt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for StringNt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
        Err(e) => Err(Error::new(ErrorKind::InvalidUtf8, start + e.valid_up_to())),
    }
}

impl<'a> Codec<'a> for StringNt<'a> {
    const FIXED_SIZE: Option<usize> = None;
    /// The NUL of the empty string.
    const MIN_WIRE_LEN: usize = 1;

    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        read_text(r).map(|text| StringNt(Cow::Borrowed(text)))
    }

    #[inline]
    fn validate_at(r: &mut Reader<'a>) -> Result<usize> {
        read_text(r).map(|text| text.len() + 1)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        self.0.len() + 1
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        let text = self.0.as_bytes();
        if let Some(dst) = w.take(text.len() + 1) {
            let (body, nul) = dst.split_at_mut(text.len());
            body.copy_from_slice(text);
            nul.fill(0);
        }
    }
}

impl Visit for StringNt<'_> {
    #[inline]
    fn visit<V: Visitor>(&self, v: &mut V) {
        v.text(&self.0);
    }
}

impl IntoOwned for StringNt<'_> {
    type Owned = StringNt<'static>;
    fn into_owned(self) -> StringNt<'static> {
        StringNt(Cow::Owned(self.0.into_owned()))
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
        assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidUtf8, 2));
        assert_eq!(
            StringNt::new("a\0b").unwrap_err().kind(),
            ErrorKind::NulInString
        );
    }
}
