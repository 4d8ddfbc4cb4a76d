//! `tera-defs check` run as a process.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tera-defs"))
        .arg("check")
        .args(args)
        .output()
        .expect("run tera-defs")
}

/// A fresh scratch folder under the target dir.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn good_folder() {
    let dir = scratch("good");
    fs::write(dir.join("S_A.1.def"), "uint32 id\nstring name\n").expect("write");
    fs::create_dir_all(dir.join("sub")).expect("mkdir");
    fs::write(dir.join("sub/S_B.2.def"), "array list\n- int32 x\n").expect("write");
    fs::write(dir.join("notes.txt"), "not a def").expect("write");
    let out = run(&[&dir]);
    assert_eq!(text(&out.stdout), "checked 2 defs: 0 errors, 0 warnings\n");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn warnings_only_exit_zero() {
    let dir = scratch("warn");
    let file = dir.join("I_INPUT_COMMAND.1.def");
    fs::write(&file, "string command\nstring parameter\nbool unk").expect("write");
    let out = run(&[&file]);
    assert_eq!(text(&out.stdout), "checked 1 defs: 0 errors, 1 warnings\n");
    assert!(text(&out.stderr).contains("warning[W002]"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_file() {
    let dir = scratch("bad");
    let file = dir.join("S_BAD.1.def");
    fs::write(&file, "uint32 id\nint33 x\n- - byte y\n").expect("write");
    let out = run(&[&file]);
    let stderr = text(&out.stderr);
    assert_eq!(text(&out.stdout), "checked 1 defs: 2 errors, 0 warnings\n");
    assert!(
        stderr.contains("error[E010]: unknown type `int33`"),
        "{stderr}"
    );
    assert!(stderr.contains("S_BAD.1.def:2:1"), "{stderr}");
    assert!(stderr.contains("error[E020]"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "no color when stderr is not a terminal"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn maps_are_counted() {
    let dir = scratch("maps");
    fs::write(dir.join("S_A.1.def"), "uint32 id\n").expect("write");
    fs::write(dir.join("protocol.1.map"), "S_A = 1\nS_A = 2\n").expect("write");
    let out = run(&[&dir]);
    assert_eq!(
        text(&out.stdout),
        "checked 1 defs, 1 maps: 1 errors, 0 warnings\n"
    );
    assert!(text(&out.stderr).contains("error[E051]"));
    assert_eq!(out.status.code(), Some(1));
    // A second name on a code (a typo'd alias, as real maps have) is a
    // warning: the first name keeps the code.
    fs::write(dir.join("protocol.1.map"), "S_A = 1\nS_AA = 1\n").expect("write");
    let out = run(&[&dir]);
    assert_eq!(
        text(&out.stdout),
        "checked 1 defs, 1 maps: 0 errors, 1 warnings\n"
    );
    assert!(text(&out.stderr).contains("warning[W007]: duplicate code 1"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn defs_missing_from_a_map_are_warned_about() {
    let dir = scratch("map-missing");
    fs::write(dir.join("S_A.1.def"), "uint32 id\n").expect("write");
    fs::write(dir.join("S_A.2.def"), "uint32 id\nuint32 more\n").expect("write");
    fs::write(dir.join("S_NEW.1.def"), "uint32 id\n").expect("write");
    fs::write(dir.join("protocol.2.map"), "S_A = 1\nS_NEX = 2\n").expect("write");
    let out = run(&[&dir]);
    assert_eq!(
        text(&out.stdout),
        "checked 3 defs, 1 maps: 0 errors, 1 warnings\n"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning[W006]: `S_NEW` is not in protocol.2.map"),
        "{stderr}"
    );
    assert!(stderr.contains("S_NEW.1.def:1:1"), "{stderr}");
    assert!(stderr.contains("did you mean S_NEX?"), "{stderr}");
    assert!(!stderr.contains("`S_A`"), "{stderr}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn legacy_count_and_offset_lines_are_warned_about() {
    let dir = scratch("legacy");
    fs::write(
        dir.join("S_OLD.1.def"),
        "count list\nuint32 id\noffset list\narray list\n- byte v\n",
    )
    .expect("write");
    let out = run(&[&dir]);
    assert_eq!(text(&out.stdout), "checked 1 defs: 0 errors, 2 warnings\n");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning[W005]: legacy `count list` is ignored"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "warning[W005]: legacy `offset list` turns implicit metadata off for this def"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("S_OLD.1.def:3:1"), "{stderr}");
}

/// tera-data-parser's load test, with a fixture of our own that holds the
/// same facts: a map with two malformed lines (5: a code that is not a
/// number, 6: a name alone) among good ones, a def file name without a
/// version, a def with a malformed line (4), legacy `count`/`offset` lines
/// (17, 18) and a line nested too deep (21), and an empty def the map
/// lacks. Its suite expects seven problems; `check` reports each, and still
/// compares the defs with the good lines of the map.
#[test]
fn the_load_fixtures_of_tera_data_parser_give_all_seven_problems() {
    let dir = scratch("js-load");
    fs::create_dir_all(dir.join("map")).expect("mkdir");
    fs::create_dir_all(dir.join("protocol")).expect("mkdir");
    fs::write(
        dir.join("map/protocol.1.map"),
        "# a map with two malformed lines among good ones\n\nS_GOOD 1\nTEST_DEF 2\n\
         S_NO_NUMBER LATER\nlonely\n",
    )
    .expect("write");
    fs::write(dir.join("protocol/NO_VERSION.def"), "").expect("write");
    fs::write(dir.join("protocol/UNMAPPED.1.def"), "").expect("write");
    fs::write(
        dir.join("protocol/TEST_DEF.1.def"),
        "# malformed line, legacy meta lines, a line nested too deep\n\n\
         # the next line is not a field\nbroken\n\n# simple types\n\
         byte a\nint16 b\nint32 c\nint64 d\nuint16 e\nuint32 f\nuint64 g\nfloat h\n\n\
         # legacy meta lines\ncount list\noffset list\n\narray list\n- - int16 deep\n\
         - int32 element\n",
    )
    .expect("write");
    let out = run(&[&dir]);
    assert_eq!(
        text(&out.stdout),
        "checked 3 defs, 1 maps: 5 errors, 3 warnings\n"
    );
    let stderr = text(&out.stderr);
    for (problem, at) in [
        (
            "error[E050]: malformed map line: expected a decimal code",
            "protocol.1.map:5:",
        ),
        (
            "error[E050]: malformed map line: expected a code",
            "protocol.1.map:6:",
        ),
        ("error[E002]: bad def file name `NO_VERSION.def`", ""),
        ("error[E001]: syntax error", "TEST_DEF.1.def:4:"),
        ("warning[W005]: legacy `count list`", "TEST_DEF.1.def:17:1"),
        (
            "error[E020]: line nested more than one level deeper",
            "TEST_DEF.1.def:21:1",
        ),
        (
            "warning[W006]: `UNMAPPED` is not in protocol.1.map",
            "UNMAPPED.1.def:1:1",
        ),
    ] {
        let found = stderr
            .split("\n\n")
            .any(|d| d.contains(problem) && d.contains(at));
        assert!(found, "no `{problem}` at `{at}` in:\n{stderr}");
    }
    assert_eq!(out.status.code(), Some(1));
}

/// Two fields that are one name in Rust: valid defs (the dynamic path and
/// JSON keep both names), with a warning that names the Rust names.
#[test]
fn fields_of_one_rust_name_are_a_warning() {
    let dir = scratch("rust-names");
    fs::write(dir.join("S_FOO.1.def"), "uint32 fooBar\nuint32 foo_bar\n").expect("write");
    let out = run(&[&dir]);
    assert_eq!(text(&out.stdout), "checked 1 defs: 0 errors, 1 warnings\n");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "warning[W032]: fields `fooBar` and `foo_bar` of the packet are both `foo_bar` in \
             Rust: the second is `foo_bar_2`"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("S_FOO.1.def:2:8"), "{stderr}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn missing_path_is_an_error() {
    let dir = scratch("missing");
    let out = run(&[&dir.join("S_NONE.1.def")]);
    assert!(text(&out.stderr).contains("error[E003]"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_error_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_tera-defs"))
        .arg("check")
        .output()
        .expect("run tera-defs");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_tera-defs"))
        .arg("frobnicate")
        .output()
        .expect("run tera-defs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn corpus() {
    let Some(dir) = std::env::var_os("TERA_DATA_DIR") else {
        eprintln!("TERA_DATA_DIR is not set: skipping the corpus check");
        return;
    };
    let dir = PathBuf::from(dir);
    let out = run(&[&dir.join("definitions")]);
    let stdout = text(&out.stdout);
    eprintln!("{stdout}");
    assert_eq!(stdout, "checked 836 defs: 0 errors, 5 warnings\n");
    assert_eq!(out.status.code(), Some(0));
    let out = run(&[&dir.join("definitions"), &dir.join("maps")]);
    assert_eq!(
        text(&out.stdout),
        "checked 836 defs, 2 maps: 0 errors, 428 warnings\n"
    );
    // 423 of them: defs whose name protocol.365100.map does not have.
    assert_eq!(text(&out.stderr).matches("warning[W006]").count(), 423);
}
