//! The scripted session through a proxy connection: the scripted client
//! and server send each packet from its side, game state is fed by the
//! connection's feeder, and a mod checks, on each packet, the events its
//! subscriber was handed and the state it reads.

mod common;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::packets::{ME, load_topo, login, spawn_me, v};
use common::script::{Step, session};
use tera_data::packets::{c_login_arbiter, s_spawn_me, s_user_levelup};
use tera_game_state::{Game, GameConfig, GameEvent, GameState, Submodules};
use tera_proxy::harness::TestPeers;
use tera_proxy::{Connection, HookError, MapSource, Mod, ProxyConfig, Setup, Verdict};

/// Checks each packet of the script as a mod reads game state.
struct Checker {
    game: Game,
    steps: VecDeque<Step>,
    /// Events handed to the subscriber since the last packet.
    seen: Vec<GameEvent>,
    checked: Arc<AtomicUsize>,
}

impl Mod for Checker {
    const NAME: &'static str = "checker";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(
            self.game
                .on_event(|me: &mut Checker, _, event| me.seen.push(event.clone())),
        );
        setup.hook(Self::raw("*", |me, event, _| {
            let Some(name) = event.name() else {
                // The end marks.
                return Verdict::Pass;
            };
            let step = me.steps.pop_front().expect("a step for each packet");
            assert_eq!(name, step.name);
            let seen = std::mem::take(&mut me.seen);
            assert_eq!(seen, step.events, "{name}");
            (step.check)(&me.game.state());
            me.checked.fetch_add(1, Ordering::Relaxed);
            Verdict::Pass
        }));
        Ok(())
    }
}

/// A connection on the test map with game state (every submodule) in its
/// context, and that game state.
fn connection() -> (Connection, Game) {
    let config = ProxyConfig {
        maps: MapSource::test_map(),
        ..ProxyConfig::default()
    };
    let game_state = Game::setup(GameConfig {
        submodules: Submodules::all(),
        ..GameConfig::default()
    });
    let conn = Connection::set_up(config, &[&game_state]).unwrap();
    let game = conn.context().need().unwrap();
    (conn, game)
}

#[tokio::test]
async fn scripted_session_through_the_proxy() {
    let map = std::sync::Arc::new(tera_data::protocol_map().unwrap());
    let steps: VecDeque<Step> = session()
        .into_iter()
        // The corpus's map lacks a few names (TTB_*): no opcode, no packet.
        .filter(|s| map.code(s.name).is_some())
        .collect();
    let packets: Vec<Vec<u8>> = steps
        .iter()
        .map(|s| {
            let mut p = s.packet.clone();
            tera_data::set_opcode(&mut p, map.code(s.name).expect("filtered"));
            p
        })
        .collect();
    let total = steps.len();
    let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
    let checked = Arc::new(AtomicUsize::new(0));

    let (conn, game) = connection();
    conn.add_mod(Checker {
        game: game.clone(),
        steps,
        seen: Vec::new(),
        checked: Arc::clone(&checked),
    })
    .unwrap();

    let mut play = TestPeers::start(conn).await;
    for (p, step) in packets.iter().zip(&names) {
        let got = play.send_named(step, p.clone()).await;
        // Game state changes nothing: each packet arrives as it was sent.
        let arrived: Vec<&Vec<u8>> = got.client.iter().chain(&got.server).collect();
        assert_eq!(arrived, [p]);
    }
    play.finish().await;
    assert_eq!(checked.load(Ordering::Relaxed), total);
    assert_eq!(game.state().decode_failures().0, 0);
}

/// Injects a level-up towards the client on `S_SPAWN_ME`.
struct Injector;

impl Mod for Injector {
    const NAME: &'static str = "injector";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_spawn_me::V3>(|_, event, _| {
            event
                .send(&s_user_levelup::V2 {
                    game_id: ME,
                    level: 70,
                })
                .unwrap();
            Verdict::Pass
        }));
        Ok(())
    }
}

#[tokio::test]
async fn game_state_reads_injected_packets_too() {
    let (conn, game) = connection();
    conn.add_mod(Injector).unwrap();
    let mut play = TestPeers::start(conn).await;
    play.send_named("S_LOGIN", login(10101, "Ann", 65, 0, true))
        .await;
    let origin = v(0.0, 0.0, 0.0);
    let got = play
        .send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
    assert_eq!(got.expect::<s_user_levelup::V2>().level, 70);
    assert_eq!(game.state().me().level(), Some(70));
    play.finish().await;
}

/// Says each new zone: the README's mod, game state from the connection's
/// context.
struct Zones;

impl Mod for Zones {
    const NAME: &'static str = "zones";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        Game::subscribe(setup, |_, event, game_event| {
            if let GameEvent::ChangeZone { zone, .. } = game_event {
                event.message(format!("zone {zone}"));
            }
        })?;
        Ok(())
    }
}

#[tokio::test]
async fn a_mod_finds_game_state_in_the_connections_context() {
    let (conn, game) = connection();
    conn.add_mod(Zones).unwrap();
    let mut play = TestPeers::start(conn).await;
    let origin = v(0.0, 0.0, 0.0);
    play.send_named("S_LOGIN", login(10101, "Ann", 65, 0, true))
        .await;
    let got = play
        .send_named("S_LOAD_TOPO", load_topo(9713, origin, false))
        .await;
    assert_eq!(got.messages(), ["zone 9713"]);
    assert_eq!(game.with(|s| s.me().zone()), Some(9713));
    // The same zone again is no change.
    play.send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
    let got = play
        .send_named("S_LOAD_TOPO", load_topo(9713, origin, false))
        .await;
    assert!(got.messages().is_empty(), "{:?}", got.names());
    play.finish().await;
}

#[tokio::test]
async fn game_state_reads_the_versions_of_the_patch_the_clients_login_says() {
    let (conn, game) = connection();
    let mut play = TestPeers::start(conn).await;
    assert_eq!(game.with(GameState::patch), None, "the newest until told");
    let login = c_login_arbiter::V2 {
        language: 6,
        patch_version: 9205,
        name: "ann".into(),
        ..Default::default()
    };
    play.send(&login).await;
    assert_eq!(play.handle.patch(), Some((92, 5)));
    assert_eq!(game.with(GameState::patch), Some(92));
    // The login itself was read by the state made at that patch.
    assert_eq!(
        game.with(|s| s.session().account_name().map(str::to_owned)),
        Some("ann".to_owned())
    );
    play.finish().await;
}
