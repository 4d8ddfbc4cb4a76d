//! Writing a data center as sheets: a folder per name of the root's
//! children, a numbered file per child, a schema per folder inferred from
//! the data, and `DataCenter.xsd` declaring `dc:keys`.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::schema::Schema;
use super::{SheetsError, infer};
use crate::{DataCenter, DcStr, Element, Value};

/// What [`write_sheets`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnpackStats {
    /// Folders (and schemas).
    pub folders: usize,
    /// Sheet files.
    pub files: usize,
    /// Elements written (without `__root__`).
    pub elements: u64,
}

/// The namespace of the `dc:keys` attribute.
const DC_NAMESPACE: &str = "https://tera-arise.io/dc";

const DATA_CENTER_XSD: &str = r#"<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"
            targetNamespace="https://tera-arise.io/dc"
            attributeFormDefault="qualified">
    <xsd:attribute name="keys">
        <xsd:simpleType>
            <xsd:restriction>
                <xsd:simpleType>
                    <xsd:list itemType="xsd:NCName" />
                </xsd:simpleType>
                <xsd:maxLength value="4" />
            </xsd:restriction>
        </xsd:simpleType>
    </xsd:attribute>
</xsd:schema>
"#;

/// Writes the tree of `dc` as sheets into `dir` (created if missing):
/// `NAME/NAME-00000.xml`... for each child of the root in order, with
/// `NAME/NAME.xsd` inferred from the data, so that
/// [`read_sheets`](super::read_sheets) packs them again to the same
/// content. Folders and files are written on every core;
/// `progress(done, total)` counts elements (`total` is the node count).
pub fn write_sheets(
    dc: &DataCenter<'_>,
    dir: &Path,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<UnpackStats, SheetsError> {
    let names = Names::new(dc);
    let mut folders: Vec<(String, Vec<Element<'_>>)> = Vec::new();
    for child in dc.root().children() {
        let name = names.get(child.name_index())?;
        match folders.last_mut() {
            Some(f) if f.0 == name => f.1.push(child),
            _ => match folders.iter_mut().find(|f| f.0 == name) {
                Some(f) => f.1.push(child),
                None => folders.push((name.to_owned(), vec![child])),
            },
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| SheetsError::io(dir, e))?;
    let top = dir.join("DataCenter.xsd");
    std::fs::write(&top, DATA_CENTER_XSD).map_err(|e| SheetsError::io(&top, e))?;
    folders.par_iter().try_for_each(|(name, roots)| {
        let schema = infer::infer(dc, roots).map_err(SheetsError::Unrepresentable)?;
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).map_err(|e| SheetsError::io(&folder, e))?;
        let path = folder.join(format!("{name}.xsd"));
        std::fs::write(&path, schema_text(&schema)?).map_err(|e| SheetsError::io(&path, e))
    })?;
    let jobs: Vec<(&str, usize, Element<'_>)> = folders
        .iter()
        .flat_map(|(name, roots)| {
            roots
                .iter()
                .enumerate()
                .map(move |(i, r)| (name.as_str(), i, *r))
        })
        .collect();
    let total = dc.node_count() as u64;
    let done = AtomicU64::new(0);
    jobs.par_iter().try_for_each(|&(name, i, e)| {
        let (text, elements) = sheet_text(&names, name, e)?;
        let path = dir.join(name).join(format!("{name}-{i:05}.xml"));
        std::fs::write(&path, text).map_err(|e| SheetsError::io(&path, e))?;
        progress(
            done.fetch_add(elements, Ordering::Relaxed) + elements,
            total,
        );
        Ok::<_, SheetsError>(())
    })?;
    Ok(UnpackStats {
        folders: folders.len(),
        files: jobs.len(),
        elements: done.into_inner(),
    })
}

/// The names of the data center, decoded once, and whether each reads
/// back as an XML name without a namespace.
struct Names {
    names: Vec<(String, bool)>,
}

impl Names {
    fn new(dc: &DataCenter<'_>) -> Self {
        let names = dc
            .names()
            .iter()
            .map(|n| {
                let n = n.to_string_lossy();
                let ok = check_name(&n).is_ok();
                (n, ok)
            })
            .collect();
        Names { names }
    }

    /// The name of a one-based index, if it can be written.
    fn get(&self, index: u16) -> Result<&str, SheetsError> {
        let (name, ok) = &self.names[index as usize - 1];
        if *ok {
            Ok(name)
        } else {
            check_name(name).map(|()| name.as_str())
        }
    }
}

/// A name must read back as an XML name without a namespace.
fn check_name(name: &str) -> Result<(), SheetsError> {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.starts_with("xml");
    if ok {
        Ok(())
    } else {
        Err(SheetsError::Unrepresentable(format!(
            "{name:?} cannot be an XML element or attribute name"
        )))
    }
}

fn escape(out: &mut String, s: DcStr<'_>) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// An `xsd:float` that reads back as the same `f32`.
fn float_text(v: f32) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "INF".into() } else { "-INF".into() }
    } else {
        format!("{v:?}")
    }
}

/// The sheet of root element `e` of folder `name`, pretty like the sheets
/// people edit: four spaces per level, one attribute a line.
fn sheet_text(names: &Names, name: &str, e: Element<'_>) -> Result<(String, u64), SheetsError> {
    let mut out = String::new();
    let mut elements = 0u64;
    let children = open(&mut out, names, name, e, 0, &mut elements)?;
    // Frames: (element, its children sorted by name index, next child).
    let mut stack = Vec::new();
    if !children.is_empty() {
        stack.push((e, children, 0));
    }
    while let Some(top) = stack.last_mut() {
        match top.1.get(top.2).copied() {
            Some(c) => {
                top.2 += 1;
                let depth = stack.len();
                let children = open(&mut out, names, name, c, depth, &mut elements)?;
                if !children.is_empty() {
                    stack.push((c, children, 0));
                }
            }
            None => {
                let (e, _, _) = stack.pop().expect("non-empty");
                let indent = stack.len() * 4;
                let _ = writeln!(out, "{:indent$}</{}>", "", names.get(e.name_index())?);
            }
        }
    }
    Ok((out, elements))
}

/// Writes the start of `e` (the whole of it when it has no children) and
/// returns its children sorted by name index.
fn open<'d>(
    out: &mut String,
    names: &Names,
    folder: &str,
    e: Element<'d>,
    depth: usize,
    elements: &mut u64,
) -> Result<Vec<Element<'d>>, SheetsError> {
    *elements += 1;
    let tag = names.get(e.name_index())?;
    let indent = depth * 4;
    let _ = write!(out, "{:indent$}<{tag}", "");
    let align = indent + tag.chars().count() + 2;
    let mut first = true;
    let mut next_attribute = |out: &mut String| {
        if first {
            out.push(' ');
            first = false;
        } else {
            let _ = write!(out, "\n{:align$}", "");
        }
    };
    if depth == 0 {
        next_attribute(out);
        out.push_str("xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"");
        next_attribute(out);
        let _ = write!(
            out,
            "xsi:schemaLocation=\"{DC_NAMESPACE}/{folder} {folder}.xsd\""
        );
        next_attribute(out);
        let _ = write!(out, "xmlns=\"{DC_NAMESPACE}/{folder}\"");
    }
    let mut text = None;
    for a in e.attributes() {
        if a.is_text() {
            text = a.value().as_str();
            continue;
        }
        next_attribute(out);
        out.push_str(names.get(a.name_index())?);
        out.push_str("=\"");
        match a.value() {
            Value::Int(v) => {
                let _ = write!(out, "{v}");
            }
            Value::Bool(v) => out.push_str(if v { "true" } else { "false" }),
            Value::Float(v) => out.push_str(&float_text(v)),
            Value::Str(v) => escape(out, v),
        }
        out.push('"');
    }
    let mut children: Vec<Element<'d>> = e.children().collect();
    children.sort_by_key(|c| c.name_index());
    match (text, children.is_empty()) {
        (None, true) => out.push_str(" />\n"),
        (Some(t), true) => {
            out.push('>');
            escape(out, t);
            let _ = writeln!(out, "</{tag}>");
        }
        (t, false) => {
            out.push('>');
            if let Some(t) = t {
                escape(out, t);
            }
            out.push('\n');
        }
    }
    Ok(children)
}

