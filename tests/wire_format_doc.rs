//! The hex examples of `docs/wire-format.md` are what the project encodes.
//!
//! Each example is a line ``Example `NAME.VERSION` `JSON`:`` (the value
//! encodes to these bytes, and the bytes decode to that value) or
//! ``Example decodes `NAME.VERSION` as `JSON`:`` (the bytes decode to that
//! value), followed by a ```` ```text ```` block of lines `@OFFSET hex bytes
//! # comment`. Every `@OFFSET` must be the offset of the line's first byte.
//!
//! The examples use the project's own defs: with the corpus compiled in
//! (cfg `tera_corpus`) this file compiles to nothing.
#![cfg(not(tera_corpus))]

use tera_data::AnyPacket;

const PAGE: &str = include_str!("../docs/wire-format.md");

#[derive(Debug)]
struct Example {
    /// Line number of the `Example` line (1-based).
    line: usize,
    name: String,
    version: u32,
    json: String,
    /// `false` for "Example decodes": bytes -> value only.
    encodes: bool,
    bytes: Vec<u8>,
}

/// The backticked spans of a line, in order.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

fn parse_hex_block(lines: &[&str], first_line: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let at = first_line + i;
        let data = line.split('#').next().unwrap_or("");
        let mut words = data.split_whitespace().peekable();
        if let Some(offset) = words.peek().and_then(|w| w.strip_prefix('@')) {
            let offset: usize = offset
                .parse()
                .unwrap_or_else(|_| panic!("line {at}: bad offset `@{offset}`"));
            assert_eq!(
                offset,
                bytes.len(),
                "line {at}: `@{offset}` but the line starts at byte {}",
                bytes.len()
            );
            words.next();
        }
        for word in words {
            assert_eq!(word.len(), 2, "line {at}: `{word}` is not one hex byte");
            let byte = u8::from_str_radix(word, 16)
                .unwrap_or_else(|_| panic!("line {at}: `{word}` is not one hex byte"));
            bytes.push(byte);
        }
    }
    bytes
}

fn examples() -> Vec<Example> {
    let lines: Vec<&str> = PAGE.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if !line.starts_with("Example ") {
            i += 1;
            continue;
        }
        let encodes = !line.starts_with("Example decodes ");
        let spans = code_spans(line);
        let [spec, json, ..] = spans.as_slice() else {
            panic!("line {}: an example names a def and a JSON value", i + 1);
        };
        let (name, version) = spec
            .rsplit_once('.')
            .unwrap_or_else(|| panic!("line {}: `{spec}` is not NAME.VERSION", i + 1));
        let open = (i + 1..lines.len())
            .find(|&j| lines[j] == "```text")
            .unwrap_or_else(|| panic!("line {}: no ```text block follows", i + 1));
        let close = (open + 1..lines.len())
            .find(|&j| lines[j] == "```")
            .unwrap_or_else(|| panic!("line {}: the hex block is not closed", open + 1));
        out.push(Example {
            line: i + 1,
            name: name.to_string(),
            version: version.parse().expect("a decimal version"),
            json: json.to_string(),
            encodes,
            bytes: parse_hex_block(&lines[open + 1..close], open + 2),
        });
        i = close + 1;
    }
    out
}

fn value_of(example: &Example) -> AnyPacket<'static> {
    let mut json = serde_json::Deserializer::from_str(&example.json);
    AnyPacket::deserialize_as(&example.name, example.version, &mut json).unwrap_or_else(|e| {
        panic!(
            "line {}: not a value of {}.{}: {e}",
            example.line, example.name, example.version
        )
    })
}

#[test]
fn every_example_is_what_the_project_encodes_and_decodes() {
    let examples = examples();
    // Every section of the page has its example; a parser that found none
    // would check nothing.
    assert!(examples.len() >= 10, "found {} examples", examples.len());
    for example in &examples {
        let at = example.line;
        let value = value_of(example);
        let length = u16::from_le_bytes([example.bytes[0], example.bytes[1]]);
        assert_eq!(
            usize::from(length),
            example.bytes.len(),
            "line {at}: the header's length"
        );
        if example.encodes {
            let encoded = value.encode().unwrap();
            assert_eq!(
                hex(&encoded),
                hex(&example.bytes),
                "line {at}: the project encodes {} differently",
                example.json
            );
        }
        let decoded = AnyPacket::decode(&example.name, example.version, &example.bytes)
            .unwrap_or_else(|e| panic!("line {at}: does not decode: {e}"));
        assert_eq!(
            decoded.into_owned(),
            value,
            "line {at}: decodes to another value"
        );
    }
}

#[test]
fn a_wrong_offset_annotation_is_caught() {
    let result = std::panic::catch_unwind(|| parse_hex_block(&["@0 01 02", "@3 03"], 1));
    assert!(result.is_err());
    assert_eq!(parse_hex_block(&["@0 01 02 # x", "@2 ff"], 1), [1, 2, 0xff]);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x} ")).collect()
}

/// Diagnostics and comments cite sections of the page by their heading:
/// `docs/wire-format.md, "Heading"`. Each cited heading must exist.
#[test]
fn cited_sections_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let headings: Vec<&str> = PAGE.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    let mut cited = 0;
    for file in [
        "tera-defs-front/src/validate.rs",
        "tera-defs-cli/README.md",
        "docs/wire-format.md",
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let marker = "wire-format.md, \\\"";
        let plain = "wire-format.md, \"";
        for (i, _) in text.match_indices("wire-format.md, ") {
            let rest = &text[i..];
            let Some(rest) = rest
                .strip_prefix(marker)
                .or_else(|| rest.strip_prefix(plain))
            else {
                continue;
            };
            let heading = rest.split(['"', '\\']).next().unwrap();
            assert!(
                headings.contains(&heading),
                "{file} cites \"{heading}\", which is not a heading of docs/wire-format.md"
            );
            cited += 1;
        }
    }
    assert!(cited >= 2, "found {cited} citations");
}
