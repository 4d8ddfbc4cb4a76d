//! One sheet read and checked against its schema, kept compact for packing:
//! elements in document order, names interned per sheet, typed values.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::encoding::Decoder;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};

use super::diagnostic::FileDiagnostics;
use super::schema::{AttributeType, ComplexType, Schema};
use super::xml_read::{next_event, span_of, tag_span};

/// No text (`Node::text_len`).
const NO_TEXT: u32 = u32::MAX;

/// An element: its attributes are `attrs[attrs_start..][..attrs_len]`, its
/// descendants the nodes up to `end`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(crate) name: u32,
    pub(crate) key: u16,
    pub(crate) attrs_len: u16,
    pub(crate) attrs_start: u32,
    pub(crate) end: u32,
    pub(crate) text_start: u32,
    pub(crate) text_len: u32,
}

/// A typed value; strings are spans of [`Sheet::strings`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Val {
    Int(i32),
    Bool(bool),
    Float(f32),
    Str(u32, u32),
}

/// A read sheet.
#[derive(Debug, Default)]
pub(crate) struct Sheet {
    /// The names used, indexed by the `name` fields.
    pub(crate) names: Vec<Box<str>>,
    /// Key definitions: name indexes plus one (0: unused slot).
    pub(crate) keys: Vec<[u32; 4]>,
    pub(crate) nodes: Vec<Node>,
    pub(crate) attrs: Vec<(u32, Val)>,
    pub(crate) strings: String,
}

impl Sheet {
    pub(crate) fn str(&self, start: u32, len: u32) -> &str {
        &self.strings[start as usize..][..len as usize]
    }

    /// The text of node `i`.
    pub(crate) fn text(&self, i: usize) -> Option<&str> {
        let n = &self.nodes[i];
        (n.text_len != NO_TEXT).then(|| self.str(n.text_start, n.text_len))
    }

    /// The indexes of the children of node `i`.
    pub(crate) fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let end = self.nodes[i].end as usize;
        let mut next = i + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let c = next;
                next = self.nodes[c].end as usize;
                c
            })
        })
    }
}

/// An open element while reading.
struct Frame<'s> {
    node: usize,
    ty: Option<&'s ComplexType>,
    name: String,
    tag: std::ops::Range<usize>,
    counts: Vec<u32>,
    last: usize,
    text: String,
    text_reported: bool,
}

/// Builds the sheet while reading.
struct Builder {
    sheet: Sheet,
    index: HashMap<Box<str>, u32>,
    key_index: HashMap<[u32; 4], u16>,
}

impl Builder {
    fn name(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.sheet.names.len() as u32;
        self.sheet.names.push(name.into());
        self.index.insert(name.into(), i);
        i
    }

    fn key(&mut self, ty: &ComplexType) -> u16 {
        if ty.keys.is_empty() {
            return 0;
        }
        let mut key = [0u32; 4];
        for (slot, k) in key.iter_mut().zip(&ty.keys) {
            *slot = self.name(k) + 1;
        }
        let next = self.sheet.keys.len() as u16;
        *self.key_index.entry(key).or_insert_with(|| {
            self.sheet.keys.push(key);
            next
        })
    }

    fn string(&mut self, s: &str) -> Val {
        let start = self.sheet.strings.len() as u32;
        self.sheet.strings.push_str(s);
        Val::Str(start, s.len() as u32)
    }
}

