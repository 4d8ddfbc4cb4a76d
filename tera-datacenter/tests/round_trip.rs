//! tree -> write -> strict read -> the same tree, for every layout.

mod common;

use common::{Rng, all_options, tree};
use tera_datacenter::{
    Address, Arch, DatError, DatKey, DataCenter, OwnedElement, OwnedValue, Value, Version,
    WriteOptions, pack, unpack, verify, verify_dat, write_dec,
};

fn round_trip(t: &OwnedElement, options: &WriteOptions) -> Vec<u8> {
    let bytes = write_dec(t, options).expect("writes");
    let report = verify(&bytes, None);
    assert!(
        report.is_ok(),
        "{:?}",
        &report.problems[..report.problems.len().min(5)]
    );
    assert_eq!(report.arch, Some(options.arch));
    assert_eq!(report.version, Some(options.version));
    assert_eq!(report.nodes, t.element_count() as u64);
    let dc = DataCenter::parse(&bytes).expect("opens");
    assert_eq!(dc.arch(), options.arch);
    assert_eq!(dc.header().version, options.version);
    let back = dc.root().to_owned_tree().expect("a tree");
    assert!(
        back == t.clone().canonical(),
        "tree differs after the round trip"
    );
    // Writing the read tree gives the same bytes: the writer is canonical.
    assert_eq!(write_dec(&back, options).unwrap(), bytes);
    bytes
}

#[test]
fn every_attribute_type_in_every_layout() {
    let t = OwnedElement::root(vec![
        OwnedElement::new("Types")
            .attr("int", OwnedValue::Int(-123_456))
            .attr("max", OwnedValue::Int(i32::MAX))
            .attr("yes", OwnedValue::Bool(true))
            .attr("no", OwnedValue::Bool(false))
            .attr("float", OwnedValue::Float(-1.5e-7))
            .attr("nan", OwnedValue::Float(f32::NAN))
            .attr("inf", OwnedValue::Float(f32::INFINITY))
            .attr("empty", OwnedValue::Str(String::new()))
            .attr("str", OwnedValue::Str("Ünïcødé 東京 😀".into()))
            .text("some text"),
        OwnedElement::new("Alpha"),
    ]);
    for options in all_options() {
        let bytes = round_trip(&t, &options);
        let dc = DataCenter::parse(&bytes).unwrap();
        let types = dc.root().child("Types").unwrap();
        assert_eq!(types.attribute("int"), Some(Value::Int(-123_456)));
        assert_eq!(types.attribute("yes"), Some(Value::Bool(true)));
        assert_eq!(types.attribute("no"), Some(Value::Bool(false)));
        assert_eq!(types.attribute("float"), Some(Value::Float(-1.5e-7)));
        assert!(types.attribute("str").unwrap().as_str().unwrap() == "Ünïcødé 東京 😀");
        assert!(types.value().unwrap() == "some text");
        assert_eq!(types.attribute("missing"), None);
        assert_eq!(
            dc.header().revision,
            (options.version == Version::V6).then_some(387463)
        );
        // Children are stored sorted by name: Alpha before Types.
        let names: Vec<String> = dc.root().children().map(|c| c.name().to_string()).collect();
        assert_eq!(names, ["Alpha", "Types"]);
    }
}

#[test]
fn generated_trees_in_every_layout() {
    for (seed, options) in all_options().into_iter().enumerate() {
        round_trip(&tree(seed as u64 + 11, 3000), &options);
    }
}

#[test]
fn deep_nesting() {
    let mut e = OwnedElement::new("Leaf").attr("depth", OwnedValue::Int(5000));
    for d in (0..5000).rev() {
        e = OwnedElement::new(format!("L{}", d % 7))
            .attr("depth", OwnedValue::Int(d))
            .child(e);
    }
    let t = OwnedElement::root(vec![e]);
    let bytes = round_trip(&t, &WriteOptions::default());
    let dc = DataCenter::parse(&bytes).unwrap();
    let mut depth = 0;
    let mut cur = dc.root();
    while let Some(c) = cur.children().next() {
        cur = c;
        depth += 1;
    }
    assert_eq!(depth, 5001);
    assert!(cur.name() == "Leaf");
}

