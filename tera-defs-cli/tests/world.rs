//! `tera-defs world ...` as a process, on files written by the library.

mod common;

use std::path::{Path, PathBuf};

use common::run;
use tera_world::{Apd, ApdNode, ApdZone, CELLS, SQUARES, Square, Volume, Zgd};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A zone with volumes in two cells: three volumes in all.
fn zgd() -> Zgd {
    let mut cells = vec![Vec::new(); SQUARES * SQUARES * CELLS * CELLS];
    // Square (0, 0), cell (0, 1): file order is square x, square y, cell x,
    // cell y with the last fastest.
    cells[1] = vec![
        Volume {
            z: -40,
            height: 200,
        },
        Volume {
            z: 300,
            height: 100,
        },
    ];
    // Square (2, 3), cell (4, 5).
    let last = ((2 * SQUARES + 3) * CELLS + 4) * CELLS + 5;
    cells[last] = vec![Volume { z: 12, height: 50 }];
    Zgd::from_cells(cells).unwrap()
}

/// Nodes 0 -> 1 -> 2 in a row, both ways, and node 3 with no edges at all;
/// one zone whose square (1, 2) holds all four.
fn apd() -> Apd {
    let node = |x: f32, edges: &[(u8, u32)]| ApdNode::new([x, 0.5, -2.0], edges);
    let mut zone = ApdZone::empty(7, -3);
    zone.squares[SQUARES + 2] = Square {
        node_index: 0,
        node_count: 4,
    };
    Apd::new(
        vec![
            node(0.0, &[(4, 1)]),
            node(16.0, &[(0, 0), (4, 2)]),
            node(32.0, &[(0, 1)]),
            node(48.0, &[]),
        ],
        vec![zone],
    )
}

fn files() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let zgd_path = dir.path().join("x0012y0034.zgd");
    let apd_path = dir.path().join("area.apd");
    std::fs::write(&zgd_path, zgd().write(5)).unwrap();
    std::fs::write(&apd_path, apd().write(5)).unwrap();
    (dir, zgd_path, apd_path)
}

