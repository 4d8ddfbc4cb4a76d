//! `tera-defs diff A.def B.def`: how two versions of a packet differ
//! ([`tera_defs_front::diff`] compares, this prints).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tera_defs_front::{Def, diff, load_def_file};

use crate::fail::{Fail, Outcome};

/// Arguments of `diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older def file.
    #[arg(value_name = "A.def")]
    pub a: PathBuf,
    /// The newer def file.
    #[arg(value_name = "B.def")]
    pub b: PathBuf,
    /// Exit with code 1 when the two layouts are not wire-compatible (0
    /// when every packet of A is a packet of B).
    #[arg(long)]
    pub check: bool,
}

fn load(path: &std::path::Path) -> Result<Def, Fail> {
    let checked = load_def_file(path);
    checked.def.ok_or_else(|| {
        let color = std::io::stderr().is_terminal();
        let _ = std::io::stderr().write_all(checked.report.render(color).as_bytes());
        Fail::Data(format!("{} has errors: nothing compared", path.display()))
    })
}

/// Runs `diff`.
pub fn run(args: &DiffArgs) -> Outcome {
    let a = load(&args.a)?;
    let b = load(&args.b)?;
    let result = diff(&a, &b).map_err(|e| Fail::Data(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "A: {}", args.a.display())?;
    writeln!(out, "B: {}", args.b.display())?;
    if a.name != b.name {
        writeln!(
            out,
            "note: comparing two different packets, {} and {}",
            a.name, b.name
        )?;
    }
    if result.changes.is_empty() {
        writeln!(out, "no field differs")?;
    }
    for change in &result.changes {
        writeln!(out, "  {change}")?;
    }
    writeln!(out, "{}", result.wire)?;
    if args.check && !result.is_wire_compatible() {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
