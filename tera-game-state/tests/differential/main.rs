//! The differential test against tera-toolbox's tera-game-state: the
//! sessions of `differential/sessions/` fed to game state, packet by
//! packet, against the traces the real module wrote
//! (`differential/traces/`, by `node differential/run.js CHECKOUT`; see
//! `differential/README.md`). Every difference is one of the deliberate
//! ones (`compare::DELIBERATE`, the README's "Differences from
//! tera-game-state") or the test fails.

mod compare;
mod packets;
mod snapshot;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;
use tera_game_state::{
    DataCenterSource, GameConfig, GameData, GameEvent, GameState, ManualClock, Submodules,
};

use compare::{Counts, KickFilter};

fn differential() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("differential")
}

/// The project's defs (the workspace's `defs/`); outside the workspace (a
/// packaged crate) the tests say so and check nothing.
fn defs() -> Option<PathBuf> {
    let dir = differential().join("../../defs");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: no project defs at {}", dir.display());
        None
    }
}

/// The session files of `dir/sessions`.
fn sessions(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir.join("sessions"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".json"))
        .collect();
    files.sort();
    files
}

fn read_json(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs one session through game state and compares it with its trace;
/// returns the counts and every difference no deliberate one explains.
fn diff(file: &str) -> (Counts, Vec<String>) {
    diff_in(&differential(), file)
}

/// [`diff`] of the session `file` in `dir` (`sessions/`, `traces/`, and
/// `datacenter/`, this crate's when `dir` has none).
fn diff_in(dir: &Path, file: &str) -> (Counts, Vec<String>) {
    let session = read_json(&dir.join("sessions").join(file));
    let trace = read_json(&dir.join("traces").join(file));
    assert_eq!(trace["session"], file, "the trace of {file}");
    let catalog = packets::catalog(&defs().expect("the project's defs"));
    let sheets = Some(dir.join("datacenter"))
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| differential().join("datacenter"));
    let data =
        GameData::load(&DataCenterSource::Sheets(sheets)).expect("the sessions' data center");
    let mut submodules = Submodules::empty();
    for name in session["submodules"].as_array().expect("submodules") {
        submodules |= name
            .as_str()
            .expect("a name")
            .parse::<Submodules>()
            .expect("a submodule");
    }
    let clock = ManualClock::new(session["clock"].as_i64().expect("clock"));
    let mut game = GameState::new(GameConfig {
        patch: session["patch"]
            .as_u64()
            .map(|p| u32::try_from(p).expect("a patch")),
        data: Arc::new(data),
        submodules,
        server_id: session["serverId"]
            .as_u64()
            .map(|s| u32::try_from(s).expect("a server")),
        clock: clock.clock(),
        defs: None,
    });
    let steps = session["steps"].as_array().expect("steps");
    let traced = trace["steps"].as_array().expect("trace steps");
    assert_eq!(
        steps.len(),
        traced.len(),
        "{file}: the trace is of another session; regenerate it"
    );
    let (mut counts, mut unexplained, mut kick) =
        (Counts::default(), Vec::new(), KickFilter::default());
    for (index, (step, js)) in steps.iter().zip(traced).enumerate() {
        let name = step["name"].as_str().expect("a packet name");
        let packet = match step["version"].as_u64() {
            Some(version) => format!("{name}.{version}"),
            None => name.to_owned(),
        };
        assert_eq!(
            js["packet"], packet,
            "{file} step {index}: the trace is of another session; regenerate it"
        );
        if let Some(time) = step["time"].as_i64() {
            assert_eq!(
                js["time"], time,
                "{file} step {index}: regenerate the trace"
            );
        }
        clock.set(js["time"].as_i64().expect("the step's time"));
        let bytes = packets::encode(&catalog, name, step["version"].as_u64(), &step["fields"]);
        let events: Vec<GameEvent> = game.feed_named(name, &bytes).to_vec();
        assert_eq!(
            game.decode_failures().0,
            0,
            "{file} step {index} {name}: {:?}",
            game.decode_failures().1
        );
        let all = events.len();
        let rust_events: Vec<Json> = events.iter().filter_map(snapshot::event).collect();
        counts.rust_only_events += all - rust_events.len();
        let js_events = js["events"].as_array().expect("events");
        kick.step(&packet, &step["fields"], js_events);
        let rust_state = snapshot::state(&game);
        let found = compare::packet(
            js_events,
            &rust_events,
            &js["state"],
            &rust_state,
            &kick,
            &mut counts,
        );
        kick.seen(&rust_state);
        unexplained.extend(
            found
                .into_iter()
                .map(|d| format!("{file} step {index} ({name}): {d}")),
        );
    }
    (counts, unexplained)
}

