//! The part of XSD the sheets' schemas use: named complex types holding a
//! sequence of typed elements with occurrence bounds, typed (and maybe
//! required) attributes, string simple content, mixed content and the
//! `dc:keys` attribute naming the key attributes of a type.

use std::collections::HashMap;
use std::ops::Range;

use super::diagnostic::FileDiagnostics;
use super::keys::KeysNamespace;
use super::xml_read::{XmlElement, read_tree};

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
    span: Range<usize>,
}

/// Parses a schema. Problems are added to `diags`; the schema is returned
/// only when there are none.
pub(crate) fn parse_schema(source: &str, diags: &mut FileDiagnostics<'_>) -> Option<Schema> {
    let top = read_tree(source, diags)?;
    let mut reader = SchemaReader {
        diags,
        types: Vec::new(),
        refs: Vec::new(),
        root: None,
        keys_names: Vec::new(),
    };
    for e in &top {
        match e.local.as_str() {
            "schema" => reader.schema(e),
            _ => reader.unsupported(e),
        }
    }
    reader.finish()
}

/// The state of reading one schema: one method per XSD construct.
struct SchemaReader<'d, 's> {
    diags: &'d mut FileDiagnostics<'s>,
    types: Vec<ComplexType>,
    refs: Vec<TypeRef>,
    /// The root element's name, type and the span of its type.
    root: Option<(String, String, Range<usize>)>,
    /// The qualified names of the keys attribute: a prefix bound to one of
    /// the keys namespaces, or `dc:keys` when the schema binds none.
    keys_names: Vec<String>,
}

impl SchemaReader<'_, '_> {
    /// `<xsd:schema>`: the namespaces, then the types and the root element.
    fn schema(&mut self, e: &XmlElement) {
        self.keys_names.extend(e.attributes.iter().filter_map(|a| {
            let prefix = a.name.strip_prefix("xmlns:")?;
            KeysNamespace::from_uri(&a.value).map(|_| format!("{prefix}:keys"))
        }));
        if self.keys_names.is_empty() {
            self.keys_names.push("dc:keys".into());
        }
        for c in &e.children {
            match c.local.as_str() {
                "complexType" => self.complex_type(c),
                "element" => self.root_element(c),
                // DataCenter.xsd declares `dc:keys` itself; folder schemas
                // import it.
                "attribute" | "import" => self.leaf(c),
                _ => self.unsupported(c),
            }
        }
    }

    /// A top-level `<xsd:element name= type=>`: the root element.
    fn root_element(&mut self, e: &XmlElement) {
        match (e.value("name"), e.attribute("type")) {
            (Some(name), Some(ty)) => {
                self.root = Some((name.into(), ty.value.clone(), ty.span.clone()));
            }
            _ => self.diags.at(
                e.tag.clone(),
                "root element declaration without name or type",
                "name= and type=",
            ),
        }
        self.leaf(e);
    }

