//! Versions chosen by fit on a real session: the live Classic+ server's
//! side of a login (build 376012), read with a def folder holding several
//! versions of many names (the public tera-data definitions and the defs
//! published for that build, loaded together, as a checkout's history
//! holds them).
//!
//! Reads `$TERA_SHARED_DIR/real-sessions` and `$TERA_SHARED_DIR/tera-data`
//! (default `../shared` beside the project); skips with a notice when they
//! are absent.

use std::path::PathBuf;

use tera_dynamic::Catalog;
use tera_sessions::{Events, Named, Namer, VersionRule};

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let needed = [
        "real-sessions/classic-plus-376012-server.jsonl",
        "tera-data/definitions",
    ];
    if needed.iter().all(|p| dir.join(p).exists()) {
        Some(dir)
    } else {
        eprintln!(
            "real_versions: no {}/real-sessions and tera-data; skipping",
            dir.display()
        );
        None
    }
}

/// Both def folders and the build's map. The published map has one alias
/// line on a code used before (`C_CANCEL_SKILL_STRICTLYY`); the loader
/// refuses such a map whole, so it is left out here: it names no packet of
/// the session.
fn catalog(shared: &std::path::Path) -> Catalog {
    let real = shared.join("real-sessions");
    let mut catalog = Catalog::new();
    catalog.load_dir(shared.join("tera-data/definitions"));
    catalog.load_dir(real.join("defs-376012"));
    let map = std::fs::read_to_string(real.join("protocol.376012.map")).unwrap();
    let mut codes = std::collections::HashSet::new();
    let lines: Vec<&str> = map
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_none_or(|code| codes.insert(code.to_owned()))
        })
        .collect();
    catalog
        .add_map_as(
            "protocol.376012.map (alias lines left out)",
            &lines.join("\n"),
            376_012,
        )
        .map_err(|r| r.render(false))
        .unwrap();
    catalog
}

fn read(namer: &mut Namer<'_>, path: &std::path::Path) -> Vec<Named> {
    let events: Vec<_> = Events::open(path).unwrap().map(Result::unwrap).collect();
    for event in &events {
        namer.learn(event);
    }
    events.iter().filter_map(|e| namer.name(e)).collect()
}

#[test]
fn versions_chosen_by_fit_read_what_the_latest_cannot() {
    let Some(shared) = shared() else { return };
    let set = catalog(&shared);
    let session = shared.join("real-sessions/classic-plus-376012-server.jsonl");
    let latest = read(
        &mut Namer::new(&set, None).versions(VersionRule::Latest),
        &session,
    );
    let fit = read(&mut Namer::new(&set, None), &session);
    assert_eq!(latest.len(), fit.len());
    let decoded = |named: &[Named]| named.iter().filter(|n| n.value.is_ok()).count();
    let (by_latest, by_fit) = (decoded(&latest), decoded(&fit));
    eprintln!(
        "real_versions: {by_fit} packets decode by fit, {by_latest} by latest, of {}",
        fit.len()
    );
    assert!(by_fit > by_latest, "{by_fit} by fit, {by_latest} by latest");
    // No packet the latest version reads is lost by fit.
    for (l, f) in latest.iter().zip(&fit) {
        assert!(
            l.value.is_err() || f.value.is_ok(),
            "{:?} / {:?}",
            l.def,
            f.def
        );
    }
    // S_SPAWN_NPC: the newest def fails on every packet of the session; an
    // older one fits them all, with no byte to spare.
    let npc: Vec<&Named> = fit
        .iter()
        .filter(|n| n.def.as_ref().is_some_and(|d| d.name() == "S_SPAWN_NPC"))
        .collect();
    assert!(!npc.is_empty());
    let newest = set.latest("S_SPAWN_NPC").unwrap().version();
    assert!(npc.iter().all(|n| n.exact == Some(true) && n.value.is_ok()));
    assert!(
        npc.iter()
            .all(|n| n.def.as_ref().unwrap().version() < newest)
    );
    let record = npc[0].record().unwrap();
    assert!(record.u64("gameId").is_ok(), "{:?}", record.field("gameId"));
}
