//! `tera-defs gen PATH...`: the Rust source build.rs would generate.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tera_defs::{BuildError, Builder, Serde};

use crate::fail::{Fail, Outcome};

/// Arguments of `gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// .def files, or folders searched recursively for .def and
    /// protocol/sysmsg .map files.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Generate only this packet (by name; repeat for more).
    #[arg(long, value_name = "NAME")]
    pub packet: Vec<String>,
    /// Generate only the highest version of each packet.
    #[arg(long)]
    pub latest_only: bool,
}

/// Runs `gen`.
pub fn run(args: &GenArgs) -> Outcome {
    // What the root crate's build.rs generates: serde and `Arbitrary`
    // derives behind the crate's features of those names.
    let mut builder = Builder::new();
    builder
        .serde(Serde::feature())
        .arbitrary_feature(Some("arbitrary"));
    for path in &args.paths {
        builder.defs_dir(path).maps_dir(path);
    }
    if !args.packet.is_empty() {
        builder.packets(args.packet.iter().cloned());
    }
    builder.latest_only(args.latest_only);
    match builder.generate() {
        Ok(source) => {
            let stdout = std::io::stdout();
            stdout.lock().write_all(source.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(BuildError::Schema(reports)) => {
            let color = std::io::stderr().is_terminal();
            let stderr = std::io::stderr();
            let mut err = stderr.lock();
            let mut errors = 0;
            for report in &reports {
                errors += report.error_count();
                let _ = err.write_all(report.render(color).as_bytes());
            }
            Err(Fail::Data(format!(
                "{errors} errors in the packet definitions: nothing generated"
            )))
        }
        Err(other) => Err(Fail::Data(other.to_string())),
    }
}
