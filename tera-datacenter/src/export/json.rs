//! JSON output.

use std::io;

use super::emit::{Emit, Sep, Sink};
use crate::string::DcStr;
use crate::tree::{Element, Value};
use crate::xml_text::float_text;

pub(crate) struct Json {
    pretty: bool,
}

impl Json {
    pub(crate) fn new(pretty: bool) -> Self {
        Json { pretty }
    }
}

/// A JSON string. Unpaired surrogates are written as `\uXXXX` escapes, so
/// nothing is lost.
fn string(out: &mut Sink<'_>, s: DcStr<'_>) -> io::Result<()> {
    out.put(b"\"")?;
    for r in char::decode_utf16(s.units()) {
        match r {
            Ok('"') => out.put(b"\\\"")?,
            Ok('\\') => out.put(b"\\\\")?,
            Ok('\n') => out.put(b"\\n")?,
            Ok('\r') => out.put(b"\\r")?,
            Ok('\t') => out.put(b"\\t")?,
            Ok(c) if (c as u32) < 0x20 => out.put(format!("\\u{:04x}", c as u32).as_bytes())?,
            Ok(c) => out.put_char(c)?,
            Err(e) => out.put(format!("\\u{:04x}", e.unpaired_surrogate()).as_bytes())?,
        }
    }
    out.put(b"\"")
}

impl Emit for Json {
    fn prologue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()> {
        if roots != 1 {
            out.put(b"[")?;
        }
        Ok(())
    }

    fn begin(
        &mut self,
        out: &mut Sink<'_>,
        e: &Element<'_>,
        depth: usize,
        sep: Sep,
    ) -> io::Result<()> {
        match sep {
            Sep::None => {}
            Sep::Open => out.put(b"[")?,
            Sep::Comma => out.put(b",")?,
        }
        out.indent(self.pretty, depth * 2)?;
        out.put(b"{\"name\":")?;
        string(out, e.name())?;
        let mut attributes = e.attributes().filter(|a| !a.is_text()).peekable();
        if attributes.peek().is_some() {
            out.put(b",\"attributes\":{")?;
            for (i, a) in attributes.enumerate() {
                if i > 0 {
                    out.put(b",")?;
                }
                string(out, a.name())?;
                out.put(b":")?;
                match a.value() {
                    Value::Int(v) => out.put(v.to_string().as_bytes())?,
                    Value::Bool(v) => out.put(if v { b"true" } else { b"false" })?,
                    // JSON has no NaN or infinities: they become strings.
                    Value::Float(v) if !v.is_finite() => {
                        out.put(format!("\"{}\"", float_text(v)).as_bytes())?
                    }
                    Value::Float(v) => out.put(float_text(v).as_bytes())?,
                    Value::Str(s) => string(out, s)?,
                }
            }
            out.put(b"}")?;
        }
        if let Some(t) = e.value() {
            out.put(b",\"value\":")?;
            string(out, t)?;
        }
        if e.child_count() > 0 {
            out.put(b",\"children\":")?;
        }
        Ok(())
    }

    fn end(
        &mut self,
        out: &mut Sink<'_>,
        e: &Element<'_>,
        depth: usize,
        had_children: bool,
    ) -> io::Result<()> {
        if had_children {
            out.indent(self.pretty, depth * 2 + 1)?;
            out.put(b"]")?;
        } else if e.child_count() > 0 {
            // Only nameless child records: still a valid (empty) list.
            out.put(b"[]")?;
        }
        out.put(b"}")
    }

    fn epilogue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()> {
        if roots != 1 {
            out.indent(self.pretty, 0)?;
            out.put(b"]")?;
        }
        out.put(b"\n")
    }
}
