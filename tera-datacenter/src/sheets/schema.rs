//! The part of XSD the sheets' schemas use: named complex types holding a
//! sequence of typed elements with occurrence bounds, typed (and maybe
//! required) attributes, string simple content, mixed content and the
//! `dc:keys` attribute naming the key attributes of a type.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::encoding::Decoder;
use quick_xml::events::{BytesStart, Event};

use super::KeysNamespace;
use super::diagnostic::FileDiagnostics;
use super::{next_event, span_of, tag_span};

/// The type of an attribute (`xsd:int`, `xsd:float`, `xsd:boolean`,
/// `xsd:string`): a data center int, float, int-as-boolean or string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttributeType {
    /// `xsd:int`.
    Int,
    /// `xsd:float`.
    Float,
    /// `xsd:boolean`.
    Bool,
    /// `xsd:string`.
    Str,
}

impl AttributeType {
    /// The XSD name, `xsd:int`...
    pub fn xsd(self) -> &'static str {
        match self {
            AttributeType::Int => "xsd:int",
            AttributeType::Float => "xsd:float",
            AttributeType::Bool => "xsd:boolean",
            AttributeType::Str => "xsd:string",
        }
    }

    fn from_xsd(name: &str) -> Option<Self> {
        match name
            .strip_prefix("xsd:")
            .or_else(|| name.strip_prefix("xs:"))?
        {
            "int" => Some(AttributeType::Int),
            "float" => Some(AttributeType::Float),
            "boolean" => Some(AttributeType::Bool),
            "string" => Some(AttributeType::Str),
            _ => None,
        }
    }
}

/// An attribute of a complex type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeDecl {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: AttributeType,
    /// `use="required"`.
    pub required: bool,
}

/// An element of a complex type's sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementDecl {
    /// Its name.
    pub name: String,
    /// Index of its type in [`Schema::types`].
    pub ty: usize,
    /// `minOccurs` (default 1).
    pub min: u32,
    /// `maxOccurs` (default 1; `None` for `unbounded`).
    pub max: Option<u32>,
}

/// A named complex type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComplexType {
    /// Its name.
    pub name: String,
    /// The elements of its sequence, in order.
    pub children: Vec<ElementDecl>,
    /// Its attributes.
    pub attributes: Vec<AttributeDecl>,
    /// `simpleContent` with base `xsd:string`: the text is the value.
    pub simple_content: bool,
    /// `mixed="true"`: text may appear between the children.
    pub mixed: bool,
    /// `dc:keys`: the names of the key attributes (at most four).
    pub keys: Vec<String>,
}

impl ComplexType {
    /// The declaration of the child element called `name`, with its index.
    pub fn child(&self, name: &str) -> Option<(usize, &ElementDecl)> {
        self.children
            .iter()
            .enumerate()
            .find(|(_, c)| c.name == name)
    }

    /// The declaration of the attribute called `name`, with its index.
    pub fn attribute(&self, name: &str) -> Option<(usize, &AttributeDecl)> {
        self.attributes
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == name)
    }
}

/// The schema of one sheet folder: its root element and types.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schema {
    /// The declared root element (the folder's name).
    pub root: String,
    /// Index of the root element's type in [`types`](Self::types).
    pub root_type: usize,
    /// The complex types.
    pub types: Vec<ComplexType>,
}

/// A reference to a type by name, resolved once every type is read.
struct TypeRef {
    owner: usize,
    child: usize,
    name: String,
    span: std::ops::Range<usize>,
}

