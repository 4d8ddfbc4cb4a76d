//! State as tera-game-state has it: the connection's `serverId` before
//! login and after leaving, abnormality times in wall-clock milliseconds by
//! a clock the test sets (nothing sleeps), an `S_LOGIN` of a template the
//! data center lacks, `data` rows of items and abnormalities.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::packets::*;
use tera_game_state::{
    DataCenterSource, GameConfig, GameData, GameEvent, GameState, ManualClock, Submodules,
};

/// The differential sessions' data center: a few templates, zones, items
/// and abnormalities.
fn data() -> Arc<GameData> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("differential/datacenter");
    Arc::new(GameData::load(&DataCenterSource::Sheets(dir)).expect("the sheets"))
}

#[test]
fn server_id_is_the_connections_before_login_and_after_leaving() {
    let mut game = GameState::new(GameConfig {
        server_id: Some(2800),
        ..GameConfig::default()
    });
    assert_eq!(
        (game.server_id(), game.me().server_id()),
        (Some(2800), Some(2800))
    );
    // S_LOGIN names server 27: tera-game-state's `me.serverId` stays the
    // connection's.
    game.feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, true));
    assert_eq!(game.me().server_id(), Some(2800));
    game.feed_named("S_RETURN_TO_LOBBY", &empty());
    assert_eq!(
        (game.me().game_id(), game.me().server_id()),
        (None, Some(2800))
    );

    // Without the connection's: S_LOGIN's while in game.
    let mut game = GameState::new(GameConfig::default());
    assert_eq!(game.me().server_id(), None);
    game.feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, true));
    assert_eq!(game.me().server_id(), Some(SERVER));
    game.feed_named("S_EXIT", &empty());
    assert_eq!(game.me().server_id(), None);
}

#[test]
fn abnormality_times_are_wall_clock_milliseconds_of_the_given_clock() {
    let clock = ManualClock::new(1_700_000_000_000);
    let mut game = GameState::new(GameConfig {
        submodules: Submodules::ABNORMALITIES,
        clock: clock.clock(),
        data: data(),
        ..GameConfig::default()
    });
    game.feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, true));
    game.feed_named(
        "S_ABNORMALITY_BEGIN",
        &abnormality_begin(ME, 4830, 10_000, 1),
    );
    let a = game.me().abnormality(4830).expect("begun").clone();
    assert_eq!(a.until, 1_700_000_010_000);
    assert_eq!(a.remaining(game.now_ms()), 10_000);
    let data = a.data.as_ref().expect("a row");
    assert_eq!(data.name.as_deref(), Some("Brave Noctenium Elixir"));
    assert_eq!((data.time, data.effects.len()), (Some(3_600_000), 2));

    clock.advance(4_000);
    assert_eq!(a.remaining(game.now_ms()), 6_000);
    // Past its end it stays, with nothing left, until S_ABNORMALITY_END
    // (tera-game-state has no timer either).
    clock.advance(20_000);
    assert_eq!(
        game.me()
            .abnormality(4830)
            .map(|a| a.remaining(game.now_ms())),
        Some(0)
    );
    // A refresh counts from the clock's now.
    game.feed_named(
        "S_ABNORMALITY_REFRESH",
        &abnormality_refresh(ME, 4830, 1_000, 2),
    );
    assert_eq!(
        game.me().abnormality(4830).map(|a| a.until),
        Some(1_700_000_025_000)
    );
    // One the data center lacks has no row.
    game.feed_named("S_ABNORMALITY_BEGIN", &abnormality_begin(ME, 999, 1_000, 1));
    assert!(game.me().abnormality(999).is_some_and(|a| a.data.is_none()));
}

#[test]
fn a_login_of_an_unknown_template_stops_after_the_ids_as_tera_game_state() {
    let mut game = GameState::new(GameConfig {
        data: data(),
        ..GameConfig::default()
    });
    game.feed_named("S_GET_USER_LIST", &empty());
    let events = game
        .feed_named("S_LOGIN", &login(12345, "Ann", 65, 1, true))
        .to_vec();
    // The hook throws after the ids and the template id; the session's
    // hook still enters the game.
    assert_eq!(
        events,
        [
            GameEvent::EnterLoadingScreen,
            GameEvent::LeaveCharacterLobby,
            GameEvent::EnterGame
        ]
    );
    let me = game.me();
    assert_eq!(
        (me.game_id(), me.player_id(), me.template_id()),
        (Some(ME), Some(PLAYER), Some(12345))
    );
    assert_eq!(
        (me.name(), me.level(), me.status(), me.alive(), me.class()),
        (None, None, None, None, None)
    );
    // A known template at a re-login in game fills the rest, without
    // entering the game again.
    let events = game
        .feed_named("S_LOGIN", &login(10106, "Ann", 65, 1, true))
        .to_vec();
    assert!(
        matches!(
            events[..],
            [
                GameEvent::ChangeTemplate {
                    template_id: 10106,
                    ..
                },
                GameEvent::EnterCombat
            ]
        ),
        "{events:?}"
    );
    assert_eq!(
        (game.me().name(), game.me().level()),
        (Some("Ann"), Some(65))
    );
}

#[test]
fn items_carry_their_data_center_row_and_none_without_one() {
    let part = || ListPart {
        container: 0,
        pocket: 0,
        num_pockets: 1,
        money: 10,
        first: true,
        more: false,
        last_in_batch: true,
    };
    for (data, named) in [
        (data(), Some("Prime Recovery Potable")),
        (Arc::new(GameData::none()), None),
    ] {
        let mut game = GameState::new(GameConfig {
            submodules: Submodules::INVENTORY,
            data: Arc::clone(&data),
            ..GameConfig::default()
        });
        game.feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, true));
        game.feed_named("S_ITEMLIST", &itemlist(part(), vec![item(0, 6560, 3)]));
        let inventory = game.inventory().expect("on");
        let potion = inventory.bag_items().next().expect("an item");
        assert_eq!(potion.data.as_ref().and_then(|d| d.name.as_deref()), named);
        assert_eq!(data.item(6560).and_then(|d| d.name.as_deref()), named);
    }
}

#[test]
fn id_zero_contracts_and_vehicles_and_a_death_at_login_as_tera_game_state() {
    let mut game = GameState::new(GameConfig {
        submodules: Submodules::CONTRACT,
        ..GameConfig::default()
    });
    game.feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, true));
    // A contract of id 0: kept, not active (`!!id`).
    game.feed_named("S_REQUEST_CONTRACT", &request_contract(4, 0));
    let contract = game.contract().expect("on");
    assert_eq!(
        (contract.active(), contract.kind(), contract.id()),
        (false, Some(4), Some(0))
    );
    // A vehicle of id 0: `dismount`, not mounted (`!!mountId`).
    let events = game
        .feed_named("S_MOUNT_VEHICLE", &mount(ME, 0, 5))
        .to_vec();
    assert_eq!(events, [GameEvent::Dismount]);
    assert!(!game.me().mounted());
    assert_eq!(game.me().mount_id(), Some(0));
    // A re-login saying the player is dead ends the contract, as `me.die`
    // does.
    game.feed_named("S_REQUEST_CONTRACT", &request_contract(4, 7));
    assert!(game.contract().is_some_and(|c| c.active()));
    let events = game
        .feed_named("S_LOGIN", &login(10106, "Ann", 65, 0, false))
        .to_vec();
    assert!(events.contains(&GameEvent::Die), "{events:?}");
    assert_eq!(game.contract().and_then(|c| c.id()), None);
}
