//! World data as JSON, streamed one item a line so that a whole zone never
//! sits in memory twice and the output can be read with line tools. The
//! `output` argument names the file written (`None`: stdout); it only
//! decides whether progress is shown.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use tera_world::{Apd, CELLS, SQUARES, Zgd};

use crate::progress;

/// A JSON number for an `f32`; JSON has no NaN or infinity, so those are
/// `null`. Debug formatting prints the shortest text that reads back the
/// same value and always marks it as a float (`16.0`, `1e-7`), so readers
/// that type numbers by their text see floats.
struct Num(f32);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:?}", self.0)
        } else {
            f.write_str("null")
        }
    }
}

/// `{"format":"zgd","cells":[...]}`: the cells that have volumes, each as
/// `{"square":[x,y],"cell":[x,y],"volumes":[[z,height],...]}`.
pub fn zgd(zgd: &Zgd, out: &mut dyn Write, output: Option<&Path>) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let bar = progress::bar((SQUARES * SQUARES) as u64, "squares", output);
    write!(out, "{{\"format\":\"zgd\",\"cells\":[")?;
    let mut first = true;
    for sx in 0..SQUARES {
        for sy in 0..SQUARES {
            for cx in 0..CELLS {
                for cy in 0..CELLS {
                    let volumes = zgd.volumes(sx, sy, cx, cy).unwrap_or_default();
                    if volumes.is_empty() {
                        continue;
                    }
                    let sep = if std::mem::take(&mut first) { "" } else { "," };
                    write!(
                        out,
                        "{sep}\n{{\"square\":[{sx},{sy}],\"cell\":[{cx},{cy}],\"volumes\":["
                    )?;
                    for (i, v) in volumes.iter().enumerate() {
                        let sep = if i == 0 { "" } else { "," };
                        write!(out, "{sep}[{},{}]", v.z, v.height)?;
                    }
                    write!(out, "]}}")?;
                }
            }
            bar.inc(1);
        }
    }
    writeln!(out, "\n]}}")?;
    bar.finish_and_clear();
    out.flush()
}

/// `{"format":"apd","nodes":[...],"zones":[...]}`: every node as
/// `{"position":[x,y,z],"edges":[[direction,target],...]}` (its index is its
/// place in the array), every zone as `{"x","y","squares":[[x,y,first
/// node,count],...]}` with the squares that have nodes.
pub fn apd(apd: &Apd, out: &mut dyn Write, output: Option<&Path>) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let bar = progress::bar(apd.nodes().len() as u64, "nodes", output);
    write!(out, "{{\"format\":\"apd\",\"nodes\":[")?;
    for (i, node) in apd.nodes().iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let [x, y, z] = node.position.map(Num);
        write!(out, "{sep}\n{{\"position\":[{x},{y},{z}],\"edges\":[")?;
        for (j, (direction, target)) in node.edges().enumerate() {
            let sep = if j == 0 { "" } else { "," };
            write!(out, "{sep}[{direction},{target}]")?;
        }
        write!(out, "]}}")?;
        if i % 4096 == 0 {
            bar.set_position(i as u64);
        }
    }
    write!(out, "\n],\"zones\":[")?;
    for (i, zone) in apd.zones().iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        write!(
            out,
            "{sep}\n{{\"x\":{},\"y\":{},\"squares\":[",
            zone.x, zone.y
        )?;
        let filled = zone
            .squares
            .iter()
            .enumerate()
            .filter(|(_, s)| s.node_count > 0);
        for (j, (index, square)) in filled.enumerate() {
            let sep = if j == 0 { "" } else { "," };
            write!(
                out,
                "{sep}[{},{},{},{}]",
                index / SQUARES,
                index % SQUARES,
                square.node_index,
                square.node_count
            )?;
        }
        write!(out, "]}}")?;
    }
    writeln!(out, "\n]}}")?;
    bar.finish_and_clear();
    out.flush()
}
