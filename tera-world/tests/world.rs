//! ZGD and APD: decompressed bytes identical after read -> write, typed
//! access, A*, and no panic on bad input.

use proptest::prelude::*;
use tera_world::{
    Apd, ApdNode, ApdZone, CELLS, SQUARES, Volume, WorldError, Zgd, ZoneId, compress, fuzz_open,
};

/// A ZGD whose volume heights wrap around in both directions.
fn zgd_bytes(seed: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut x = seed | 1;
    for i in 0..SQUARES * SQUARES * CELLS * CELLS {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let count = if i % 97 == 0 { 3 } else { (x % 2) as u8 };
        out.push(count);
        for k in 0..count as u32 {
            let d = x.wrapping_mul(k + 1);
            out.extend_from_slice(&(d as u16).to_le_bytes());
            out.extend_from_slice(&((d >> 16) as u16).to_le_bytes());
        }
    }
    out
}

/// A grid graph of `w` x `h` nodes 16 units apart, with 8-neighbour edges
/// and a wall in the middle column that has one gap.
fn grid(w: u32, h: u32) -> Apd {
    let id = |x: u32, y: u32| y * w + x;
    let wall = |x: u32, y: u32| x == w / 2 && y != h - 2;
    let mut nodes = Vec::new();
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
    for y in 0..h {
        for x in 0..w {
            let mut edges = Vec::new();
            if !wall(x, y) {
                for (d, (dx, dy)) in dirs.iter().enumerate() {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if nx >= 0
                        && ny >= 0
                        && (nx as u32) < w
                        && (ny as u32) < h
                        && !wall(nx as u32, ny as u32)
                    {
                        edges.push((d as u8, id(nx as u32, ny as u32)));
                    }
                }
            }
            nodes.push(ApdNode::new(
                [x as f32 * 16.0, y as f32 * 16.0, (x + y) as f32 * 0.5],
                &edges,
            ));
        }
    }
    let mut zone = ApdZone::empty(3, -2);
    for sx in 0..SQUARES {
        for sy in 0..SQUARES {
            let first = (sx * SQUARES + sy) as u32 % (w * h);
            zone.squares[sx * SQUARES + sy] = tera_world::Square {
                node_index: first,
                node_count: (sx % 4) as u8,
            };
        }
    }
    Apd::new(nodes, vec![zone, ApdZone::empty(4, -2)])
}

#[test]
fn zgd_decompressed_bytes_are_identical_after_read_and_write() {
    let bytes = zgd_bytes(7);
    let compressed = compress(&bytes, 5);
    let zgd = Zgd::read(&compressed).unwrap();
    assert_eq!(zgd.to_decompressed(), bytes);
    assert_eq!(tera_world::decompress(&zgd.write(5)).unwrap(), bytes);
}

#[test]
fn zgd_at_maximum_quality() {
    // Mostly empty cells: quality 11 on random volumes is too slow for a test.
    let mut cells = vec![Vec::new(); SQUARES * SQUARES * CELLS * CELLS];
    for (i, c) in cells.iter_mut().enumerate().step_by(1001) {
        c.push(Volume {
            z: (i % 3000) as i16 - 1500,
            height: 400,
        });
    }
    let zgd = Zgd::from_cells(cells).unwrap();
    let back = Zgd::read(&zgd.write(11)).unwrap();
    assert_eq!(back, zgd);
}

#[test]
fn zgd_volumes_are_absolute_and_wrap() {
    let mut cells = vec![Vec::new(); SQUARES * SQUARES * CELLS * CELLS];
    // Square (2, 5), cell (3, 6), in file order.
    let i = ((2 * SQUARES + 5) * CELLS + 3) * CELLS + 6;
    cells[i] = vec![
        Volume {
            z: -32768,
            height: 65535,
        },
        Volume {
            z: 32767,
            height: 1,
        },
    ];
    cells[i + 1] = vec![Volume {
        z: 100,
        height: 200,
    }];
    let zgd = Zgd::from_cells(cells).unwrap();
    let back = Zgd::from_decompressed(&zgd.to_decompressed()).unwrap();
    assert_eq!(
        back.volumes(2, 5, 3, 6).unwrap(),
        &[
            Volume {
                z: -32768,
                height: 65535
            },
            Volume {
                z: 32767,
                height: 1
            }
        ]
    );
    // Position: square 2 * 8 + cell 3 = cell column 19 -> x in [304, 320).
    let (x, y) = (19.0 * 16.0 + 8.0, (5.0 * 8.0 + 6.0) * 16.0 + 1.0);
    assert_eq!(back.volumes_at(x, y).unwrap().len(), 2);
    assert_eq!(
        back.volumes_at(x, y + 16.0).unwrap(),
        &[Volume {
            z: 100,
            height: 200
        }]
    );
    assert_eq!(
        back.floor_at(x, y, 0.0),
        Some(Volume {
            z: -32768,
            height: 65535
        })
    );
    assert_eq!(back.volumes(120, 0, 0, 0), None);
    assert_eq!(back.volumes_at(-1.0, 0.0), None);
    assert_eq!(back.volumes_at(f32::NAN, 0.0), None);
    assert_eq!(back.volumes_at(15360.0, 0.0), None);
    assert!(Zgd::from_cells(vec![Vec::new(); 5]).is_none());
}

