//! What a build script sees when the defs are broken: `Builder` turns every
//! malformed file (bad text, bad bytes, bad names, hostile sizes and
//! nesting, unreadable paths) into `BuildError::Schema` with rendered
//! diagnostics that name the file, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use tera_defs::{BuildError, Builder};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tera-defs-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `(file name, content)` of defs that must each fail with diagnostics.
fn broken_defs() -> Vec<(String, Vec<u8>)> {
    // Deeper than MAX_DEPTH (32): an error a level, no stack overflow.
    let deep: String = (0..300)
        .map(|level| format!("{}object o{level}\n", "- ".repeat(level)))
        .collect();
    let wide = format!("int32 {}\n", "a=".repeat(100_000));
    let many: String = (0..2_000)
        .map(|i| format!("int32 f{i}\nint33 g{i}\n"))
        .collect();
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("S_EMPTY_NAME_VERSION..def", b"int32 a\n".to_vec()),
        (
            "S_BIG_VERSION.99999999999999999999.def",
            b"int32 a\n".to_vec(),
        ),
        (
            "S_NOT_UTF8.1.def",
            b"int32 \xff\xfe\n\xc3(\x80 b\n".to_vec(),
        ),
        ("S_NUL.1.def", b"int32\0a\n\0\0\0".to_vec()),
        (
            "S_UTF16.1.def",
            "int32 a\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
        ),
        ("S_ONLY_CHILD.1.def", b"- int32 a\n".to_vec()),
        ("S_ORPHAN_DASHES.1.def", b"-\n--\n- -\n".to_vec()),
        ("S_NO_NAME.1.def", b"object\n- int32 b\n".to_vec()),
        ("S_DEEP.1.def", deep.into_bytes()),
        ("S_WIDE.1.def", wide.into_bytes()),
        ("S_MANY.1.def", many.into_bytes()),
        (
            "S_GENERICS.1.def",
            b"array<array<array<int32>>> a\nbytes<> b\n".to_vec(),
        ),
        (
            "S_BOM_ONLY.1.def",
            "\u{feff}\u{feff}\r\r\nint 3 2\n".as_bytes().to_vec(),
        ),
        ("S_LONE_CR.1.def", b"int32 a\rint32 a\r".to_vec()),
    ];
    files.into_iter().map(|(n, c)| (n.to_string(), c)).collect()
}

/// Runs the builder on `path` and returns its rendered diagnostics.
fn rendered_errors(path: &Path) -> (usize, String) {
    match Builder::new().defs_dir(path).generate() {
        Err(err @ BuildError::Schema(_)) => {
            let BuildError::Schema(reports) = &err else {
                unreachable!()
            };
            (reports.len(), err.to_string())
        }
        Err(other) => panic!("{}: expected diagnostics, got {other}", path.display()),
        Ok(_) => panic!("{}: generated code from a broken def", path.display()),
    }
}

#[test]
fn each_broken_def_gets_diagnostics() {
    let dir = scratch("broken-each");
    for (name, content) in broken_defs() {
        let path = dir.join(&name);
        fs::write(&path, &content).unwrap();
        let (reports, text) = rendered_errors(&path);
        assert_eq!(reports, 1, "{name}");
        assert!(text.contains(&name), "{name}: {text}");
        assert!(text.contains("error"), "{name}: {text}");
        fs::remove_file(&path).unwrap();
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_of_broken_defs_reports_every_file() {
    let dir = scratch("broken-all");
    let files = broken_defs();
    for (name, content) in &files {
        // Nested folders are walked too.
        let sub = dir.join(if name.len() % 2 == 0 { "a/b" } else { "" });
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(name), content).unwrap();
    }
    fs::write(dir.join("S_FINE.1.def"), "int32 a\n").unwrap();
    let (reports, text) = rendered_errors(&dir);
    assert_eq!(reports, files.len(), "{text}");
    for (name, _) in &files {
        assert!(text.contains(name.as_str()), "{name} missing from:\n{text}");
    }
    assert!(!text.contains("S_FINE.1.def"), "{text}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_catalogue_of_malformed_defs_through_the_builder() {
    // The front end's catalogue, where its diagnostics are snapshot-tested.
    let catalogue =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tera-defs-front/tests/catalogue");
    let (reports, text) = rendered_errors(&catalogue);
    assert!(reports > 25, "{reports} reports:\n{text}");
    assert!(text.ends_with("in the packet definitions\n"), "{text}");
}

#[test]
fn broken_maps_get_diagnostics() {
    let dir = scratch("broken-maps");
    let defs = dir.join("defs");
    let maps = dir.join("maps");
    fs::create_dir_all(&defs).unwrap();
    fs::create_dir_all(&maps).unwrap();
    fs::write(defs.join("S_FINE.1.def"), "int32 a\n").unwrap();
    let bad: [(&str, &[u8]); 5] = [
        ("protocol.1.map", b"S_A = 70000\n"),
        ("protocol.2.map", b"S_A = 1\nS_B = 1\nS_A 2\n"),
        ("sysmsg.3.map", b"SMT_X = 99999999999\n"),
        ("protocol.4.map", b"\xff\xfe = \x00\n"),
        ("protocol.x.map", b"S_A = 1\n"),
    ];
    for (name, content) in bad {
        fs::write(maps.join(name), content).unwrap();
    }
    let err = Builder::new()
        .defs_dir(&defs)
        .maps_dir(&maps)
        .generate()
        .unwrap_err();
    let BuildError::Schema(reports) = &err else {
        panic!("expected diagnostics, got {err}");
    };
    assert_eq!(reports.len(), bad.len(), "{err}");
    let text = err.to_string();
    for (name, _) in bad {
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_paths_get_diagnostics() {
    let dir = scratch("broken-io");
    // A folder named like a def, and a def that is a dangling symlink.
    fs::create_dir_all(dir.join("S_DIR.1.def")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("S_LINK.1.def")).unwrap();
    let missing = dir.join("S_MISSING.1.def");
    let err = Builder::new()
        .defs_dir(&dir)
        .defs_dir(&missing)
        .generate()
        .unwrap_err();
    assert!(matches!(err, BuildError::Schema(_)), "{err}");
    let text = err.to_string();
    assert!(text.contains("S_MISSING.1.def"), "{text}");
    #[cfg(unix)]
    assert!(text.contains("S_LINK.1.def"), "{text}");
    fs::remove_dir_all(&dir).unwrap();
}
