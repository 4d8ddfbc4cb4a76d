//! The four ports of tera-toolbox mods (`examples/mods/`), each on a
//! relayed connection with game state, driven by the scripted client and
//! server one packet at a time.

mod common;

#[path = "../examples/mods/auto_loot.rs"]
mod auto_loot;
#[path = "../examples/mods/auto_vanguard.rs"]
mod auto_vanguard;
#[path = "../examples/mods/camera_distance.rs"]
mod camera_distance;
#[path = "../examples/mods/enrage_notifier.rs"]
mod enrage_notifier;

use std::path::Path;
use std::time::Duration;

use common::packets::*;
use tera_data::packets::{
    c_chat, c_complete_daily_event, c_complete_extra_event, c_try_loot_dropitem,
    s_complete_event_matching_quest, s_despawn_dropitem, s_dungeon_camera_set,
    s_dungeon_event_message, s_npc_status, s_spawn_dropitem,
};
use tera_game_state::{Game, GameConfig, Submodules};
use tera_proxy::Mod;
use tera_proxy::harness::{Arrived, TestPeers};
use tera_proxy::{Connection, MapSource, ProxyConfig};

const BOSS: u64 = 0x0400_0000_0000_0009;

fn replies(got: &Arrived) -> Vec<String> {
    got.messages()
}

/// A relayed connection with game state (every submodule) and the mod
/// `make` builds on it.
async fn play<M: Mod>(settings: Option<&Path>, make: impl FnOnce(Game) -> M) -> (TestPeers, Game) {
    let config = ProxyConfig {
        maps: MapSource::test_map(),
        settings_dir: settings.map(ToOwned::to_owned),
        ..ProxyConfig::default()
    };
    let game_state = Game::setup(GameConfig {
        submodules: Submodules::all(),
        ..GameConfig::default()
    });
    let conn = Connection::set_up(config, &[&game_state]).unwrap();
    let game: Game = conn.context().need().unwrap();
    conn.add_mod(make(game.clone())).unwrap();
    (TestPeers::start(conn).await, game)
}

/// Logs in as `name` and loads `zone` at the origin.
async fn enter(play: &mut TestPeers, name: &str, zone: i32) {
    let origin = v(0.0, 0.0, 0.0);
    play.send_named("S_LOGIN", login(10101, name, 65, 0, true))
        .await;
    play.send_named("S_LOAD_TOPO", load_topo(zone, origin, false))
        .await;
    play.send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
}

async fn end(play: TestPeers) {
    play.finish().await;
}

fn status(enraged: bool, remaining_enrage_time: i32) -> s_npc_status::V2 {
    s_npc_status::V2 {
        game_id: BOSS,
        enraged,
        remaining_enrage_time,
        ..Default::default()
    }
}

#[tokio::test]
async fn enrage_notifier_reads_zone_and_boss_hp_from_game_state() {
    let (mut play, _) = play(None, enrage_notifier::EnrageNotifier::new).await;
    enter(&mut play, "Ann", 9713).await;
    let far = v(500.0, 0.0, 0.0);
    play.send_named("S_SPAWN_NPC", spawn_npc(BOSS, 1000, 713, far))
        .await;
    play.send_named("S_BOSS_GAGE_INFO", boss_gage(BOSS, 800, 1000))
        .await;
    let got = play.send(&status(true, 60_000)).await;
    assert_eq!(replies(&got), ["Boss enraged"]);
    // Game state's HP of the boss (an HP change, not a gage) is what counts.
    play.send_named("S_CREATURE_CHANGE_HP", change_hp(BOSS, 650, 1000))
        .await;
    let got = play.send(&status(false, 0)).await;
    assert_eq!(replies(&got), ["Next enrage at 55%."]);

    let got = play.command("enrage notice").await;
    assert_eq!(replies(&got), ["Notice to screen enabled"]);
    // 10 s left: the countdown starts at once, a line every 990 ms.
    let got = play.send(&status(true, 10_000)).await;
    let notices = got.of::<s_dungeon_event_message::V2>();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].message.to_string(), "Boss enraged");
    let got = play.wait(Duration::from_millis(1300)).await;
    let notices = got.of::<s_dungeon_event_message::V2>();
    assert_eq!(notices.len(), 1, "one countdown line");
    assert_eq!(notices[0].message.to_string(), "Seconds remaining : 9");
    // The boss goes (game state's despawn event): the countdown stops.
    play.send_named("S_DESPAWN_NPC", despawn_npc(BOSS)).await;
    let got = play.wait(Duration::from_millis(1300)).await;
    assert!(got.of::<s_dungeon_event_message::V2>().is_empty());

    // Silent in Harrowhold.
    play.send_named("S_LOAD_TOPO", load_topo(9950, far, false))
        .await;
    play.send_named("S_SPAWN_NPC", spawn_npc(BOSS, 1000, 950, far))
        .await;
    play.send_named("S_BOSS_GAGE_INFO", boss_gage(BOSS, 800, 1000))
        .await;
    let got = play.send(&status(true, 60_000)).await;
    assert!(got.client.len() == 1 && got.of::<s_dungeon_event_message::V2>().is_empty());
    end(play).await;
}

