//! The crate as a user has it: a new crate outside the workspace that
//! depends on `tera-data` alone runs the README's derive example as printed,
//! and its build shows no warning from the project's own defs.
//!
//! It builds `tera-data` and its dependencies once into the test's own
//! target folder (kept between runs, so later runs only check), offline,
//! from the workspace's `Cargo.lock`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Rust code of the README's section `title`: its first fenced block,
/// with the doc test's hidden lines (`# ...`) left out.
fn readme_example(title: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split_once(&format!("## {title}\n"))
        .unwrap_or_else(|| panic!("README has no section {title:?}"))
        .1;
    let block = section.split_once("```rust\n").unwrap().1;
    let code = block.split_once("```").unwrap().0;
    code.lines()
        .filter(|line| !line.trim_start().starts_with("# "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A crate at `dir` depending on this one by path, whose `main` is `body`.
fn write_crate(dir: &Path, body: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"readme-user\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\ntera-data = {{ path = {:?} }}\n\n\
         # Not a member of the repository's workspace.\n[workspace]\n",
        root().display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's versions, so that the build needs nothing new.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let main = format!(
        "fn main() -> Result<(), Box<dyn std::error::Error>> {{\n{body}\n\
         println!(\"the README's example ran\");\nOk(())\n}}\n"
    );
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
}

#[test]
fn the_readmes_derive_example_runs_as_printed_in_a_crate_that_depends_on_tera_data() {
    let example = readme_example("A hand-written packet with the derive");
    assert!(example.contains("#[derive(Debug, PartialEq, tera_data::Packet)]"));
    assert!(!example.contains("tera(crate"), "as a user would write it");

    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dependent_crate");
    let dir = scratch.join("readme-user");
    write_crate(&dir, &example);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(scratch.join("target"))
        .current_dir(&dir)
        // The user's build: the project's own defs, not CI's real corpus.
        .env_remove("TERA_DATA_DIR")
        .env_remove("TERA_EXTRA_DEFS")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the example does not build or run:\n{stderr}"
    );
    assert_eq!(stdout.trim(), "the README's example ran");
    assert!(
        !stderr.contains("warning"),
        "the dependent build shows warnings:\n{stderr}"
    );
}
