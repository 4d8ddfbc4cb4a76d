//! The assignment chosen as a whole: a maximum-weight bipartite matching
//! between groups (a direction and opcode) and packet names, weighted by
//! each candidate's evidence in bits, solved by the Hungarian algorithm
//! (Kuhn-Munkres, `pathfinding::kuhn_munkres`) over each connected part of
//! the candidate graph. A candidate's margin is what the best assignment
//! loses when that candidate is forbidden: how much the evidence would
//! have to be wrong for another assignment to win.

use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;

/// A candidate: group `row` is name `col`, worth `weight` bits (> 0).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub(crate) row: usize,
    pub(crate) col: usize,
    pub(crate) weight: f64,
}

/// A candidate the best assignment takes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chosen {
    /// The index of its edge.
    pub(crate) edge: usize,
    /// Bits lost when it is forbidden.
    pub(crate) margin: f64,
    /// The edge its group takes instead, when forbidden (what it beat).
    pub(crate) instead: Option<usize>,
}

/// Weights are matched as integers: thousandths of a bit.
const SCALE: f64 = 1000.0;

/// Parts with more nodes than this get their margins from a bound rather
/// than by solving again once per edge (a part that large is made of
/// candidates that tell little apart anyway).
const EXACT_MARGINS: usize = 160;

/// The best assignment over `edges`, each chosen edge with its margin.
pub(crate) fn assign(rows: usize, cols: usize, edges: &[Edge]) -> Vec<Chosen> {
    let mut chosen = Vec::new();
    for part in parts(rows, cols, edges) {
        solve_part(edges, &part, &mut chosen);
    }
    chosen.sort_by_key(|c| c.edge);
    chosen
}

/// The edges of one connected part, with its rows and columns.
struct Part {
    edges: Vec<usize>,
    rows: Vec<usize>,
    cols: Vec<usize>,
}

/// Splits the candidate graph into connected parts (union-find over rows
/// and columns, columns numbered after the rows).
fn parts(rows: usize, cols: usize, edges: &[Edge]) -> Vec<Part> {
    let mut parent: Vec<usize> = (0..rows + cols).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for e in edges {
        let a = root(&mut parent, e.row);
        let b = root(&mut parent, rows + e.col);
        if a != b {
            parent[a] = b;
        }
    }
    let mut by_root: std::collections::BTreeMap<usize, Part> = std::collections::BTreeMap::new();
    for (i, e) in edges.iter().enumerate() {
        let r = root(&mut parent, e.row);
        let part = by_root.entry(r).or_insert_with(|| Part {
            edges: Vec::new(),
            rows: Vec::new(),
            cols: Vec::new(),
        });
        part.edges.push(i);
        part.rows.push(e.row);
        part.cols.push(e.col);
    }
    let mut out: Vec<Part> = by_root.into_values().collect();
    for p in &mut out {
        p.rows.sort_unstable();
        p.rows.dedup();
        p.cols.sort_unstable();
        p.cols.dedup();
    }
    out
}

/// The part's weight matrix: rows are its groups, columns its names
/// (padded to at least as many as rows), 0 where no candidate is.
fn matrix(edges: &[Edge], part: &Part, forbid: Option<usize>) -> Matrix<i64> {
    let width = part.cols.len().max(part.rows.len());
    let mut m = Matrix::new(part.rows.len(), width, 0i64);
    for &i in &part.edges {
        if Some(i) == forbid {
            continue;
        }
        let e = edges[i];
        let r = part.rows.binary_search(&e.row).unwrap_or(0);
        let c = part.cols.binary_search(&e.col).unwrap_or(0);
        m[(r, c)] = (e.weight * SCALE).round() as i64;
    }
    m
}

/// The edges a solution takes (rows matched to a real candidate).
fn taken(edges: &[Edge], part: &Part, solution: &[usize], forbid: Option<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    for (r, &c) in solution.iter().enumerate() {
        let (Some(&row), Some(&col)) = (part.rows.get(r), part.cols.get(c)) else {
            continue;
        };
        if let Some(&i) = part
            .edges
            .iter()
            .find(|&&i| Some(i) != forbid && edges[i].row == row && edges[i].col == col)
        {
            out.push(i);
        }
    }
    out
}

fn solve_part(edges: &[Edge], part: &Part, chosen: &mut Vec<Chosen>) {
    let (best, solution) = kuhn_munkres(&matrix(edges, part, None));
    let exact = part.rows.len() + part.cols.len() <= EXACT_MARGINS;
    for i in taken(edges, part, &solution, None) {
        let e = edges[i];
        let (margin, instead) = if exact {
            let (without, alt) = kuhn_munkres(&matrix(edges, part, Some(i)));
            let instead = taken(edges, part, &alt, Some(i))
                .into_iter()
                .find(|&j| edges[j].row == e.row);
            ((best - without) as f64 / SCALE, instead)
        } else {
            // The best other name of the same group bounds what the group
            // could take instead.
            let instead = part
                .edges
                .iter()
                .copied()
                .filter(|&j| j != i && edges[j].row == e.row)
                .max_by(|&a, &b| edges[a].weight.total_cmp(&edges[b].weight));
            let other = instead.map_or(0.0, |j| edges[j].weight);
            ((e.weight - other).max(0.0), instead)
        };
        chosen.push(Chosen {
            edge: i,
            margin,
            instead,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(row: usize, col: usize, weight: f64) -> Edge {
        Edge { row, col, weight }
    }

    #[test]
    fn the_whole_assignment_beats_the_greedy_one() {
        // Greedy would give row 0 its best (col 0, 10) and leave row 1
        // with nothing; the whole takes 9 + 8.
        let edges = [edge(0, 0, 10.0), edge(0, 1, 9.0), edge(1, 0, 8.0)];
        let chosen = assign(2, 2, &edges);
        let picked: Vec<_> = chosen
            .iter()
            .map(|c| (edges[c.edge].row, edges[c.edge].col))
            .collect();
        assert_eq!(picked, vec![(0, 1), (1, 0)]);
        // Forbidding (0,1) leaves (0,0) alone: 10 against 17.
        assert!((chosen[0].margin - 7.0).abs() < 1e-9);
        assert_eq!(chosen[0].instead, Some(0));
    }

    #[test]
    fn a_tie_has_no_margin_and_nothing_is_taken_twice() {
        let edges = [
            edge(0, 0, 5.0),
            edge(0, 1, 5.0),
            edge(1, 0, 5.0),
            edge(1, 1, 5.0),
        ];
        let chosen = assign(2, 2, &edges);
        assert_eq!(chosen.len(), 2);
        assert!(chosen.iter().all(|c| c.margin.abs() < 1e-9));
        let mut cols: Vec<_> = chosen.iter().map(|c| edges[c.edge].col).collect();
        cols.dedup();
        assert_eq!(cols.len(), 2);
    }

    #[test]
    fn separate_parts_are_solved_apart() {
        let edges = [edge(0, 0, 3.0), edge(1, 1, 4.0), edge(2, 1, 1.0)];
        let chosen = assign(3, 2, &edges);
        let picked: Vec<_> = chosen.iter().map(|c| c.edge).collect();
        assert_eq!(picked, vec![0, 1]);
        assert!((chosen[0].margin - 3.0).abs() < 1e-9);
        assert!((chosen[1].margin - 3.0).abs() < 1e-9);
    }
}
