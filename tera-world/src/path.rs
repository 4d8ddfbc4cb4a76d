//! A* over the edges of an APD graph.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::Apd;

/// A path found by [`Apd::find_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// The nodes from start to goal, both included.
    pub nodes: Vec<u32>,
    /// Total length in game units (straight lines between nodes).
    pub length: f32,
    /// Nodes taken from the open set (a measure of the search's work).
    pub expanded: usize,
}

#[derive(PartialEq)]
struct Open {
    f: f32,
    node: u32,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on f, ties by node index for determinism.
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| other.node.cmp(&self.node))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Apd {
    fn distance(&self, a: u32, b: u32) -> f32 {
        let (p, q) = (
            self.nodes()[a as usize].position,
            self.nodes()[b as usize].position,
        );
        ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
    }

    /// The shortest path from `start` to `goal` along the edges (A* with the
    /// straight-line distance as heuristic, edge cost the distance between
    /// the nodes). `None` when either node does not exist or the goal cannot
    /// be reached. Edges to nodes that do not exist are ignored.
    pub fn find_path(&self, start: u32, goal: u32) -> Option<Path> {
        let n = self.nodes().len();
        if start as usize >= n || goal as usize >= n {
            return None;
        }
        let mut g = vec![f32::INFINITY; n];
        let mut came_from = vec![u32::MAX; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        g[start as usize] = 0.0;
        open.push(Open {
            f: self.distance(start, goal),
            node: start,
        });
        let mut expanded = 0;
        while let Some(Open { node, .. }) = open.pop() {
            if std::mem::replace(&mut closed[node as usize], true) {
                continue;
            }
            expanded += 1;
            if node == goal {
                let mut nodes = vec![goal];
                while *nodes.last().expect("non-empty") != start {
                    nodes.push(came_from[*nodes.last().expect("non-empty") as usize]);
                }
                nodes.reverse();
                return Some(Path {
                    nodes,
                    length: g[goal as usize],
                    expanded,
                });
            }
            for (_, next) in self.edges(node) {
                if next as usize >= n || closed[next as usize] {
                    continue;
                }
                let cost = g[node as usize] + self.distance(node, next);
                if cost < g[next as usize] {
                    g[next as usize] = cost;
                    came_from[next as usize] = node;
                    open.push(Open {
                        f: cost + self.distance(next, goal),
                        node: next,
                    });
                }
            }
        }
        None
    }
}
