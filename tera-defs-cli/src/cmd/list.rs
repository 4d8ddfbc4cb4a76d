//! `tera-defs list`: the compiled-in packets as a table.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::Args;
use tera_data::{PACKETS, PROTOCOL_MAPS, PacketInfo};

use crate::fail::Outcome;

/// Arguments of `list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Show only packets whose name contains this text (case-insensitive).
    #[arg(value_name = "FILTER")]
    pub filter: Option<String>,
}

/// One row: a packet name with all its versions.
struct Row {
    name: &'static str,
    versions: String,
    opcodes: Vec<String>,
    size: String,
}

/// Runs `list`.
pub fn run(args: &ListArgs) -> Outcome {
    let filter = args.filter.as_deref().map(str::to_ascii_uppercase);
    let mut header = vec!["NAME".to_string(), "VERSIONS".to_string()];
    header.extend(
        PROTOCOL_MAPS
            .iter()
            .map(|m| format!("protocol.{}", m.revision)),
    );
    header.push("SIZE".to_string());
    let rows: Vec<Vec<String>> = group(PACKETS)
        .into_iter()
        .filter(|row| {
            filter
                .as_deref()
                .is_none_or(|f| row.name.to_ascii_uppercase().contains(f))
        })
        .map(|row| {
            let mut cells = vec![row.name.to_string(), row.versions];
            cells.extend(row.opcodes);
            cells.push(row.size);
            cells
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    write_table(&mut out, &header, &rows)?;
    let names = rows.len();
    let versions = PACKETS
        .iter()
        .filter(|p| {
            filter
                .as_deref()
                .is_none_or(|f| p.name.to_ascii_uppercase().contains(f))
        })
        .count();
    writeln!(out, "{names} packets, {versions} versions")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Groups the versions of each name (PACKETS is sorted by name, version).
fn group(packets: &'static [PacketInfo]) -> Vec<Row> {
    let mut rows = Vec::new();
    for chunk in packets.chunk_by(|a, b| a.name == b.name) {
        let name = chunk[0].name;
        let label = |p: &PacketInfo| match p.platform {
            Some(platform) => format!("{}.{platform}", p.version),
            None => p.version.to_string(),
        };
        let versions = chunk.iter().map(label).collect::<Vec<_>>().join(",");
        let opcodes = PROTOCOL_MAPS
            .iter()
            .map(|m| {
                m.entries
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or_else(|| "-".to_string(), |(_, code)| code.to_string())
            })
            .collect();
        let size_of = |p: &PacketInfo| {
            p.fixed_len
                .map_or("variable".to_string(), |n| n.to_string())
        };
        let sizes: Vec<String> = chunk.iter().map(size_of).collect();
        let size = if sizes.iter().all(|s| *s == sizes[0]) {
            sizes[0].clone()
        } else {
            chunk
                .iter()
                .zip(&sizes)
                .map(|(p, s)| format!("v{}: {s}", label(p)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        rows.push(Row {
            name,
            versions,
            opcodes,
            size,
        });
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