#[test]
fn more_than_65535_elements_attributes_and_string_units_use_several_segments() {
    let mut root = OwnedElement::root(Vec::new());
    for g in 0..3 {
        let mut group = OwnedElement::new("Group").attr("g", OwnedValue::Int(g));
        for i in 0..30_000 {
            group.children.push(
                OwnedElement::new("Item")
                    .attr("id", OwnedValue::Int(i))
                    .attr("tag", OwnedValue::Str(format!("item-{g}-{i}"))),
            );
        }
        root.children.push(group);
    }
    for options in [
        WriteOptions::default(),
        WriteOptions {
            arch: Arch::X86,
            ..Default::default()
        },
    ] {
        let bytes = round_trip(&root, &options);
        let dc = DataCenter::parse(&bytes).unwrap();
        assert_eq!(dc.node_count(), 90_004);
        let last_group = dc.root().children().last().unwrap();
        let last_item = last_group.children().last().unwrap();
        assert!(last_item.address().segment >= 1, "{}", last_item.address());
        assert!(last_item.attributes().next().unwrap().address().segment >= 2);
        assert!(last_item.attribute("tag").unwrap().as_str().unwrap() == "item-2-29999");
        // Every child block stays within one segment.
        for g in dc.root().children() {
            let first = g.children_address();
            assert!(first.element as usize + g.child_count() <= 65535);
        }
    }
}

#[test]
fn long_and_non_ascii_strings() {
    let long: String = "é東😀a".repeat(65534 / 5);
    assert!(long.encode_utf16().count() < 65535);
    let mut rng = Rng(99);
    let mut e = OwnedElement::new("Strings").attr("long", OwnedValue::Str(long.clone()));
    for i in 0..40 {
        let s: String = (0..2000)
            .map(|_| char::from_u32(0x20 + rng.below(0xd000) as u32).unwrap_or('x'))
            .collect();
        e.attributes.push((format!("s{i}"), OwnedValue::Str(s)));
    }
    let t = OwnedElement::root(vec![e, OwnedElement::new("Ünicode_名前").text("ÿ œ Ő ő")]);
    for options in all_options() {
        let bytes = round_trip(&t, &options);
        let dc = DataCenter::parse(&bytes).unwrap();
        let s = dc
            .root()
            .child("Strings")
            .unwrap()
            .attribute("long")
            .unwrap();
        assert_eq!(s.as_str().unwrap().to_string_lossy(), long);
    }
}

#[test]
fn writer_is_deterministic_and_checks_its_input() {
    let t = tree(5, 500);
    assert_eq!(
        write_dec(&t, &WriteOptions::default()).unwrap(),
        write_dec(&t.clone(), &WriteOptions::default()).unwrap()
    );
    let bad_root = OwnedElement::new("Root");
    assert!(write_dec(&bad_root, &WriteOptions::default()).is_err());
    let dup = OwnedElement::root(vec![
        OwnedElement::new("A")
            .attr("x", OwnedValue::Int(1))
            .attr("x", OwnedValue::Int(2)),
    ]);
    assert!(matches!(
        write_dec(&dup, &WriteOptions::default()),
        Err(tera_datacenter::WriteError::DuplicateAttribute { .. })
    ));
    let int_text = OwnedElement::root(vec![
        OwnedElement::new("A").attr("__value__", OwnedValue::Int(1)),
    ]);
    assert!(write_dec(&int_text, &WriteOptions::default()).is_err());
    let too_long = OwnedElement::root(vec![OwnedElement::new("A").text("x".repeat(65535))]);
    assert!(write_dec(&too_long, &WriteOptions::default()).is_err());
    let nul = OwnedElement::root(vec![OwnedElement::new("A").text("a\0b")]);
    assert!(write_dec(&nul, &WriteOptions::default()).is_err());
}

