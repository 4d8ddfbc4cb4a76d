//! `tera-defs opcodes`: discover the opcodes of a new protocol version
//! from sessions (captures or logs), or check a map against them (the work is
//! `tera-opcodes`'; this file reads the arguments and prints).

use std::fs;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tera_dynamic::Catalog;
use tera_opcodes::{Check, CheckReport, DefSet, Discovery, Entry, Report, Samples, direction_name};
use tera_sessions::Events;

use crate::fail::{Fail, Outcome};
use crate::input;

/// Arguments of `opcodes`.
#[derive(Debug, Args)]
pub struct OpcodesArgs {
    #[command(subcommand)]
    pub command: OpcodesCommand,
}

/// The `opcodes` subcommands.
#[derive(Debug, Subcommand)]
pub enum OpcodesCommand {
    /// Propose the protocol map of a new version from sessions of it.
    Discover(DiscoverArgs),
    /// Grade a map against sessions: entries that do not fit, opcodes
    /// seen but unmapped, likely swaps.
    Check(CheckArgs),
}

/// What both subcommands read.
#[derive(Debug, Args)]
pub struct Input {
    /// Sessions of the new version: captures (pcap, pcapng), `.TeraLog`,
    /// Alkahest `.pkt` or JSONL files, told apart by their first bytes.
    #[arg(value_name = "SESSION", required = true)]
    pub sessions: Vec<PathBuf>,
    /// A folder of defs or a tera-data checkout (repeatable; several
    /// versions of a name allowed).
    #[arg(long = "defs", value_name = "DIR", required = true)]
    pub defs: Vec<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `opcodes discover`.
#[derive(Debug, Args)]
pub struct DiscoverArgs {
    #[command(flatten)]
    pub input: Input,
    /// The previous version's protocol map: a prior that breaks ties.
    #[arg(long, value_name = "PREVIOUS")]
    pub map: Option<PathBuf>,
    /// Entries of the new version already known (a partial map), kept as
    /// they are.
    #[arg(long, value_name = "PARTIAL")]
    pub known: Option<PathBuf>,
    /// Where to write the proposed map (protocol.N.map).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The margin in bits an entry needs to be written (default 10: a
    /// confidence of 0.999).
    #[arg(long, value_name = "BITS")]
    pub threshold: Option<f64>,
}

/// Arguments of `opcodes check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: Input,
    /// The protocol map to check.
    #[arg(long, value_name = "MAP", required = true)]
    pub map: PathBuf,
}

/// Runs `opcodes`.
pub fn run(args: &OpcodesArgs) -> Outcome {
    match &args.command {
        OpcodesCommand::Discover(a) => discover(a),
        OpcodesCommand::Check(a) => check(a),
    }
}

fn discover(args: &DiscoverArgs) -> Outcome {
    let defs = load_defs(&args.input.defs)?;
    let mut discovery = Discovery::new(defs);
    if let Some(path) = &args.map {
        discovery = discovery.previous(input::map(path)?);
    }
    if let Some(path) = &args.known {
        discovery = discovery.known(input::map(path)?);
    }
    if let Some(bits) = args.threshold {
        if !(bits >= 0.0 && bits.is_finite()) {
            return Err(Fail::Usage(format!(
                "--threshold {bits}: a number of bits, 0 or more"
            )));
        }
        discovery = discovery.threshold(bits);
    }
    let mut samples = read_sessions(&args.input.sessions)?;
    let report = discovery.run(&mut samples);
    if let Some(path) = &args.output {
        fs::write(path, report.map().to_text())
            .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", path.display())))?;
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.input.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(|e| Fail::Output(std::io::Error::other(e)))?;
        writeln!(out)?;
    } else {
        print_report(&mut out, &report)?;
    }
    out.flush()?;
    eprintln!(
        "{} packets in {} sessions, {} opcodes: {} written{}, {} candidates, {} unexplained",
        report.packets,
        report.sessions,
        report.opcodes,
        report.entries.len(),
        args.output
            .as_ref()
            .map(|p| format!(" to {}", p.display()))
            .unwrap_or_default(),
        report.candidates.len(),
        report.unexplained.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn check(args: &CheckArgs) -> Outcome {
    let defs = load_defs(&args.input.defs)?;
    let map = input::map(&args.map)?;
    let mut samples = read_sessions(&args.input.sessions)?;
    let report = Check::new(defs, map).run(&mut samples);
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.input.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(|e| Fail::Output(std::io::Error::other(e)))?;
        writeln!(out)?;
    } else {
        print_check(&mut out, &report)?;
    }
    out.flush()?;
    eprintln!(
        "{} of {} entries seen fit; {} misfits, {} unmapped opcodes, {} moved ({} swaps)",
        report.fitting,
        report.seen,
        report.misfits.len(),
        report.unmapped.len(),
        report.moved.len(),
        report.swaps().len()
    );
    Ok(if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::fail::DATA)
    })
}

