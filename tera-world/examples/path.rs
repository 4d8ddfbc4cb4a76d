//! Finds a path between two nodes of a generated APD graph with A*.
//!
//! `cargo run -p tera-world --example path [width] [height]`
//!
//! The graph is a grid of nodes 16 units apart with 8-neighbour edges, with
//! walls that leave gaps; it is written to APD (Brotli), read back, and the
//! path from the south-west corner to the north-east corner is printed.

use tera_world::{Apd, ApdNode, ApdZone, UNITS_PER_METRE};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().unwrap_or(64));
    let w = args.next().unwrap_or(64).clamp(4, 2000);
    let h = args.next().unwrap_or(w).clamp(4, 2000);
    let id = |x: u32, y: u32| y * w + x;
    // Walls every 16 columns, each with a gap at alternating ends.
    let wall = |x: u32, y: u32| {
        x % 16 == 8
            && if (x / 16).is_multiple_of(2) {
                y < h - 2
            } else {
                y > 1
            }
    };
    let dirs: [(i32, i32); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
    ];
    let mut nodes = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            let mut edges = Vec::new();
            for (d, (dx, dy)) in dirs.iter().enumerate() {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                let inside = nx >= 0 && ny >= 0 && (nx as u32) < w && (ny as u32) < h;
                if inside && !wall(x, y) && !wall(nx as u32, ny as u32) {
                    edges.push((d as u8, id(nx as u32, ny as u32)));
                }
            }
            nodes.push(ApdNode::new(
                [x as f32 * 16.0, y as f32 * 16.0, 0.0],
                &edges,
            ));
        }
    }
    let apd = Apd::new(nodes, vec![ApdZone::empty(0, 0)]);
    let file = apd.write(9);
    let apd = Apd::read(&file).expect("the file just written reads back");
    let (start, goal) = (id(0, 0), id(w - 1, h - 1));
    println!(
        "graph: {} nodes, APD file {} bytes",
        apd.nodes().len(),
        file.len()
    );
    match apd.find_path(start, goal) {
        Some(path) => {
            println!(
                "path {start} -> {goal}: {} nodes, {:.0} units ({:.1} m), {} nodes expanded",
                path.nodes.len(),
                path.length,
                path.length / UNITS_PER_METRE,
                path.expanded
            );
            let shown: Vec<String> = path.nodes.iter().take(12).map(|n| n.to_string()).collect();
            println!("first nodes: {} ...", shown.join(" "));
        }
        None => println!("no path from {start} to {goal}"),
    }
}
