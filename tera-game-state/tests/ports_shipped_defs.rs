//! The three ports whose packets the project does not compile in
//! (`examples/mods/`: party-deaths-notifier, auto-bank, auto-prime), each
//! on a relayed connection with game state, driven by the scripted client
//! and server; the packets of the defs the mods ship are built and read
//! with the same def text.

mod common;

#[path = "../examples/mods/auto_bank.rs"]
mod auto_bank;
#[path = "../examples/mods/auto_prime.rs"]
mod auto_prime;
#[path = "../examples/mods/party_deaths_notifier.rs"]
mod party_deaths_notifier;

use std::path::Path;
use std::time::Duration;

use common::packets::*;
use tera_data::Str;
use tera_data::packets::{
    c_try_loot_dropitem, s_despawn_dropitem, s_despawn_user, s_spawn_dropitem, s_spawn_user,
};
use tera_game_state::Game;
use tera_proxy::harness::{Arrived, TestPeers};
use tera_proxy::{Connection, MapSource, Mod, PacketDef, ProxyConfig, Record, Value};

/// A def the mods ship, read as they read it.
fn def(name: &str, version: u32) -> PacketDef {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("examples/mods/defs/{name}.{version}.def"));
    PacketDef::parse(name, version, &std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A packet of a shipped def with `fields` set, the others zero.
fn shipped(name: &str, version: u32, fields: &[(&str, Value<'static>)]) -> Vec<u8> {
    let def = def(name, version);
    let mut record = def.zero();
    for (field, value) in fields {
        record.try_set(field, value.clone()).unwrap();
    }
    def.encode(&record, 0).unwrap()
}

/// The packets of shipped def `name` that arrived, read with it.
fn arrived(got: &Arrived, name: &str, version: u32) -> Vec<Record<'static>> {
    let def = def(name, version);
    got.named(name)
        .iter()
        .map(|bytes| def.decode(bytes).unwrap().into_owned())
        .collect()
}

/// A relayed connection with game state, the test map naming the
/// shipped packets, and the mod `make` builds.
async fn play<M: Mod>(settings: Option<&Path>, make: impl FnOnce(Game) -> M) -> TestPeers {
    let shipped = [
        "S_DEAD_LOCATION",
        "S_PARTY_MEMBER_STAT_UPDATE",
        "S_VIEW_WARE_EX",
        "C_VIEW_WARE",
        "C_PUT_WARE_ITEM",
        "S_START_COOLTIME_ITEM",
        "S_BATTLE_FIELD_ENTRANCE_INFO",
        "C_USE_ITEM",
    ];
    let config = ProxyConfig {
        maps: MapSource::test_map_with(&shipped),
        settings_dir: settings.map(ToOwned::to_owned),
        ..ProxyConfig::default()
    };
    let conn = Connection::set_up(config, &[&Game::setup(Default::default())]).unwrap();
    let game: Game = conn.context().need().unwrap();
    conn.add_mod(make(game)).unwrap();
    TestPeers::start(conn).await
}

async fn enter(play: &mut TestPeers) {
    let origin = v(0.0, 0.0, 0.0);
    play.send_named("S_LOGIN", login(10101, "Ann", 65, 0, true))
        .await;
    play.send_named("S_LOAD_TOPO", load_topo(9713, origin, false))
        .await;
    play.send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
}

/// A def's field lines, comments and spacing left out.
fn fields(text: &str) -> Vec<Vec<String>> {
    let words = |line: &str| -> Vec<String> {
        let field = line.split('#').next().unwrap_or_default();
        field.split_whitespace().map(str::to_owned).collect()
    };
    text.lines().map(words).filter(|w| !w.is_empty()).collect()
}

/// Every def the ports ship is the tera-data checkout's of that name and
/// version (`TERA_DATA_DIR`, or `../shared/tera-data`; skipped with a
/// notice without one): the same fields, types and order.
#[test]
fn the_shipped_defs_are_the_checkouts() {
    let root = std::env::var_os("TERA_DATA_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tera-data"),
        Into::into,
    );
    let corpus = root.join("definitions");
    if !corpus.is_dir() {
        eprintln!(
            "no tera-data checkout at {} (set TERA_DATA_DIR): skipped",
            root.display()
        );
        return;
    }
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mods/defs");
    let mut checked = 0;
    for file in std::fs::read_dir(shipped).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_owned();
        let theirs = std::fs::read_to_string(corpus.join(&name)).unwrap();
        let ours = std::fs::read_to_string(&path).unwrap();
        assert_eq!(fields(&ours), fields(&theirs), "{}", name.to_string_lossy());
        checked += 1;
    }
    assert_eq!(checked, 8, "the eight defs the three ports ship");
}

