//! The bench packets (`packets.jsonl`) of the shared bench folder, found
//! through `TERA_DATA_DIR`.

use std::path::PathBuf;

/// One bench packet.
pub struct BenchPacket {
    /// `S_LOGIN`.
    pub name: String,
    /// `S_LOGIN.15`.
    pub def: String,
    /// The whole packet, header included.
    pub bytes: Vec<u8>,
}

/// The corpus (`TERA_DATA_DIR`), from the run's environment or, failing
/// that, the one the crate was built with.
fn data_dir() -> Option<PathBuf> {
    std::env::var_os("TERA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| option_env!("TERA_DATA_DIR").map(PathBuf::from))
}

/// The shared bench folder: `$TERA_DATA_DIR/../bench`.
pub fn bench_dir() -> Option<PathBuf> {
    Some(data_dir()?.join("..").join("bench"))
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The corpus's definitions: `$TERA_DATA_DIR/definitions`.
pub fn defs_dir() -> Option<PathBuf> {
    Some(data_dir()?.join("definitions"))
}

/// The bench packets, or why there are none.
pub fn load() -> Result<Vec<BenchPacket>, String> {
    let dir = bench_dir().ok_or("TERA_DATA_DIR is not set")?;
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .map_err(|e| format!("{}: {e}", dir.join(file).display()))
    };
    let mut packets = Vec::new();
    for line in read("packets.jsonl")?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let field = |k: &str| v[k].as_str().map(str::to_owned).ok_or(format!("no `{k}`"));
        let name = field("name")?;
        let def = field("def")?.trim_end_matches(".def").to_string();
        let bytes = unhex(&field("hex")?).ok_or("bad hex")?;
        packets.push(BenchPacket { name, def, bytes });
    }
    Ok(packets)
}
