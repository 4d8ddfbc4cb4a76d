//! Def versions by patch, submodules off until asked for, bad bytes.

mod common;

use std::sync::Arc;

use common::packets::*;
use tera_game_state::{GameConfig, GameEvent, GameState, Submodules};

#[test]
fn the_patch_picks_the_def_version() {
    // Patch 113 reads S_LOGIN.14; the newest (and 114) read S_LOGIN.15.
    let mut old = GameState::new(GameConfig {
        patch: Some(113),
        ..GameConfig::default()
    });
    old.feed_named("S_LOGIN", &login_v14(10101, "Old", 60));
    assert_eq!(old.me().name(), Some("Old"));
    assert_eq!(old.decode_failures().0, 0);
    let mut new = GameState::new(GameConfig::default());
    new.feed_named("S_LOGIN", &login(10101, "New", 60, 0, true));
    assert_eq!(new.me().name(), Some("New"));
    let mut v114 = GameState::new(GameConfig {
        patch: Some(114),
        ..GameConfig::default()
    });
    v114.feed_named("S_LOGIN", &login(10101, "New", 60, 0, true));
    assert_eq!(v114.me().name(), Some("New"));
    // Patch 100 has no def here for S_USER_STATUS (4 is from 108) nor
    // S_ITEMLIST (6 from 109): they are reported, and not read.
    let p100 = GameState::new(GameConfig {
        patch: Some(100),
        ..GameConfig::default()
    });
    let unsupported = p100.unsupported();
    for name in [
        "S_USER_STATUS",
        "S_ITEMLIST",
        "S_ABNORMALITY_BEGIN",
        "S_PARTY_MEMBER_LIST",
    ] {
        assert!(unsupported.contains(&name), "{unsupported:?}");
    }
    assert!(!unsupported.contains(&"S_LOGIN"));
    assert!(
        GameState::new(GameConfig::default())
            .unsupported()
            .is_empty()
    );
}

#[test]
fn submodules_cost_nothing_until_asked_for() {
    let map = Arc::new(tera_data::protocol_map().expect("a compiled-in map"));
    let mut game = GameState::new(GameConfig::default());
    game.bind(Arc::clone(&map));
    let default = game.opcodes_read();
    let code = map.code("S_PARTY_MEMBER_LIST").expect("in the map");
    let mut packet = party_list(&[(ME, PLAYER, SERVER, "Ann", 0)]);
    tera_data::set_opcode(&mut packet, code);
    assert!(game.feed(code, &packet).is_empty());
    assert!(game.party().is_none());
    game.initialize("party".parse::<Submodules>().expect("a name"));
    assert!(game.opcodes_read() > default);
    assert!(matches!(
        game.feed(code, &packet),
        [GameEvent::PartyList { .. }]
    ));
    assert!(game.party().expect("on").in_party());
    // Entities stay off: a user in sight feeds the party only.
    let spawn = spawn_user(9, SERVER, 6, "Cid", v(0.0, 0.0, 0.0));
    game.feed_named("S_SPAWN_USER", &spawn);
    assert!(game.entities().is_none());
    assert!("nope".parse::<Submodules>().is_err());
    assert_eq!(
        "me.abnormalities".parse::<Submodules>(),
        Ok(Submodules::ABNORMALITIES)
    );
}

#[test]
fn bad_bytes_are_counted_not_fatal() {
    let mut game = GameState::new(GameConfig::default());
    assert!(game.feed_named("S_LOGIN", &[1, 2, 3]).is_empty());
    let mut truncated = login(10101, "Ann", 60, 0, true);
    truncated.truncate(40);
    let len = u16::try_from(truncated.len()).unwrap().to_le_bytes();
    truncated[..2].copy_from_slice(&len);
    assert!(game.feed_named("S_LOGIN", &truncated).is_empty());
    let (count, last) = game.decode_failures();
    assert_eq!(count, 2);
    assert_eq!(last.map(|f| (f.name, f.version)), Some(("S_LOGIN", 15)));
    assert_eq!(game.me().game_id(), None);
    // And the state goes on.
    game.feed_named("S_LOGIN", &login(10101, "Ann", 60, 0, true));
    assert_eq!(game.me().name(), Some("Ann"));
}
