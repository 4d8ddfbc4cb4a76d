//! The shared sheets packed, checked against the sheets read here with the
//! XML parser alone (not the packer's reader), then unpacked and packed
//! again. Without the sheets (`TERA_DC_SHEETS`, by default
//! `../shared/dc-sheets/sheets` beside the project) the tests print a
//! notice and pass.
//!
//! The whole arise-data set is checked the same way when `TERA_ARISE_SHEETS`
//! names its `sheets` folder (slow in debug builds: run it with
//! `cargo test --release -p tera-datacenter --test sheets_content`).

#[path = "common/shared_sheets.rs"]
mod shared_sheets_dir;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shared_sheets_dir::shared_sheets;

use quick_xml::Reader;
use quick_xml::events::Event;
use tera_datacenter::sheets::{KeysNamespace, read_sheets, write_sheets};
use tera_datacenter::{DataCenter, Element, Value, WriteOptions, verify};

/// An element as the XML says, attribute values as written.
#[derive(Debug)]
struct Xml {
    name: String,
    attributes: Vec<(String, String)>,
    text: String,
    children: Vec<Xml>,
}

fn parse_xml(text: &str) -> Xml {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Xml> = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(s) => stack.push(element(&s)),
            Event::Empty(s) => {
                let e = element(&s);
                match stack.last_mut() {
                    Some(parent) => parent.children.push(e),
                    None => return e,
                }
            }
            Event::End(_) => {
                let done = stack.pop().expect("open element");
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => return done,
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml10_content().unwrap());
                }
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref().unwrap() {
                    Some(c) => c.to_string(),
                    None => quick_xml::escape::resolve_predefined_entity(&r.decode().unwrap())
                        .unwrap()
                        .to_string(),
                };
                stack.last_mut().unwrap().text.push_str(&c);
            }
            Event::Eof => panic!("no root element"),
            _ => {}
        }
    }
}

fn element(s: &quick_xml::events::BytesStart<'_>) -> Xml {
    Xml {
        name: String::from_utf8(s.local_name().as_ref().to_vec()).unwrap(),
        attributes: s
            .attributes()
            .map(|a| a.unwrap())
            .filter(|a| {
                let k = a.key.as_ref();
                !(k == b"xmlns" || k.starts_with(b"xmlns:") || k.starts_with(b"xsi:"))
            })
            .map(|a| {
                (
                    String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                    a.unescape_value().unwrap().into_owned(),
                )
            })
            .collect(),
        text: String::new(),
        children: Vec::new(),
    }
}

/// What the test needs of a schema: per complex type, its attribute types,
/// its children's types, its keys, and whether it holds text.
#[derive(Debug, Default)]
struct Type {
    attributes: HashMap<String, String>,
    children: HashMap<String, String>,
    keys: Vec<String>,
    simple: bool,
    mixed: bool,
}

/// Types by name and the root element's type.
fn parse_xsd(text: &str) -> (HashMap<String, Type>, String) {
    let mut reader = Reader::from_str(text);
    let mut types: HashMap<String, Type> = HashMap::new();
    let mut current = String::new();
    let mut root = String::new();
    let mut depth = 0;
    loop {
        let (s, empty) = match reader.read_event().unwrap() {
            Event::Start(s) => (s, false),
            Event::Empty(s) => (s, true),
            Event::End(_) => {
                depth -= 1;
                continue;
            }
            Event::Eof => return (types, root),
            _ => continue,
        };
        let get = |n: &str| {
            s.try_get_attribute(n)
                .unwrap()
                .map(|a| a.unescape_value().unwrap().into_owned())
        };
        match s.local_name().as_ref() {
            b"complexType" => {
                current = get("name").unwrap();
                let t = types.entry(current.clone()).or_default();
                t.keys = get("dc:keys")
                    .map(|k| k.split_whitespace().map(String::from).collect())
                    .unwrap_or_default();
                t.mixed = get("mixed").as_deref() == Some("true");
            }
            b"simpleContent" => types.get_mut(&current).unwrap().simple = true,
            b"attribute" if depth > 1 => {
                let (n, ty) = (get("name").unwrap(), get("type").unwrap());
                types.get_mut(&current).unwrap().attributes.insert(n, ty);
            }
            b"element" if depth == 1 => root = get("type").unwrap(),
            b"element" => {
                let (n, ty) = (get("name").unwrap(), get("type").unwrap());
                types.get_mut(&current).unwrap().children.insert(n, ty);
            }
            _ => {}
        }
        if !empty {
            depth += 1;
        }
    }
}

