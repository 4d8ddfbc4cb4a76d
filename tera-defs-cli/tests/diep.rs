//! `tera-defs diep decode/encode` run as a process.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tera-defs"))
        .arg("diep")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tera-defs");
    // Written from a thread: the command answers line by line, so a big
    // input fills the output pipe while it is still being written.
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("wait");
    writer.join().expect("writer thread").expect("write stdin");
    output
}

#[test]
fn decodes_the_notes_input_message() {
    let out = run(
        &["decode", "--side", "serverbound", "019910888185028aa7810f"],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Json = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["name"], "Input");
    assert_eq!(v["value"]["flags"], 2073);
    assert_eq!(v["value"]["mouseX"], 1281.0);
    assert_eq!(v["value"]["mouseY"], -2719.0);
}

#[test]
fn jsonl_errors_say_what_and_where_and_exit_1() {
    let lines = b"{\"side\":\"serverbound\",\"hex\":\"0199\"}\n{\"side\":\"clientbound\",\"hex\":\"05\"}\n{\"side\":\"clientbound\",\"hex\":\"0000ffffffff0f\"}\n";
    let out = run(&["decode", "--jsonl"], lines);
    assert_eq!(out.status.code(), Some(1));
    let answers: Vec<Json> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(answers.len(), 3);
    assert_eq!(
        answers[0]["error"],
        "field runs past the end of the packet at byte 1 (field `flags`)"
    );
    assert_eq!(answers[1]["name"], "Heartbeat");
    assert_eq!(
        answers[2]["error"],
        "field runs past the end of the packet at byte 7"
    );
}

/// decode --jsonl then encode --jsonl over the shared vectors: every value
/// equal, every hex identical.
#[test]
fn jsonl_round_trip_over_the_vectors() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/diep/vectors/messages.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("diep vectors not found at {}: skipped", path.display());
        return;
    };
    let decoded = run(&["decode", "--jsonl"], text.as_bytes());
    assert!(
        decoded.status.success(),
        "{}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    let decoded: Vec<Json> = String::from_utf8_lossy(&decoded.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let mut again = String::new();
    for d in &decoded {
        let line = serde_json::json!({"side": d["side"], "name": d["name"], "value": d["value"]});
        again.push_str(&line.to_string());
        again.push('\n');
    }
    let encoded = run(&["encode", "--jsonl"], again.as_bytes());
    assert!(
        encoded.status.success(),
        "{}",
        String::from_utf8_lossy(&encoded.stderr)
    );
    let encoded: Vec<Json> = String::from_utf8_lossy(&encoded.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let source: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(decoded.len(), source.len());
    assert_eq!(encoded.len(), source.len());
    for ((s, d), e) in source.iter().zip(&decoded).zip(&encoded) {
        assert_eq!(s["name"], d["name"]);
        assert_eq!(s["hex"], e["hex"], "{s}");
    }
}
