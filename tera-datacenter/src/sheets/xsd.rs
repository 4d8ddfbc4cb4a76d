//! Schemas as XSD text, written with quick-xml's writer in the shape of the
//! sheets' own schemas (four spaces per level).

use quick_xml::Writer;
use quick_xml::events::{BytesEnd, BytesStart, Event};

use super::keys::KeysNamespace;
use super::schema::{ComplexType, Schema};

const XSD: &str = "http://www.w3.org/2001/XMLSchema";
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

type XmlWriter = Writer<Vec<u8>>;

/// Writes one event to a `Vec`, which cannot fail.
fn put(w: &mut XmlWriter, event: Event<'_>) {
    w.write_event(event).expect("writing to a Vec cannot fail");
}

/// An element with attributes: empty, or opened when `open`.
fn tag(w: &mut XmlWriter, name: &str, attributes: &[(&str, &str)], open: bool) {
    let start = BytesStart::new(name).with_attributes(attributes.iter().copied());
    put(
        w,
        if open {
            Event::Start(start)
        } else {
            Event::Empty(start)
        },
    );
}

fn close(w: &mut XmlWriter, name: &str) {
    put(w, Event::End(BytesEnd::new(name)));
}

fn finish(w: XmlWriter) -> String {
    let mut text = String::from_utf8(w.into_inner()).expect("the writer writes UTF-8");
    text.push('\n');
    text
}

/// `DataCenter.xsd`: declares the `keys` attribute (up to four names) in
/// the namespace `keys`.
pub(crate) fn data_center(keys: KeysNamespace) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 4);
    let schema = [
        ("xmlns:xsd", XSD),
        ("targetNamespace", keys.uri()),
        ("attributeFormDefault", "qualified"),
    ];
    tag(&mut w, "xsd:schema", &schema, true);
    tag(&mut w, "xsd:attribute", &[("name", "keys")], true);
    tag(&mut w, "xsd:simpleType", &[], true);
    tag(&mut w, "xsd:restriction", &[], true);
    tag(&mut w, "xsd:simpleType", &[], true);
    tag(&mut w, "xsd:list", &[("itemType", "xsd:NCName")], false);
    close(&mut w, "xsd:simpleType");
    tag(&mut w, "xsd:maxLength", &[("value", "4")], false);
    close(&mut w, "xsd:restriction");
    close(&mut w, "xsd:simpleType");
    close(&mut w, "xsd:attribute");
    close(&mut w, "xsd:schema");
    finish(w)
}

/// The schema of a sheet folder, its types' keys in the namespace `keys`.
pub(crate) fn schema(schema: &Schema, keys: KeysNamespace) -> String {
    let name = &schema.root;
    let own = format!("{}/{name}", keys.uri());
    let location = format!("{} ../DataCenter.xsd", keys.uri());
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 4);
    let head = [
        ("xmlns:xsd", XSD),
        ("xmlns:xsi", XSI),
        ("xmlns:dc", keys.uri()),
        ("xmlns", own.as_str()),
        ("targetNamespace", own.as_str()),
        ("xsi:schemaLocation", location.as_str()),
        ("elementFormDefault", "qualified"),
    ];
    tag(&mut w, "xsd:schema", &head, true);
    for t in &schema.types {
        complex_type(&mut w, schema, t);
    }
    let root = [
        ("name", name.as_str()),
        ("type", schema.types[schema.root_type].name.as_str()),
    ];
    tag(&mut w, "xsd:element", &root, false);
    close(&mut w, "xsd:schema");
    finish(w)
}

fn complex_type(w: &mut XmlWriter, schema: &Schema, t: &ComplexType) {
    let keys = t.keys.join(" ");
    let mut head = vec![("name", t.name.as_str())];
    if t.mixed {
        head.push(("mixed", "true"));
    }
    if !t.keys.is_empty() {
        head.push(("dc:keys", keys.as_str()));
    }
    let empty = t.children.is_empty() && t.attributes.is_empty() && !t.simple_content;
    tag(w, "xsd:complexType", &head, !empty);
    if empty {
        return;
    }
    if t.simple_content {
        tag(w, "xsd:simpleContent", &[], true);
        let base = [("base", "xsd:string")];
        tag(w, "xsd:extension", &base, !t.attributes.is_empty());
    }
    if !t.children.is_empty() {
        tag(w, "xsd:sequence", &[], true);
        for c in &t.children {
            let mut element = vec![
                ("name", c.name.as_str()),
                ("type", schema.types[c.ty].name.as_str()),
            ];
            if c.min == 0 {
                element.push(("minOccurs", "0"));
            }
            if c.max.is_none() {
                element.push(("maxOccurs", "unbounded"));
            }
            tag(w, "xsd:element", &element, false);
        }
        close(w, "xsd:sequence");
    }
    for a in &t.attributes {
        let mut attribute = vec![("name", a.name.as_str()), ("type", a.ty.xsd())];
        if a.required {
            attribute.push(("use", "required"));
        }
        tag(w, "xsd:attribute", &attribute, false);
    }
    if t.simple_content {
        if !t.attributes.is_empty() {
            close(w, "xsd:extension");
        }
        close(w, "xsd:simpleContent");
    }
    close(w, "xsd:complexType");
}
