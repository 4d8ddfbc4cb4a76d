//! The real 2024 Classic+ session (build 376012, patch 100) through game
//! state, with the compiled-in defs and again with the build's defs loaded
//! at run time: the state after the last packet before `S_EXIT` both ways.
//!
//! ```text
//! cargo run -p tera-game-state --example real_session [-- REAL_SESSIONS_DIR]
//! ```
//!
//! The folder holds `classic-plus-376012-server.jsonl`,
//! `protocol.376012.map` and `defs-376012/` (default: `TERA_REAL_SESSIONS`,
//! else `../shared/real-sessions` beside the workspace).

mod feed;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => feed::real_sessions(),
    };
    let Some(dir) = dir else {
        eprintln!("no real session: set TERA_REAL_SESSIONS or name its folder");
        return ExitCode::FAILURE;
    };
    match show(&dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}

/// Prints both runs; whether they agree, with nothing unread.
fn show(dir: &std::path::Path) -> Result<bool, Box<dyn std::error::Error>> {
    let compiled = feed::run(dir, None)?;
    let loaded = feed::run(dir, Some(feed::defs(dir)?))?;
    let mut clean = true;
    for (how, run) in [
        ("compiled-in defs", &compiled),
        ("defs loaded at run time", &loaded),
    ] {
        let (failures, last) = run.game.decode_failures();
        let unsupported = run.game.unsupported();
        println!("== {how}: patch {}", feed::PATCH);
        println!(
            "{} packets read, {failures} decode failures{}, unsupported at this patch: {unsupported:?}",
            run.read,
            last.map(|f| format!(" (last: {}.{}: {})", f.name, f.version, f.error))
                .unwrap_or_default()
        );
        print!("{}", run.summary);
        clean &= failures == 0 && unsupported.is_empty();
    }
    let same = compiled.before_exit == loaded.before_exit;
    println!(
        "the state before S_EXIT, every property: {}",
        if same {
            "the same both ways"
        } else {
            "DIFFERS"
        }
    );
    Ok(clean && same)
}
