//! `tera-defs encode`: JSON value -> packet hex.

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args};
use serde::Deserialize;
use serde_json::value::RawValue;
use tera_data::ProtocolMap;

use crate::fail::{Fail, Outcome};
use crate::packets::{DefsArgs, Packets};
use crate::{hex_text, input, jsonl};

/// Arguments of `encode`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("packet").required(true).args(["def", "jsonl"])))]
pub struct EncodeArgs {
    /// The packet's value as JSON (what `decode` prints). `-` or nothing:
    /// read it from stdin.
    #[arg(value_name = "JSON", conflicts_with_all = ["file", "jsonl"])]
    pub json: Option<String>,
    /// The def to encode with: NAME, NAME.VERSION or NAME.VERSION.def
    /// (without a version: the highest compiled in).
    #[arg(long, value_name = "NAME[.VERSION]")]
    pub def: Option<String>,
    /// The def version for a --def without version.
    #[arg(long, value_name = "N", conflicts_with = "jsonl")]
    pub version: Option<u32>,
    /// The opcode to write into the header (default 0).
    #[arg(long, value_name = "N", conflicts_with = "map")]
    pub opcode: Option<u16>,
    /// Take the opcode from this protocol.REV.map file, by packet name.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Read the JSON value from this file.
    #[arg(long, value_name = "PATH", conflicts_with = "jsonl")]
    pub file: Option<PathBuf>,
    /// Stream mode: read lines {"def": "S_CHAT.4.def", "value": {...}} from
    /// stdin and write one line per input line, in order: {"def": ..., "hex":
    /// "..."} or {"def": ..., "error": "..."}. A line's "opcode" key, if any,
    /// overrides --opcode and --map.
    #[arg(long)]
    pub jsonl: bool,
    #[command(flatten)]
    pub defs: DefsArgs,
}

/// Where the header's opcode comes from.
enum Opcode {
    Fixed(u16),
    Map(ProtocolMap),
}

impl Opcode {
    fn of(&self, name: &str) -> Result<u16, String> {
        match self {
            Opcode::Fixed(code) => Ok(*code),
            Opcode::Map(map) => map
                .code(name)
                .ok_or_else(|| format!("{name} is not in the protocol map")),
        }
    }
}

/// Runs `encode`.
pub fn run(args: &EncodeArgs) -> Outcome {
    let opcode = match &args.map {
        Some(path) => Opcode::Map(input::map(path)?),
        None => Opcode::Fixed(args.opcode.unwrap_or(0)),
    };
    let mut packets = Packets::new(&args.defs, None)?;
    if args.jsonl {
        return run_jsonl(&mut packets, &opcode);
    }
    let spec = args.def.as_deref().unwrap_or_default();
    let def = packets.resolve(spec, args.version)?;
    let code = opcode.of(def.name()).map_err(Fail::Usage)?;
    let text = match &args.file {
        Some(path) => input::file_text(path)?,
        None => input::text(args.json.as_deref())?,
    };
    let mut buf = Vec::new();
    let mut hex_line = String::new();
    packets
        .set()
        .encode_json(&def, code, &text, &mut buf)
        .map_err(|e| Fail::Data(e.to_string()))?;
    hex_text::encode_into(&buf, &mut hex_line);
    let stdout = std::io::stdout();
    writeln!(stdout.lock(), "{hex_line}")?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    def: Cow<'a, str>,
    #[serde(borrow)]
    value: &'a RawValue,
    #[serde(default)]
    opcode: Option<u16>,
}

fn run_jsonl(packets: &mut Packets, opcode: &Opcode) -> Outcome {
    let mut buf = Vec::new();
    let mut hex_line = String::new();
    jsonl::run(|number, text, out| {
        let line: Line = match serde_json::from_slice(text) {
            Ok(line) => line,
            Err(e) => {
                jsonl::error_line(out, None, &format!("input line {number}: {e}"));
                return false;
            }
        };
        let def = line.def.as_ref();
        let result = packets.resolve_line(def).and_then(|found| {
            let code = match line.opcode {
                Some(code) => code,
                None => opcode.of(found.name())?,
            };
            packets
                .set()
                .encode_json(&found, code, line.value.get(), &mut buf)
                .map_err(|e| e.to_string())
        });
        match result {
            Ok(()) => {
                hex_line.clear();
                hex_text::encode_into(&buf, &mut hex_line);
                out.extend_from_slice(b"{\"def\":");
                let _ = serde_json::to_writer(&mut *out, def);
                out.extend_from_slice(b",\"hex\":\"");
                out.extend_from_slice(hex_line.as_bytes());
                out.extend_from_slice(b"\"}\n");
                true
            }
            Err(message) => {
                jsonl::error_line(out, Some(def), &message);
                false
            }
        }
    })
}
