//! The JS reference's figures, taken in the same run as the Rust figures:
//! either by running `node $TERA_DATA_DIR/../bench/js/bench.js` or from the
//! JSON lines that script wrote earlier in the same session (a file named by
//! `TERA_JS_FIGURES`). Figures from another day are never used: these
//! machines drift by up to 2x between sessions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

/// The environment variable naming a JSON-lines file of JS figures, or
/// `none` for the Rust columns only.
pub const FIGURES_VAR: &str = "TERA_JS_FIGURES";

/// A file older than this is reported as not from this session.
const STALE: Duration = Duration::from_secs(3600);

/// The JS reference's figures of one packet, ns per packet.
#[derive(Clone, Copy, Debug)]
pub struct JsFigures {
    /// Median, min and max of the read (build a JS object of the packet).
    pub read: (f64, f64, f64),
    /// Median, min and max of the write (into a preallocated buffer).
    pub write: (f64, f64, f64),
    /// Whether the JS writer reproduced the packet's bytes.
    pub same_bytes: bool,
}

/// The JS figures of every bench packet by def (`S_LOGIN.15`), and a
/// sentence saying where they came from.
pub struct Js {
    /// Figures by def.
    pub by_def: HashMap<String, JsFigures>,
    /// Where they came from, for the table's notice.
    pub source: String,
}

/// Parses the JSON lines `bench.js` prints.
pub fn parse(jsonl: &str) -> Result<HashMap<String, JsFigures>, String> {
    let mut by_def = HashMap::new();
    for (n, line) in jsonl.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let num = |k: &str| {
            v[k].as_f64()
                .ok_or(format!("line {}: no number `{k}`", n + 1))
        };
        let def = v["def"]
            .as_str()
            .ok_or(format!("line {}: no `def`", n + 1))?
            .trim_end_matches(".def")
            .to_string();
        let figures = JsFigures {
            read: (num("read_ns")?, num("read_min")?, num("read_max")?),
            write: (num("write_ns")?, num("write_min")?, num("write_max")?),
            same_bytes: v["writer_same_bytes"].as_bool().unwrap_or(false),
        };
        by_def.insert(def, figures);
    }
    if by_def.is_empty() {
        return Err("no figures".into());
    }
    Ok(by_def)
}

/// Where `bench.js` writes a copy of what it printed, for `TERA_JS_FIGURES`.
fn saved_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("js-bench.jsonl")
}

/// Reads the figures of `file`, saying how old it is.
fn from_file(file: &Path) -> Result<Js, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let by_def = parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let age = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok());
    let age_text = match age {
        Some(a) => format!("written {} min ago", a.as_secs() / 60),
        None => "of unknown age".into(),
    };
    let mut source = format!(
        "JS figures read from {} ({FIGURES_VAR}), {age_text}",
        file.display()
    );
    if age.is_none_or(|a| a > STALE) {
        source.push_str(
            "; WARNING: not taken in this session, so the vs-JS ratios compare \
             different minutes (rerun without the variable to time JS now)",
        );
    }
    Ok(Js { by_def, source })
}

/// Runs `node bench.js` on the bench packets and the corpus's defs.
fn run_node(bench_js: &Path, defs: &Path, packets: &Path) -> Result<Js, String> {
    eprintln!(
        "benches/table: timing the JS reference: node {} (about 70 s)",
        bench_js.display()
    );
    let out = Command::new("node")
        .arg(bench_js)
        .arg("7")
        .arg(defs)
        .arg(packets)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "node {} failed: {}",
            bench_js.display(),
            out.status
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let by_def = parse(&text).map_err(|e| format!("bench.js output: {e}"))?;
    let saved = saved_path();
    let mut source = format!(
        "JS figures timed in this run: node {} (median of 7 runs of ~300 ms each)",
        bench_js.display()
    );
    if std::fs::write(&saved, text.as_bytes()).is_ok() {
        source.push_str(&format!(
            "; saved to {} ({FIGURES_VAR}=that file reuses them within the hour)",
            saved.display()
        ));
    }
    Ok(Js { by_def, source })
}

/// The JS figures for this run, or why there are none. `bench_dir` is the
/// shared bench folder (`packets.jsonl`, `js/bench.js`), `defs` the
/// corpus's definitions.
pub fn figures(bench_dir: &Path, defs: &Path) -> Result<Js, String> {
    match std::env::var_os(FIGURES_VAR) {
        Some(v) if v == "none" => Err(format!("{FIGURES_VAR}=none")),
        Some(file) => from_file(Path::new(&file)),
        None => {
            let bench_js = bench_dir.join("js").join("bench.js");
            if !bench_js.is_file() {
                return Err(format!("no {} and no {FIGURES_VAR}", bench_js.display()));
            }
            run_node(&bench_js, defs, &bench_dir.join("packets.jsonl"))
        }
    }
}
