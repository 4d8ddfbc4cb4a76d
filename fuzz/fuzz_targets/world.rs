//! Arbitrary bytes as world data: Brotli-decompressed, then read as a ZGD
//! and as an APD (what `Zgd::read` and `Apd::read` do); the bytes are also
//! read as a decompressed APD. What reads must write back to the same bytes,
//! and every typed accessor must agree with the structure (a superset of
//! `tera_world::fuzz_open`). Errors are fine; panics, hangs and leaks are not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_world::{Apd, CELL_SIZE, CELLS, SQUARES, ZONE_SIZE, Zgd};

/// Most nodes searched by `find_path`: a bomb-sized graph would only time out.
const PATH_NODES: usize = 100_000;

fuzz_target!(|data: &[u8]| {
    if let Ok(bytes) = tera_world::decompress(data) {
        check_zgd(&bytes, data);
        check_apd(&bytes);
    }
    check_apd(data);
});

/// Positions to probe, taken from the input so that the fuzzer can steer
/// them to edges, NaN and infinities.
fn probes(data: &[u8]) -> impl Iterator<Item = [f32; 3]> + '_ {
    let fixed = [
        [0.0, 0.0, 0.0],
        [100.0, 200.0, 50.0],
        [ZONE_SIZE - 0.5, ZONE_SIZE - 0.5, f32::MAX],
        [ZONE_SIZE, 0.0, 0.0],
        [-0.5, 3.0, 0.0],
        [f32::NAN, 1.0, 1.0],
    ];
    let from_input = data.chunks_exact(12).take(8).map(|c| {
        let f = |i: usize| f32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        [f(0), f(4), f(8)]
    });
    fixed.into_iter().chain(from_input)
}

fn check_zgd(bytes: &[u8], data: &[u8]) {
    let Ok(z) = Zgd::from_decompressed(bytes) else {
        return;
    };
    assert!(
        z.to_decompressed() == bytes,
        "ZGD bytes changed by a round trip"
    );
    let total = z.all_volumes().len();
    for (sx, sy, cx, cy) in [
        (0, 0, 0, 0),
        (SQUARES - 1, SQUARES - 1, CELLS - 1, CELLS - 1),
    ] {
        let v = z.volumes(sx, sy, cx, cy).expect("a cell in range");
        assert!(v.len() <= total.min(255));
    }
    for (sx, sy, cx, cy) in [
        (SQUARES, 0, 0, 0),
        (0, SQUARES, 0, 0),
        (0, 0, CELLS, 0),
        (0, 0, 0, CELLS),
    ] {
        assert!(z.volumes(sx, sy, cx, cy).is_none(), "cell out of range");
    }
    for [x, y, h] in probes(data) {
        let inside = (0.0..ZONE_SIZE).contains(&x) && (0.0..ZONE_SIZE).contains(&y);
        let at = z.volumes_at(x, y);
        assert_eq!(at.is_some(), inside, "volumes_at({x}, {y})");
        let Some(at) = at else {
            assert!(z.floor_at(x, y, h).is_none());
            continue;
        };
        let (cx, cy) = ((x / CELL_SIZE) as usize, (y / CELL_SIZE) as usize);
        assert_eq!(
            Some(at),
            z.volumes(cx / CELLS, cy / CELLS, cx % CELLS, cy % CELLS)
        );
        match z.floor_at(x, y, h) {
            Some(f) => {
                assert!(
                    at.contains(&f) && f32::from(f.z) <= h,
                    "floor_at({x}, {y}, {h})"
                );
                assert!(at.iter().all(|v| f32::from(v.z) > h || v.z <= f.z));
            }
            None => assert!(at.iter().all(|v| f32::from(v.z) > h || h.is_nan())),
        }
    }
}

fn check_apd(bytes: &[u8]) {
    let Ok(a) = Apd::from_decompressed(bytes) else {
        return;
    };
    assert!(
        a.to_decompressed() == bytes,
        "APD bytes changed by a round trip"
    );
    let n = a.nodes().len();
    for (i, node) in a.nodes().iter().enumerate().take(1000) {
        let edges: Vec<_> = a.edges(i as u32).collect();
        assert_eq!(edges.len(), node.directions.count_ones() as usize);
        assert!(
            edges
                .iter()
                .all(|&(d, _)| d < 8 && node.directions >> d & 1 == 1)
        );
        assert!(edges.iter().map(|e| e.1).eq(node.edges.iter().copied()));
    }
    assert!(
        a.edges(n as u32).next().is_none(),
        "edges of a missing node"
    );
    for (zi, zone) in a.zones().iter().enumerate().take(4) {
        assert_eq!(zone.squares.len(), SQUARES * SQUARES);
        for (si, s) in zone.squares.iter().enumerate() {
            let found = a.nodes_in_square(zi, si / SQUARES, si % SQUARES);
            let end = s.node_index as usize + usize::from(s.node_count);
            match found {
                Some((start, nodes)) => {
                    assert_eq!(start, s.node_index);
                    assert_eq!(nodes.len(), usize::from(s.node_count));
                }
                None => assert!(end > n, "square {si} of zone {zi} fits but is not found"),
            }
        }
        assert!(a.nodes_in_square(zi, SQUARES, 0).is_none());
        assert!(a.nodes_in_square(zi, 0, SQUARES).is_none());
    }
    assert!(a.nodes_in_square(a.zones().len(), 0, 0).is_none());
    assert!(
        a.find_path(n as u32, 0).is_none(),
        "path from a missing node"
    );
    if n == 0 || n > PATH_NODES {
        return;
    }
    let last = n as u32 - 1;
    assert_eq!(a.find_path(0, 0).map(|p| p.nodes), Some(vec![0]));
    for (start, goal) in [(0, last), (last, 0), (last / 2, last)] {
        let Some(path) = a.find_path(start, goal) else {
            continue;
        };
        assert_eq!(path.nodes.first(), Some(&start));
        assert_eq!(path.nodes.last(), Some(&goal));
        assert!(path.expanded >= 1 && path.expanded <= n);
        for w in path.nodes.windows(2) {
            assert!(
                a.edges(w[0]).any(|(_, t)| t == w[1]),
                "path step {} -> {} is not an edge",
                w[0],
                w[1]
            );
        }
    }
}
