//! The eight bench packets of the shared data (`bench/packets.jsonl`),
//! found through `TERA_SHARED_DIR` (default `../shared` beside the project):
//! one reader for the allocation test and the bench.

use std::path::{Path, PathBuf};

/// The shared data folder.
pub fn shared_dir() -> PathBuf {
    std::env::var_os("TERA_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

/// `(NAME.VERSION, packet bytes)` of each bench packet, or `None` when the
/// shared data is absent.
pub fn bench_packets(shared: &Path) -> Option<Vec<(String, Vec<u8>)>> {
    let lines = std::fs::read_to_string(shared.join("bench/packets.jsonl")).ok()?;
    lines
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).ok()?;
            let def = v["def"].as_str()?.trim_end_matches(".def").to_string();
            let hex = v["hex"].as_str()?;
            let bytes = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
                .collect::<Option<Vec<u8>>>()?;
            Some((def, bytes))
        })
        .collect()
}
