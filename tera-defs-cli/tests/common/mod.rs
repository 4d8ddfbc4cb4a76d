//! Running `tera-defs` as a process, and knowing which defs it was built
//! with (the tests link the same `tera-data` build as the binary).
#![allow(dead_code)] // each test file uses a part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tera_data::PACKETS;

/// What a run printed and how it ended.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `tera-defs args...`, feeding `stdin` when given.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tera-defs"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tera-defs");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("stdin pipe");
        let input = input.to_vec();
        // A writer thread, so that a large input cannot dead-lock against
        // a full stdout pipe.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = child.wait_with_output().expect("wait for tera-defs");
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

fn has(name: &str, version: u32) -> bool {
    PACKETS
        .iter()
        .any(|p| p.name == name && p.version == version)
}

/// Built from the project's own `defs/` (no TERA_DATA_DIR at build time).
pub fn own_defs() -> bool {
    let own = has("S_CHAT", 2) && has("S_SPAWN_NPC", 1) && PACKETS.len() < 836;
    if !own {
        eprintln!("skipping: the binary was not built from the project's own defs/");
    }
    own
}

/// Built from the real corpus (TERA_DATA_DIR at build time).
pub fn corpus() -> bool {
    let corpus = PACKETS.len() >= 836 && has("S_LOGIN", 15);
    if !corpus {
        eprintln!("skipping: the binary was not built from the corpus (set TERA_DATA_DIR)");
    }
    corpus
}

/// The project root (the root crate with `defs/` and `maps/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `path` under the project root, as a string argument.
pub fn project(path: &str) -> String {
    root().join(path).display().to_string()
}

/// A fresh scratch folder under the target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The shared vectors folder, from TERA_DATA_DIR at run time.
pub fn vectors() -> Option<PathBuf> {
    let Some(data) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("skipping: TERA_DATA_DIR is not set (point it at ../shared/tera-data)");
        return None;
    };
    let dir = PathBuf::from(data).join("../vectors");
    dir.is_dir().then_some(dir)
}

/// An S_CHAT.2 packet of the own defs, opcode 0, and its JSON.
pub const CHAT2_HEX: &str =
    "250000001700 1f00 01000000 0500000000000000 00 01 00 42006f0062000000 680069000000";
pub const CHAT2_JSON: &str = r#"{"channel":1,"authorID":"5","unk1":false,"gm":true,"founder":false,"authorName":"Bob","message":"hi"}"#;

/// The same packet without spaces.
pub fn chat2_hex() -> String {
    CHAT2_HEX.replace(' ', "")
}
