//! The `tera-defs` command.
//!
//! Each subcommand lives in its own file under `src/cmd/`; `main` only
//! parses the arguments and dispatches. Exit codes are described in
//! [`fail`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod defname;
mod fail;
mod hex_text;
mod input;
mod jsonl;
mod output;
mod packets;
mod progress;

const AFTER_HELP: &str = "\
Exit codes:
  0  success
  1  bad data: hex or JSON that does not parse, a packet that does not decode,
     a value that does not encode, an opcode missing from the map, defs with
     errors (check, gen, diff); diff --check: the defs are not
     wire-compatible; with --jsonl: any line failed; a data center
     or world file that does not read, a verify that found problems, no path;
     a capture or log that is malformed or no session file (capture);
     opcodes check: a misfit or a swap
  2  bad command line: usage errors, an unknown def name or version, a file
     that cannot be read, a map file that does not parse, a key or IV that
     is not 32 hex digits, a node index past the graph

The packets that decode/encode/list/capture know are the ones compiled into
this binary (the project's defs/ by default, or the tera-data checkout named
by TERA_DATA_DIR when it was built), or those of --defs DIR.";

/// Tools for TERA packet definitions (.def), opcode maps and packets.
#[derive(Debug, Parser)]
#[command(name = "tera-defs", version, about, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and validate .def and .map files (files or folders).
    Check(cmd::check::CheckArgs),
    /// Decode a packet (hex or raw bytes) and print it as JSON.
    #[command(after_help = "Examples:
  tera-defs decode --def S_CHAT.2 1e004f4c...
  xxd -p packet.bin | tera-defs decode --def S_CHAT
  tera-defs decode --opcode --map protocol.365100.map --file packet.bin
  tera-defs decode --jsonl < packets.jsonl > values.jsonl")]
    Decode(cmd::decode::DecodeArgs),
    /// Encode a JSON value (what decode prints) into a packet, as hex.
    #[command(after_help = "Examples:
  tera-defs encode --def S_PING '{}'
  tera-defs encode --def S_CHAT.2 --map protocol.1.map < value.json
  tera-defs encode --jsonl < values.jsonl > packets.jsonl")]
    Encode(cmd::encode::EncodeArgs),
    /// List the compiled-in packets: versions, opcodes, sizes.
    List(cmd::list::ListArgs),
    /// The sessions of a capture or a log (pcap, pcapng, .TeraLog, .pkt,
    /// JSONL) as one JSON line per event, or converted with --write.
    #[command(after_help = "Examples:
  tera-defs capture session.pcap > events.jsonl
  tera-defs capture --filter S_CHAT --defs tera-data session.TeraLog
  tera-defs capture session.pcapng --write session.TeraLog
  tera-defs capture session.TeraLog --write session.pkt --region NA --client-version 365100

A packet line: session, time, dir (c2s or s2c), opcode, name and version
when known, data (the decoded JSON) or error; hex with --hex. Other lines:
start, gap (with dir and offset), end. A summary goes to stderr. Packets
that do not decode are counted, not errors; a malformed file is (exit 1).")]
    Capture(cmd::capture::CaptureArgs),
    /// Print the Rust source that build.rs would generate for defs.
    #[command(name = "gen")]
    Generate(cmd::generate::GenArgs),
    /// Explain how two defs differ, field by field, and whether their wire
    /// layout is the same.
    Diff(cmd::diff::DiffArgs),
    /// Data center files (.dat, .dec): verify, export as XML or JSON, pack,
    /// unpack.
    Dc(cmd::dc::DcArgs),
    /// World data (.zgd geometry, .apd path graphs): info, export, path.
    World(cmd::world::WorldArgs),
    /// diep.io messages: decode to JSON, encode from JSON.
    Diep(cmd::diep::DiepArgs),
    /// Opcodes of a new protocol version: discover a map from captures,
    /// or check a map against them.
    #[command(after_help = "Examples:
  tera-defs opcodes discover new.pcapng --defs tera-data --map protocol.365100.map -o protocol.365101.map
  tera-defs opcodes discover a.pcap b.pcap --defs tera-data --known partial.map --json > report.json
  tera-defs opcodes check new.pcapng --map protocol.365101.map --defs tera-data")]
    Opcodes(cmd::opcodes::OpcodesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Check(args) => Ok(cmd::check::run(args)),
        Command::Decode(args) => cmd::decode::run(args),
        Command::Encode(args) => cmd::encode::run(args),
        Command::List(args) => cmd::list::run(args),
        Command::Capture(args) => cmd::capture::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Dc(args) => cmd::dc::run(args),
        Command::World(args) => cmd::world::run(args),
        Command::Diep(args) => cmd::diep::run(args),
        Command::Opcodes(args) => cmd::opcodes::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(fail) => {
            let (code, message) = fail.report();
            if let Some(message) = message {
                eprintln!("error: {message}");
            }
            code
        }
    }
}
