//! The `tera-defs` command.
//!
//! Each subcommand lives in its own file under `src/cmd/`; `main` only
//! parses the arguments and dispatches. Exit codes: 0 success, 1 when the
//! command found errors, 2 for usage errors (clap's default).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Tools for TERA packet definitions (.def) and opcode maps.
#[derive(Debug, Parser)]
#[command(name = "tera-defs", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and validate .def and .map files (files or folders).
    Check(cmd::check::CheckArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => cmd::check::run(&args),
    }
}
