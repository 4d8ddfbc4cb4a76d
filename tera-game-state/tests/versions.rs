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
    // Before patch 86 no S_LOGIN def is compiled in: reported, and not read.
    let p85 = GameState::new(GameConfig {
        patch: Some(85),
        ..GameConfig::default()
    });
    assert!(
        p85.unsupported().contains(&"S_LOGIN"),
        "{:?}",
        p85.unsupported()
    );
    assert!(
        GameState::new(GameConfig::default())
            .unsupported()
            .is_empty()
    );
}

/// Patch 100 (build 376012) reads the versions its build speaks, from the
/// project's defs: S_USER_STATUS.3 (4 is from 108), S_ITEMLIST.4 (6 from
/// 109), ...; the corpus compiled in has none of them.
#[cfg(not(tera_corpus))]
#[test]
fn patch_100_reads_its_build_s_versions() {
    use tera_data::packets::{s_abnormality_begin, s_user_status};
    let mut p100 = GameState::new(GameConfig {
        patch: Some(100),
        submodules: Submodules::all(),
        ..GameConfig::default()
    });
    assert_eq!(p100.unsupported(), Vec::<&str>::new());
    p100.feed_named("S_LOGIN", &login_v14(10101, "Old", 60));
    let status = bytes(&s_user_status::V3 {
        game_id: ME,
        status: 1,
        ..Default::default()
    });
    p100.feed_named("S_USER_STATUS", &status);
    assert_eq!(p100.me().status(), Some(1));
    let buff = bytes(&s_abnormality_begin::V4 {
        target: ME,
        id: 5506,
        stacks: 2,
        duration: 1000,
        ..Default::default()
    });
    p100.feed_named("S_ABNORMALITY_BEGIN", &buff);
    assert_eq!(p100.me().abnormality(5506).map(|a| a.stacks), Some(2));
    assert_eq!(p100.decode_failures().0, 0);
    // At 108 the same status packet is read as S_USER_STATUS.4, which it
    // is too short for.
    let mut p108 = GameState::new(GameConfig {
        patch: Some(108),
        ..GameConfig::default()
    });
    p108.feed_named("S_LOGIN", &login_v14(10101, "New", 60));
    p108.feed_named("S_USER_STATUS", &status);
    assert_eq!(p108.me().status(), Some(0));
    let (count, last) = p108.decode_failures();
    assert_eq!(count, 1);
    assert_eq!(
        last.map(|f| (f.name, f.version)),
        Some(("S_USER_STATUS", 4))
    );
}

/// Defs loaded at run time come first: a build's own S_USER_STATUS (here
/// with the status after another field) is read from its def; a def that
/// lacks a field game state reads is a failure naming the field, and the
/// state goes on.
#[test]
fn defs_loaded_at_run_time_are_read_by_field_name() {
    let mut catalog = tera_dynamic::Catalog::new();
    let add = |catalog: &mut tera_dynamic::Catalog, file: &str, text: &str| {
        catalog
            .add_def(file, text)
            .map_err(|r| r.render(false))
            .expect("the def loads");
    };
    add(
        &mut catalog,
        "S_USER_STATUS.99.def",
        "int32 unk\nuint64 gameId\nint32 status\n",
    );
    add(
        &mut catalog,
        "S_USER_LEVELUP.99.def",
        "uint64 gameId\nuint32 levels\n",
    );
    let catalog = Arc::new(catalog);
    let mut game = GameState::new(GameConfig {
        defs: Some(Arc::clone(&catalog)),
        ..GameConfig::default()
    });
    game.feed_named("S_LOGIN", &login(10101, "Ann", 60, 0, true));
    assert_eq!(game.me().name(), Some("Ann"), "S_LOGIN is compiled in");
    let schema = catalog.get("S_USER_STATUS", 99).expect("loaded");
    let mut record = schema.zero();
    record.try_set("gameId", ME).expect("a uint64");
    record.try_set("status", 3i32).expect("an int32");
    let packet = schema.encode(&record, 0).expect("encodes");
    assert_eq!(
        game.feed_named("S_USER_STATUS", &packet),
        [GameEvent::StartPegasus]
    );
    let levelup = catalog.get("S_USER_LEVELUP", 99).expect("loaded");
    let packet = levelup.encode(&levelup.zero(), 0).expect("encodes");
    assert!(game.feed_named("S_USER_LEVELUP", &packet).is_empty());
    let (count, last) = game.decode_failures();
    assert_eq!(count, 1);
    let last = last.expect("a failure");
    assert_eq!((last.name, last.version), ("S_USER_LEVELUP", 99));
    assert_eq!(
        last.error,
        tera_game_state::ReadError::Field {
            field: "level",
            expected: "a uint32"
        }
    );
    assert_eq!(game.me().level(), Some(60));
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
