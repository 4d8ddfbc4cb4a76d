//! A catalogue of broken sheets and schemas: each kind of problem in its
//! own file, all reported by one run, rendered as snapshots.

use std::path::Path;

use tera_datacenter::sheets::{SheetsError, read_sheets, validate_sheets};

const SCHEMA: &str = r#"<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"
            xmlns:dc="https://tera-arise.io/dc"
            elementFormDefault="qualified">
    <xsd:complexType name="Shop">
        <xsd:sequence>
            <xsd:element name="Item" type="Shop_Item" maxOccurs="unbounded" />
            <xsd:element name="Note" type="Shop_Note" minOccurs="0" />
        </xsd:sequence>
        <xsd:attribute name="id" type="xsd:int" use="required" />
    </xsd:complexType>

    <xsd:complexType name="Shop_Item"
                     dc:keys="id">
        <xsd:attribute name="id" type="xsd:int" use="required" />
        <xsd:attribute name="price" type="xsd:float" />
        <xsd:attribute name="sold" type="xsd:boolean" />
        <xsd:attribute name="name" type="xsd:string" />
    </xsd:complexType>

    <xsd:complexType name="Shop_Note">
        <xsd:simpleContent>
            <xsd:extension base="xsd:string" />
        </xsd:simpleContent>
    </xsd:complexType>

    <xsd:element name="Shop" type="Shop" />
</xsd:schema>
"#;

/// `(file name, content)` of each broken sheet, one kind of problem each.
const BROKEN: &[(&str, &str)] = &[
    (
        "Shop-00001.xml",
        "<Shop id=\"1\">\n    <Item id=\"seven\" price=\"1.5\" />\n</Shop>\n",
    ),
    (
        "Shop-00002.xml",
        "<Shop id=\"2\">\n    <Item id=\"1\"\n          price=\"cheap\" />\n</Shop>\n",
    ),
    (
        "Shop-00003.xml",
        "<Shop id=\"3\">\n    <Item id=\"1\" sold=\"yes\" />\n</Shop>\n",
    ),
    (
        "Shop-00004.xml",
        "<Shop id=\"4\">\n    <Item id=\"1\" colour=\"red\" />\n</Shop>\n",
    ),
    (
        "Shop-00005.xml",
        "<Shop id=\"5\">\n    <Item price=\"2.0\" />\n</Shop>\n",
    ),
    (
        "Shop-00006.xml",
        "<Shop id=\"6\">\n    <Item id=\"1\" />\n    <Gift id=\"2\" />\n</Shop>\n",
    ),
    (
        "Shop-00007.xml",
        "<Shop id=\"7\">\n    <Item id=\"1\">\n</Shop>\n",
    ),
    (
        "Shop-00008.xml",
        "<Store id=\"8\">\n    <Item id=\"1\" />\n</Store>\n",
    ),
    (
        "Shop-00009.xml",
        "<Shop id=\"9\">\n    <Note>first</Note>\n    <Item id=\"1\" />\n    <Note>second</Note>\n</Shop>\n",
    ),
    (
        "Shop-00010.xml",
        "<Shop id=\"10\">\n    loose text\n</Shop>\n",
    ),
];

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A sheets folder: `Shop` with one good and every broken sheet, `Orphan`
/// without a schema, `Bad` with a schema naming an undefined type.
fn catalogue() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "Shop/Shop.xsd", SCHEMA);
    write(
        d,
        "Shop/Shop-00000.xml",
        "<Shop id=\"0\">\n    <Item id=\"2\" price=\"1e3\" sold=\"1\" name=\"a &amp; b\" />\n    <Item id=\"1\" />\n    <Note>fine</Note>\n</Shop>\n",
    );
    for (name, text) in BROKEN {
        write(d, &format!("Shop/{name}"), text);
    }
    write(d, "Orphan/Orphan-00000.xml", "<Orphan />\n");
    write(
        d,
        "Bad/Bad.xsd",
        "<xsd:schema xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\n    <xsd:complexType name=\"Bad\">\n        <xsd:choice />\n    </xsd:complexType>\n    <xsd:element name=\"Bad\" type=\"Nope\" />\n</xsd:schema>\n",
    );
    write(d, "Bad/Bad-00000.xml", "<Bad />\n");
    dir
}

fn problems(dir: &Path) -> (Vec<String>, String) {
    match validate_sheets(dir, &|_, _| {}) {
        Err(SheetsError::Invalid {
            diagnostics,
            rendered,
        }) => (
            diagnostics.iter().map(|d| d.to_string()).collect(),
            rendered,
        ),
        other => panic!("expected problems, got {other:?}"),
    }
}

#[test]
fn every_problem_of_a_run_is_reported_at_once() {
    let dir = catalogue();
    let (list, _) = problems(dir.path());
    insta::assert_snapshot!("problem_list", list.join("\n"));
    // Every broken sheet is named; the good one is not.
    for (name, _) in BROKEN {
        assert!(
            list.iter().any(|p| p.starts_with(&format!("Shop/{name}:"))),
            "{name}"
        );
    }
    assert!(!list.iter().any(|p| p.starts_with("Shop/Shop-00000.xml")));
    // Reading for packing reports the same problems.
    match read_sheets(dir.path(), &|_, _| {}) {
        Err(SheetsError::Invalid { diagnostics, .. }) => assert_eq!(diagnostics.len(), list.len()),
        other => panic!("expected problems, got {other:?}"),
    }
}

#[test]
fn rendered_diagnostics() {
    let dir = catalogue();
    let (_, rendered) = problems(dir.path());
    insta::assert_snapshot!("rendered", rendered);
}

#[test]
fn the_good_sheet_alone_validates_and_packs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Shop/Shop.xsd", SCHEMA);
    let catalogue = catalogue();
    std::fs::copy(
        catalogue.path().join("Shop/Shop-00000.xml"),
        dir.path().join("Shop/Shop-00000.xml"),
    )
    .unwrap();
    let stats = validate_sheets(dir.path(), &|_, _| {}).unwrap();
    assert_eq!((stats.folders, stats.files, stats.elements), (1, 1, 4));
    let sheets = read_sheets(dir.path(), &|_, _| {}).unwrap();
    let dec = sheets.into_dec(&Default::default()).unwrap();
    assert!(tera_datacenter::verify(&dec, None).is_ok());
    let dc = tera_datacenter::DataCenter::parse(&dec).unwrap();
    let items = dc.root().select("Shop/Item");
    // Sorted by the key `id`: 1 before 2.
    let ids: Vec<_> = items.iter().map(|i| i.attribute("id")).collect();
    use tera_datacenter::Value;
    assert_eq!(ids, [Some(Value::Int(1)), Some(Value::Int(2))]);
    assert_eq!(items[1].attribute("price"), Some(Value::Float(1000.0)));
    assert_eq!(items[1].attribute("sold"), Some(Value::Bool(true)));
    assert!(items[1].attribute("name").unwrap().as_str().unwrap() == "a & b");
    assert_eq!(items[0].key_names().len(), 1);
    assert!(items[0].key_names()[0] == "id");
    assert!(dc.root().select("Shop/Note")[0].value().unwrap() == "fine");
}

#[test]
fn fuzz_seeds_of_sheets_read_without_panic() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/sheet");
    let mut n = 0;
    for entry in std::fs::read_dir(seeds).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        tera_datacenter::fuzzing::sheet(&bytes);
        // Cut anywhere: still no panic.
        for cut in (0..bytes.len()).step_by(7) {
            tera_datacenter::fuzzing::sheet(&bytes[..cut]);
        }
        n += 1;
    }
    assert!(n >= 3);
}