/// The schema as XSD text, in the shape of the sheets' own schemas.
fn schema_text(schema: &Schema) -> Result<String, SheetsError> {
    let name = &schema.root;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema""#
    );
    let pad = "            ";
    let _ = writeln!(
        out,
        r#"{pad}xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance""#
    );
    let _ = writeln!(out, r#"{pad}xmlns:dc="{DC_NAMESPACE}""#);
    let _ = writeln!(out, r#"{pad}xmlns="{DC_NAMESPACE}/{name}""#);
    let _ = writeln!(out, r#"{pad}targetNamespace="{DC_NAMESPACE}/{name}""#);
    let _ = writeln!(
        out,
        r#"{pad}xsi:schemaLocation="{DC_NAMESPACE} ../DataCenter.xsd""#
    );
    let _ = writeln!(out, r#"{pad}elementFormDefault="qualified">"#);
    for t in &schema.types {
        out.push_str("    <xsd:complexType name=\"");
        push_attr(&mut out, &t.name);
        out.push('"');
        if t.mixed {
            out.push_str(" mixed=\"true\"");
        }
        if !t.keys.is_empty() {
            for k in &t.keys {
                check_name(k)?;
            }
            let _ = write!(out, "\n{:21}dc:keys=\"{}\"", "", t.keys.join(" "));
        }
        if t.children.is_empty() && t.attributes.is_empty() && !t.simple_content {
            out.push_str(" />\n\n");
            continue;
        }
        out.push_str(">\n");
        let attrs_indent = if t.simple_content { 16 } else { 8 };
        if t.simple_content {
            out.push_str(
                "        <xsd:simpleContent>\n            <xsd:extension base=\"xsd:string\"",
            );
            out.push_str(if t.attributes.is_empty() {
                " />\n"
            } else {
                ">\n"
            });
        }
        if !t.children.is_empty() {
            out.push_str("        <xsd:sequence>\n");
            for c in &t.children {
                out.push_str("            <xsd:element name=\"");
                push_attr(&mut out, &c.name);
                out.push_str("\" type=\"");
                push_attr(&mut out, &schema.types[c.ty].name);
                out.push('"');
                if c.min == 0 {
                    out.push_str(" minOccurs=\"0\"");
                }
                if c.max.is_none() {
                    out.push_str(" maxOccurs=\"unbounded\"");
                }
                out.push_str(" />\n");
            }
            out.push_str("        </xsd:sequence>\n");
            if !t.attributes.is_empty() {
                out.push('\n');
            }
        }
        for a in &t.attributes {
            let _ = write!(out, "{:attrs_indent$}<xsd:attribute name=\"", "");
            push_attr(&mut out, &a.name);
            let _ = write!(out, "\" type=\"{}\"", a.ty.xsd());
            if a.required {
                out.push_str(" use=\"required\"");
            }
            out.push_str(" />\n");
        }
        if t.simple_content {
            if !t.attributes.is_empty() {
                out.push_str("            </xsd:extension>\n");
            }
            out.push_str("        </xsd:simpleContent>\n");
        }
        out.push_str("    </xsd:complexType>\n\n");
    }
    out.push_str("    <xsd:element name=\"");
    push_attr(&mut out, name);
    out.push_str("\" type=\"");
    push_attr(&mut out, &schema.types[schema.root_type].name);
    out.push_str("\" />\n</xsd:schema>\n");
    Ok(out)
}

fn push_attr(out: &mut String, s: &str) {
    out.push_str(
        &s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;"),
    );
}