const BOB: u64 = 0x0100_0000_0000_0002;
const CAT: u64 = 0x0100_0000_0000_0003;

/// Bob's and Cat's beams: server 27, players 6 and 7.
const BOB_BEAM: u64 = 27 << 32 | 6;
const CAT_BEAM: u64 = 27 << 32 | 7;

fn died(game_id: u64, z: f32) -> Vec<u8> {
    let loc = Value::from(v(100.0, 0.0, z));
    shipped(
        "S_DEAD_LOCATION",
        2,
        &[("gameId", game_id.into()), ("loc", loc)],
    )
}

fn stat(player_id: u32, alive: bool) -> Vec<u8> {
    let fields = [
        ("serverId", 27u32.into()),
        ("playerId", player_id.into()),
        ("alive", alive.into()),
    ];
    shipped("S_PARTY_MEMBER_STAT_UPDATE", 4, &fields)
}

/// The beams placed: (id, item, z).
fn beams(got: &Arrived) -> Vec<(u64, i32, f32)> {
    let beams = got.of::<s_spawn_dropitem::V9>();
    beams.iter().map(|b| (b.game_id, b.item, b.loc.z)).collect()
}

fn removed(got: &Arrived) -> Vec<u64> {
    got.of::<s_despawn_dropitem::V4>()
        .iter()
        .map(|d| d.game_id)
        .collect()
}

#[tokio::test]
async fn party_deaths_notifier_beams_dead_members_of_game_states_party() {
    let mut play = play(None, party_deaths_notifier::PartyDeathsNotifier::new).await;
    enter(&mut play).await;
    // Not in a party: nothing.
    assert!(beams(&play.send_named("S_DEAD_LOCATION", died(BOB, 50.0)).await).is_empty());
    // Bob a lancer (class 1), Cat a priest (6).
    let party = [
        (ME, PLAYER, SERVER, "Ann", 0),
        (BOB, 6, 27, "Bob", 1),
        (CAT, 7, 27, "Cat", 6),
    ];
    play.send_named("S_PARTY_MEMBER_LIST", party_list(&party))
        .await;
    let got = play.send_named("S_DEAD_LOCATION", died(BOB, 50.0)).await;
    assert_eq!(
        beams(&got),
        [(BOB_BEAM, 46703, 15.0)],
        "the tank's beam, 35 below"
    );
    assert_eq!(
        got.of::<s_spawn_dropitem::V9>()[0].owners.to_vec(),
        [PLAYER]
    );
    let got = play.send_named("S_DEAD_LOCATION", died(CAT, 0.0)).await;
    assert_eq!(beams(&got), [(CAT_BEAM, 89141, -35.0)]);
    // A beam cannot be looted; real items can.
    let got = play
        .send(&c_try_loot_dropitem::V4 { game_id: BOB_BEAM })
        .await;
    assert!(got.server.is_empty());
    let got = play.send(&c_try_loot_dropitem::V4 { game_id: 9 }).await;
    assert_eq!(got.server.len(), 1);

    // Bob alive again (the stat update of the shipped def).
    assert!(
        removed(
            &play
                .send_named("S_PARTY_MEMBER_STAT_UPDATE", stat(6, false))
                .await
        )
        .is_empty()
    );
    let got = play
        .send_named("S_PARTY_MEMBER_STAT_UPDATE", stat(6, true))
        .await;
    assert_eq!(removed(&got), [BOB_BEAM]);
    // Cat out of view keeps her beam; Cat gone otherwise loses it.
    let out_of_view = s_despawn_user::V3 {
        game_id: CAT,
        r#type: 1,
    };
    assert!(removed(&play.send(&out_of_view).await).is_empty());
    let got = play
        .send(&s_despawn_user::V3 {
            game_id: CAT,
            r#type: 0,
        })
        .await;
    assert_eq!(removed(&got), [CAT_BEAM]);

    // Cat comes into sight dead (game state's spawn), without class beams.
    let got = play.command("pdn class").await;
    assert_eq!(got.messages(), ["Class based beams were disabled"]);
    let dead_cat = s_spawn_user::V17 {
        game_id: CAT,
        server_id: 27,
        player_id: 7,
        name: Str::from("Cat"),
        loc: v(5.0, 5.0, 100.0),
        alive: false,
        template_id: 10101,
        ..Default::default()
    };
    assert_eq!(
        beams(&play.send(&dead_cat).await),
        [(CAT_BEAM, 89604, 65.0)]
    );
    // Cat leaves the party (game state's member_leave).
    let got = play
        .send_named("S_LEAVE_PARTY_MEMBER", leave_party_member(27, 7, "Cat"))
        .await;
    assert_eq!(removed(&got), [CAT_BEAM]);

    play.send_named("S_DEAD_LOCATION", died(BOB, 50.0)).await;
    let got = play.command("pdn clear").await;
    assert_eq!(
        (removed(&got), got.messages()),
        (
            vec![BOB_BEAM],
            vec!["All beams were forcefully removed!".to_owned()]
        )
    );
    let got = play.command("pdn").await;
    assert_eq!(got.messages(), ["Marking new targets were disabled"]);
    assert!(beams(&play.send_named("S_DEAD_LOCATION", died(BOB, 50.0)).await).is_empty());
    play.command("pdn").await;
    play.send_named("S_DEAD_LOCATION", died(BOB, 50.0)).await;
    // A loading screen (game state's) clears the beams.
    let got = play
        .send_named("S_LOAD_TOPO", load_topo(9713, v(0.0, 0.0, 0.0), false))
        .await;
    assert_eq!(removed(&got), [BOB_BEAM]);
    play.finish().await;
}

