//! Reading XML with quick-xml and positions for diagnostics: the next event,
//! the span of a tag or of a slice of the source, and a small tree of
//! elements for the schemas (a sheet is read as a stream of events).

use std::ops::Range;

use quick_xml::Reader;
use quick_xml::encoding::Decoder;
use quick_xml::events::{BytesStart, Event};

use super::diagnostic::FileDiagnostics;

/// The next event of `reader` and the offset where it starts. Malformed XML
/// is added to `diags` and ends the reading (`None`).
pub(crate) fn next_event<'s>(
    reader: &mut quick_xml::Reader<&'s [u8]>,
    diags: &mut FileDiagnostics<'_>,
) -> Option<(usize, quick_xml::events::Event<'s>)> {
    let before = reader.buffer_position() as usize;
    match reader.read_event() {
        Ok(event) => Some((before, event)),
        Err(e) => {
            let at = reader.error_position() as usize;
            diags.at(at..at + 1, format!("malformed XML: {e}"), "well-formed XML");
            None
        }
    }
}

/// The span of the `<name` of a start tag that begins at `before`.
pub(crate) fn tag_span(before: usize, start: &quick_xml::events::BytesStart<'_>) -> Range<usize> {
    before..before + 1 + start.name().as_ref().len()
}

/// The bytes of `source` that `part` (a slice of it) covers, or `0..0`.
pub(crate) fn span_of(source: &str, part: &[u8]) -> Range<usize> {
    let base = source.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    if at >= base && at + part.len() <= base + source.len() {
        at - base..at - base + part.len()
    } else {
        0..0
    }
}

/// An element of a small XML tree: what the schema reader needs of it.
#[derive(Debug)]
pub(crate) struct XmlElement {
    /// The name as written (`xsd:complexType`).
    pub(crate) name: String,
    /// The local name (`complexType`).
    pub(crate) local: String,
    /// The span of `<name`.
    pub(crate) tag: Range<usize>,
    pub(crate) attributes: Vec<XmlAttribute>,
    pub(crate) children: Vec<XmlElement>,
}

/// An attribute: qualified name, unescaped value, and the span of the value.
#[derive(Debug)]
pub(crate) struct XmlAttribute {
    pub(crate) name: String,
    pub(crate) value: String,
    pub(crate) span: Range<usize>,
}

impl XmlElement {
    /// The attribute called `name` (qualified as written).
    pub(crate) fn attribute(&self, name: &str) -> Option<&XmlAttribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The value of the attribute called `name`.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.attribute(name).map(|a| a.value.as_str())
    }
}

/// The top-level elements of `source`, with their descendants. Malformed
/// XML is added to `diags` and gives `None`; a malformed attribute is added
/// to `diags` and left out.
pub(crate) fn read_tree(source: &str, diags: &mut FileDiagnostics<'_>) -> Option<Vec<XmlElement>> {
    let mut reader = Reader::from_str(source);
    let mut top = Vec::new();
    // The open elements, each to be added to the one below it when closed.
    let mut open: Vec<XmlElement> = Vec::new();
    loop {
        let (before, event) = next_event(&mut reader, diags)?;
        let (start, empty) = match event {
            Event::Start(s) => (s, false),
            Event::Empty(s) => (s, true),
            Event::End(_) => {
                if let Some(done) = open.pop() {
                    close(done, &mut open, &mut top);
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let element = XmlElement {
            name: String::from_utf8_lossy(start.name().as_ref()).into_owned(),
            local: String::from_utf8_lossy(start.local_name().as_ref()).into_owned(),
            tag: tag_span(before, &start),
            attributes: attributes(&start, source, diags, reader.decoder()),
            children: Vec::new(),
        };
        if empty {
            close(element, &mut open, &mut top);
        } else {
            open.push(element);
        }
    }
    while let Some(done) = open.pop() {
        close(done, &mut open, &mut top);
    }
    Some(top)
}

/// Adds a finished element to its parent, or to the top level.
fn close(done: XmlElement, open: &mut [XmlElement], top: &mut Vec<XmlElement>) {
    match open.last_mut() {
        Some(parent) => parent.children.push(done),
        None => top.push(done),
    }
}

/// The attributes of a tag, unescaped (as written when they cannot be).
fn attributes(
    start: &BytesStart<'_>,
    source: &str,
    diags: &mut FileDiagnostics<'_>,
    decoder: Decoder,
) -> Vec<XmlAttribute> {
    let mut out = Vec::new();
    for a in start.attributes() {
        match a {
            Ok(a) => {
                let span = span_of(source, &a.value);
                let value = a
                    .decode_and_unescape_value(decoder)
                    .map(|v| v.into_owned())
                    .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
                out.push(XmlAttribute {
                    name: String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                    value,
                    span,
                });
            }
            Err(e) => {
                let at = span_of(source, start.as_ref()).start;
                diags.at(
                    at..at + 1,
                    format!("malformed attribute: {e}"),
                    "name=\"value\"",
                );
            }
        }
    }
    out
}
