//! The real 2024 Classic+ session (build 376012, patch 100; `TERA_REAL_SESSIONS`
//! or `../shared/real-sessions`) through game state: everything it reads
//! decodes, and the state before `S_EXIT` is the same with the compiled-in
//! defs and with the build's defs loaded at run time.

#[path = "../examples/real_session/feed.rs"]
mod feed;

/// The folder, or a notice that the test is skipped.
fn folder() -> Option<std::path::PathBuf> {
    let dir = feed::real_sessions();
    if dir.is_none() {
        eprintln!("skipping: no real session (set TERA_REAL_SESSIONS to ../shared/real-sessions)");
    }
    dir
}

/// What the session's packets say, as `tera-defs capture --defs
/// defs-376012` decodes them (the command's own decoder, not game state):
/// 44 packets game state reads (C_LOGIN_ARBITER, S_LOGIN_ACCOUNT_INFO,
/// S_GET_USER_LIST, S_SELECT_USER, S_LOGIN.14, S_LOAD_TOPO, S_SPAWN_ME,
/// S_LOAD_EP_INFO.2, S_CREST_INFO, 2 S_INVEN_USERDATA, 4 S_ITEMLIST.4,
/// S_USER_STATUS.3, 4 S_ABNORMALITY_BEGIN.4 (one on the player), S_SPAWN_USER,
/// 15 S_SPAWN_NPC.11, 7 S_USER_LOCATION.5, S_EXIT); the player Catanna,
/// level 70, zone 2800; a bag of 72 slots with 42 items and 4,116,480
/// money; 16 items in 24 equipment slots; EP perks: none learned.
fn check(run: &feed::Run) {
    let (failures, last) = run.game.decode_failures();
    assert_eq!(failures, 0, "{last:?}");
    assert_eq!(run.game.unsupported(), Vec::<&str>::new());
    assert_eq!(run.read, 44);
    let summary = &run.summary;
    for fact in [
        "name Catanna, level 70, zone 2800, class Some(Priest), status Some(0)",
        "money Some(4116480); bag 72 slots, 42 used",
        "equipment 24 slots, 16 used",
        "abnormalities (id, stacks): [(5506, 1)]",
        "party: 0 member(s)",
        "EP perks: 0",
        "entities in sight: 16",
    ] {
        assert!(summary.contains(fact), "{fact}\n{summary}");
    }
    // After S_EXIT: out of the game, the state reset.
    assert!(!run.game.is_ingame());
    assert_eq!(run.game.me().name(), None);
}

#[test]
fn the_build_s_defs_loaded_at_run_time_read_every_packet() {
    let Some(dir) = folder() else { return };
    let loaded = feed::run(&dir, Some(feed::defs(&dir).expect("the defs load"))).expect("a run");
    check(&loaded);
    assert!(
        loaded.before_exit.contains("Some(\"Catanna\")"),
        "{}",
        loaded.before_exit
    );
    // Every packet with a def is read from the loaded defs (the others,
    // version 0, by name only), in the versions the build speaks.
    let versions = loaded.game.versions_read();
    for (name, version, from_defs) in &versions {
        assert!(*from_defs || *version == 0, "{name}.{version} compiled in");
    }
    for read in [
        ("S_ITEMLIST", 4, true),
        ("S_USER_LOCATION", 5, true),
        ("S_LOGIN", 14, true),
    ] {
        assert!(versions.contains(&read), "{read:?} in {versions:?}");
    }
}

#[cfg(not(tera_corpus))]
#[test]
fn compiled_and_loaded_defs_give_the_same_state() {
    let Some(dir) = folder() else { return };
    let compiled = feed::run(&dir, None).expect("a run");
    check(&compiled);
    let loaded = feed::run(&dir, Some(feed::defs(&dir).expect("the defs load"))).expect("a run");
    assert_eq!(compiled.before_exit, loaded.before_exit);
    assert_eq!(compiled.game.events(), loaded.game.events());
}

#[cfg(tera_corpus)]
#[test]
fn compiled_and_loaded_defs_give_the_same_state() {
    eprintln!(
        "skipping: the corpus compiled in lacks the patch-100 versions (the project's defs hold them)"
    );
}