fn bag(items: Vec<tera_data::packets::s_itemlist::v7::Items<'static>>, money: i64) -> Vec<u8> {
    let part = ListPart {
        container: 0,
        pocket: 0,
        num_pockets: 0,
        money,
        first: true,
        more: false,
        last_in_batch: true,
    };
    itemlist(part, items)
}

fn bank_view(game_id: u64, container: i32) -> Vec<u8> {
    let fields = [("gameId", game_id.into()), ("container", container.into())];
    shipped("S_VIEW_WARE_EX", 3, &fields)
}

/// The items put in the bank: (offset, fromSlot, id, dbid, amount, toSlot)
/// or the money deposited.
fn puts(got: &Arrived) -> Vec<(i32, i32, i32, u64, i32, i32, i64)> {
    let field = |put: &Record<'_>, name: &str| put.get(name).and_then(Value::as_i32).unwrap();
    arrived(got, "C_PUT_WARE_ITEM", 3)
        .iter()
        .map(|put| {
            assert_eq!(put.get("gameId").and_then(Value::as_u64), Some(ME));
            assert_eq!(field(put, "container"), 1);
            let dbid = put.get("dbid").and_then(Value::as_u64).unwrap();
            let money = put.get("money").and_then(Value::as_i64).unwrap();
            let f = |name| field(put, name);
            (
                f("offset"),
                f("fromSlot"),
                f("id"),
                dbid,
                f("amount"),
                f("toSlot"),
                money,
            )
        })
        .collect()
}

