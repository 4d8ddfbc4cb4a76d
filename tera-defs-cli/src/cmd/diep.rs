//! `tera-defs diep`: diep.io messages <-> JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use diep_packets::FieldTable;
use diep_packets::Side;
use diep_packets::json;
use serde_json::{Value as Json, json};

use crate::fail::{Fail, Outcome};
use crate::{hex_text, input, jsonl};

/// Arguments of `diep`.
#[derive(Debug, Args)]
pub struct DiepArgs {
    #[command(subcommand)]
    command: DiepCommand,
}

#[derive(Debug, Subcommand)]
enum DiepCommand {
    /// Decode a message (hex, id byte included) and print it as JSON.
    #[command(after_help = "Examples:
  tera-defs diep decode --side serverbound 019910888185028aa7810f
  tera-defs diep decode --jsonl < messages.jsonl > values.jsonl")]
    Decode(DecodeArgs),
    /// Encode a message from its JSON value, as hex.
    #[command(after_help = "Examples:
  tera-defs diep encode --side serverbound --name Spawn '{\"name\": \"a\"}'
  tera-defs diep encode --jsonl < values.jsonl > messages.jsonl")]
    Encode(EncodeArgs),
}

/// Which way a message goes.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum SideArg {
    /// Client to server.
    Serverbound,
    /// Server to client.
    Clientbound,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::Serverbound => Side::Serverbound,
            SideArg::Clientbound => Side::Clientbound,
        }
    }
}

#[derive(Debug, Args)]
struct DecodeArgs {
    /// The message as hex, id byte included (whitespace is ignored). `-`
    /// or nothing: read the hex from stdin.
    #[arg(value_name = "HEX", conflicts_with = "jsonl")]
    hex: Option<String>,
    /// Which way the message goes (ids mean different messages each way).
    #[arg(long, value_enum, required_unless_present = "jsonl")]
    side: Option<SideArg>,
    /// A field table in the format of fields.json, for another build's
    /// Update messages (default: build 6f59094d's, compiled in).
    #[arg(long, value_name = "FILE")]
    fields: Option<PathBuf>,
    /// Stream mode: read lines {"side": ..., "hex": ...} from stdin and
    /// write one line per input line: {"side", "id", "name", "value"} or
    /// {"error": "..."}. Exit 1 if any line failed.
    #[arg(long)]
    jsonl: bool,
}

#[derive(Debug, Args)]
struct EncodeArgs {
    /// The message's JSON value (what decode prints as "value"). `-` or
    /// nothing: read it from stdin.
    #[arg(value_name = "JSON", conflicts_with = "jsonl")]
    value: Option<String>,
    /// Which way the message goes.
    #[arg(long, value_enum, required_unless_present = "jsonl")]
    side: Option<SideArg>,
    /// The message's name (Input, Update, ...).
    #[arg(long, required_unless_present = "jsonl")]
    name: Option<String>,
    /// A field table in the format of fields.json (default: build
    /// 6f59094d's, compiled in).
    #[arg(long, value_name = "FILE")]
    fields: Option<PathBuf>,
    /// Stream mode: read lines {"side", "name", "value"} from stdin and
    /// write one line per input line: {"hex": ...} or {"error": "..."}.
    /// Exit 1 if any line failed.
    #[arg(long)]
    jsonl: bool,
}

/// Runs `diep`.
pub fn run(args: &DiepArgs) -> Outcome {
    match &args.command {
        DiepCommand::Decode(a) => decode(a),
        DiepCommand::Encode(a) => encode(a),
    }
}

fn table(path: Option<&PathBuf>) -> Result<FieldTable, Fail> {
    match path {
        None => Ok(FieldTable::builtin().clone()),
        Some(p) => FieldTable::from_json(&input::file_text(p)?)
            .map_err(|e| Fail::Usage(format!("{}: {e}", p.display()))),
    }
}

fn print(value: &Json) -> Outcome {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(ExitCode::SUCCESS)
}

/// Appends `value` as one line.
fn line(out: &mut Vec<u8>, value: &Json) {
    // Writing JSON into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
    out.push(b'\n');
}

fn side_of(v: &Json) -> Result<Side, String> {
    v.get("side")
        .and_then(Json::as_str)
        .and_then(Side::from_name)
        .ok_or_else(|| "\"side\" must be \"serverbound\" or \"clientbound\"".to_owned())
}

fn decode(args: &DecodeArgs) -> Outcome {
    let table = table(args.fields.as_ref())?;
    if args.jsonl {
        let mut bytes = Vec::new();
        return jsonl::run(|number, text, out| {
            let result = (|| {
                let v: Json =
                    serde_json::from_slice(text).map_err(|e| format!("line {number}: {e}"))?;
                let side = side_of(&v)?;
                let h = v
                    .get("hex")
                    .and_then(Json::as_str)
                    .ok_or("\"hex\" must be a string")?;
                hex_text::decode_into(h, &mut bytes).map_err(|e| e.to_string())?;
                let decoded = json::decode(side, &bytes, &table).map_err(|e| e.to_string())?;
                Ok::<_, String>(decoded.to_json(side))
            })();
            answer(out, result)
        });
    }
    let side: Side = args.side.map(Side::from).unwrap_or(Side::Clientbound);
    let text = input::text(args.hex.as_deref())?;
    let bytes = hex_text::decode(&text).map_err(|e| Fail::Data(e.to_string()))?;
    let decoded = json::decode(side, &bytes, &table).map_err(|e| Fail::Data(e.to_string()))?;
    print(&decoded.to_json(side))
}

fn encode(args: &EncodeArgs) -> Outcome {
    let table = table(args.fields.as_ref())?;
    if args.jsonl {
        return jsonl::run(|number, text, out| {
            let result = (|| {
                let v: Json =
                    serde_json::from_slice(text).map_err(|e| format!("line {number}: {e}"))?;
                let side = side_of(&v)?;
                let name = v
                    .get("name")
                    .and_then(Json::as_str)
                    .ok_or("\"name\" must be a string")?;
                let value = v.get("value").ok_or("missing \"value\"")?;
                let bytes = json::encode(side, name, value, &table).map_err(|e| e.to_string())?;
                let mut h = String::with_capacity(bytes.len() * 2);
                hex_text::encode_into(&bytes, &mut h);
                Ok::<_, String>(json!({"hex": h}))
            })();
            answer(out, result)
        });
    }
    let side: Side = args.side.map(Side::from).unwrap_or(Side::Clientbound);
    let name = args.name.as_deref().unwrap_or_default();
    let text = input::text(args.value.as_deref())?;
    let value: Json =
        serde_json::from_str(&text).map_err(|e| Fail::Data(format!("bad JSON: {e}")))?;
    let bytes = json::encode(side, name, &value, &table).map_err(|e| Fail::Data(e.to_string()))?;
    let mut h = String::with_capacity(bytes.len() * 2);
    hex_text::encode_into(&bytes, &mut h);
    println!("{h}");
    Ok(ExitCode::SUCCESS)
}

/// Writes a JSONL line's answer, its value or `{"error": ...}`; `false` for
/// an error.
fn answer(out: &mut Vec<u8>, result: Result<Json, String>) -> bool {
    match result {
        Ok(v) => {
            line(out, &v);
            true
        }
        Err(e) => {
            line(out, &json!({"error": e}));
            false
        }
    }
}
