//! `tera-defs decode`: packet bytes -> JSON.

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args};
use serde::Deserialize;
use tera_data::{AnyError, AnyPacket, opcode_of};

use crate::defname::{self, DefRef};
use crate::fail::{Fail, Outcome};
use crate::{hex, input, jsonl};

/// Arguments of `decode`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("packet").required(true).args(["def", "opcode", "jsonl"])))]
pub struct DecodeArgs {
    /// The packet as hex, header included (whitespace is ignored). `-` or
    /// nothing: read the hex from stdin.
    #[arg(value_name = "HEX", conflicts_with_all = ["file", "jsonl"])]
    pub hex: Option<String>,
    /// The def to decode with: NAME, NAME.VERSION or NAME.VERSION.def
    /// (without a version: the highest compiled in).
    #[arg(long, value_name = "NAME[.VERSION]")]
    pub def: Option<String>,
    /// Find the def by the opcode in the packet's header, through --map (or
    /// the compiled-in protocol map when there is no --map).
    #[arg(long)]
    pub opcode: bool,
    /// A protocol.REV.map file that names the opcodes, for --opcode.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["def", "jsonl"])]
    pub map: Option<PathBuf>,
    /// The def version to use with --opcode or a --def without version
    /// (default: the highest compiled in).
    #[arg(long, value_name = "N", conflicts_with = "jsonl")]
    pub version: Option<u32>,
    /// Read the packet as raw bytes from this file instead of hex.
    #[arg(long, value_name = "PATH", conflicts_with = "jsonl")]
    pub file: Option<PathBuf>,
    /// Indent the JSON.
    #[arg(long, conflicts_with = "jsonl")]
    pub pretty: bool,
    /// Stream mode: read lines {"def": "S_CHAT.4.def", "hex": "..."} from
    /// stdin and write one line per input line, in order: {"def": ...,
    /// "value": ...} or {"def": ..., "error": "..."} (plus "opcode" when the
    /// header's opcode is not 0). Other keys of the input are ignored.
    #[arg(long)]
    pub jsonl: bool,
}

/// Runs `decode`.
pub fn run(args: &DecodeArgs) -> Outcome {
    if args.jsonl {
        return run_jsonl();
    }
    let bytes = match &args.file {
        Some(path) => input::file(path)?,
        None => {
            let text = input::text(args.hex.as_deref())?;
            hex::decode(&text).map_err(|e| Fail::Data(e.to_string()))?
        }
    };
    let def = match &args.def {
        Some(spec) => defname::resolve(spec, args.version)?,
        None => by_opcode(args, &bytes)?,
    };
    let packet = AnyPacket::decode(def.name, def.version, &bytes).map_err(|e| match e {
        AnyError::Decode(e) => Fail::Data(format!("{def} does not decode: {e}")),
        other => Fail::Data(format!("{def}: {other}")),
    })?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = if args.pretty {
        serde_json::to_writer_pretty(&mut out, &packet)
    } else {
        serde_json::to_writer(&mut out, &packet)
    };
    written.map_err(|e| Fail::Output(e.into()))?;
    writeln!(out)?;
    Ok(ExitCode::SUCCESS)
}

/// The def named by the packet's opcode; says on stderr which one it took.
fn by_opcode(args: &DecodeArgs, bytes: &[u8]) -> Result<DefRef, Fail> {
    let map = input::map_or_compiled(args.map.as_deref())?;
    let opcode =
        opcode_of(bytes).map_err(|e| Fail::Data(format!("cannot read the opcode: {e}")))?;
    let name = map
        .name(opcode)
        .ok_or_else(|| Fail::Data(format!("opcode {opcode} is not in the protocol map")))?;
    let def = defname::lookup(name, args.version)
        .map_err(|e| Fail::Usage(format!("opcode {opcode} is {name} in the map, but {e}")))?;
    eprintln!("opcode {opcode}: {def}");
    Ok(def)
}

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    def: Cow<'a, str>,
    #[serde(borrow)]
    hex: Cow<'a, str>,
}

fn run_jsonl() -> Outcome {
    let mut defs = jsonl::Defs::default();
    let mut bytes = Vec::new();
    jsonl::run(|number, text, out| {
        let line: Line = match serde_json::from_slice(text) {
            Ok(line) => line,
            Err(e) => {
                jsonl::error_line(out, None, &format!("input line {number}: {e}"));
                return false;
            }
        };
        let def = line.def.as_ref();
        let result = defs.resolve(def).and_then(|found| {
            hex::decode_into(&line.hex, &mut bytes).map_err(|e| e.to_string())?;
            Ok(found)
        });
        let result = result.and_then(|found| {
            AnyPacket::decode(found.name, found.version, &bytes).map_err(|e| e.to_string())
        });
        match result {
            Ok(packet) => {
                out.extend_from_slice(b"{\"def\":");
                let _ = serde_json::to_writer(&mut *out, def);
                match opcode_of(&bytes) {
                    Ok(0) | Err(_) => {}
                    Ok(opcode) => out.extend_from_slice(format!(",\"opcode\":{opcode}").as_bytes()),
                }
                out.extend_from_slice(b",\"value\":");
                if let Err(e) = serde_json::to_writer(&mut *out, &packet) {
                    out.clear();
                    jsonl::error_line(out, Some(def), &e.to_string());
                    return false;
                }
                out.extend_from_slice(b"}\n");
                true
            }
            Err(message) => {
                jsonl::error_line(out, Some(def), &message);
                false
            }
        }
    })
}
