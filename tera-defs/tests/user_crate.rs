//! A crate outside the workspace, made as the README says: its own defs,
//! `tera_defs::Builder` in build.rs, `include!` in a `pub mod`, and a
//! struct with the derive. It must build with no warning but the W002 of
//! its one def with a fixed field after a string and the W032 of its def
//! with the fields `fooBar` and `foo_bar` (shown by `cargo build` through
//! `cargo:warning=`); its binary decodes both of two packets whose names
//! differ only in case through `AnyPacket`, and the two fields of one Rust
//! name as `foo_bar` and `foo_bar_2` (docs/def-language.md, "Names in
//! Rust").
//!
//! The crate is built with `cargo run --offline` in `target/tmp` with its own
//! target folder, kept between runs: the first run compiles `tera-packets`,
//! `tera-defs` and their dependencies (about a minute), later runs only the
//! crate.

use std::path::{Path, PathBuf};
use std::process::Command;

const BUILD_RS: &str = r#"fn main() {
    let mut builder = tera_defs::Builder::new();
    builder.defs_dir("defs");
    if let Err(e) = builder.compile() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
"#;

const LIB_RS: &str = r#"//! A user's packets.

/// The generated packets.
pub mod packets {
    include!(concat!(env!("OUT_DIR"), "/tera_packets.rs"));
}

/// A hand-written packet with the derive.
#[derive(Debug, Clone, PartialEq, tera_packets::Packet)]
#[tera(name = "S_MINE", version = 1)]
pub struct Mine<'a> {
    /// An id.
    pub id: u32,
    /// A name.
    pub name: tera_packets::Str<'a>,
}
"#;

const MAIN_RS: &str = r#"use tera_packets::Packet;
use user_crate::packets::{AnyPacket, c_say, s_foo, s_item_list, s_item_list_2};

fn main() {
    let upper = s_item_list::V1 { a: 7 }.encode().unwrap();
    let camel = s_item_list_2::V1 { b: 9 }.encode().unwrap();
    match AnyPacket::decode("S_ITEM_LIST", 1, &upper).unwrap() {
        AnyPacket::SItemListV1(p) => assert_eq!(p.a, 7),
        other => panic!("S_ITEM_LIST decoded as {other:?}"),
    }
    match AnyPacket::decode("S_ItemList", 1, &camel).unwrap() {
        AnyPacket::SItemList2V1(p) => assert_eq!(p.b, 9),
        other => panic!("S_ItemList decoded as {other:?}"),
    }
    let say = c_say::V1 { text: "hi".into(), channel: 3 };
    let bytes = say.encode().unwrap();
    assert_eq!(c_say::V1::decode(&bytes).unwrap(), say);
    let mine = user_crate::Mine { id: 1, name: "me".into() };
    assert_eq!(user_crate::Mine::decode(&mine.encode().unwrap()).unwrap(), mine);
    // `uint32 fooBar` then `uint32 foo_bar`: the second is renamed.
    let foo = s_foo::V1 { foo_bar: 1, foo_bar_2: 2 };
    let bytes = foo.encode().unwrap();
    assert_eq!(bytes, [12, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(s_foo::V1::decode(&bytes).unwrap(), foo);
    println!("decoded S_ITEM_LIST, S_ItemList, C_SAY, S_FOO and S_MINE");
}
"#;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tera-defs sits in the workspace")
        .to_path_buf()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Writes the crate into `dir` (replacing what a previous run left).
fn make_crate(dir: &Path) {
    let ws = workspace();
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    let manifest = format!(
        r#"[package]
name = "user-crate"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
tera-packets = {{ path = {packets:?} }}

[build-dependencies]
tera-defs = {{ path = {defs:?} }}

# Not a member of the tera-defs workspace that the folder sits in.
[workspace]
"#,
        packets = ws.join("tera-packets").display().to_string(),
        defs = ws.join("tera-defs").display().to_string(),
    );
    write(&dir.join("Cargo.toml"), &manifest);
    // The workspace's versions of every dependency, so that `--offline`
    // finds them all.
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    write(&dir.join("build.rs"), BUILD_RS);
    write(&dir.join("src/lib.rs"), LIB_RS);
    write(&dir.join("src/main.rs"), MAIN_RS);
    write(&dir.join("defs/S_ITEM_LIST.1.def"), "int32 a\n");
    write(&dir.join("defs/S_ItemList.1.def"), "int32 b\n");
    write(
        &dir.join("defs/C_SAY.1.def"),
        "# A fixed field after a string: warning W002.\nstring text\nuint16 channel\n",
    );
    write(
        &dir.join("defs/S_FOO.1.def"),
        "# Two fields of one Rust name: warning W032.\nuint32 fooBar\nuint32 foo_bar\n",
    );
}

#[test]
fn a_crate_made_as_the_readme_says_builds_with_only_its_defs_warnings() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join("user-crate");
    make_crate(&dir);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--offline", "--color", "never"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", tmp.join("user-crate-target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the user crate does not build or run:\n{stderr}"
    );
    assert_eq!(
        stdout.trim(),
        "decoded S_ITEM_LIST, S_ItemList, C_SAY, S_FOO and S_MINE"
    );
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("warning"))
        .collect();
    let w002 = "warning: user-crate@0.1.0: defs/C_SAY.1.def:3:1: warning[W002]: \
                fixed field `channel` follows variable field `text`";
    let w032 = "warning: user-crate@0.1.0: defs/S_FOO.1.def:3:8: warning[W032]: \
                fields `fooBar` and `foo_bar` of the packet are both `foo_bar` in Rust: \
                the second is `foo_bar_2`";
    assert!(
        warnings.len() == 2 && warnings[0].starts_with(w002) && warnings[1].starts_with(w032),
        "expected the W002 of C_SAY.1.def and the W032 of S_FOO.1.def, got:\n{stderr}"
    );
}
