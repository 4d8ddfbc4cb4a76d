//! The scripted session with every def loaded at run time (the project's
//! own `defs/`, read by `tera_dynamic`): each packet is read by its def's
//! field names, and gives the same events and state as compiled in.

mod common;

use std::sync::Arc;

use tera_dynamic::Catalog;
use tera_game_state::{GameConfig, GameState, Submodules};

/// The project's defs, or a notice that the test is skipped (a packaged
/// crate has no `../defs`).
fn own_defs() -> Option<Catalog> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../defs");
    if !dir.is_dir() {
        eprintln!("skipping: no {} (the project's defs)", dir.display());
        return None;
    }
    let mut catalog = Catalog::new();
    catalog.load_dir(&dir);
    assert!(catalog.problems().is_empty(), "the project's defs load");
    Some(catalog)
}

#[test]
fn scripted_session_over_defs_loaded_at_run_time() {
    let Some(defs) = own_defs() else { return };
    let mut game = GameState::new(GameConfig {
        submodules: Submodules::all(),
        defs: Some(Arc::new(defs)),
        ..GameConfig::default()
    });
    let mut loaded = 0;
    for (i, step) in common::script::session().into_iter().enumerate() {
        let events = game.feed_named(step.name, &step.packet).to_vec();
        assert_eq!(events, step.events, "step {i}: {}", step.name);
        (step.check)(&game);
        loaded += usize::from(step.packet.len() > 4);
    }
    assert_eq!(game.decode_failures(), (0, None));
    assert!(loaded > 40, "{loaded} packets with fields");
    // Bound to a map, every packet with a def is read from the loaded defs.
    game.bind(Arc::new(
        tera_data::protocol_map().expect("a compiled-in map"),
    ));
    let versions = game.versions_read();
    assert!(versions.len() > 40, "{versions:?}");
    for (name, version, from_defs) in versions {
        assert!(from_defs || version == 0, "{name}.{version} compiled in");
    }
}
