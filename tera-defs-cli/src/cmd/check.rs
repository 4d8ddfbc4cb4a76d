//! `tera-defs check PATH...`: parse and validate defs and maps.
//!
//! Diagnostics go to stderr (colored when stderr is a terminal), one summary
//! line to stdout: `checked N defs: E errors, W warnings`, or
//! `checked N defs, M maps: E errors, W warnings` when map files were given
//! or found. Given protocol maps, each def whose name a map lacks gets a
//! warning (`W006`): on patch day, the defs a new map has no opcode for.
//! Exit code 1 when there is any error.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tera_defs::{Report, find_files, load_def_file, load_map_file};

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// .def / .map files, or folders to search for them (recursively).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// Totals of a check run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    defs: usize,
    maps: usize,
    errors: usize,
    warnings: usize,
}

impl Totals {
    fn add(&mut self, report: &Report) {
        self.errors += report.error_count();
        self.warnings += report.warning_count();
    }

    fn summary(&self) -> String {
        let files = if self.maps > 0 {
            format!("{} defs, {} maps", self.defs, self.maps)
        } else {
            format!("{} defs", self.defs)
        };
        format!(
            "checked {files}: {} errors, {} warnings",
            self.errors, self.warnings
        )
    }
}

/// Runs `check`.
pub fn run(args: &CheckArgs) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let found = find_files(&args.paths);
    let mut totals = Totals {
        defs: found.defs.len(),
        maps: found.maps.len(),
        ..Totals::default()
    };
    let mut show = |report: &Report, totals: &mut Totals| {
        totals.add(report);
        if !report.diagnostics.is_empty() {
            // A closed stderr is not a reason to stop checking.
            let _ = err.write_all(report.render(color).as_bytes());
        }
    };
    for report in &found.errors {
        show(report, &mut totals);
    }
    let mut maps = Vec::new();
    let mut map_reports = Vec::new();
    for path in &found.maps {
        match load_map_file(path) {
            Ok(map) => maps.push(map),
            Err(report) => map_reports.push(report),
        }
    }
    for path in &found.defs {
        let mut checked = load_def_file(path);
        if let Some(def) = &checked.def {
            for warning in maps.iter().filter_map(|m| m.missing_def(def)) {
                checked.report.push(warning);
            }
        }
        show(&checked.report, &mut totals);
    }
    for report in &map_reports {
        show(report, &mut totals);
    }
    println!("{}", totals.summary());
    if totals.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
