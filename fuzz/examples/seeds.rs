//! Writes the seed corpora under `fuzz/corpus/<target>/seed-*`: small valid
//! files made by the libraries' writers for the binary formats
//! (`datacenter`, `datacenter_dat`, `world`), and from the shared data one
//! vector a def and the bench packets for the packet targets, a few defs for
//! `def_parser`, map extracts for `map_parser`.
//!
//! ```sh
//! cd fuzz && TERA_DATA_DIR=/work/shared/tera-data \
//!   TERA_EXTRA_DEFS=/work/shared/vectors/synthetic-defs cargo run --example seeds
//! ```
//!
//! Without `TERA_DATA_DIR` only the binary-format seeds are written.
//!
//! The packet seeds start with the index of their def in `PACKETS`, so build
//! the fuzz targets with the same `TERA_DATA_DIR` and `TERA_EXTRA_DEFS`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use tera_datacenter::{Arch, OwnedElement, OwnedValue, Version, WriteOptions, pack, write_dec};
use tera_world::{Apd, ApdNode, ApdZone, Square, Volume, Zgd};

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Defs whose source seeds `def_parser`: the hot packets of the benchmark,
/// which between them use every kind of field.
const DEF_SEEDS: &[&str] = &[
    "S_LOGIN.15.def",
    "S_SPAWN_USER.17.def",
    "S_CHAT.4.def",
    "C_PLAYER_LOCATION.5.def",
    "S_ACTION_STAGE.9.def",
    "S_EACH_SKILL_RESULT.15.def",
    "S_ITEMLIST.7.def",
    "S_ABNORMALITY_BEGIN.5.def",
];

/// Lines of each map file kept for `map_parser`.
const MAP_LINES: usize = 40;

fn main() -> Result {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    datacenter_seeds(&out)?;
    world_seeds(&out)?;
    let Some(data) = std::env::var_os("TERA_DATA_DIR").map(PathBuf::from) else {
        eprintln!("TERA_DATA_DIR is not set: no packet, def or map seeds");
        return Ok(());
    };
    let shared = data.parent().ok_or("TERA_DATA_DIR has no parent")?;
    let index: BTreeMap<String, usize> = tera_data::PACKETS
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("{}.{}.def", p.name, p.version), i))
        .collect();

    let mut packets = Vec::new();
    let mut seen = BTreeMap::new();
    for file in [
        "vectors/corpus.jsonl",
        "vectors/synthetic.jsonl",
        "bench/packets.jsonl",
    ] {
        for line in fs::read_to_string(shared.join(file))?.lines() {
            let v: serde_json::Value = serde_json::from_str(line)?;
            let def = v["def"].as_str().ok_or("vector without def")?;
            let mode = v["mode"].as_str().unwrap_or("bench");
            // One vector a def (the first random one), and every bench packet.
            if mode != "bench" && (mode != "random" || seen.contains_key(def)) {
                continue;
            }
            let Some(&i) = index.get(def) else {
                eprintln!("{def} is not compiled in: skipped");
                continue;
            };
            seen.insert(def.to_string(), ());
            let hex = v["hex"].as_str().ok_or("vector without hex")?;
            let name = format!("seed-{}-{mode}", def.trim_end_matches(".def"));
            packets.push((name, tera_fuzz::join(i, &unhex(hex)?)));
        }
    }
    for target in ["decode_any", "round_trip", "dynamic_decode"] {
        write_all(&out.join(target), &packets)?;
    }

    let mut defs = Vec::new();
    for name in DEF_SEEDS {
        let source = fs::read_to_string(data.join("definitions").join(name))?;
        defs.push((
            format!("seed-{name}"),
            format!("{name}\0{source}").into_bytes(),
        ));
    }
    for entry in fs::read_dir(shared.join("vectors/synthetic-defs"))? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("file name")?;
        let source = fs::read_to_string(&path)?;
        defs.push((
            format!("seed-{name}"),
            format!("{name}\0{source}").into_bytes(),
        ));
    }
    write_all(&out.join("def_parser"), &defs)?;

    let mut maps = Vec::new();
    for entry in fs::read_dir(data.join("maps"))? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("file name")?;
        let text = fs::read_to_string(&path)?;
        let head: String = text
            .lines()
            .take(MAP_LINES)
            .map(|l| format!("{l}\n"))
            .collect();
        maps.push((
            format!("seed-{name}"),
            format!("{name}\0{head}").into_bytes(),
        ));
        maps.push((
            format!("seed-{name}-crlf"),
            head.replace('\n', "\r\n").into_bytes(),
        ));
    }
    write_all(&out.join("map_parser"), &maps)?;
    Ok(())
}