#[test]
fn dat_encryption_round_trip() {
    let key = DatKey::from_hex(
        "3347a174f9040d4768a0b05558dc866b",
        "e490562821af3e1176c98d3cb9ec4601",
    )
    .unwrap();
    for options in all_options() {
        let dec = write_dec(&tree(3, 2000), &options).unwrap();
        let dat = pack(&dec, &key);
        assert_ne!(&dat[..], &dec[..]);
        assert_eq!(pack(&dec, &key), dat, "deterministic");
        assert_eq!(unpack(&dat, &key).unwrap(), dec);
        assert!(verify_dat(&dat, &key, None).unwrap().is_ok());
        let wrong = DatKey {
            key: [7; 16],
            iv: key.iv,
        };
        assert!(unpack(&dat, &wrong).is_err());
        // A wrong key is an error of the .dat layer, not a format problem.
        assert!(matches!(
            verify_dat(&dat, &wrong, None),
            Err(DatError::Inflate(_))
        ));
    }
}

#[test]
fn addresses_and_names_are_exposed() {
    let bytes = write_dec(&tree(8, 100), &WriteOptions::default()).unwrap();
    let dc = DataCenter::parse(&bytes).unwrap();
    assert_eq!(
        dc.root().address(),
        Address {
            segment: 0,
            element: 0
        }
    );
    assert!(dc.root().name() == "__root__");
    let n = dc.names().len();
    assert!(dc.name(n as u16 - 1).unwrap() == "__root__");
    assert!(dc.name(n as u16).unwrap() == "__value__");
    assert_eq!(dc.name(0), None);
    assert_eq!(dc.name_index("__value__"), Some(n as u16));
    assert_eq!(dc.name_index("NoSuchName"), None);
    assert_eq!(dc.root().children_named("NoSuchName").count(), 0);
    assert_eq!(
        dc.root().children_named("E3").count(),
        dc.root().children().filter(|c| c.name() == "E3").count()
    );
}

#[test]
fn identical_runs_are_stored_once_and_read_back_everywhere() {
    // Three Areas with the same attributes and the same children, one that
    // differs: the three share one attribute run and one child run.
    let area = |id: i32| {
        OwnedElement::new("Area")
            .attr("id", OwnedValue::Int(id))
            .attr("kind", OwnedValue::Str("field".into()))
            .child(OwnedElement::new("Spot").attr("x", OwnedValue::Float(1.5)))
            .child(OwnedElement::new("Spot").attr("x", OwnedValue::Float(2.5)))
    };
    let tree = OwnedElement::root(vec![
        OwnedElement::new("AreaList")
            .child(area(1))
            .child(area(1))
            .child(area(1))
            .child(area(2)),
    ]);
    let shared = write_dec(&tree, &WriteOptions::default()).unwrap();
    let apart = write_dec(
        &tree,
        &WriteOptions {
            dedup: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        shared.len() < apart.len(),
        "{} >= {}",
        shared.len(),
        apart.len()
    );
    for bytes in [&shared, &apart] {
        let report = verify(bytes, None);
        assert!(report.is_ok(), "{:?}", report.problems);
        assert_eq!(report.nodes, tree.element_count() as u64);
        assert_eq!(report.attributes, 4 * 2 + 8);
        let dc = DataCenter::parse(bytes).unwrap();
        assert_eq!(dc.root().to_owned_tree().unwrap(), tree.clone().canonical());
    }
    let dc = DataCenter::parse(&shared).unwrap();
    let areas = dc.root().select("AreaList/Area");
    assert_eq!(areas.len(), 4);
    // The first three point at the same records; the fourth has its own
    // attributes but the same children.
    assert_eq!(areas[0].attributes_address(), areas[1].attributes_address());
    assert_eq!(areas[0].attributes_address(), areas[2].attributes_address());
    assert_ne!(areas[0].attributes_address(), areas[3].attributes_address());
    assert_eq!(areas[0].children_address(), areas[3].children_address());
    for a in &areas {
        let xs: Vec<Value<'_>> = a
            .children_named("Spot")
            .map(|s| s.attribute("x").unwrap())
            .collect();
        assert_eq!(xs, [Value::Float(1.5), Value::Float(2.5)]);
    }
    let report = verify(&shared, None);
    // 1 root + 1 list + 4 areas + 2 spots stored; 8 spots read.
    assert_eq!(report.node_records, 8);
    assert_eq!(report.nodes, 14);
    let dc_apart = DataCenter::parse(&apart).unwrap();
    assert_eq!(dc_apart.node_count(), 14);
}