/// Parses a schema. Problems are added to `diags`; the schema is returned
/// only when there are none.
pub(crate) fn parse_schema(source: &str, diags: &mut FileDiagnostics<'_>) -> Option<Schema> {
    let mut reader = Reader::from_str(source);
    let mut types: Vec<ComplexType> = Vec::new();
    let mut refs: Vec<TypeRef> = Vec::new();
    let mut root: Option<(String, String, std::ops::Range<usize>)> = None;
    // The local names of the open XSD elements.
    let mut open: Vec<String> = Vec::new();
    let mut current: Option<usize> = None;
    // The qualified names of the keys attribute: a prefix bound to one of
    // the keys namespaces, or `dc:keys` when the schema binds none.
    let mut keys_names: Vec<String> = Vec::new();
    loop {
        let (before, event) = next_event(&mut reader, diags)?;
        let (start, empty) = match event {
            Event::Start(s) => (s, false),
            Event::Empty(s) => (s, true),
            Event::End(_) => {
                if open.pop().as_deref() == Some("complexType") {
                    current = None;
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let local = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
        let tag = tag_span(before, &start);
        let parent = open.last().map(String::as_str);
        let attrs = attributes(&start, source, diags, reader.decoder());
        let get = |name: &str| {
            attrs
                .iter()
                .find(|a| a.0 == name)
                .map(|a| (&a.1, a.2.clone()))
        };
        match (parent, local.as_str()) {
            (None, "schema") => {
                keys_names.extend(attrs.iter().filter_map(|(name, value, _)| {
                    let prefix = name.strip_prefix("xmlns:")?;
                    KeysNamespace::from_uri(value).map(|_| format!("{prefix}:keys"))
                }));
                if keys_names.is_empty() {
                    keys_names.push("dc:keys".into());
                }
            }
            (Some("schema"), "complexType") => {
                let Some((name, _)) = get("name") else {
                    diags.at(tag, "complexType without a name", "a name= attribute");
                    return None;
                };
                let keys_attr = keys_names.iter().find_map(|n| get(n));
                let keys: Vec<String> = keys_attr
                    .as_ref()
                    .map(|(k, _)| k.split_whitespace().map(String::from).collect())
                    .unwrap_or_default();
                if keys.len() > 4 {
                    let span = keys_attr.map(|k| k.1).unwrap_or(tag.clone());
                    diags.at(
                        span,
                        format!("{} keys", keys.len()),
                        "at most four key attributes",
                    );
                }
                types.push(ComplexType {
                    name: name.clone(),
                    mixed: get("mixed").is_some_and(|m| m.0 == "true"),
                    keys,
                    ..ComplexType::default()
                });
                current = Some(types.len() - 1);
            }
            (Some("schema"), "element") => match (get("name"), get("type")) {
                (Some((name, _)), Some((ty, span))) => {
                    root = Some((name.clone(), ty.clone(), span))
                }
                _ => diags.at(
                    tag,
                    "root element declaration without name or type",
                    "name= and type=",
                ),
            },
            // DataCenter.xsd declares `dc:keys` itself; folder schemas import it.
            (Some("schema"), "attribute" | "import") => {}
            (Some("complexType"), "sequence" | "simpleContent") => {
                if local == "simpleContent"
                    && let Some(t) = current
                {
                    types[t].simple_content = true;
                }
            }
            (Some("simpleContent"), "extension") => {
                let base = get("base");
                if base
                    .as_ref()
                    .is_none_or(|b| AttributeType::from_xsd(b.0) != Some(AttributeType::Str))
                {
                    diags.at(
                        tag.clone(),
                        "simple content that is not a string",
                        "base=\"xsd:string\"",
                    );
                }
            }
            (Some("sequence"), "element") => {
                let Some(t) = current else { continue };
                let (Some((name, _)), Some((ty, ty_span))) = (get("name"), get("type")) else {
                    diags.at(
                        tag,
                        "element declaration without name or type",
                        "name= and type=",
                    );
                    continue;
                };
                let mut occurs = |what: &str, default: u32| -> Result<Option<u32>, ()> {
                    match get(what) {
                        None => Ok(Some(default)),
                        Some((v, _)) if what == "maxOccurs" && v == "unbounded" => Ok(None),
                        Some((v, span)) => v.parse().map(Some).map_err(|_| {
                            diags.at(
                                span,
                                format!("{what}=\"{v}\" is not a count"),
                                "a non-negative integer or unbounded",
                            );
                        }),
                    }
                };
                let min = occurs("minOccurs", 1);
                let max = occurs("maxOccurs", 1);
                let (Ok(Some(min)), Ok(max)) = (min, max) else {
                    continue;
                };
                let child = types[t].children.len();
                types[t].children.push(ElementDecl {
                    name: name.clone(),
                    ty: usize::MAX,
                    min,
                    max,
                });
                refs.push(TypeRef {
                    owner: t,
                    child,
                    name: ty.clone(),
                    span: ty_span,
                });
            }
            (Some("complexType" | "extension"), "attribute") => {
                let Some(t) = current else { continue };
                let (Some((name, _)), Some((ty, ty_span))) = (get("name"), get("type")) else {
                    diags.at(
                        tag,
                        "attribute declaration without name or type",
                        "name= and type=",
                    );
                    continue;
                };
                let Some(ty) = AttributeType::from_xsd(ty) else {
                    diags.at(
                        ty_span,
                        format!("unknown attribute type {ty:?}"),
                        "xsd:int, xsd:float, xsd:boolean or xsd:string",
                    );
                    continue;
                };
                types[t].attributes.push(AttributeDecl {
                    name: name.clone(),
                    ty,
                    required: get("use").is_some_and(|u| u.0 == "required"),
                });
            }
            _ => {
                diags.at(
                    tag,
                    format!(
                        "unsupported XSD construct <{}>",
                        String::from_utf8_lossy(start.name().as_ref())
                    ),
                    "one of complexType, sequence, element, attribute, simpleContent, extension",
                );
            }
        }
        if !empty {
            open.push(local);
        }
    }
    let index: HashMap<&str, usize> = types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let mut resolved = Vec::with_capacity(refs.len());
    for r in &refs {
        match index.get(r.name.as_str()) {
            Some(&ty) => resolved.push((r.owner, r.child, ty)),
            None => diags.at(
                r.span.clone(),
                format!("type {:?} is not defined", r.name),
                "the name of a complexType of this schema",
            ),
        }
    }
    let root_type = match &root {
        None => {
            diags.at(
                0..0,
                "no root element declared",
                "a top-level <xsd:element name= type=>",
            );
            None
        }
        Some((_, ty, span)) => {
            let found = index.get(ty.as_str()).copied();
            if found.is_none() {
                diags.at(
                    span.clone(),
                    format!("type {ty:?} is not defined"),
                    "the name of a complexType of this schema",
                );
            }
            found
        }
    };
    if !diags.is_empty() {
        return None;
    }
    for (owner, child, ty) in resolved {
        types[owner].children[child].ty = ty;
    }
    Some(Schema {
        root: root.map(|r| r.0).unwrap_or_default(),
        root_type: root_type?,
        types,
    })
}

/// The attributes of a tag: (qualified name, unescaped value, value span).
fn attributes(
    start: &BytesStart<'_>,
    source: &str,
    diags: &mut FileDiagnostics<'_>,
    decoder: Decoder,
) -> Vec<(String, String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for a in start.attributes() {
        match a {
            Ok(a) => {
                let span = span_of(source, &a.value);
                let value = a
                    .decode_and_unescape_value(decoder)
                    .map(|v| v.into_owned())
                    .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
                out.push((
                    String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                    value,
                    span,
                ));
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