#[tokio::test]
async fn auto_bank_banks_game_states_bag_when_the_bank_opens() {
    let dir = tempfile::tempdir().unwrap();
    let mut play = play(Some(dir.path()), |game| {
        auto_bank::AutoBank::new(game).unwrap()
    })
    .await;
    enter(&mut play).await;
    assert_eq!(play.command("bank").await.messages(), [": Enabled"]);
    let got = play.command("bank add 1 100").await;
    assert_eq!(got.messages(), [": Added &lt;100&gt; to bank tab 1."]);
    // An item by its chat link, as the player shift-clicks it in.
    let link = r#"<ChatLinkAction param="1#####200@3345@Ann">&lt;Pie&gt;</ChatLinkAction>"#;
    let got = play.command(&format!("bank add 2 {link}")).await;
    assert_eq!(got.messages(), [": Added &lt;200&gt; to bank tab 2."]);
    let got = play.command("bank add 9 300").await;
    assert_eq!(
        got.messages(),
        [": Invalid id. usage : bank add &lt;tab&gt; &lt;item id | chat link&gt;"]
    );
    assert_eq!(
        play.command("bank gold").await.messages(),
        [": Auto-deposit Gold Enabled"]
    );
    let got = play.command("bank set gold 100").await;
    assert_eq!(
        got.messages(),
        [": Set auto-deposit to keep 100 Gold in Inventory."]
    );
    play.command("bank set delay 20").await;
    // Game state's bag: two stacks of 100, one 200, one 300 not listed.
    let items = vec![
        item(3, 100, 5),
        item(7, 100, 2),
        item(5, 200, 1),
        item(9, 300, 1),
    ];
    play.send_named("S_ITEMLIST", bag(items, 1_234_567)).await;

    // Someone else's contract, then the player's bank.
    let mut contract = tera_data::packets::s_request_contract::V2 {
        sender_id: BOB,
        r#type: 26,
        ..Default::default()
    };
    play.send(&contract).await;
    assert!(puts(&play.send_named("S_VIEW_WARE_EX", bank_view(ME, 1)).await).is_empty());
    contract.sender_id = ME;
    play.send(&contract).await;
    // A window not the bank's ends the wait (the original's hookOnce).
    play.send_named("S_VIEW_WARE_EX", bank_view(ME, 3)).await;
    assert!(puts(&play.send_named("S_VIEW_WARE_EX", bank_view(ME, 1)).await).is_empty());
    play.send(&contract).await;
    let mut got = play.send_named("S_VIEW_WARE_EX", bank_view(ME, 1)).await;
    got.server
        .extend(play.wait(Duration::from_millis(600)).await.server);
    let tabs: Vec<_> = arrived(&got, "C_VIEW_WARE", 2)
        .iter()
        .map(|v| {
            (
                v.get("type").and_then(Value::as_i32),
                v.get("offset").and_then(Value::as_i32),
            )
        })
        .collect();
    assert_eq!(tabs, [(Some(1), Some(0)), (Some(1), Some(72))]);
    assert_eq!(
        puts(&got),
        [
            (0, 7, 100, 7100, 2, 0, 0),
            (0, 3, 100, 3100, 5, 0, 0),
            (72, 5, 200, 5200, 1, 72, 0),
            (0, -1, -1, 0, 0, -1, 234_567),
        ],
        "by tab, the last slot first, then the gold past 100"
    );
    assert!(
        puts(&play.send_named("S_VIEW_WARE_EX", bank_view(ME, 1)).await).is_empty(),
        "once per contract"
    );

    let got = play.command("bank rm 100").await;
    assert_eq!(got.messages(), [": Removed &lt;100&gt; from bank list."]);
    assert_eq!(
        play.command("bank list").await.messages(),
        [": Exported bank list to console."]
    );
    let got = play.command("bank set gold lots").await;
    assert_eq!(
        got.messages(),
        [": Invalid argument. usage : bank set gold &lt;num&gt;"]
    );
    play.finish().await;
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("auto-bank.json")).unwrap())
            .unwrap();
    assert_eq!(saved["version"], 4);
    assert_eq!(saved["data"]["bank_list"]["1"], serde_json::json!([]));
    assert_eq!(saved["data"]["bank_list"]["2"], serde_json::json!([200]));
    assert_eq!(
        (
            saved["data"]["delay"].as_u64(),
            saved["data"]["deposit_amount"].as_u64()
        ),
        (Some(20), Some(1_000_000))
    );
}

#[tokio::test]
async fn auto_bank_reads_the_originals_version_3_settings() {
    let dir = tempfile::tempdir().unwrap();
    let old = r#"{"version": 3, "data": {"enable": true, "delay": 50, "bank_list": {"1": [7]},
        "deposit_gold": true, "deposit_amount": 5}}"#;
    std::fs::write(dir.path().join("auto-bank.json"), old).unwrap();
    let mut play = play(Some(dir.path()), |game| {
        auto_bank::AutoBank::new(game).unwrap()
    })
    .await;
    assert_eq!(
        play.command("bank").await.messages(),
        [": Disabled"],
        "it was enabled"
    );
    play.finish().await;
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("auto-bank.json")).unwrap())
            .unwrap();
    let data = &saved["data"];
    assert_eq!(
        (saved["version"].as_u64(), data["enabled"].as_bool()),
        (Some(4), Some(false))
    );
    assert_eq!(
        (data["delay"].as_u64(), data["bank_list"]["1"].clone()),
        (Some(50), serde_json::json!([7]))
    );
    assert_eq!(
        (
            data["deposit_gold"].as_bool(),
            data["deposit_amount"].as_u64()
        ),
        (Some(true), Some(5))
    );
}