/// Two small trees (every value type, text, shared names, nesting) in each
/// of the four layouts, as `.dec` and packed as `.dat` with the target's key.
fn datacenter_seeds(out: &Path) -> Result {
    let small = OwnedElement::root(vec![
        OwnedElement::new("AreaList").child(
            OwnedElement::new("Area")
                .attr("id", OwnedValue::Int(7))
                .attr("name", OwnedValue::Str("Velika".into())),
        ),
    ]);
    let mut list = OwnedElement::new("ItemData");
    for i in 0..6 {
        list = list.child(
            OwnedElement::new("Item")
                .attr("id", OwnedValue::Int(i * 1000 - 1))
                .attr("tradable", OwnedValue::Bool(i % 2 == 0))
                .attr("weight", OwnedValue::Float(i as f32 * 0.25 - 0.5))
                .attr("name", OwnedValue::Str(format!("Item {i} 東京")))
                .child(OwnedElement::new("Stat").attr("kind", OwnedValue::Int(i)))
                .text(if i == 3 { "a <text> & more" } else { "" }),
        );
    }
    let mixed = OwnedElement::root(vec![
        list,
        OwnedElement::new("Empty"),
        OwnedElement::new("Strings").attr("s", OwnedValue::Str("x y \"q\" 😀".into())),
    ]);
    let mut dec = Vec::new();
    let mut dat = Vec::new();
    for (tree_name, tree) in [("small", &small), ("mixed", &mixed)] {
        for arch in [Arch::X64, Arch::X86] {
            for version in [Version::V6, Version::V3] {
                let options = WriteOptions {
                    arch,
                    version,
                    revision: 387_463,
                    ..WriteOptions::default()
                };
                let bytes = write_dec(tree, &options)?;
                let name = format!("seed-{tree_name}-{arch:?}-v{}", version.number());
                dat.push((
                    format!("{name}.dat"),
                    pack(&bytes, &tera_fuzz::datacenter::DAT_KEY),
                ));
                dec.push((format!("{name}.dec"), bytes));
            }
        }
    }
    write_all(&out.join("datacenter"), &dec)?;
    write_all(&out.join("datacenter_dat"), &dat)?;
    Ok(())
}

/// Brotli-compressed ZGDs (an empty zone, one with stacked volumes in a few
/// cells) and APDs (a grid graph with a zone, a graph without zones), plus
/// an uncompressed APD, which the target also reads.
fn world_seeds(out: &Path) -> Result {
    let cells = 120 * 120 * 8 * 8;
    let empty = Zgd::from_cells(vec![Vec::new(); cells]).ok_or("empty ZGD")?;
    let mut some = vec![Vec::new(); cells];
    for (i, cell) in some.iter_mut().enumerate().step_by(7919) {
        let base = (i % 4000) as i16 - 2000;
        *cell = (0..(i % 4) as i16 + 1)
            .map(|k| Volume {
                z: base + k * 300,
                height: 120 + k as u16,
            })
            .collect();
    }
    let some = Zgd::from_cells(some).ok_or("ZGD")?;

    // A 4 x 4 grid, one node a cell, edges to the east (slot 4) and north
    // (slot 6) and back (slots 0 and 2), all in squares of zone (3, -2).
    let side = 4u32;
    let mut nodes = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let i = y * side + x;
            let mut edges = Vec::new();
            if x + 1 < side {
                edges.push((4, i + 1));
            }
            if x > 0 {
                edges.push((0, i - 1));
            }
            if y + 1 < side {
                edges.push((6, i + side));
            }
            if y > 0 {
                edges.push((2, i - side));
            }
            let position = [x as f32 * 16.0, y as f32 * 16.0, (x * y) as f32];
            nodes.push(ApdNode::new(position, &edges));
        }
    }
    let mut zone = ApdZone::empty(3, -2);
    for y in 0..side as usize {
        zone.squares[y] = Square {
            node_index: y as u32 * side,
            node_count: side as u8,
        };
    }
    let grid = Apd::new(nodes.clone(), vec![zone]);
    let loose = Apd::new(nodes[..5].to_vec(), Vec::new());
    let seeds = vec![
        ("seed-empty.zgd".to_string(), empty.write(11)),
        ("seed-volumes.zgd".to_string(), some.write(11)),
        ("seed-grid.apd".to_string(), grid.write(11)),
        ("seed-no-zone.apd".to_string(), loose.write(11)),
        ("seed-no-zone.apd.raw".to_string(), loose.to_decompressed()),
    ];
    write_all(&out.join("world"), &seeds)
}

fn write_all(dir: &Path, seeds: &[(String, Vec<u8>)]) -> Result {
    fs::create_dir_all(dir)?;
    for (name, bytes) in seeds {
        fs::write(dir.join(name), bytes)?;
    }
    println!("{}: {} seeds", dir.display(), seeds.len());
    Ok(())
}

fn unhex(hex: &str) -> Result<Vec<u8>> {
    (0..hex.len())
        .step_by(2)
        .map(|i| Ok(u8::from_str_radix(hex.get(i..i + 2).ok_or("odd hex")?, 16)?))
        .collect()
}
