//! World data as JSON (feature `json`), streamed one item a line through a
//! 64 KiB buffer: a whole zone never sits in memory twice, and the output
//! can be read with line tools. Long exports report their progress to a
//! callback (a command draws a bar with it; pass `|_| {}` for none).
//!
//! ```
//! use tera_world::{Apd, ApdNode, ApdZone};
//!
//! let apd = Apd::new(
//!     vec![ApdNode::new([0.0, 0.0, 0.0], &[(4, 1)]), ApdNode::new([16.0, 0.0, 0.5], &[])],
//!     vec![ApdZone::empty(0, 0)],
//! );
//! let mut out = Vec::new();
//! tera_world::json::write_apd(&apd, &mut out, |_| {}).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("{\"format\":\"apd\",\"nodes\":["));
//! assert!(text.contains("{\"position\":[16.0,0.0,0.5],\"edges\":[]}"));
//! ```

use std::io::{self, BufWriter, Write};

use crate::{Apd, CELLS, SQUARES, Zgd};

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

/// `", "` between items: nothing before the first.
fn sep(index: usize) -> &'static str {
    if index == 0 { "" } else { "," }
}

/// Writes `{"format":"zgd","cells":[...]}`: the cells that have volumes,
/// each as `{"square":[x,y],"cell":[x,y],"volumes":[[z,height],...]}`.
/// `progress` is told the number of squares done, of `SQUARES * SQUARES`.
pub fn write_zgd(zgd: &Zgd, out: impl Write, mut progress: impl FnMut(u64)) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    write!(out, "{{\"format\":\"zgd\",\"cells\":[")?;
    let mut written = 0;
    for sx in 0..SQUARES {
        for sy in 0..SQUARES {
            for cx in 0..CELLS {
                for cy in 0..CELLS {
                    let volumes = zgd.volumes(sx, sy, cx, cy).unwrap_or_default();
                    if volumes.is_empty() {
                        continue;
                    }
                    write!(
                        out,
                        "{}\n{{\"square\":[{sx},{sy}],\"cell\":[{cx},{cy}],\"volumes\":[",
                        sep(written)
                    )?;
                    written += 1;
                    for (i, v) in volumes.iter().enumerate() {
                        write!(out, "{}[{},{}]", sep(i), v.z, v.height)?;
                    }
                    write!(out, "]}}")?;
                }
            }
            progress((sx * SQUARES + sy + 1) as u64);
        }
    }
    writeln!(out, "\n]}}")?;
    out.flush()
}

/// Writes `{"format":"apd","nodes":[...],"zones":[...]}`: every node as
/// `{"position":[x,y,z],"edges":[[direction,target],...]}` (its index is
/// its place in the array), every zone as `{"x","y","squares":[[x,y,first
/// node,count],...]}` with the squares that have nodes. `progress` is told
/// the number of nodes done (every 4096 nodes and at the end), of
/// `apd.nodes().len()`.
pub fn write_apd(apd: &Apd, out: impl Write, mut progress: impl FnMut(u64)) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    write!(out, "{{\"format\":\"apd\",\"nodes\":[")?;
    for (i, node) in apd.nodes().iter().enumerate() {
        let [x, y, z] = node.position.map(Num);
        write!(out, "{}\n{{\"position\":[{x},{y},{z}],\"edges\":[", sep(i))?;
        for (j, (direction, target)) in node.edges().enumerate() {
            write!(out, "{}[{direction},{target}]", sep(j))?;
        }
        write!(out, "]}}")?;
        if i % 4096 == 0 {
            progress(i as u64);
        }
    }
    progress(apd.nodes().len() as u64);
    write!(out, "\n],\"zones\":[")?;
    for (i, zone) in apd.zones().iter().enumerate() {
        write!(
            out,
            "{}\n{{\"x\":{},\"y\":{},\"squares\":[",
            sep(i),
            zone.x,
            zone.y
        )?;
        let filled = zone
            .squares
            .iter()
            .enumerate()
            .filter(|(_, s)| s.node_count > 0);
        for (j, (index, square)) in filled.enumerate() {
            write!(
                out,
                "{}[{},{},{},{}]",
                sep(j),
                index / SQUARES,
                index % SQUARES,
                square.node_index,
                square.node_count
            )?;
        }
        write!(out, "]}}")?;
    }
    writeln!(out, "\n]}}")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ApdNode, ApdZone};

    #[test]
    fn numbers_that_json_lacks_are_null() {
        let apd = Apd::new(
            vec![ApdNode::new([f32::NAN, f32::INFINITY, 1e-7], &[])],
            vec![ApdZone::empty(2, 3)],
        );
        let mut out = Vec::new();
        let mut seen = Vec::new();
        write_apd(&apd, &mut out, |done| seen.push(done)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\"format\":\"apd\",\"nodes\":[\n{\"position\":[null,null,1e-7],\"edges\":[]}\n],\
             \"zones\":[\n{\"x\":2,\"y\":3,\"squares\":[]}\n]}\n"
        );
        assert_eq!(seen, [0, 1]);
    }
}