fn report(file: &str, counts: &Counts) {
    eprintln!(
        "{file}: packets equal {}/{} (+{} equal but for deliberate differences), properties equal {}/{} (+{} deliberate), {} events only game state emits",
        counts.packets_equal,
        counts.packets,
        counts.packets_deliberate,
        counts.properties_equal,
        counts.properties,
        counts.properties_deliberate,
        counts.rust_only_events,
    );
    for (why, packets) in &counts.by_difference {
        eprintln!("  {why}: {packets} packets");
    }
}

#[test]
fn the_tour_of_every_submodule_equals_tera_game_state() {
    if defs().is_none() {
        return;
    }
    let (counts, unexplained) = diff("tour.json");
    report("tour.json", &counts);
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    assert_eq!(counts.packets, 64);
    // Only the glyph ids differ: from the first S_CREST_INFO until leaving
    // the game.
    let glyphs: Vec<_> = counts.by_difference.keys().copied().collect();
    assert_eq!(glyphs, ["glyph ids"]);
    assert_eq!(
        counts.packets_equal + counts.packets_deliberate,
        counts.packets
    );
}

#[test]
fn corner_cases_equal_tera_game_state_but_for_the_listed_differences() {
    if defs().is_none() {
        return;
    }
    let (counts, unexplained) = diff("corners.json");
    report("corners.json", &counts);
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    assert_eq!(counts.packets, 27);
    assert_eq!(
        counts.packets_equal + counts.packets_deliberate,
        counts.packets
    );
    // The kick filter and the stranger's class are in this session.
    let found: Vec<_> = counts.by_difference.keys().copied().collect();
    assert_eq!(found, ["kick filter", "left member's class"]);
}

/// Every session with a trace, here and in `TERA_GAME_STATE_DIFF` (a
/// folder of `sessions/` and `traces/` written by `run.js --dir`): no
/// difference but the listed ones.
#[test]
fn every_session_differs_only_as_listed() {
    if defs().is_none() {
        return;
    }
    let mut dirs = vec![differential()];
    match std::env::var_os("TERA_GAME_STATE_DIFF") {
        Some(extra) => dirs.push(PathBuf::from(extra)),
        None => eprintln!("TERA_GAME_STATE_DIFF unset: only this crate's sessions"),
    }
    let mut total = Counts::default();
    for dir in dirs {
        for file in sessions(&dir) {
            let (counts, unexplained) = diff_in(&dir, &file);
            report(&format!("{}/{file}", dir.display()), &counts);
            assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
            total.packets += counts.packets;
            total.packets_equal += counts.packets_equal;
            total.packets_deliberate += counts.packets_deliberate;
            total.properties += counts.properties;
            total.properties_equal += counts.properties_equal;
            total.properties_deliberate += counts.properties_deliberate;
        }
    }
    assert!(total.packets >= 91, "{total:?}");
    eprintln!(
        "all: packets {}/{} equal (+{} deliberate), properties {}/{} equal (+{} deliberate)",
        total.packets_equal,
        total.packets,
        total.packets_deliberate,
        total.properties_equal,
        total.properties,
        total.properties_deliberate
    );
}

#[test]
fn traces_name_the_module_commit_they_came_from() {
    for file in sessions(&differential()) {
        let trace = read_json(&differential().join("traces").join(file));
        assert_eq!(trace["module"], "tera-toolbox/tera-game-state");
        let commit = trace["commit"].as_str().expect("a commit");
        assert!(
            commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{commit}"
        );
    }
}

#[test]
fn every_deliberate_difference_quotes_its_line() {
    for (name, line) in compare::DELIBERATE {
        assert!(
            line.starts_with("lib/") && line.len() > 20,
            "{name}: {line}"
        );
    }
}

/// The comparison fails on what it should: a trace with one property
/// changed and one event more.
#[test]
fn a_changed_trace_is_caught() {
    if defs().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    for sub in ["sessions", "traces"] {
        std::fs::create_dir(tmp.path().join(sub)).expect("a folder");
    }
    let from = differential();
    std::fs::copy(
        from.join("sessions/tour.json"),
        tmp.path().join("sessions/tour.json"),
    )
    .expect("the session");
    let mut trace = read_json(&from.join("traces/tour.json"));
    trace["steps"][10]["state"]["me"]["level"] = serde_json::json!(99);
    let extra = serde_json::json!({ "name": "me.die", "args": [] });
    trace["steps"][5]["events"]
        .as_array_mut()
        .expect("events")
        .push(extra);
    std::fs::write(
        tmp.path().join("traces/tour.json"),
        serde_json::to_string(&trace).expect("JSON"),
    )
    .expect("the trace");
    let (counts, unexplained) = diff_in(tmp.path(), "tour.json");
    assert_eq!(unexplained.len(), 2, "{unexplained:#?}");
    assert!(unexplained[0].contains("step 5 (S_LOAD_TOPO): events"));
    assert!(unexplained[1].contains("step 10 (S_ITEMLIST): me.level: JS 99, Rust 65"));
    assert_eq!(counts.packets_equal + counts.packets_deliberate, 62);
}