#[test]
fn zgd_rejects_short_long_and_bad_input() {
    let bytes = zgd_bytes(1);
    assert!(matches!(
        Zgd::from_decompressed(&bytes[..1000]),
        Err(WorldError::Truncated { .. })
    ));
    assert!(matches!(
        Zgd::from_decompressed(&bytes[..bytes.len() - 1]),
        Err(WorldError::Truncated { .. })
    ));
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        Zgd::from_decompressed(&long),
        Err(WorldError::TrailingBytes(1))
    );
    assert!(matches!(
        Zgd::read(b"not brotli at all"),
        Err(WorldError::Brotli(_))
    ));
}

#[test]
fn zone_file_names() {
    assert_eq!(
        ZoneId::from_file_name("data/x1012y0034.zgd").unwrap(),
        ZoneId { x: 1012, y: 34 }
    );
    assert_eq!(ZoneId { x: 7, y: 12 }.file_name(), "x0007y0012.zgd");
    for bad in [
        "x12y34.zgd",
        "x0012y0034.apd",
        "y0012x0034.zgd",
        "x00a2y0034.zgd",
    ] {
        assert!(ZoneId::from_file_name(bad).is_err(), "{bad}");
    }
}

#[test]
fn apd_decompressed_bytes_are_identical_after_read_and_write() {
    let apd = grid(40, 30);
    let bytes = apd.to_decompressed();
    let back = Apd::read(&compress(&bytes, 11)).unwrap();
    assert_eq!(back, apd);
    assert_eq!(back.to_decompressed(), bytes);
    assert_eq!(tera_world::decompress(&back.write(6)).unwrap(), bytes);
}

#[test]
fn apd_typed_access() {
    let apd = grid(10, 10);
    // Corner node 0 has 3 neighbours: east, north-east, north.
    let mut edges: Vec<(u8, u32)> = apd.edges(0).collect();
    edges.sort();
    assert_eq!(edges, [(3, 1), (4, 11), (5, 10)]);
    assert_eq!(apd.nodes()[0].directions, 0b0011_1000);
    assert_eq!(apd.edges(10_000).count(), 0);
    let (first, nodes) = apd.nodes_in_square(0, 1, 2).unwrap();
    assert_eq!((first, nodes.len()), (122 % 100, 1));
    assert_eq!(apd.nodes_in_square(0, 120, 0), None);
    assert_eq!(apd.nodes_in_square(5, 0, 0), None);
    assert_eq!(apd.zones()[0].x, 3);
    assert_eq!(apd.zones()[0].y, -2);
}

#[test]
fn a_star_goes_through_the_gap() {
    let apd = grid(20, 20);
    let path = apd.find_path(0, 19).unwrap();
    assert_eq!(path.nodes.first(), Some(&0));
    assert_eq!(path.nodes.last(), Some(&19));
    // Every step is an edge.
    for w in path.nodes.windows(2) {
        assert!(apd.edges(w[0]).any(|(_, t)| t == w[1]));
    }
    // The wall at x = 10 is crossed only at y = 18.
    assert!(path.nodes.contains(&(18 * 20 + 10)));
    assert!(path.length > 19.0 * 16.0);
    // A wall node has no edges: unreachable.
    assert_eq!(apd.find_path(0, 10), None);
    assert_eq!(apd.find_path(0, 400), None);
    assert_eq!(apd.find_path(5, 5).unwrap().nodes, [5]);
}

#[test]
fn apd_rejects_bad_input() {
    let bytes = grid(5, 5).to_decompressed();
    for n in [0, 3, 4, 20, bytes.len() - 1] {
        assert!(
            matches!(
                Apd::from_decompressed(&bytes[..n]),
                Err(WorldError::Truncated { .. })
            ),
            "{n}"
        );
    }
    let mut long = bytes.clone();
    long.push(1);
    assert_eq!(
        Apd::from_decompressed(&long),
        Err(WorldError::TrailingBytes(1))
    );
    // A huge node count in a tiny file is an error, not an allocation.
    assert!(Apd::from_decompressed(&[0xff, 0xff, 0xff, 0xff, 0]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        fuzz_open(&bytes);
        fuzz_open(&compress(&bytes, 1));
    }

    #[test]
    fn mutated_apd_never_panics(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)) {
        let mut bytes = grid(4, 4).to_decompressed();
        for (at, v) in edits {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        fuzz_open(&bytes);
        if let Ok(apd) = Apd::from_decompressed(&bytes) {
            prop_assert_eq!(apd.to_decompressed(), bytes);
        }
    }
}