#[tokio::test]
async fn enrage_notifier_migrates_its_version_1_settings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("enrage-notifier.json");
    std::fs::write(
        &file,
        r#"{"version": 1, "data": {"enable": true, "notice": true}}"#,
    )
    .unwrap();
    let (mut play, _) = play(Some(dir.path()), enrage_notifier::EnrageNotifier::new).await;
    let got = play.command("enrage status").await;
    assert_eq!(
        replies(&got),
        ["Enrage message enabled, notice to screen enabled"]
    );
    play.command("enrage").await;
    end(play).await;
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["data"]["countdown"], true, "version 2's new setting");
    assert_eq!(saved["data"]["enable"], false);
}

fn quest(id: i32) -> s_complete_event_matching_quest::V1 {
    s_complete_event_matching_quest::V1 { id }
}

#[tokio::test]
async fn auto_vanguard_completes_quests_and_follows_game_events() {
    let (mut play, _) = play(None, auto_vanguard::AutoVanguard::new).await;
    enter(&mut play, "Ann", 9713).await;
    let got = play.send(&quest(5)).await;
    assert!(got.client.is_empty(), "the server's notice is hidden");
    let done = got.of::<c_complete_daily_event::V1>();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].id, 5);
    let got = play.wait(Duration::from_millis(700)).await;
    let extra: Vec<u8> = got
        .of::<c_complete_extra_event::V1>()
        .iter()
        .map(|e| e.r#type)
        .collect();
    assert_eq!(extra, [0, 1]);

    // Ann excluded (game state's name): her quests are left alone.
    let got = play.command("vg add").await;
    assert_eq!(replies(&got), ["Ann is excluded from auto-vanguard."]);
    let got = play.send(&quest(6)).await;
    assert_eq!(got.client, [play.encode(&quest(6))]);
    assert!(got.server.is_empty());
    // Entering the game again (game state's enter_game) says so.
    play.send_named("S_RETURN_TO_LOBBY", empty()).await;
    let got = play
        .send_named("S_LOGIN", login(10101, "Ann", 65, 0, true))
        .await;
    assert_eq!(replies(&got), ["Ann is excluded from auto-vanguard."]);
    let got = play.command("vg rm").await;
    assert_eq!(replies(&got), ["Ann is included in auto-vanguard again."]);
    let got = play.command("vg").await;
    assert_eq!(replies(&got), ["Disabled"]);
    let got = play.send(&quest(7)).await;
    assert_eq!(
        got.client,
        [play.encode(&quest(7))],
        "disabled: the notice passes"
    );
    end(play).await;
}

fn cameras(got: &Arrived) -> Vec<u32> {
    got.of::<s_dungeon_camera_set::V1>()
        .iter()
        .map(|c| {
            assert!(c.enabled && c.default == c.max);
            c.max
        })
        .collect()
}

async fn reload(play: &mut TestPeers) -> Arrived {
    let origin = v(0.0, 0.0, 0.0);
    play.send_named("S_LOAD_TOPO", load_topo(9713, origin, false))
        .await;
    play.send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
    play.wait(Duration::from_millis(1200)).await
}

