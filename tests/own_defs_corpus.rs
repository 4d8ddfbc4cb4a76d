//! The project's own defs that share a name and version with a corpus def
//! say the same fields: the same lines once comments, byte-order marks and
//! spacing are set aside. So code written against the embedded defs (game
//! state, the proxy's mods) reads the corpus's packets alike. Needs the
//! corpus (`TERA_DATA_DIR`, by default `../shared/tera-data`); without it
//! the test prints a notice and checks nothing.

use std::path::{Path, PathBuf};

fn corpus_defs() -> Option<PathBuf> {
    let root = std::env::var_os("TERA_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tera-data"));
    let defs = root.join("definitions");
    if defs.is_dir() {
        Some(defs)
    } else {
        eprintln!(
            "skipping: no corpus at {} (set TERA_DATA_DIR)",
            root.display()
        );
        None
    }
}

/// The def's field lines, each as its words.
fn fields(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace('\u{feff}', "");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .map(|line| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .collect()
}

/// An own def written before this check for a feature of the language
/// (a fixed field after a string): it shares a name and version with a
/// corpus def but not its fields.
const MADE_UP: &[&str] = &["C_JOIN_PRIVATE_CHANNEL.1.def"];

#[test]
fn own_defs_say_the_corpus_fields() {
    let Some(corpus) = corpus_defs() else { return };
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("defs");
    let mut compared = Vec::new();
    for entry in std::fs::read_dir(&own).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_owned();
        let theirs = corpus.join(&name);
        if !theirs.is_file() || MADE_UP.iter().any(|m| name == *m) {
            continue;
        }
        assert_eq!(fields(&path), fields(&theirs), "{}", name.to_string_lossy());
        compared.push(name);
    }
    // The defs game state reads, the ports' and the proxy's.
    assert!(compared.len() >= 60, "{compared:?}");
}