#[test]
fn info_of_a_zgd() {
    let (_dir, path, _) = files();
    let out = run(&["world", "info", s(&path)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let compressed = std::fs::metadata(&path).unwrap().len();
    let decompressed = zgd().to_decompressed().len();
    assert_eq!(
        out.stdout,
        format!(
            "file: {}
format: ZGD (zone x 12 y 34)
compressed: {compressed} bytes
decompressed: {decompressed} bytes
cells: 921600
cells with volumes: 2
volumes: 3
most volumes in a cell: 2
heights: floors from -40, tops up to 400
",
            s(&path)
        )
    );
}

#[test]
fn info_of_an_apd() {
    let (_dir, _, path) = files();
    let out = run(&["world", "info", s(&path)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let body: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(body[1], "format: APD");
    assert_eq!(
        body[4..],
        [
            "nodes: 4",
            "edges: 4",
            "edges to missing nodes: 0",
            "zones: 1 at (7, -3)",
            "squares with nodes: 1",
        ]
    );
}

#[test]
fn the_content_decides_without_a_known_extension() {
    let (dir, zgd_path, apd_path) = files();
    let (z, a) = (dir.path().join("zone.bin"), dir.path().join("graph.bin"));
    std::fs::copy(&zgd_path, &z).unwrap();
    std::fs::copy(&apd_path, &a).unwrap();
    let out = run(&["world", "info", s(&z)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\nformat: ZGD\n"), "{}", out.stdout);
    let out = run(&["world", "info", s(&a)], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\nformat: APD\n"), "{}", out.stdout);
}

#[test]
fn bad_files_are_data_errors() {
    let (dir, zgd_path, _) = files();
    // An APD named .zgd: the extension decides, and it does not read.
    let wrong = dir.path().join("x0000y0000.zgd");
    std::fs::write(&wrong, apd().write(5)).unwrap();
    let out = run(&["world", "info", s(&wrong)], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not a valid ZGD"), "{}", out.stderr);
    // Not Brotli at all.
    let garbage = dir.path().join("garbage.apd");
    std::fs::write(&garbage, [0xffu8; 64]).unwrap();
    let out = run(&["world", "info", s(&garbage)], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with("error: "), "{}", out.stderr);
    // Valid Brotli of neither format, under a name that does not say.
    let neither = dir.path().join("neither");
    std::fs::write(&neither, tera_world::compress(b"hello", 5)).unwrap();
    let out = run(&["world", "export", s(&neither), "--json"], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("neither a ZGD"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    // Cut short: the Brotli stream ends early.
    let bytes = std::fs::read(&zgd_path).unwrap();
    let cut = dir.path().join("cut.zgd");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&["world", "info", s(&cut)], None);
    assert_eq!(out.code, 1, "{}", out.stdout);
}

#[test]
fn export_decompressed_bytes() {
    let (dir, zgd_path, apd_path) = files();
    for (path, expected) in [
        (&zgd_path, zgd().to_decompressed()),
        (&apd_path, apd().to_decompressed()),
    ] {
        let target = dir.path().join("out.bin");
        let out = run(&["world", "export", s(path), "-o", s(&target)], None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(std::fs::read(&target).unwrap(), expected);
    }
}

#[test]
fn export_a_zgd_as_json() {
    let (_dir, path, _) = files();
    let out = run(&["world", "export", s(&path), "--json"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "format": "zgd",
            "cells": [
                {"square": [0, 0], "cell": [0, 1], "volumes": [[-40, 200], [300, 100]]},
                {"square": [2, 3], "cell": [4, 5], "volumes": [[12, 50]]},
            ]
        })
    );
    // One cell a line.
    assert_eq!(out.stdout.lines().count(), 4);
}

#[test]
fn export_an_apd_as_json_to_a_file() {
    let (dir, _, path) = files();
    let target = dir.path().join("graph.json");
    let out = run(
        &["world", "export", s(&path), "--json", "-o", s(&target)],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "format": "apd",
            "nodes": [
                {"position": [0.0, 0.5, -2.0], "edges": [[4, 1]]},
                {"position": [16.0, 0.5, -2.0], "edges": [[0, 0], [4, 2]]},
                {"position": [32.0, 0.5, -2.0], "edges": [[0, 1]]},
                {"position": [48.0, 0.5, -2.0], "edges": []},
            ],
            "zones": [{"x": 7, "y": -3, "squares": [[1, 2, 0, 4]]}]
        })
    );
}

#[test]
fn path_between_two_nodes() {
    let (_dir, _, path) = files();
    let out = run(&["world", "path", s(&path), "2", "0"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "path from node 2 to node 0: 3 nodes, length 32.0, 3 nodes expanded
2  (32, 0.5, -2)
1  (16, 0.5, -2)
0  (0, 0.5, -2)
"
    );
}

#[test]
fn path_failures() {
    let (_dir, zgd_path, apd_path) = files();
    // Node 3 has no edges: no path, exit 1.
    let out = run(&["world", "path", s(&apd_path), "0", "3"], None);
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr, "error: no path from node 0 to node 3\n");
    // A node the graph does not have: exit 2.
    let out = run(&["world", "path", s(&apd_path), "0", "4"], None);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: node 4 does not exist: the graph has 4 nodes\n"
    );
    // A ZGD has no graph.
    let out = run(&["world", "path", s(&zgd_path), "0", "1"], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("is a ZGD"), "{}", out.stderr);
    // Not a number.
    let out = run(&["world", "path", s(&apd_path), "zero", "1"], None);
    assert_eq!(out.code, 2);
}

#[test]
fn json_has_no_nan() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.apd");
    let graph = Apd::new(
        vec![ApdNode::new([f32::NAN, f32::INFINITY, 1e-7], &[])],
        vec![],
    );
    std::fs::write(&path, graph.write(5)).unwrap();
    let out = run(&["world", "export", s(&path), "--json"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        value["nodes"][0]["position"],
        serde_json::json!([null, null, 1e-7])
    );
    assert_eq!(value["zones"], serde_json::json!([]));
}