    /// `<xsd:complexType name= mixed= dc:keys=>` and what it holds.
    fn complex_type(&mut self, e: &XmlElement) {
        let Some(name) = e.value("name") else {
            let tag = e.tag.clone();
            self.diags
                .at(tag, "complexType without a name", "a name= attribute");
            return;
        };
        let keys_attr = self.keys_names.iter().find_map(|n| e.attribute(n));
        let keys: Vec<String> = keys_attr
            .map(|k| k.value.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        if keys.len() > 4 {
            let span = keys_attr.map_or(e.tag.clone(), |k| k.span.clone());
            let message = format!("{} keys", keys.len());
            self.diags.at(span, message, "at most four key attributes");
        }
        let t = self.types.len();
        self.types.push(ComplexType {
            name: name.into(),
            mixed: e.value("mixed") == Some("true"),
            keys,
            ..ComplexType::default()
        });
        for c in &e.children {
            match c.local.as_str() {
                "sequence" => self.sequence(t, c),
                "simpleContent" => self.simple_content(t, c),
                "attribute" => self.attribute(t, c),
                _ => self.unsupported(c),
            }
        }
    }

    /// `<xsd:sequence>` of element declarations.
    fn sequence(&mut self, t: usize, e: &XmlElement) {
        for c in &e.children {
            match c.local.as_str() {
                "element" => self.element(t, c),
                _ => self.unsupported(c),
            }
        }
    }

    /// `<xsd:simpleContent>`: the text is the value.
    fn simple_content(&mut self, t: usize, e: &XmlElement) {
        self.types[t].simple_content = true;
        for c in &e.children {
            match c.local.as_str() {
                "extension" => self.extension(t, c),
                _ => self.unsupported(c),
            }
        }
    }

    /// `<xsd:extension base="xsd:string">` and its attributes.
    fn extension(&mut self, t: usize, e: &XmlElement) {
        let base = e.value("base").and_then(AttributeType::from_xsd);
        if base != Some(AttributeType::Str) {
            self.diags.at(
                e.tag.clone(),
                "simple content that is not a string",
                "base=\"xsd:string\"",
            );
        }
        for c in &e.children {
            match c.local.as_str() {
                "attribute" => self.attribute(t, c),
                _ => self.unsupported(c),
            }
        }
    }

    /// `<xsd:element name= type= minOccurs= maxOccurs=>` of a sequence.
    fn element(&mut self, t: usize, e: &XmlElement) {
        self.leaf(e);
        let (Some(name), Some(ty)) = (e.value("name"), e.attribute("type")) else {
            self.diags.at(
                e.tag.clone(),
                "element declaration without name or type",
                "name= and type=",
            );
            return;
        };
        let min = self.occurs(e, "minOccurs", 1);
        let max = self.occurs(e, "maxOccurs", 1);
        let (Ok(Some(min)), Ok(max)) = (min, max) else {
            return;
        };
        let child = self.types[t].children.len();
        self.types[t].children.push(ElementDecl {
            name: name.into(),
            ty: usize::MAX,
            min,
            max,
        });
        self.refs.push(TypeRef {
            owner: t,
            child,
            name: ty.value.clone(),
            span: ty.span.clone(),
        });
    }

    /// An occurrence bound: `default` when absent, `None` for `unbounded`
    /// (`maxOccurs` only), `Err` (reported) when it is not a count.
    fn occurs(&mut self, e: &XmlElement, what: &str, default: u32) -> Result<Option<u32>, ()> {
        match e.attribute(what) {
            None => Ok(Some(default)),
            Some(a) if what == "maxOccurs" && a.value == "unbounded" => Ok(None),
            Some(a) => a.value.parse().map(Some).map_err(|_| {
                self.diags.at(
                    a.span.clone(),
                    format!("{what}=\"{}\" is not a count", a.value),
                    "a non-negative integer or unbounded",
                );
            }),
        }
    }

    /// `<xsd:attribute name= type= use=>` of a complex type or extension.
    fn attribute(&mut self, t: usize, e: &XmlElement) {
        self.leaf(e);
        let (Some(name), Some(ty)) = (e.value("name"), e.attribute("type")) else {
            self.diags.at(
                e.tag.clone(),
                "attribute declaration without name or type",
                "name= and type=",
            );
            return;
        };
        let Some(attribute_type) = AttributeType::from_xsd(&ty.value) else {
            self.diags.at(
                ty.span.clone(),
                format!("unknown attribute type {:?}", ty.value),
                "xsd:int, xsd:float, xsd:boolean or xsd:string",
            );
            return;
        };
        self.types[t].attributes.push(AttributeDecl {
            name: name.into(),
            ty: attribute_type,
            required: e.value("use") == Some("required"),
        });
    }

    /// A construct that holds nothing: whatever is inside is unsupported.
    fn leaf(&mut self, e: &XmlElement) {
        for c in &e.children {
            self.unsupported(c);
        }
    }

    fn unsupported(&mut self, e: &XmlElement) {
        self.diags.at(
            e.tag.clone(),
            format!("unsupported XSD construct <{}>", e.name),
            "one of complexType, sequence, element, attribute, simpleContent, extension",
        );
    }

    /// Resolves the type references; the schema, when nothing was wrong.
    fn finish(self) -> Option<Schema> {
        let SchemaReader {
            diags,
            mut types,
            refs,
            root,
            ..
        } = self;
        let index: HashMap<&str, usize> = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), i))
            .collect();
        let mut resolved = Vec::with_capacity(refs.len());
        for r in &refs {
            match index.get(r.name.as_str()) {
                Some(&ty) => resolved.push((r.owner, r.child, ty)),
                None => undefined(diags, &r.name, r.span.clone()),
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
                    undefined(diags, ty, span.clone());
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
}

fn undefined(diags: &mut FileDiagnostics<'_>, name: &str, span: Range<usize>) {
    diags.at(
        span,
        format!("type {name:?} is not defined"),
        "the name of a complexType of this schema",
    );
}