/// Every def of the folders; problems on stderr with file, line and
/// column; no def at all is a usage error.
fn load_defs(dirs: &[PathBuf]) -> Result<DefSet, Fail> {
    let mut catalog = Catalog::new();
    for dir in dirs {
        if !dir.exists() {
            return Err(Fail::Usage(format!(
                "--defs {}: no such folder",
                dir.display()
            )));
        }
        catalog.load_dir(dir);
    }
    for report in catalog.problems() {
        eprint!("{}", report.render(false));
    }
    if catalog.is_empty() {
        return Err(Fail::Usage("--defs: no def loaded".into()));
    }
    Ok(DefSet::from_catalog(&catalog))
}

/// The packets of every session source, each source's sessions apart.
fn read_sessions(paths: &[PathBuf]) -> Result<Samples, Fail> {
    let mut samples = Samples::new();
    for path in paths {
        let events =
            Events::open(path).map_err(|e| Fail::Usage(format!("{}: {e}", path.display())))?;
        samples
            .read(events)
            .map_err(|e| Fail::Data(format!("{}: {e}", path.display())))?;
    }
    Ok(samples)
}

fn print_report(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "written ({} entries, margin >= {} bits):",
        report.entries.len(),
        report.threshold
    )?;
    entry_table(out, &report.entries)?;
    if !report.candidates.is_empty() {
        writeln!(out, "\ncandidates below the threshold (not written):")?;
        entry_table(out, &report.candidates)?;
    }
    if !report.unexplained.is_empty() {
        writeln!(out, "\nopcodes no def explains:")?;
        writeln!(
            out,
            "{:>6}  {:<4} {:>7} {:>7}",
            "opcode", "dir", "packets", "lengths"
        )?;
        for u in &report.unexplained {
            writeln!(
                out,
                "{:>6}  {:<4} {:>7} {:>7}",
                u.opcode,
                direction_name(u.direction),
                u.samples,
                u.lengths
            )?;
        }
    }
    Ok(())
}

fn entry_table(out: &mut impl Write, entries: &[Entry]) -> std::io::Result<()> {
    let width = entries
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:<width$} {:>6}  {:<4} {:>10} {:>7}  evidence",
        "name", "opcode", "dir", "confidence", "packets"
    )?;
    for e in entries {
        let evidence: Vec<String> = e.evidence.iter().map(|x| x.summary()).collect();
        let mut evidence = evidence.join("; ");
        if let Some((name, bits)) = &e.beat {
            evidence.push_str(&format!("; beat {name} ({bits:.0}b)"));
        }
        let confidence = if e.margin.is_finite() {
            format!("{:.4}", e.confidence)
        } else {
            "given".into()
        };
        writeln!(
            out,
            "{:<width$} {:>6}  {:<4} {:>10} {:>7}  {evidence}",
            e.name,
            e.opcode,
            direction_name(e.direction),
            confidence,
            e.samples
        )?;
    }
    Ok(())
}

fn print_check(out: &mut impl Write, report: &CheckReport) -> std::io::Result<()> {
    writeln!(
        out,
        "entries seen: {}, fitting: {}",
        report.seen, report.fitting
    )?;
    if !report.misfits.is_empty() {
        writeln!(out, "\nentries whose packets do not fit their def:")?;
        for m in &report.misfits {
            writeln!(
                out,
                "  {} = {} ({} packets): {}",
                m.name, m.opcode, m.samples, m.reason
            )?;
        }
    }
    if !report.moved.is_empty() {
        writeln!(out, "\nentries the evidence puts elsewhere:")?;
        for m in &report.moved {
            let map = m.map_opcode.map_or("none".to_owned(), |c| c.to_string());
            let swap = m
                .swapped_with
                .as_ref()
                .map(|o| format!(", swapped with {o}"))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}: map {map}, found {} (confidence {:.4}){swap}",
                m.name, m.found_opcode, m.confidence
            )?;
        }
    }
    if !report.unmapped.is_empty() {
        writeln!(out, "\nopcodes seen that the map does not name:")?;
        for u in &report.unmapped {
            writeln!(
                out,
                "  {} {} ({} packets)",
                u.opcode,
                direction_name(u.direction),
                u.samples
            )?;
        }
    }
    Ok(())
}