/// Reads `source` (the sheet `file`) against `schema`. Problems go to
/// `diags`; the sheet is complete only when there are none.
pub(crate) fn read_sheet(source: &str, schema: &Schema, diags: &mut FileDiagnostics<'_>) -> Sheet {
    let mut b = Builder {
        sheet: Sheet {
            keys: vec![[0; 4]],
            ..Sheet::default()
        },
        index: HashMap::new(),
        key_index: HashMap::from([([0; 4], 0)]),
    };
    let mut reader = Reader::from_str(source);
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut had_root = false;
    loop {
        let Some((before, event)) = next_event(&mut reader, diags) else {
            return b.sheet;
        };
        match event {
            Event::Start(s) | Event::Empty(s) if stack.is_empty() && had_root => {
                let tag = tag_span(before, &s);
                diags.at(tag, "a second root element", "one root element per sheet");
                return b.sheet;
            }
            Event::Start(ref s) | Event::Empty(ref s) => {
                let mut cx = Context {
                    source,
                    schema,
                    diags,
                    decoder: reader.decoder(),
                };
                let frame = open(&mut b, &mut cx, s, before, &mut stack);
                if matches!(event, Event::Empty(_)) {
                    close(&mut b, frame, diags);
                    had_root |= stack.is_empty();
                } else {
                    stack.push(frame);
                }
            }
            Event::End(_) => {
                if let Some(frame) = stack.pop() {
                    close(&mut b, frame, diags);
                }
                had_root |= stack.is_empty();
            }
            Event::Text(t) => {
                let text = t.xml10_content().unwrap_or_default();
                add_text(
                    &mut stack,
                    &text,
                    before..reader.buffer_position() as usize,
                    diags,
                );
            }
            Event::CData(t) => {
                let text = String::from_utf8_lossy(&t).into_owned();
                add_text(
                    &mut stack,
                    &text,
                    before..reader.buffer_position() as usize,
                    diags,
                );
            }
            Event::GeneralRef(r) => {
                let span = before..reader.buffer_position() as usize;
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(c.to_string()),
                    Ok(None) => r
                        .decode()
                        .ok()
                        .and_then(|n| resolve_predefined_entity(&n))
                        .map(String::from),
                    Err(_) => None,
                };
                match resolved {
                    Some(text) => add_text(&mut stack, &text, span, diags),
                    None => {
                        diags.at(
                            span,
                            "unknown entity or character reference",
                            "&lt; &gt; &amp; &quot; &apos; or &#NN;",
                        );
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(f) = stack.last() {
        diags.at(
            f.tag.clone(),
            format!("<{}> is not closed", f.name),
            format!("</{}> before the end of the file", f.name),
        );
    } else if !had_root {
        diags.at(0..0, "no root element", format!("<{}>", schema.root));
    }
    b.sheet
}

fn add_text(
    stack: &mut [Frame<'_>],
    text: &str,
    span: std::ops::Range<usize>,
    diags: &mut FileDiagnostics<'_>,
) {
    let Some(f) = stack.last_mut() else {
        if !text.trim().is_empty() {
            diags.at(span, "text outside the root element", "only whitespace");
        }
        return;
    };
    match f.ty {
        Some(t) if t.simple_content || t.mixed => f.text.push_str(text),
        Some(_) if !text.trim().is_empty() && !f.text_reported => {
            f.text_reported = true;
            // Point at the text, not at the whitespace around it.
            let lead = text.len() - text.trim_start().len();
            let span = (span.start + lead).min(span.end)
                ..span.end.min(span.start + lead + text.trim().len());
            diags.at(
                span,
                format!("text in <{}>", f.name),
                "child elements only: its type has no simple content",
            );
        }
        _ => {}
    }
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// What reading a start tag needs besides the sheet being built.
struct Context<'s, 'x, 'd, 'f> {
    source: &'x str,
    schema: &'s Schema,
    diags: &'d mut FileDiagnostics<'f>,
    decoder: Decoder,
}

/// Opens the element of a start tag at byte `at`: checks it against its
/// parent's type, reads its attributes into the sheet and returns its frame.
fn open<'s>(
    b: &mut Builder,
    cx: &mut Context<'s, '_, '_, '_>,
    start: &BytesStart<'_>,
    at: usize,
    stack: &mut [Frame<'s>],
) -> Frame<'s> {
    let name = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
    let tag = at + 1..at + 1 + start.name().as_ref().len();
    let ty = element_type(cx, stack.last_mut(), &name, &tag);
    let node = b.sheet.nodes.len();
    let name_id = b.name(&name);
    let attrs_start = b.sheet.attrs.len() as u32;
    if let Some(t) = ty {
        let seen = attributes(b, cx, start, t, &name, &tag);
        for (decl, _) in t
            .attributes
            .iter()
            .zip(&seen)
            .filter(|(d, s)| d.required && !**s)
        {
            cx.diags.at(
                tag.clone(),
                format!("<{name}> has no `{}` attribute", decl.name),
                format!("{}=\"...\" ({}, required)", decl.name, decl.ty.xsd()),
            );
        }
    } else {
        malformed_attributes(cx, start, &tag);
    }
    let key = ty.map_or(0, |t| b.key(t));
    let attrs_len = (b.sheet.attrs.len() as u32 - attrs_start) as u16;
    b.sheet.nodes.push(Node {
        name: name_id,
        key,
        attrs_len,
        attrs_start,
        end: 0,
        text_start: 0,
        text_len: NO_TEXT,
    });
    Frame {
        node,
        ty,
        name,
        tag,
        counts: vec![0; ty.map_or(0, |t| t.children.len())],
        last: 0,
        text: String::new(),
        text_reported: false,
    }
}

/// The type of element `name` in `parent` (the root's when there is no
/// parent), counting it in the parent's sequence; `None`, with a problem
/// reported, when the schema does not allow it there (or when the parent
/// has no type: its problem is reported already).
fn element_type<'s>(
    cx: &mut Context<'s, '_, '_, '_>,
    parent: Option<&mut Frame<'s>>,
    name: &str,
    tag: &std::ops::Range<usize>,
) -> Option<&'s ComplexType> {
    let schema = cx.schema;
    let Some(parent) = parent else {
        if name == schema.root {
            return Some(&schema.types[schema.root_type]);
        }
        cx.diags.at(
            tag.clone(),
            format!("root element <{name}> is not declared by the schema"),
            format!("<{}>", schema.root),
        );
        return None;
    };
    let pt = parent.ty?;
    if pt.simple_content {
        cx.diags.at(
            tag.clone(),
            format!("element <{name}> in <{}>", parent.name),
            "text only: its type has simple content",
        );
        return None;
    }
    let Some((i, decl)) = pt.child(name) else {
        cx.diags.at(
            tag.clone(),
            format!("unknown element <{name}> in <{}>", parent.name),
            format!(
                "one of {}",
                list(pt.children.iter().map(|c| c.name.as_str()))
            ),
        );
        return None;
    };
    parent.counts[i] += 1;
    if decl.max.is_some_and(|m| parent.counts[i] > m) {
        cx.diags.at(
            tag.clone(),
            format!("too many <{name}> in <{}>", parent.name),
            format!("at most {}", decl.max.unwrap_or_default()),
        );
    }
    if i < parent.last {
        let last = &pt.children[parent.last].name;
        cx.diags.at(
            tag.clone(),
            format!("<{name}> after <{last}> in <{}>", parent.name),
            format!("the order of the schema's sequence: <{name}> before <{last}>"),
        );
    }
    parent.last = parent.last.max(i);
    Some(&schema.types[decl.ty])
}

/// Whether an attribute is XML's or XSD's, not data.
fn is_markup(key: &str) -> bool {
    key == "xmlns" || key.starts_with("xmlns:") || key.starts_with("xsi:")
}

/// Reports the malformed attributes of an element whose type is unknown.
fn malformed_attributes(
    cx: &mut Context<'_, '_, '_, '_>,
    start: &BytesStart<'_>,
    tag: &std::ops::Range<usize>,
) {
    for e in start.attributes().filter_map(Result::err) {
        cx.diags.at(
            tag.clone(),
            format!("malformed attribute: {e}"),
            "name=\"value\", each name once",
        );
    }
}

/// Reads the attributes of element `name` of type `t` into the sheet;
/// returns which of the type's attributes were given.
fn attributes(
    b: &mut Builder,
    cx: &mut Context<'_, '_, '_, '_>,
    start: &BytesStart<'_>,
    t: &ComplexType,
    name: &str,
    tag: &std::ops::Range<usize>,
) -> Vec<bool> {
    let mut seen = vec![false; t.attributes.len()];
    for a in start.attributes() {
        let a = match a {
            Ok(a) => a,
            Err(e) => {
                cx.diags.at(
                    tag.clone(),
                    format!("malformed attribute: {e}"),
                    "name=\"value\", each name once",
                );
                continue;
            }
        };
        // Borrowed unless the name is not UTF-8: no allocation per attribute.
        let key = String::from_utf8_lossy(a.key.as_ref());
        if is_markup(&key) {
            continue;
        }
        let Some((i, decl)) = t.attribute(&key) else {
            cx.diags.at(
                span_of(cx.source, a.key.as_ref()),
                format!("unknown attribute `{key}` on <{name}>"),
                format!(
                    "one of {}",
                    list(t.attributes.iter().map(|a| a.name.as_str()))
                ),
            );
            continue;
        };
        seen[i] = true;
        let span = span_of(cx.source, &a.value);
        let text = match a.decode_and_unescape_value(cx.decoder) {
            Ok(v) => v,
            Err(e) => {
                cx.diags.at(
                    span,
                    format!("malformed value: {e}"),
                    "text with &lt; &gt; &amp; &quot; &apos; or &#NN; escapes",
                );
                continue;
            }
        };
        match typed_value(b, decl.ty, &text) {
            Ok(v) => {
                let n = b.name(&key);
                b.sheet.attrs.push((n, v));
            }
            Err((short, long)) => {
                cx.diags
                    .at(span, format!("`{key}` is {text:?}, not {short}"), long);
            }
        }
    }
    seen
}

/// The value of attribute text of type `ty`, or what it should have been
/// (briefly, then in full).
fn typed_value(
    b: &mut Builder,
    ty: AttributeType,
    text: &str,
) -> Result<Val, (&'static str, &'static str)> {
    match ty {
        AttributeType::Str => Ok(b.string(text)),
        AttributeType::Int => text
            .trim()
            .parse()
            .map(Val::Int)
            .map_err(|_| ("an int", "a 32-bit integer (xsd:int)")),
        AttributeType::Float => parse_float(text.trim()).map(Val::Float).ok_or((
            "a float",
            "a number such as 1.5, -2e3, INF or NaN (xsd:float)",
        )),
        AttributeType::Bool => match text.trim() {
            "true" | "1" => Ok(Val::Bool(true)),
            "false" | "0" => Ok(Val::Bool(false)),
            _ => Err(("a boolean", "true, false, 1 or 0 (xsd:boolean)")),
        },
    }
}

fn close(b: &mut Builder, f: Frame<'_>, diags: &mut FileDiagnostics<'_>) {
    if let Some(t) = f.ty {
        for (decl, &n) in t.children.iter().zip(&f.counts) {
            if n < decl.min {
                diags.at(
                    f.tag.clone(),
                    format!("<{}> has {n} <{}>", f.name, decl.name),
                    format!("at least {} <{}>", decl.min, decl.name),
                );
            }
        }
        let text = if t.mixed {
            f.text.trim()
        } else {
            f.text.as_str()
        };
        if !text.is_empty() {
            let Val::Str(start, len) = b.string(text) else {
                unreachable!()
            };
            let n = &mut b.sheet.nodes[f.node];
            n.text_start = start;
            n.text_len = len;
        }
    }
    b.sheet.nodes[f.node].end = b.sheet.nodes.len() as u32;
}

/// An `xsd:float`: a decimal number with an optional exponent, `INF`,
/// `-INF` or `NaN`.
pub(crate) fn parse_float(s: &str) -> Option<f32> {
    match s {
        "INF" | "+INF" => Some(f32::INFINITY),
        "-INF" => Some(f32::NEG_INFINITY),
        "NaN" => Some(f32::NAN),
        _ if !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_digit() || b"+-.eE".contains(&c)) =>
        {
            s.parse().ok()
        }
        _ => None,
    }
}
