//! `tera-defs check PATH...`: parse and validate defs and maps.
//!
//! Diagnostics go to stderr (colored when stderr is a terminal), one summary
//! line to stdout: `checked N defs: E errors, W warnings`, or
//! `checked N defs, M maps: E errors, W warnings` when map files were given
//! or found. Given protocol maps, each def whose name a map lacks gets a
//! warning (`W006`): on patch day, the defs a new map has no opcode for. A
//! map's malformed lines are errors, each reported; its other lines still
//! count. Each def whose names meet in Rust gets the emitter's warnings
//! (`W032`, `W033`: the renames the generated code makes). Exit code 1 when
//! there is any error.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tera_defs::rust_name_warnings;
use tera_defs_front::{Report, find_files, load_def_file, load_map_file};

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
        let checked = load_map_file(path);
        maps.extend(checked.map);
        map_reports.push(checked.report);
    }
    for path in &found.defs {
        let mut checked = load_def_file(path);
        if let Some(def) = &checked.def {
            let from_maps = maps.iter().filter_map(|m| m.missing_def(def));
            for warning in from_maps.chain(rust_name_warnings(def)) {
                checked.report.push(warning);
            }
            checked.report.sort();
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
