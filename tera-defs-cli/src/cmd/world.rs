//! `tera-defs world ...`: TERA Arise world data, ZGD zone geometry and APD
//! path graphs (both Brotli-compressed).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use tera_world::{Apd, CELLS, SQUARES, Zgd, ZoneId};

use crate::fail::{Fail, Outcome};
use crate::{input, output, progress};

/// Arguments of `world`.
#[derive(Debug, Args)]
pub struct WorldArgs {
    #[command(subcommand)]
    pub command: WorldCommand,
}

/// The `world` subcommands.
#[derive(Debug, Subcommand)]
pub enum WorldCommand {
    /// Counts of a ZGD (cells, volumes) or an APD (nodes, edges, zones).
    Info(InfoArgs),
    /// The decompressed bytes of a ZGD or APD, or its content as JSON.
    Export(ExportArgs),
    /// The shortest path between two nodes of an APD graph (A*).
    Path(PathArgs),
}

/// Arguments of `world info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// A .zgd or .apd file (other names: the content decides).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Arguments of `world export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A .zgd or .apd file (other names: the content decides).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write JSON: the cells that have volumes (ZGD), or the nodes with
    /// their edges and the squares that have nodes (APD); one item a line.
    #[arg(long)]
    pub json: bool,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Arguments of `world path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// An .apd file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The index of the start node.
    #[arg(value_name = "START")]
    pub start: u32,
    /// The index of the goal node.
    #[arg(value_name = "GOAL")]
    pub goal: u32,
}

/// A world file, read and checked.
enum World {
    /// Zone geometry.
    Zgd(Zgd),
    /// A path graph.
    Apd(Apd),
}

/// A read file and its sizes.
struct Loaded {
    world: World,
    compressed: usize,
    decompressed: Vec<u8>,
}

/// Runs a `world` subcommand.
pub fn run(args: &WorldArgs) -> Outcome {
    match &args.command {
        WorldCommand::Info(args) => info(args),
        WorldCommand::Export(args) => export(args),
        WorldCommand::Path(args) => path(args),
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Reads a file as ZGD or APD: the extension decides when it is `.zgd` or
/// `.apd`, else whichever format reads the content to its end.
fn load(path: &Path) -> Result<Loaded, Fail> {
    let compressed = input::file(path)?;
    let spinner = progress::spinner(format!("reading {}", path.display()));
    let decompressed = tera_world::decompress(&compressed);
    let decompressed = decompressed.map_err(|e| {
        spinner.finish_and_clear();
        Fail::Data(format!("{}: {e}", path.display()))
    })?;
    let name = path.display();
    let world = match extension(path).as_deref() {
        Some("zgd") => Zgd::from_decompressed(&decompressed)
            .map(World::Zgd)
            .map_err(|e| Fail::Data(format!("{name}: not a valid ZGD: {e}"))),
        Some("apd") => Apd::from_decompressed(&decompressed)
            .map(World::Apd)
            .map_err(|e| Fail::Data(format!("{name}: not a valid APD: {e}"))),
        _ => match Zgd::from_decompressed(&decompressed) {
            Ok(zgd) => Ok(World::Zgd(zgd)),
            Err(zgd_error) => Apd::from_decompressed(&decompressed)
                .map(World::Apd)
                .map_err(|apd_error| {
                    Fail::Data(format!(
                        "{name}: neither a ZGD ({zgd_error}) nor an APD ({apd_error})"
                    ))
                }),
        },
    };
    spinner.finish_and_clear();
    Ok(Loaded {
        world: world?,
        compressed: compressed.len(),
        decompressed,
    })
}

fn info(args: &InfoArgs) -> Outcome {
    let loaded = load(&args.file)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "file: {}", args.file.display())?;
    match &loaded.world {
        World::Zgd(zgd) => {
            let zone = args
                .file
                .to_str()
                .and_then(|name| ZoneId::from_file_name(name).ok())
                .map_or(String::new(), |z| format!(" (zone x {} y {})", z.x, z.y));
            writeln!(out, "format: ZGD{zone}")?;
            sizes(&mut out, &loaded)?;
            zgd_info(&mut out, zgd)?;
        }
        World::Apd(apd) => {
            writeln!(out, "format: APD")?;
            sizes(&mut out, &loaded)?;
            apd_info(&mut out, apd)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn sizes(out: &mut impl Write, loaded: &Loaded) -> std::io::Result<()> {
    writeln!(out, "compressed: {} bytes", loaded.compressed)?;
    writeln!(out, "decompressed: {} bytes", loaded.decompressed.len())
}

fn zgd_info(out: &mut impl Write, zgd: &Zgd) -> std::io::Result<()> {
    let (mut cells, mut filled, mut most) = (0usize, 0usize, 0usize);
    for sx in 0..SQUARES {
        for sy in 0..SQUARES {
            for cx in 0..CELLS {
                for cy in 0..CELLS {
                    let n = zgd.volumes(sx, sy, cx, cy).map_or(0, <[_]>::len);
                    cells += 1;
                    filled += usize::from(n > 0);
                    most = most.max(n);
                }
            }
        }
    }
    let volumes = zgd.all_volumes();
    writeln!(out, "cells: {cells}")?;
    writeln!(out, "cells with volumes: {filled}")?;
    writeln!(out, "volumes: {}", volumes.len())?;
    writeln!(out, "most volumes in a cell: {most}")?;
    if let (Some(low), Some(high)) = (
        volumes.iter().map(|v| v.z).min(),
        volumes
            .iter()
            .map(|v| i32::from(v.z) + i32::from(v.height))
            .max(),
    ) {
        writeln!(out, "heights: floors from {low}, tops up to {high}")?;
    }
    Ok(())
}

fn apd_info(out: &mut impl Write, apd: &Apd) -> std::io::Result<()> {
    let nodes = apd.nodes();
    let edges: usize = nodes.iter().map(|n| n.edges.len()).sum();
    let dangling = nodes
        .iter()
        .flat_map(|n| &n.edges)
        .filter(|&&t| t as usize >= nodes.len())
        .count();
    writeln!(out, "nodes: {}", nodes.len())?;
    writeln!(out, "edges: {edges}")?;
    writeln!(out, "edges to missing nodes: {dangling}")?;
    let zones = apd.zones();
    const SHOWN: usize = 8;
    let mut at: Vec<String> = zones
        .iter()
        .take(SHOWN)
        .map(|z| format!("({}, {})", z.x, z.y))
        .collect();
    if zones.len() > SHOWN {
        at.push("...".into());
    }
    if at.is_empty() {
        writeln!(out, "zones: 0")?;
    } else {
        writeln!(out, "zones: {} at {}", zones.len(), at.join(" "))?;
    }
    let squares = zones
        .iter()
        .flat_map(|z| &z.squares)
        .filter(|s| s.node_count > 0)
        .count();
    writeln!(out, "squares with nodes: {squares}")
}

fn export(args: &ExportArgs) -> Outcome {
    if !args.json && args.output.is_none() && std::io::stdout().is_terminal() {
        return Err(Fail::Usage(
            "the export is binary: give -o FILE, pipe it, or ask for --json".into(),
        ));
    }
    let loaded = load(&args.file)?;
    output::to(args.output.as_deref(), |out| {
        if !args.json {
            return Ok(out.write_all(&loaded.decompressed)?);
        }
        let output = args.output.as_deref();
        match &loaded.world {
            World::Zgd(zgd) => {
                let bar = progress::bar((SQUARES * SQUARES) as u64, "squares", output);
                tera_world::json::write_zgd(zgd, out, |done| bar.set_position(done))?;
                bar.finish_and_clear();
            }
            World::Apd(apd) => {
                let bar = progress::bar(apd.nodes().len() as u64, "nodes", output);
                tera_world::json::write_apd(apd, out, |done| bar.set_position(done))?;
                bar.finish_and_clear();
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn path(args: &PathArgs) -> Outcome {
    let loaded = load(&args.file)?;
    let World::Apd(apd) = &loaded.world else {
        return Err(Fail::Usage(format!(
            "{} is a ZGD: paths are searched in APD graphs",
            args.file.display()
        )));
    };
    let count = apd.nodes().len();
    for node in [args.start, args.goal] {
        if node as usize >= count {
            return Err(Fail::Usage(format!(
                "node {node} does not exist: the graph has {count} nodes"
            )));
        }
    }
    let Some(found) = apd.find_path(args.start, args.goal) else {
        return Err(Fail::Data(format!(
            "no path from node {} to node {}",
            args.start, args.goal
        )));
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "path from node {} to node {}: {} nodes, length {:.1}, {} nodes expanded",
        args.start,
        args.goal,
        found.nodes.len(),
        found.length,
        found.expanded
    )?;
    for &node in &found.nodes {
        let [x, y, z] = apd.nodes()[node as usize].position;
        writeln!(out, "{node}  ({x}, {y}, {z})")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
