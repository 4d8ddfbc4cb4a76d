//! Class, race, gender and channel types from a data center: the shared
//! arise-data sheets (`UserData`, `ContinentData`), as sheets, `.dec` and
//! `.dat`. Without the sheets (`TERA_DC_SHEETS`, by default
//! `../shared/dc-sheets/sheets` beside the project) the tests print a
//! notice and check nothing.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::packets::*;
use tera_datacenter::{DatKey, WriteOptions};
use tera_game_state::{
    ChannelType, Class, DataCenterSource, DataOrigin, GameConfig, GameData, GameEvent, GameState,
    Gender, Race,
};

fn shared_sheets() -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_DC_SHEETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/dc-sheets/sheets")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: no sheets at {} (set TERA_DC_SHEETS)",
            dir.display()
        );
        None
    }
}

/// The two sheet folders game state reads, copied beside the top schema.
fn user_and_continent_sheets(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        from.join("DataCenter.xsd"),
        dir.path().join("DataCenter.xsd"),
    )
    .unwrap();
    for folder in ["UserData", "ContinentData"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        for entry in std::fs::read_dir(from.join(folder)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(
                entry.path(),
                dir.path().join(folder).join(entry.file_name()),
            )
            .unwrap();
        }
    }
    dir
}

fn check(data: &GameData) {
    assert_eq!(data.origin(), DataOrigin::DataCenter);
    assert!(data.unknown().is_empty());
    assert_eq!(data.counts(), (99, 285));
    let warrior = data.template(10101).unwrap();
    assert_eq!(
        (warrior.class, warrior.race, warrior.gender),
        (Some(Class::Warrior), Some(Race::Human), Some(Gender::Male))
    );
    let lancer = data.template(10102).unwrap();
    assert_eq!(lancer.class, Some(Class::Lancer));
    assert_eq!(data.template(424242), None);
    assert_eq!(data.channel_type(9827), Some(ChannelType::Dungeon));
    assert_eq!(data.channel_type(2000), Some(ChannelType::Field));
    assert_eq!(data.channel_type(5), Some(ChannelType::ChannelingZone));
    assert_eq!(data.channel_type(102), Some(ChannelType::BattleField));
    assert_eq!(data.channel_type(152), Some(ChannelType::CityWar));
    assert_eq!(data.channel_type(424242), None);
}

#[test]
fn sheets_dec_and_dat_say_the_same() {
    let Some(sheets) = shared_sheets() else {
        return;
    };
    let dir = user_and_continent_sheets(&sheets);
    let from_sheets = GameData::load(&DataCenterSource::Sheets(dir.path().to_owned())).unwrap();
    check(&from_sheets);

    let dec = tera_datacenter::sheets::read_sheets(dir.path(), &|_, _| {})
        .unwrap()
        .into_dec(&WriteOptions::default())
        .unwrap();
    let dec_path = dir.path().join("DataCenter.dec");
    std::fs::write(&dec_path, &dec).unwrap();
    check(&GameData::load(&DataCenterSource::Dec(dec_path)).unwrap());

    let key = DatKey::from_hex(
        "00112233445566778899aabbccddeeff",
        "0f0e0d0c0b0a09080706050403020100",
    )
    .unwrap();
    let dat_path = dir.path().join("DataCenter.dat");
    std::fs::write(&dat_path, tera_datacenter::pack(&dec, &key)).unwrap();
    check(
        &GameData::load(&DataCenterSource::Dat {
            path: dat_path.clone(),
            key,
        })
        .unwrap(),
    );

    // The wrong key is an error, not a panic.
    let wrong = DatKey::from_hex(
        "ffffffffffffffffffffffffffffffff",
        "0f0e0d0c0b0a09080706050403020100",
    )
    .unwrap();
    assert!(
        GameData::load(&DataCenterSource::Dat {
            path: dat_path,
            key: wrong
        })
        .is_err()
    );
    assert!(GameData::load(&DataCenterSource::Dec(dir.path().join("missing.dec"))).is_err());
}

#[test]
fn me_reads_the_data_center() {
    let Some(sheets) = shared_sheets() else {
        return;
    };
    let dir = user_and_continent_sheets(&sheets);
    let data = Arc::new(GameData::load(&DataCenterSource::Sheets(dir.path().to_owned())).unwrap());
    let mut game = GameState::new(GameConfig {
        data,
        ..GameConfig::default()
    });
    let events = game
        .feed_named("S_LOGIN", &login(10102, "Ann", 65, 0, true))
        .to_vec();
    assert_eq!(
        events[0],
        GameEvent::ChangeTemplate {
            template_id: 10102,
            class: Some(Class::Lancer),
            race: Some(Race::Human),
            gender: Some(Gender::Male)
        }
    );
    let zones = [
        (9827, [false, true, false, false]),
        (2000, [true, false, false, false]),
        (6, [true, false, false, false]),
        (102, [false, false, true, false]),
        (152, [false, false, false, true]),
    ];
    for (zone, [open, dungeon, bg, cu]) in zones {
        game.feed_named("S_LOAD_TOPO", &load_topo(zone, v(0.0, 0.0, 0.0), false));
        let me = game.me();
        assert_eq!(
            (
                me.in_open_world(),
                me.in_dungeon(),
                me.in_battleground(),
                me.in_civil_unrest()
            ),
            (Some(open), Some(dungeon), Some(bg), Some(cu)),
            "zone {zone}"
        );
    }
    // A zone the data center lacks: unknown.
    game.feed_named("S_LOAD_TOPO", &load_topo(424242, v(0.0, 0.0, 0.0), false));
    assert_eq!(game.me().in_dungeon(), None);
    // A template it lacks (the convention is not used over it): as
    // tera-game-state, whose hook throws there, the template id changes and
    // nothing else, without an event.
    let events = game.feed_named("TTB_S_CHANGE_HERO", &change_hero(ME, 10199));
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(game.me().template_id(), Some(10199));
    assert_eq!(game.me().class(), Some(Class::Lancer));
}

#[test]
fn without_a_data_center_the_unknown_is_said() {
    let data = GameData::none();
    assert_eq!(data.origin(), DataOrigin::None);
    assert_eq!(data.unknown().len(), 2);
    assert_eq!(data.channel_type(9827), None);
    assert_eq!(
        data.template(10102).and_then(|t| t.class),
        Some(Class::Lancer)
    );
}
