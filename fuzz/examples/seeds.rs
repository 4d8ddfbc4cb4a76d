//! Writes the seed corpora under `fuzz/corpus/<target>/seed-*` from the
//! shared data: one vector a def and the bench packets for the packet
//! targets, a few defs for `def_parser`, map extracts for `map_parser`.
//!
//! ```sh
//! cd fuzz && TERA_DATA_DIR=/work/shared/tera-data \
//!   TERA_EXTRA_DEFS=/work/shared/vectors/synthetic-defs cargo run --example seeds
//! ```
//!
//! The packet seeds start with the index of their def in `PACKETS`, so build
//! the fuzz targets with the same `TERA_DATA_DIR` and `TERA_EXTRA_DEFS`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

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
    let data = PathBuf::from(std::env::var_os("TERA_DATA_DIR").ok_or("set TERA_DATA_DIR")?);
    let shared = data.parent().ok_or("TERA_DATA_DIR has no parent")?;
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
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
    for target in ["decode_any", "round_trip"] {
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
