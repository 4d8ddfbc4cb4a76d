//! `tera-defs dc ...` as a process, on files written by the library.

mod common;

use std::path::{Path, PathBuf};

use common::run;
use tera_datacenter::{
    Arch, DatKey, DataCenter, OwnedElement, OwnedValue, Version, WriteOptions, write_dec,
};

const KEY: &str = "00112233445566778899aabbccddeeff";
const IV: &str = "0f0e0d0c0b0a09080706050403020100";

fn key() -> DatKey {
    DatKey::from_hex(KEY, IV).unwrap()
}

fn tree() -> OwnedElement {
    let mut list = OwnedElement::new("AreaList");
    for (id, name) in [(1, "Velika"), (2, "Allemantheia"), (3, "Pora Élinu")] {
        list.children.push(
            OwnedElement::new("Area")
                .attr("id", OwnedValue::Int(id))
                .attr("open", OwnedValue::Bool(id != 2))
                .attr("scale", OwnedValue::Float(id as f32 / 4.0))
                .attr("name", OwnedValue::Str(name.into())),
        );
    }
    OwnedElement::root(vec![
        list,
        OwnedElement::new("Zone").text("a <zone> & more"),
    ])
}

fn dec(options: &WriteOptions) -> Vec<u8> {
    write_dec(&tree(), options).unwrap()
}

/// A temp dir holding `DataCenter.dec` (64-bit, version 6).
fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("DataCenter.dec");
    std::fs::write(&path, dec(&WriteOptions::default())).unwrap();
    (dir, path)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The offset of the `open` flag's value in the second Area (damaging it
/// to 2 makes a bad boolean).
fn open_flag(dec: &[u8]) -> usize {
    let dc = DataCenter::parse(dec).unwrap();
    let area = dc.root().select("AreaList/Area")[1];
    let open = area.attributes().find(|a| a.name() == "open").unwrap();
    open.offset() + 4
}

fn damaged() -> (Vec<u8>, usize) {
    let mut bytes = dec(&WriteOptions::default());
    let at = open_flag(&bytes);
    bytes[at..at + 4].copy_from_slice(&2u32.to_le_bytes());
    (bytes, at)
}

#[test]
fn verify_a_clean_dec() {
    let (_dir, dec) = setup();
    let out = run(&["dc", "verify", s(&dec)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = std::fs::read(&dec).unwrap();
    assert_eq!(
        out.stdout,
        format!(
            "X64 v6: 6 nodes, 13 attributes reached; 0 problem(s)\n\
             records: 6 nodes, 13 attributes\n\
             sha256: {}\n",
            sha256_hex(&bytes)
        )
    );
    // No progress drawn: stderr is not a terminal here.
    assert_eq!(out.stderr, "");
}

#[test]
fn verify_32_bit_version_3() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x86.dec");
    let options = WriteOptions {
        arch: Arch::X86,
        version: Version::V3,
        ..WriteOptions::default()
    };
    std::fs::write(&path, dec(&options)).unwrap();
    let out = run(&["dc", "verify", s(&path)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("X86 v3: 6 nodes"), "{}", out.stdout);
    let out = run(&["dc", "verify", s(&path), "--arch", "x86"], None);
    assert_eq!(out.code, 0, "{}", out.stdout);
    // Read with the wrong layout, the file does not verify.
    let out = run(&["dc", "verify", s(&path), "--arch", "x64"], None);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(!out.stdout.contains("; 0 problem(s)"), "{}", out.stdout);
}

#[test]
fn verify_lists_each_problem_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.dec");
    let (bytes, at) = damaged();
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["dc", "verify", s(&path)], None);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", out.stdout);
    assert!(lines[0].ends_with("; 1 problem(s)"), "{}", lines[0]);
    assert!(lines[2].starts_with("sha256: "), "{}", lines[2]);
    assert!(
        lines[3].starts_with(&format!("  byte {at}, attribute ")),
        "{}",
        lines[3]
    );
    assert!(
        lines[3].ends_with(": boolean value 2 (expected 0 or 1)"),
        "{}",
        lines[3]
    );
}

