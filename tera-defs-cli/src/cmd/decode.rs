//! `tera-defs decode`: packet bytes -> JSON.

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args};
use serde::Deserialize;
use tera_data::opcode_of;
use tera_sessions::{CodecError, Def};

use crate::fail::{Fail, Outcome};
use crate::packets::{DefsArgs, Packets};
use crate::{hex_text, input, jsonl};

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
    /// the map of the --defs checkout, or the compiled-in protocol map).
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
    #[command(flatten)]
    pub defs: DefsArgs,
}

/// Runs `decode`.
pub fn run(args: &DecodeArgs) -> Outcome {
    let mut packets = Packets::new(&args.defs, args.map.as_deref())?;
    if args.jsonl {
        return run_jsonl(&mut packets);
    }
    let bytes = match &args.file {
        Some(path) => input::file(path)?,
        None => {
            let text = input::text(args.hex.as_deref())?;
            hex_text::decode(&text).map_err(|e| Fail::Data(e.to_string()))?
        }
    };
    let def = match &args.def {
        Some(spec) => packets.resolve(spec, args.version)?,
        None => by_opcode(args, &packets, &bytes)?,
    };
    let mut json = Vec::new();
    packets
        .set()
        .write_json(&def, &bytes, args.pretty, &mut json)
        .map_err(|e| Fail::Data(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(&json)?;
    writeln!(out)?;
    Ok(ExitCode::SUCCESS)
}

/// The def named by the packet's opcode; says on stderr which one it took.
fn by_opcode(args: &DecodeArgs, packets: &Packets, bytes: &[u8]) -> Result<Def, Fail> {
    let opcode =
        opcode_of(bytes).map_err(|e| Fail::Data(format!("cannot read the opcode: {e}")))?;
    let def = packets.by_opcode(args.map.as_deref(), opcode, args.version)?;
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

fn run_jsonl(packets: &mut Packets) -> Outcome {
    let mut bytes = Vec::new();
    let mut value = Vec::new();
    jsonl::run(|number, text, out| {
        let line: Line = match serde_json::from_slice(text) {
            Ok(line) => line,
            Err(e) => {
                jsonl::error_line(out, None, &format!("input line {number}: {e}"));
                return false;
            }
        };
        let def = line.def.as_ref();
        let found = packets.resolve_line(def).and_then(|found| {
            hex_text::decode_into(&line.hex, &mut bytes).map_err(|e| e.to_string())?;
            Ok(found)
        });
        value.clear();
        let result = found.and_then(|found| {
            packets
                .set()
                .write_json(&found, &bytes, false, &mut value)
                .map_err(|e| reason(&e))
        });
        match result {
            Ok(()) => {
                out.extend_from_slice(b"{\"def\":");
                let _ = serde_json::to_writer(&mut *out, def);
                match opcode_of(&bytes) {
                    Ok(0) | Err(_) => {}
                    Ok(opcode) => out.extend_from_slice(format!(",\"opcode\":{opcode}").as_bytes()),
                }
                out.extend_from_slice(b",\"value\":");
                out.extend_from_slice(&value);
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

/// What went wrong, without the def a `--jsonl` line names already.
fn reason(e: &CodecError) -> String {
    match e {
        CodecError::Decode { source, .. } => source.to_string(),
        e => e.to_string(),
    }
}