#[tokio::test]
async fn camera_distance_keeps_distances_in_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let (mut play, _) = play(Some(dir.path()), camera_distance::CameraDistance::new).await;
    enter(&mut play, "Ann", 9713).await;
    let got = play.wait(Duration::from_millis(1200)).await;
    assert_eq!(cameras(&got), [800], "the default, a second after spawning");

    let got = play.command("cam add 1200").await;
    assert_eq!(replies(&got), ["Distance of Ann set at 1200."]);
    play.command("cam set 1000").await;
    assert_eq!(cameras(&reload(&mut play).await), [1200], "Ann's own");
    let got = play.command("cam rm").await;
    assert_eq!(replies(&got), ["Removed the distance of Ann."]);
    assert_eq!(cameras(&reload(&mut play).await), [1000], "the new default");
    let got = play.command("cam 650").await;
    assert_eq!(cameras(&got), [650], "at once");
    let got = play.command("cam x").await;
    assert_eq!(replies(&got), ["usage: !cam [N|add N|rm|set N]"]);
    play.command("cam").await;
    assert!(cameras(&reload(&mut play).await).is_empty(), "disabled");
    end(play).await;

    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("camera-distance.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(saved["data"]["default_distance"], 1000);
    assert_eq!(saved["data"]["enable"], false);
}

fn drop_item(game_id: u64, item: i32, x: f32) -> s_spawn_dropitem::V9<'static> {
    s_spawn_dropitem::V9 {
        game_id,
        loc: v(x, 0.0, 0.0),
        item,
        amount: 1,
        ..Default::default()
    }
}

fn looted(got: &Arrived) -> Vec<u64> {
    got.of::<c_try_loot_dropitem::V4>()
        .iter()
        .map(|l| l.game_id)
        .collect()
}

fn walk(x: f32) -> Vec<u8> {
    let to = v(x, 0.0, 0.0);
    player_location(to, 0, to)
}

#[tokio::test]
async fn auto_loot_loots_what_is_in_reach_of_game_states_position() {
    let (mut play, _) = play(None, auto_loot::AutoLoot::new).await;
    enter(&mut play, "Ann", 9713).await;
    let got = play.command("loot").await;
    assert_eq!(replies(&got), ["Auto-loot enabled"]);
    play.send_named("C_PLAYER_LOCATION", walk(0.0)).await;
    // A blacklisted mote at hand, an item far away.
    play.send(&drop_item(1, 8000, 10.0)).await;
    play.send(&drop_item(2, 100, 500.0)).await;
    let got = play.wait(Duration::from_millis(700)).await;
    assert!(looted(&got).is_empty(), "{got:?}");
    // Walking up to it (game state's position).
    play.send_named("C_PLAYER_LOCATION", walk(450.0)).await;
    let got = play.wait(Duration::from_millis(500)).await;
    assert_eq!(looted(&got)[0], 2);
    play.send(&s_despawn_dropitem::V4 { game_id: 2 }).await;

    // In combat: only once told to.
    play.send_named("S_USER_STATUS", user_status(ME, 1)).await;
    play.send(&drop_item(3, 101, 440.0)).await;
    let got = play.wait(Duration::from_millis(500)).await;
    assert!(looted(&got).is_empty());
    let got = play.command("loot combat").await;
    assert_eq!(replies(&got), ["Looting in combat enabled"]);
    let got = play.wait(Duration::from_millis(500)).await;
    assert_eq!(looted(&got)[0], 3);

    // A loading screen clears the ground.
    play.send_named("S_LOAD_TOPO", load_topo(9713, v(440.0, 0.0, 0.0), false))
        .await;
    let got = play.wait(Duration::from_millis(500)).await;
    assert!(looted(&got).is_empty());
    // The item's chat link, as the client writes a shift-click into chat.
    let link = r#"<ChatLinkAction param="1#####101@7@Ann">&lt;Pie&gt;</ChatLinkAction>"#;
    let got = play
        .send(&c_chat::V1 {
            channel: 0,
            message: format!("<FONT>!loot blacklist add {link}</FONT>").into(),
        })
        .await;
    assert_eq!(replies(&got), ["Added 101 to the blacklist."]);
    play.send(&drop_item(4, 101, 440.0)).await;
    let got = play.wait(Duration::from_millis(500)).await;
    assert!(looted(&got).is_empty(), "blacklisted");
    end(play).await;
}
