//! Streaming XML and JSON export, exact output.

use tera_datacenter::{
    DataCenter, ExportOptions, Format, OwnedElement, OwnedValue, WriteOptions, export, export_all,
    write_dec,
};

fn sample() -> Vec<u8> {
    let t = OwnedElement::root(vec![
        OwnedElement::new("AreaList").child(
            OwnedElement::new("Area")
                .attr("id", OwnedValue::Int(-7))
                .attr("on", OwnedValue::Bool(true))
                .attr("scale", OwnedValue::Float(1.0))
                .attr("name", OwnedValue::Str("A & <B> \"é\"\n".into()))
                .text("T<1>")
                .child(OwnedElement::new("Spot").attr("nan", OwnedValue::Float(f32::NAN)))
                .child(OwnedElement::new("Spot")),
        ),
    ]);
    write_dec(&t, &WriteOptions::default()).unwrap()
}

fn run(bytes: &[u8], path: &str, format: Format, pretty: bool) -> String {
    let dc = DataCenter::parse(bytes).unwrap();
    let roots = dc.root().select(path);
    let mut out = Vec::new();
    let stats = export_all(
        &roots,
        &mut out,
        ExportOptions { format, pretty },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(stats.bytes, out.len() as u64);
    String::from_utf8(out).unwrap()
}

#[test]
fn xml_of_a_sub_tree() {
    let xml = run(&sample(), "AreaList", Format::Xml, false);
    assert_eq!(
        xml,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><AreaList><Area id=\"-7\" name=\"A &amp; &lt;B&gt; &quot;é&quot;&#10;\" \
         on=\"true\" scale=\"1.0\">T&lt;1&gt;<Spot nan=\"NaN\"/><Spot/></Area></AreaList>\n"
    );
}

#[test]
fn pretty_xml_of_several_elements_is_wrapped() {
    let xml = run(&sample(), "AreaList/Area/Spot", Format::Xml, true);
    assert_eq!(
        xml,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<__export__>\n  <Spot nan=\"NaN\"/>\n  <Spot/>\n</__export__>\n"
    );
}

#[test]
fn json_of_the_whole_tree() {
    let json = run(&sample(), "", Format::Json, false);
    assert_eq!(
        json,
        "{\"name\":\"__root__\",\"children\":[{\"name\":\"AreaList\",\"children\":[{\"name\":\"Area\",\"attributes\":\
         {\"id\":-7,\"name\":\"A & <B> \\\"é\\\"\\n\",\"on\":true,\"scale\":1.0},\"value\":\"T<1>\",\"children\":[\
         {\"name\":\"Spot\",\"attributes\":{\"nan\":\"NaN\"}},{\"name\":\"Spot\"}]}]}]}\n"
    );
}

#[test]
fn json_of_several_elements_is_an_array() {
    assert_eq!(
        run(&sample(), "AreaList/Area/Spot", Format::Json, false),
        "[{\"name\":\"Spot\",\"attributes\":{\"nan\":\"NaN\"}},{\"name\":\"Spot\"}]\n"
    );
}

#[test]
fn export_counts_every_element_of_a_large_tree() {
    let mut root = OwnedElement::root(Vec::new());
    for g in 0..10 {
        let mut group = OwnedElement::new("G");
        for i in 0..10_000 {
            group
                .children
                .push(OwnedElement::new("N").attr("i", OwnedValue::Int(g * 10_000 + i)));
        }
        root.children.push(group);
    }
    let bytes = write_dec(&root, &WriteOptions::default()).unwrap();
    let dc = DataCenter::parse(&bytes).unwrap();
    let mut seen = Vec::new();
    let options = ExportOptions {
        format: Format::Xml,
        pretty: true,
    };
    let stats = export(&dc.root(), &mut std::io::sink(), options, &mut |n| {
        seen.push(n)
    })
    .unwrap();
    assert_eq!(stats.elements, 100_011);
    assert_eq!(seen, [65_536, 100_011]);
}