const PRIME: i32 = 200_999;
const BUFF: u32 = 4020;

/// The items used: (gameId, id, amount).
fn used(got: &Arrived) -> Vec<(Option<u64>, Option<i32>, Option<i32>)> {
    let used = arrived(got, "C_USE_ITEM", 3);
    used.iter()
        .map(|u| {
            let int = |name| u.get(name).and_then(Value::as_i32);
            (
                u.get("gameId").and_then(Value::as_u64),
                int("id"),
                int("amount"),
            )
        })
        .collect()
}

#[tokio::test]
async fn auto_prime_keeps_the_buff_up_from_game_state() {
    let mut play = play(None, |game| auto_prime::AutoPrime::new(game).unwrap()).await;
    enter(&mut play).await;
    play.send_named("S_ITEMLIST", bag(vec![item(4, PRIME, 3)], 0))
        .await;
    // The buff runs out in 300 ms (game state's abnormality): used then.
    play.send_named("S_ABNORMALITY_BEGIN", abnormality_begin(ME, BUFF, 300, 1))
        .await;
    assert!(used(&play.wait(Duration::from_millis(150)).await).is_empty());
    let got = play.wait(Duration::from_millis(400)).await;
    assert_eq!(used(&got), [(Some(ME), Some(PRIME), Some(1))]);

    // The item's cooldown (a shipped def) delays the next use.
    let cooldown = [("item", PRIME.into()), ("cooldown", 1i32.into())];
    play.send_named(
        "S_START_COOLTIME_ITEM",
        shipped("S_START_COOLTIME_ITEM", 1, &cooldown),
    )
    .await;
    play.send_named("S_ABNORMALITY_END", abnormality_end(ME, BUFF))
        .await;
    assert!(used(&play.wait(Duration::from_millis(500)).await).is_empty());
    assert_eq!(used(&play.wait(Duration::from_millis(800)).await).len(), 1);

    // Mounted (game state's), nothing; dismounted, at once.
    let buff_ends_soon = || abnormality_begin(ME, BUFF, 50, 1);
    play.send_named("S_MOUNT_VEHICLE", mount(ME, 7, 12_200))
        .await;
    play.send_named("S_ABNORMALITY_BEGIN", buff_ends_soon())
        .await;
    assert!(used(&play.wait(Duration::from_millis(200)).await).is_empty());
    let mut got = play.send_named("S_UNMOUNT_VEHICLE", unmount(ME)).await;
    got.server
        .extend(play.wait(Duration::from_millis(100)).await.server);
    assert_eq!(used(&got).len(), 1);

    // Dead, nothing until resurrected.
    play.send_named("S_CREATURE_LIFE", creature_life(ME, false))
        .await;
    assert!(used(&play.wait(Duration::from_millis(200)).await).is_empty());
    let mut got = play
        .send_named("S_CREATURE_LIFE", creature_life(ME, true))
        .await;
    got.server
        .extend(play.wait(Duration::from_millis(100)).await.server);
    assert_eq!(used(&got).len(), 1);

    // In the battleground's zone, nothing.
    let bg = [("id", 1i32.into()), ("zone", 9713i32.into())];
    let bg = shipped("S_BATTLE_FIELD_ENTRANCE_INFO", 1, &bg);
    play.send_named("S_BATTLE_FIELD_ENTRANCE_INFO", bg).await;
    play.send_named("S_ABNORMALITY_BEGIN", buff_ends_soon())
        .await;
    assert!(used(&play.wait(Duration::from_millis(200)).await).is_empty());
    // Elsewhere with none left in the bag, nothing either.
    let origin = v(0.0, 0.0, 0.0);
    play.send_named("S_LOAD_TOPO", load_topo(9714, origin, false))
        .await;
    play.send_named("S_SPAWN_ME", spawn_me(origin, 0, true))
        .await;
    play.send_named("S_ITEMLIST", bag(vec![], 0)).await;
    play.send_named("S_ABNORMALITY_BEGIN", buff_ends_soon())
        .await;
    assert!(used(&play.wait(Duration::from_millis(200)).await).is_empty());
    play.finish().await;
}
