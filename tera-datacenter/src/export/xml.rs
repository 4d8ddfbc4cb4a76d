//! XML output.

use std::io;

use super::emit::{Emit, Sep, Sink};
use crate::string::DcStr;
use crate::tree::{Element, Value};
use crate::xml_text::{escape_into, float_text};

pub(crate) struct Xml {
    pretty: bool,
    /// Escaped text, reused.
    scratch: String,
}

impl Xml {
    pub(crate) fn new(pretty: bool) -> Self {
        Xml {
            pretty,
            scratch: String::new(),
        }
    }

    /// Writes text or an attribute value escaped; unpaired surrogates
    /// become U+FFFD.
    fn escaped(&mut self, out: &mut Sink<'_>, s: DcStr<'_>) -> io::Result<()> {
        self.scratch.clear();
        escape_into(&mut self.scratch, s.chars());
        out.put(self.scratch.as_bytes())
    }
}

fn name(out: &mut Sink<'_>, s: DcStr<'_>) -> io::Result<()> {
    s.chars().try_for_each(|c| out.put_char(c))
}

impl Emit for Xml {
    fn prologue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()> {
        out.put(b"<?xml version=\"1.0\" encoding=\"utf-8\"?>")?;
        if roots != 1 {
            out.indent(self.pretty, 0)?;
            out.put(b"<__export__>")?;
        }
        Ok(())
    }

    fn begin(
        &mut self,
        out: &mut Sink<'_>,
        e: &Element<'_>,
        depth: usize,
        _sep: Sep,
    ) -> io::Result<()> {
        out.indent(self.pretty, depth)?;
        out.put(b"<")?;
        name(out, e.name())?;
        for a in e.attributes().filter(|a| !a.is_text()) {
            out.put(b" ")?;
            name(out, a.name())?;
            out.put(b"=\"")?;
            match a.value() {
                Value::Int(v) => out.put(v.to_string().as_bytes())?,
                Value::Bool(v) => out.put(if v { b"true" } else { b"false" })?,
                Value::Float(v) => out.put(float_text(v).as_bytes())?,
                Value::Str(s) => self.escaped(out, s)?,
            }
            out.put(b"\"")?;
        }
        let text = e.value();
        if e.child_count() == 0 && text.is_none() {
            return out.put(b"/>");
        }
        out.put(b">")?;
        if let Some(t) = text {
            self.escaped(out, t)?;
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
        if e.child_count() == 0 && e.value().is_none() {
            return Ok(());
        }
        if had_children {
            out.indent(self.pretty, depth)?;
        }
        out.put(b"</")?;
        name(out, e.name())?;
        out.put(b">")
    }

    fn epilogue(&mut self, out: &mut Sink<'_>, roots: usize) -> io::Result<()> {
        if roots != 1 {
            out.indent(self.pretty, 0)?;
            out.put(b"</__export__>")?;
        }
        out.put(b"\n")
    }
}