/// Does the data center value say what the XML text says, for this type?
fn same_value(value: Value<'_>, xsd: &str, text: &str) -> bool {
    match (xsd, value) {
        ("xsd:int", Value::Int(v)) => text.trim().parse::<i32>() == Ok(v),
        ("xsd:float", Value::Float(v)) => match text.trim() {
            "INF" => v == f32::INFINITY,
            "-INF" => v == f32::NEG_INFINITY,
            "NaN" => v.is_nan(),
            t => t.parse::<f32>().map(f32::to_bits) == Ok(v.to_bits()),
        },
        ("xsd:boolean", Value::Bool(v)) => {
            matches!(
                (text.trim(), v),
                ("true" | "1", true) | ("false" | "0", false)
            )
        }
        ("xsd:string", Value::Str(s)) => s == text,
        _ => false,
    }
}

/// The order of two same-named siblings with keys: the key values, typed.
fn key_order(a: &Xml, b: &Xml, t: &Type) -> std::cmp::Ordering {
    for k in &t.keys {
        let get = |x: &Xml| x.attributes.iter().find(|a| &a.0 == k).map(|a| a.1.clone());
        let (va, vb) = (get(a), get(b));
        let o = match (va, vb, t.attributes.get(k).map(String::as_str)) {
            (Some(x), Some(y), Some("xsd:int")) => x
                .trim()
                .parse::<i32>()
                .unwrap()
                .cmp(&y.trim().parse::<i32>().unwrap()),
            (Some(x), Some(y), Some("xsd:float")) => x
                .trim()
                .parse::<f32>()
                .unwrap()
                .total_cmp(&y.trim().parse::<f32>().unwrap()),
            (Some(x), Some(y), _) => x.encode_utf16().cmp(y.encode_utf16()),
            (x, y, _) => x.is_some().cmp(&y.is_some()),
        };
        if o.is_ne() {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// Compares a packed element with its XML, recursively; `path` names it.
fn compare(e: Element<'_>, x: &Xml, ty: &str, types: &HashMap<String, Type>, path: &str) {
    let t = &types[ty];
    assert!(
        e.name() == x.name.as_str(),
        "{path}: name {} vs {}",
        e.name(),
        x.name
    );
    let attrs: Vec<_> = e.attributes().filter(|a| !a.is_text()).collect();
    assert_eq!(attrs.len(), x.attributes.len(), "{path}: attribute count");
    for (name, text) in &x.attributes {
        let value = e
            .attribute(name)
            .unwrap_or_else(|| panic!("{path}: no {name}"));
        let xsd = &t.attributes[name];
        assert!(
            same_value(value, xsd, text),
            "{path}/@{name}: {value:?} is not {xsd} {text:?}"
        );
    }
    let text = if t.mixed {
        x.text.trim()
    } else {
        x.text.as_str()
    };
    let expected_text = (t.simple || t.mixed) && !text.is_empty();
    match e.value() {
        Some(v) => assert!(expected_text && v == text, "{path}: text {v} vs {text:?}"),
        None => assert!(!expected_text, "{path}: no text, expected {text:?}"),
    }
    // Same-named children keep their order, or follow their key values.
    let mut groups: Vec<(&str, Vec<&Xml>)> = Vec::new();
    for c in &x.children {
        match groups.iter_mut().find(|g| g.0 == c.name) {
            Some(g) => g.1.push(c),
            None => groups.push((&c.name, vec![c])),
        }
    }
    let children: Vec<Element<'_>> = e.children().collect();
    assert_eq!(children.len(), x.children.len(), "{path}: child count");
    for (name, mut group) in groups {
        let child_type = &t.children[name];
        group.sort_by(|a, b| key_order(a, b, &types[child_type]));
        let packed: Vec<Element<'_>> = e.children_named(name).collect();
        assert_eq!(packed.len(), group.len(), "{path}/{name}: count");
        for (i, (p, x)) in packed.iter().zip(group).enumerate() {
            compare(*p, x, child_type, types, &format!("{path}/{name}[{i}]"));
        }
    }
}

/// Every sheet of `dir`, in the order the packer must keep, compared with
/// the children of the packed root.
fn check_content(dir: &Path, dc: &DataCenter<'_>) -> usize {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut files = 0;
    let mut roots = 0;
    for folder in folders {
        let name = folder.file_name().unwrap().to_str().unwrap().to_owned();
        let (types, root_type) =
            parse_xsd(&std::fs::read_to_string(folder.join(format!("{name}.xsd"))).unwrap());
        let mut sheets: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        sheets.sort();
        let packed: Vec<Element<'_>> = dc.root().children_named(&name).collect();
        assert_eq!(
            packed.len(),
            sheets.len(),
            "{name}: one root child per sheet"
        );
        for (p, sheet) in packed.iter().zip(&sheets) {
            let xml = parse_xml(&std::fs::read_to_string(sheet).unwrap());
            compare(*p, &xml, &root_type, &types, &sheet.display().to_string());
        }
        files += sheets.len();
        roots += packed.len();
    }
    assert_eq!(
        roots,
        dc.root().children().count(),
        "no root child without a sheet"
    );
    files
}

fn pack_with(dir: &Path, options: &WriteOptions) -> Vec<u8> {
    let sheets = read_sheets(dir, &|_, _| {}).unwrap_or_else(|e| match e {
        tera_datacenter::sheets::SheetsError::Invalid { rendered, .. } => panic!("{rendered}"),
        e => panic!("{e}"),
    });
    sheets.into_dec(options).unwrap()
}

fn pack(dir: &Path) -> Vec<u8> {
    pack_with(dir, &WriteOptions::default())
}

fn pack_check_unpack_repack(dir: &Path) {
    let dec = pack(dir);
    let report = verify(&dec, None);
    assert!(
        report.is_ok(),
        "{:?}",
        &report.problems[..report.problems.len().min(5)]
    );
    let dc = DataCenter::parse(&dec).unwrap();
    let files = check_content(dir, &dc);
    assert!(files > 0);
    let out = tempfile::tempdir().unwrap();
    let stats = write_sheets(&dc, out.path(), KeysNamespace::default(), &|_, _| {}).unwrap();
    assert_eq!(stats.files, files);
    // The unpacked sheets say the same as the data center they came from...
    check_content(out.path(), &dc);
    // ...and pack to the same bytes.
    assert!(
        pack(out.path()) == dec,
        "unpacked sheets pack to other bytes"
    );
}

#[test]
fn shared_sheets_pack_to_their_content_and_back() {
    let Some(dir) = shared_sheets("the shared sheets") else {
        return;
    };
    pack_check_unpack_repack(&dir);
}

#[test]
fn shared_sheets_without_deduplication_hold_the_same_content() {
    let Some(dir) = shared_sheets("the shared sheets") else {
        return;
    };
    let shared = pack(&dir);
    let apart = pack_with(
        &dir,
        &WriteOptions {
            dedup: false,
            ..Default::default()
        },
    );
    let report = verify(&apart, None);
    assert!(report.is_ok(), "{:?}", report.problems.first());
    check_content(&dir, &DataCenter::parse(&apart).unwrap());
    let (a, b) = (verify(&shared, None), report);
    // The same tree as readers see it, in fewer records.
    assert_eq!((a.nodes, a.attributes), (b.nodes, b.attributes));
    assert!(a.attribute_records < b.attribute_records);
    assert!(a.node_records < b.node_records);
    assert!(shared.len() < apart.len());
}

#[test]
fn sheets_unpacked_with_novadrop_keys_pack_to_the_same_bytes() {
    let Some(dir) = shared_sheets("the shared sheets") else {
        return;
    };
    let dec = pack(&dir);
    let dc = DataCenter::parse(&dec).unwrap();
    let out = tempfile::tempdir().unwrap();
    write_sheets(&dc, out.path(), KeysNamespace::Novadrop, &|_, _| {}).unwrap();
    let top = std::fs::read_to_string(out.path().join("DataCenter.xsd")).unwrap();
    assert!(
        top.contains("targetNamespace=\"https://vezel.dev/novadrop/dc\""),
        "{top}"
    );
    let mut keyed = 0;
    for entry in std::fs::read_dir(out.path()).unwrap() {
        let folder = entry.unwrap().path();
        let Some(name) = folder.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Ok(xsd) = std::fs::read_to_string(folder.join(format!("{name}.xsd"))) else {
            continue;
        };
        assert!(!xsd.contains("tera-arise.io"), "{name}.xsd");
        keyed += usize::from(xsd.contains("dc:keys="));
    }
    assert!(keyed > 0, "no schema with keys");
    // The keys are read in Novadrop's namespace: the same key definitions,
    // the same bytes.
    assert!(
        pack(out.path()) == dec,
        "Novadrop-namespace sheets pack to other bytes"
    );
}

#[test]
fn whole_arise_data_packs_to_its_content_and_back() {
    let Some(dir) = std::env::var_os("TERA_ARISE_SHEETS").map(PathBuf::from) else {
        eprintln!("skipping: set TERA_ARISE_SHEETS to the sheets folder of arise-data");
        return;
    };
    pack_check_unpack_repack(&dir);
}
