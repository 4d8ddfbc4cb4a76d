//! `tera-defs list`: the compiled-in packets, or the defs loaded with
//! `--defs`, as a table.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use tera_data::ProtocolMap;
use tera_sessions::DefInfo;

use crate::fail::Outcome;
use crate::input;
use crate::packets::{DefsArgs, Packets};

/// Arguments of `list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Show only packets whose name contains this text (case-insensitive).
    #[arg(value_name = "FILTER")]
    pub filter: Option<String>,
    /// A protocol.REV.map file: a column of its opcodes (with --defs: the
    /// map used instead of the checkout's).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    #[command(flatten)]
    pub defs: DefsArgs,
}

/// A column of opcodes: its header and its map.
struct MapColumn {
    header: String,
    map: Arc<ProtocolMap>,
}

/// Runs `list`.
pub fn run(args: &ListArgs) -> Outcome {
    let packets = Packets::new(&args.defs, args.map.as_deref())?;
    let mut entries = packets.set().defs();
    // Stable: each name's versions keep the set's order.
    entries.sort_by(|a, b| a.name.cmp(b.name));
    let mut maps = packets.set().protocol_maps();
    maps.sort_by_key(|m| m.revision());
    let mut columns: Vec<MapColumn> = maps
        .into_iter()
        .map(|map| MapColumn {
            header: format!("protocol.{}", map.revision().unwrap_or_default()),
            map,
        })
        .collect();
    // With --defs the map is part of the set; else it is one more column.
    if let (Some(path), false) = (&args.map, packets.loaded()) {
        columns.push(MapColumn {
            header: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().trim_end_matches(".map").to_string(),
            ),
            map: Arc::new(input::map(path)?),
        });
    }
    let filter = args.filter.as_deref().map(str::to_ascii_uppercase);
    entries.retain(|e| {
        filter
            .as_deref()
            .is_none_or(|f| e.name.to_ascii_uppercase().contains(f))
    });
    let mut header = vec!["NAME".to_string(), "VERSIONS".to_string()];
    header.extend(columns.iter().map(|c| c.header.clone()));
    header.push("SIZE".to_string());
    let rows = rows(&entries, &columns);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    write_table(&mut out, &header, &rows)?;
    writeln!(out, "{} packets, {} versions", rows.len(), entries.len())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// One row per name with all its versions (`entries` is sorted by name).
fn rows(entries: &[DefInfo<'_>], columns: &[MapColumn]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for chunk in entries.chunk_by(|a, b| a.name == b.name) {
        let name = chunk[0].name;
        let label = |p: &DefInfo<'_>| match p.platform {
            Some(platform) => format!("{}.{platform}", p.version),
            None => p.version.to_string(),
        };
        let mut cells = vec![
            name.to_string(),
            chunk.iter().map(label).collect::<Vec<_>>().join(","),
        ];
        cells.extend(columns.iter().map(|c| {
            c.map
                .code(name)
                .map_or_else(|| "-".to_string(), |code| code.to_string())
        }));
        let size_of = |p: &DefInfo<'_>| {
            p.fixed_len
                .map_or("variable".to_string(), |n| n.to_string())
        };
        let sizes: Vec<String> = chunk.iter().map(size_of).collect();
        cells.push(if sizes.iter().all(|s| *s == sizes[0]) {
            sizes[0].clone()
        } else {
            chunk
                .iter()
                .zip(&sizes)
                .map(|(p, s)| format!("v{}: {s}", label(p)))
                .collect::<Vec<_>>()
                .join(", ")
        });
        rows.push(cells);
    }
    rows
}

/// Left-aligned columns separated by two spaces; the last column is not
/// padded.
fn write_table(
    out: &mut impl Write,
    header: &[String],
    rows: &[Vec<String>],
) -> std::io::Result<()> {
    let mut widths: Vec<usize> = header.iter().map(String::len).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let last = row.len() - 1;
        for (i, cell) in row.iter().enumerate() {
            if i == last {
                writeln!(out, "{cell}")?;
            } else {
                write!(out, "{cell:<width$}  ", width = widths[i])?;
            }
        }
    }
    Ok(())
}
