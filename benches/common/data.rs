//! The bench packets (`packets.jsonl`) and the JS figures (`README.md`) of
//! the shared bench folder, found through `TERA_DATA_DIR`.

use std::path::PathBuf;

/// One bench packet with the JS reference figures for it.
pub struct BenchPacket {
    /// `S_LOGIN`.
    pub name: String,
    /// `S_LOGIN.15`.
    pub def: String,
    /// The whole packet, header included.
    pub bytes: Vec<u8>,
    /// JS read and write, ns per packet.
    pub js_read_ns: f64,
    pub js_write_ns: f64,
}

/// The shared bench folder: `$TERA_DATA_DIR/../bench`, from the run's
/// environment or, failing that, the one the crate was built with.
fn bench_dir() -> Option<PathBuf> {
    let data = std::env::var_os("TERA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| option_env!("TERA_DATA_DIR").map(PathBuf::from))?;
    Some(data.join("..").join("bench"))
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `| S_LOGIN | S_LOGIN.15 | 495 | 1883 | 619 |` rows of the README.
fn js_figures(readme: &str) -> Vec<(String, f64, f64)> {
    readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            match cells.as_slice() {
                ["", _, def, _, read, write, ""] => {
                    Some((def.to_string(), read.parse().ok()?, write.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

/// The bench packets, or why there are none.
pub fn load() -> Result<Vec<BenchPacket>, String> {
    let dir = bench_dir().ok_or("TERA_DATA_DIR is not set")?;
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .map_err(|e| format!("{}: {e}", dir.join(file).display()))
    };
    let figures = js_figures(&read("README.md")?);
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
        let (_, js_read_ns, js_write_ns) = figures
            .iter()
            .find(|(d, _, _)| *d == def)
            .cloned()
            .ok_or(format!("no JS figures for {def}"))?;
        packets.push(BenchPacket {
            name,
            def,
            bytes,
            js_read_ns,
            js_write_ns,
        });
    }
    Ok(packets)
}
