//! The scripted session fed straight to a game state: the events of each
//! packet, in order, and the state after it.

mod common;

use std::sync::Arc;

use tera_game_state::{GameConfig, GameState, Submodules};

fn all() -> Submodules {
    Submodules::all()
}

#[test]
fn scripted_session_by_name() {
    let mut game = GameState::new(GameConfig {
        submodules: all(),
        ..GameConfig::default()
    });
    for (i, step) in common::script::session().into_iter().enumerate() {
        let events = game.feed_named(step.name, &step.packet).to_vec();
        assert_eq!(events, step.events, "step {i}: {}", step.name);
        (step.check)(&game);
    }
    assert_eq!(game.decode_failures().0, 0);
}

#[test]
fn scripted_session_by_opcode() {
    let map = Arc::new(tera_data::protocol_map().expect("a compiled-in map"));
    let mut game = GameState::new(GameConfig {
        submodules: all(),
        ..GameConfig::default()
    });
    game.bind(Arc::clone(&map));
    for (i, step) in common::script::session().into_iter().enumerate() {
        let Some(code) = map.code(step.name) else {
            // The corpus's map lacks a few names (TTB_*): no opcode, no packet.
            continue;
        };
        let mut packet = step.packet;
        tera_data::set_opcode(&mut packet, code);
        let events = game.feed(code, &packet).to_vec();
        assert_eq!(events, step.events, "step {i}: {}", step.name);
        (step.check)(&game);
    }
}