#[test]
fn verify_a_dat_with_its_key() {
    let (dir, dec) = setup();
    let dat = dir.path().join("DataCenter.dat");
    std::fs::write(
        &dat,
        tera_datacenter::pack(&std::fs::read(&dec).unwrap(), &key()),
    )
    .unwrap();
    let out = run(&["dc", "verify", s(&dat), "--key", KEY, "--iv", IV], None);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("; 0 problem(s)"), "{}", out.stdout);
    // Another IV decrypts to garbage: problems, exit 1.
    let other_iv = "ffffffffffffffffffffffffffffffff";
    let out = run(
        &["dc", "verify", s(&dat), "--key", KEY, "--iv", other_iv],
        None,
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(!out.stdout.contains("; 0 problem(s)"), "{}", out.stdout);
}

#[test]
fn export_xml_to_stdout() {
    let (_dir, dec) = setup();
    let out = run(&["dc", "export", s(&dec), "--pretty"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let expected = r#"<?xml version="1.0" encoding="utf-8"?>
<__root__>
  <AreaList>
    <Area id="1" name="Velika" open="true" scale="0.25"/>
    <Area id="2" name="Allemantheia" open="false" scale="0.5"/>
    <Area id="3" name="Pora Élinu" open="true" scale="0.75"/>
  </AreaList>
  <Zone>a &lt;zone&gt; &amp; more</Zone>
</__root__>
"#;
    assert_eq!(out.stdout, expected);
    // Without --pretty: the same elements on one line.
    let flat = run(&["dc", "export", s(&dec)], None);
    assert_eq!(flat.code, 0);
    assert!(
        flat.stdout
            .contains(r#"<AreaList><Area id="1" name="Velika" open="true" scale="0.25"/>"#)
    );
}

#[test]
fn export_json_of_a_path_from_a_dat() {
    let (dir, dec) = setup();
    let dat = dir.path().join("DataCenter.dat");
    std::fs::write(
        &dat,
        tera_datacenter::pack(&std::fs::read(&dec).unwrap(), &key()),
    )
    .unwrap();
    let args = [
        "dc",
        "export",
        s(&dat),
        "--key",
        KEY,
        "--iv",
        IV,
        "--path",
        "AreaList/Area",
        "--format",
        "json",
    ];
    let out = run(&args, None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let areas = value.as_array().expect("several elements: an array");
    assert_eq!(areas.len(), 3);
    assert_eq!(areas[2]["name"], "Area");
    assert_eq!(
        areas[2]["attributes"],
        serde_json::json!({"id": 3, "name": "Pora Élinu", "open": true, "scale": 0.75})
    );
    assert_eq!(areas[1]["attributes"]["open"], false);
}

#[test]
fn export_to_a_file() {
    let (dir, dec) = setup();
    let xml = dir.path().join("out.json");
    let out = run(
        &[
            "dc",
            "export",
            s(&dec),
            "--format",
            "json",
            "--pretty",
            "-o",
            s(&xml),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let written = std::fs::read_to_string(&xml).unwrap();
    assert_eq!(
        out.stdout,
        format!("wrote 6 elements, {} bytes to {}\n", written.len(), s(&xml))
    );
    let stdout = run(
        &["dc", "export", s(&dec), "--format", "json", "--pretty"],
        None,
    );
    assert_eq!(stdout.stdout, written);
    let value: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(value["children"][1]["name"], "Zone");
    assert_eq!(value["children"][1]["value"], "a <zone> & more");
}

#[test]
fn export_of_a_missing_path_fails_and_leaves_no_file() {
    let (dir, dec) = setup();
    let target = dir.path().join("out.xml");
    let out = run(
        &[
            "dc",
            "export",
            s(&dec),
            "--path",
            "AreaList/Nope",
            "-o",
            s(&target),
        ],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("no element at path \"AreaList/Nope\""),
        "{}",
        out.stderr
    );
    assert!(!target.exists());
}

#[test]
fn export_of_garbage_is_a_data_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.dec");
    std::fs::write(&path, b"not a data center at all").unwrap();
    let out = run(&["dc", "export", s(&path)], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with("error: "), "{}", out.stderr);
    assert_eq!(out.stdout, "");
}

#[test]
fn pack_unpack_round_trip() {
    let (dir, dec) = setup();
    let dat = dir.path().join("DataCenter.dat");
    let back = dir.path().join("back.dec");
    let out = run(
        &["dc", "pack", s(&dec), s(&dat), "--key", KEY, "--iv", IV],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let dec_bytes = std::fs::read(&dec).unwrap();
    let dat_bytes = std::fs::read(&dat).unwrap();
    assert_eq!(dat_bytes, tera_datacenter::pack(&dec_bytes, &key()));
    assert!(out.stdout.starts_with("packed "), "{}", out.stdout);
    let out = run(
        &["dc", "unpack", s(&dat), s(&back), "--key", KEY, "--iv", IV],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read(&back).unwrap(), dec_bytes);
    assert_eq!(
        out.stdout,
        format!(
            "unpacked {} ({} bytes) into {} ({} bytes)\n",
            s(&dat),
            dat_bytes.len(),
            s(&back),
            dec_bytes.len()
        )
    );
}

#[test]
fn unpack_with_the_wrong_key_is_a_data_error() {
    let (dir, dec) = setup();
    let dat = dir.path().join("DataCenter.dat");
    std::fs::write(
        &dat,
        tera_datacenter::pack(&std::fs::read(&dec).unwrap(), &key()),
    )
    .unwrap();
    let back = dir.path().join("back.dec");
    let wrong = "ffeeddccbbaa99887766554433221100";
    let out = run(
        &[
            "dc",
            "unpack",
            s(&dat),
            s(&back),
            "--key",
            wrong,
            "--iv",
            IV,
        ],
        None,
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.starts_with("error: "), "{}", out.stderr);
    assert!(!back.exists());
}

#[test]
fn pack_refuses_a_damaged_dec_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.dec");
    let dat = dir.path().join("bad.dat");
    std::fs::write(&path, damaged().0).unwrap();
    let args = ["dc", "pack", s(&path), s(&dat), "--key", KEY, "--iv", IV];
    let out = run(&args, None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("1 problems: not packing"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--force"), "{}", out.stderr);
    assert!(!dat.exists());
    let mut forced = args.to_vec();
    forced.push("--force");
    let out = run(&forced, None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        tera_datacenter::unpack(&std::fs::read(&dat).unwrap(), &key()).unwrap(),
        damaged().0
    );
}

#[test]
fn bad_key_or_iv_is_a_usage_error() {
    let (dir, dec) = setup();
    let dat = dir.path().join("x.dat");
    let cases: [&[&str]; 5] = [
        &["dc", "verify", s(&dec), "--key", "00", "--iv", IV],
        &["dc", "export", s(&dec), "--key", KEY, "--iv", "zz"],
        &[
            "dc",
            "pack",
            s(&dec),
            s(&dat),
            "--key",
            &KEY[1..],
            "--iv",
            IV,
        ],
        &[
            "dc",
            "unpack",
            s(&dec),
            s(&dat),
            "--key",
            KEY,
            "--iv",
            "0x0f0e0d0c0b0a09080706050403020100",
        ],
        // A key without its IV.
        &["dc", "verify", s(&dec), "--key", KEY],
    ];
    for args in cases {
        let out = run(args, None);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    assert!(!dat.exists());
    let out = run(&["dc", "verify", s(&dec), "--key", "00", "--iv", IV], None);
    assert!(
        out.stderr.contains("key must be 32 hexadecimal digits"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.dec");
    let out = run(&["dc", "verify", s(&missing)], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot read"), "{}", out.stderr);
}

/// A sheets folder with one valid sheet of `AreaList`.
fn sheets(dir: &Path) -> PathBuf {
    let sheets = dir.join("sheets");
    std::fs::create_dir_all(sheets.join("AreaList")).unwrap();
    std::fs::write(
        sheets.join("AreaList/AreaList.xsd"),
        r#"<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:dc="https://tera-arise.io/dc">
    <xsd:complexType name="AreaList">
        <xsd:sequence>
            <xsd:element name="Area" type="AreaList_Area" maxOccurs="unbounded" />
        </xsd:sequence>
    </xsd:complexType>
    <xsd:complexType name="AreaList_Area" dc:keys="id">
        <xsd:simpleContent>
            <xsd:extension base="xsd:string">
                <xsd:attribute name="id" type="xsd:int" use="required" />
                <xsd:attribute name="open" type="xsd:boolean" />
            </xsd:extension>
        </xsd:simpleContent>
    </xsd:complexType>
    <xsd:element name="AreaList" type="AreaList" />
</xsd:schema>
"#,
    )
    .unwrap();
    std::fs::write(
        sheets.join("AreaList/AreaList-00000.xml"),
        "<AreaList>\n    <Area id=\"2\" open=\"true\">Allemantheia</Area>\n    <Area id=\"1\">Velika</Area>\n</AreaList>\n",
    )
    .unwrap();
    sheets
}

#[test]
fn validate_pack_unpack_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = sheets(dir.path());
    let out = run(&["dc", "validate", s(&sheets)], None);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        out.stdout,
        format!(
            "{}: 1 folders, 1 files, 3 elements; 0 problems\n",
            s(&sheets)
        )
    );
    let dec = dir.path().join("out.dec");
    let out = run(&["dc", "pack", s(&sheets), s(&dec)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = std::fs::read(&dec).unwrap();
    assert!(
        out.stdout.starts_with("packed 1 files, 3 elements of "),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with(&format!("({} bytes)\n", bytes.len())),
        "{}",
        out.stdout
    );
    let verified = run(&["dc", "verify", s(&dec)], None);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    let dc = DataCenter::parse(&bytes).unwrap();
    let areas = dc.root().select("AreaList/Area");
    // Sorted by the key `id`.
    assert!(areas[0].value().unwrap() == "Velika");
    assert!(areas[1].value().unwrap() == "Allemantheia");

    // With a key: the .dat of the same .dec.
    let dat = dir.path().join("out.dat");
    let out = run(
        &["dc", "pack", s(&sheets), s(&dat), "--key", KEY, "--iv", IV],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        tera_datacenter::unpack(&std::fs::read(&dat).unwrap(), &key()).unwrap(),
        bytes
    );

    // Unpacked into a folder (from the .dat) and packed again: the same bytes.
    let back = dir.path().join("back");
    let out = run(
        &["dc", "unpack", s(&dat), s(&back), "--key", KEY, "--iv", IV],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.ends_with(": 1 folders, 1 files, 3 elements\n"),
        "{}",
        out.stdout
    );
    assert!(back.join("AreaList/AreaList.xsd").is_file());
    assert!(back.join("DataCenter.xsd").is_file());
    let again = dir.path().join("again.dec");
    let out = run(&["dc", "pack", s(&back), s(&again)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    // And from the .dec, without a key, into an existing folder.
    let existing = dir.path().join("existing.d");
    std::fs::create_dir(&existing).unwrap();
    let out = run(&["dc", "unpack", s(&dec), s(&existing)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read(existing.join("AreaList/AreaList-00000.xml")).unwrap(),
        std::fs::read(back.join("AreaList/AreaList-00000.xml")).unwrap()
    );
}

#[test]
fn broken_sheets_are_listed_and_not_packed() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = sheets(dir.path());
    std::fs::write(
        sheets.join("AreaList/AreaList-00001.xml"),
        "<AreaList>\n    <Area id=\"x\" />\n    <Zone />\n</AreaList>\n",
    )
    .unwrap();
    let out = run(&["dc", "validate", s(&sheets)], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    // Diagnostics on stderr (as `check`, rustc and cargo), the summary on
    // stdout.
    assert!(
        out.stderr.contains("error: `id` is \"x\", not an int"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("AreaList/AreaList-00001.xml:2:15"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("error: unknown element <Zone> in <AreaList>"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, format!("{}: 2 problem(s)\n", s(&sheets)));
    let dec = dir.path().join("out.dec");
    let out = run(&["dc", "pack", s(&sheets), s(&dec)], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("AreaList/AreaList-00001.xml:3:6"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("2 problem(s) in the sheets"),
        "{}",
        out.stderr
    );
    assert!(!dec.exists());
}

#[test]
fn sheets_usage_errors() {
    let (dir, dec) = setup();
    // A .dec into a .dat needs the key; a .dat into a .dec too.
    let out = run(&["dc", "pack", s(&dec), s(&dir.path().join("x.dat"))], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("needs --key and --iv"),
        "{}",
        out.stderr
    );
    let out = run(
        &["dc", "unpack", s(&dec), s(&dir.path().join("x.dec"))],
        None,
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    let missing = dir.path().join("missing");
    let out = run(&["dc", "validate", s(&missing)], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("missing"), "{}", out.stderr);
}

/// SHA-256 of `bytes` in lowercase hexadecimal.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("{:x}", sha2::Sha256::digest(bytes))
}

#[test]
fn repack_changes_layout_key_revision_and_deduplication() {
    let dir = tempfile::tempdir().unwrap();
    // A tree with repeated runs, packed without deduplication.
    let area = |id| {
        OwnedElement::new("Area")
            .attr("kind", OwnedValue::Str("field".into()))
            .child(OwnedElement::new("Spot").attr("id", OwnedValue::Int(id)))
    };
    let tree = OwnedElement::root(vec![
        OwnedElement::new("AreaList")
            .child(area(1))
            .child(area(1))
            .child(area(2)),
    ]);
    let options = WriteOptions {
        dedup: false,
        ..Default::default()
    };
    let apart = write_dec(&tree, &options).unwrap();
    let input = dir.path().join("in.dec");
    std::fs::write(&input, &apart).unwrap();

    // .dec -> .dat with a key, 32-bit, a revision, deduplicated.
    let dat = dir.path().join("out.dat");
    let out = run(
        &[
            "dc",
            "repack",
            s(&input),
            s(&dat),
            "--out-key",
            KEY,
            "--out-iv",
            IV,
            "--arch",
            "x86",
            "--revision",
            "387463",
            "--compression",
            "best",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let dec = tera_datacenter::unpack(&std::fs::read(&dat).unwrap(), &key()).unwrap();
    let dc = DataCenter::parse_as(&dec, Some(Arch::X86)).unwrap();
    assert_eq!(dc.arch(), Arch::X86);
    assert_eq!(dc.header().revision, Some(387463));
    assert_eq!(dc.root().to_owned_tree().unwrap(), tree.clone().canonical());
    let report = tera_datacenter::verify(&dec, Some(Arch::X86));
    assert!(report.is_ok(), "{:?}", report.problems);
    assert!(report.node_records < DataCenter::parse(&apart).unwrap().node_count());

    // .dat -> .dat with another key, back to 64-bit and without
    // deduplication: the same bytes as the input, encrypted.
    let other_key = "ffeeddccbbaa99887766554433221100";
    let again = dir.path().join("again.dat");
    let out = run(
        &[
            "dc",
            "repack",
            s(&dat),
            s(&again),
            "--key",
            KEY,
            "--iv",
            IV,
            "--out-key",
            other_key,
            "--out-iv",
            IV,
            "--arch",
            "x64",
            "--revision",
            "0",
            "--no-dedup",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let other = DatKey::from_hex(other_key, IV).unwrap();
    let back = tera_datacenter::unpack(&std::fs::read(&again).unwrap(), &other).unwrap();
    assert!(back == apart, "repacked bytes differ from the original");
    // The wrong input key is a data error.
    let out = run(
        &[
            "dc",
            "repack",
            s(&dat),
            s(&again),
            "--key",
            other_key,
            "--iv",
            IV,
        ],
        None,
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
}

#[test]
fn schema_writes_the_schemas_unpack_would_write_and_no_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = sheets(dir.path());
    let dat = dir.path().join("out.dat");
    let out = run(
        &["dc", "pack", s(&sheets), s(&dat), "--key", KEY, "--iv", IV],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let schemas = dir.path().join("schemas");
    let out = run(
        &[
            "dc",
            "schema",
            s(&dat),
            s(&schemas),
            "--key",
            KEY,
            "--iv",
            IV,
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("1 folder schemas"), "{}", out.stdout);
    let unpacked = dir.path().join("unpacked");
    let out = run(
        &[
            "dc",
            "unpack",
            s(&dat),
            s(&unpacked),
            "--key",
            KEY,
            "--iv",
            IV,
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    for file in ["DataCenter.xsd", "AreaList/AreaList.xsd"] {
        assert_eq!(
            std::fs::read_to_string(schemas.join(file)).unwrap(),
            std::fs::read_to_string(unpacked.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(!schemas.join("AreaList/AreaList-00000.xml").exists());
    let xsd = std::fs::read_to_string(schemas.join("AreaList/AreaList.xsd")).unwrap();
    assert!(xsd.contains("dc:keys=\"id\""), "{xsd}");
    assert!(
        xsd.contains("xmlns:dc=\"https://tera-arise.io/dc\""),
        "{xsd}"
    );
}

#[test]
fn keys_in_either_namespace_are_read_and_unpack_writes_the_one_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = sheets(dir.path());
    let dec = dir.path().join("arise.dec");
    assert_eq!(run(&["dc", "pack", s(&sheets), s(&dec)], None).code, 0);
    // The same schema with Novadrop's namespace under another prefix.
    let xsd = sheets.join("AreaList/AreaList.xsd");
    let text = std::fs::read_to_string(&xsd).unwrap();
    let novadrop = text
        .replace(
            "xmlns:dc=\"https://tera-arise.io/dc\"",
            "xmlns:nd=\"https://vezel.dev/novadrop/dc\"",
        )
        .replace("dc:keys=", "nd:keys=");
    assert_ne!(novadrop, text);
    std::fs::write(&xsd, novadrop).unwrap();
    let nd = dir.path().join("novadrop.dec");
    assert_eq!(run(&["dc", "pack", s(&sheets), s(&nd)], None).code, 0);
    let arise_bytes = std::fs::read(&dec).unwrap();
    assert_eq!(std::fs::read(&nd).unwrap(), arise_bytes);
    let dc = DataCenter::parse(&arise_bytes).unwrap();
    let area = dc.root().select("AreaList/Area")[0];
    assert_eq!(area.key_names(), ["id"]);

    for (flag, uri) in [
        (None, "https://tera-arise.io/dc"),
        (Some("novadrop"), "https://vezel.dev/novadrop/dc"),
        (Some("tera-arise"), "https://tera-arise.io/dc"),
    ] {
        let out_dir = dir
            .path()
            .join(format!("unpacked-{}", flag.unwrap_or("default")));
        let mut args = vec!["dc", "unpack", s(&dec), s(&out_dir)];
        if let Some(flag) = flag {
            args.extend(["--keys-namespace", flag]);
        }
        let out = run(&args, None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let written = std::fs::read_to_string(out_dir.join("AreaList/AreaList.xsd")).unwrap();
        assert!(
            written.contains(&format!("xmlns:dc=\"{uri}\"")),
            "{written}"
        );
        let top = std::fs::read_to_string(out_dir.join("DataCenter.xsd")).unwrap();
        assert!(top.contains(&format!("targetNamespace=\"{uri}\"")), "{top}");
        // Packed again, the keys are kept.
        let again = dir.path().join("again.dec");
        assert_eq!(run(&["dc", "pack", s(&out_dir), s(&again)], None).code, 0);
        assert_eq!(std::fs::read(&again).unwrap(), arise_bytes, "{flag:?}");
    }
}

#[test]
fn the_dat_inflates_with_another_zlib_to_the_dec_pack_writes() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = sheets(dir.path());
    let dec = dir.path().join("out.dec");
    assert_eq!(run(&["dc", "pack", s(&sheets), s(&dec)], None).code, 0);
    for compression in ["fastest", "default", "best"] {
        let dat = dir.path().join(format!("{compression}.dat"));
        let out = run(
            &[
                "dc",
                "pack",
                s(&sheets),
                s(&dat),
                "--key",
                KEY,
                "--iv",
                IV,
                "--compression",
                compression,
            ],
            None,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let plain = decrypt(&std::fs::read(&dat).unwrap());
        let inflated = miniz_oxide::inflate::decompress_to_vec_zlib(&plain[4..]).unwrap();
        assert_eq!(inflated, std::fs::read(&dec).unwrap(), "{compression}");
        assert_eq!(
            u32::from_le_bytes(plain[..4].try_into().unwrap()) as usize,
            inflated.len()
        );
    }
}

/// AES-128-CFB decryption by the `aes` and `cfb-mode` crates directly.
fn decrypt(dat: &[u8]) -> Vec<u8> {
    use cfb_mode::cipher::{AsyncStreamCipher, KeyIvInit};
    let key = key();
    let mut plain = dat.to_vec();
    cfb_mode::Decryptor::<aes::Aes128>::new(&key.key.into(), &key.iv.into()).decrypt(&mut plain);
    plain
}
