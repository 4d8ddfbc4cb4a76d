//! APD: a path graph of nodes with directed edges, indexed by square.

use crate::brotli_io::{Reader, compress, decompress};
use crate::{SQUARES, WorldError};

const SQUARES_PER_ZONE: usize = SQUARES * SQUARES;

/// A node of the path graph: a position and up to 8 edges, one per
/// direction (bit `i` of `directions`; bits start at west-south-west and go
/// counter-clockwise).
#[derive(Debug, Clone, PartialEq)]
pub struct ApdNode {
    /// Position (x, y, z) in game units.
    pub position: [f32; 3],
    /// Which directions have an edge.
    pub directions: u8,
    /// Target node of each set direction, in bit order.
    pub edges: Vec<u32>,
}

impl ApdNode {
    /// A node with edges given as (direction 0-7, target); a direction given
    /// twice keeps the last target.
    pub fn new(position: [f32; 3], edges: &[(u8, u32)]) -> Self {
        let mut slots = [None; 8];
        for &(d, t) in edges {
            slots[(d & 7) as usize] = Some(t);
        }
        let directions = (0..8)
            .filter(|&i| slots[i].is_some())
            .fold(0u8, |m, i| m | 1 << i);
        ApdNode {
            position,
            directions,
            edges: slots.iter().flatten().copied().collect(),
        }
    }

    /// The edges as (direction, target node).
    pub fn edges(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        (0..8u8)
            .filter(|i| self.directions >> i & 1 == 1)
            .zip(self.edges.iter().copied())
    }
}

/// A square's run of nodes: `node_count` nodes from `node_index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Square {
    /// First node.
    pub node_index: u32,
    /// Number of nodes.
    pub node_count: u8,
}

/// A zone of the graph: its coordinates and 120 x 120 squares (x outer).
#[derive(Debug, Clone, PartialEq)]
pub struct ApdZone {
    /// Zone x.
    pub x: i32,
    /// Zone y.
    pub y: i32,
    /// The squares, `square_x * 120 + square_y`.
    pub squares: Vec<Square>,
}

impl ApdZone {
    /// A zone whose squares hold no nodes.
    pub fn empty(x: i32, y: i32) -> Self {
        ApdZone {
            x,
            y,
            squares: vec![Square::default(); SQUARES_PER_ZONE],
        }
    }
}

/// The path graph of an area.
#[derive(Debug, Clone, PartialEq)]
pub struct Apd {
    nodes: Vec<ApdNode>,
    zones: Vec<ApdZone>,
}

impl Apd {
    /// A graph from nodes and zones (each zone must have 14,400 squares;
    /// missing ones are added empty, extra ones dropped).
    pub fn new(nodes: Vec<ApdNode>, mut zones: Vec<ApdZone>) -> Self {
        for z in &mut zones {
            z.squares.resize(SQUARES_PER_ZONE, Square::default());
        }
        Apd { nodes, zones }
    }

    /// Reads a compressed file.
    pub fn read(compressed: &[u8]) -> Result<Self, WorldError> {
        Self::from_decompressed(&decompress(compressed)?)
    }

    /// Reads decompressed bytes.
    pub fn from_decompressed(bytes: &[u8]) -> Result<Self, WorldError> {
        let mut r = Reader { b: bytes, pos: 0 };
        let count = r.u32("node count")? as usize;
        // Each node takes at least 13 bytes: bound the allocation.
        let mut nodes = Vec::with_capacity(count.min(bytes.len() / 13));
        for _ in 0..count {
            let p = r.take(12, "node")?;
            let f = |i: usize| f32::from_le_bytes(p[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
            let position = [f(0), f(1), f(2)];
            let directions = r.u8("node")?;
            let edges = (0..directions.count_ones())
                .map(|_| r.u32("edge"))
                .collect::<Result<_, _>>()?;
            nodes.push(ApdNode {
                position,
                directions,
                edges,
            });
        }
        let zone_count = r.u32("zone count")? as usize;
        let mut zones =
            Vec::with_capacity(zone_count.min(bytes.len() / (8 + SQUARES_PER_ZONE * 5)));
        for _ in 0..zone_count {
            let x = r.u32("zone")? as i32;
            let y = r.u32("zone")? as i32;
            let raw = r.take(SQUARES_PER_ZONE * 5, "squares")?;
            let squares = raw
                .chunks_exact(5)
                .map(|s| Square {
                    node_index: u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
                    node_count: s[4],
                })
                .collect();
            zones.push(ApdZone { x, y, squares });
        }
        r.end()?;
        Ok(Apd { nodes, zones })
    }

    /// The decompressed bytes.
    pub fn to_decompressed(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.nodes.len() as u32).to_le_bytes());
        for n in &self.nodes {
            n.position
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            out.push(n.directions);
            n.edges
                .iter()
                .for_each(|e| out.extend_from_slice(&e.to_le_bytes()));
        }
        out.extend_from_slice(&(self.zones.len() as u32).to_le_bytes());
        for z in &self.zones {
            out.extend_from_slice(&z.x.to_le_bytes());
            out.extend_from_slice(&z.y.to_le_bytes());
            for s in &z.squares {
                out.extend_from_slice(&s.node_index.to_le_bytes());
                out.push(s.node_count);
            }
        }
        out
    }

    /// The compressed file at a Brotli quality (the game's files use 11).
    pub fn write(&self, quality: u32) -> Vec<u8> {
        compress(&self.to_decompressed(), quality)
    }

    /// The nodes.
    pub fn nodes(&self) -> &[ApdNode] {
        &self.nodes
    }

    /// The zones.
    pub fn zones(&self) -> &[ApdZone] {
        &self.zones
    }

    /// The edges of a node as (direction, target); empty for an unknown node.
    pub fn edges(&self, node: u32) -> impl Iterator<Item = (u8, u32)> + '_ {
        self.nodes
            .get(node as usize)
            .into_iter()
            .flat_map(|n| n.edges())
    }

    /// The nodes of a square of a zone, with the index of the first one
    /// (`None` when the zone or square does not exist or points past the
    /// nodes).
    pub fn nodes_in_square(
        &self,
        zone: usize,
        square_x: usize,
        square_y: usize,
    ) -> Option<(u32, &[ApdNode])> {
        if square_x >= SQUARES || square_y >= SQUARES {
            return None;
        }
        let s = self
            .zones
            .get(zone)?
            .squares
            .get(square_x * SQUARES + square_y)?;
        let start = s.node_index as usize;
        Some((
            s.node_index,
            self.nodes
                .get(start..start.checked_add(s.node_count as usize)?)?,
        ))
    }
}
