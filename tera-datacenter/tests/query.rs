//! Data center queries (tera-toolbox's `queryData`) on the shared
//! arise-data sheets: `UserData`, `ContinentData` and `StrSheet_Abnormality`
//! packed to a data center. Without the sheets (`TERA_DC_SHEETS`, by
//! default `../shared/dc-sheets/sheets` beside the project) the tests print
//! a notice and check nothing. The whole arise-data set is queried the same
//! way when `TERA_ARISE_SHEETS` names its sheets folder.

#[path = "common/shared_sheets.rs"]
mod shared_sheets_dir;

use std::path::Path;

use shared_sheets_dir::shared_sheets;
use tera_datacenter::query::{Arg, DataQueries, Query, QueryError, QueryOptions, select};
use tera_datacenter::{DataCenter, OwnedValue, WriteOptions};

/// The folders named, with the top schema, packed to a `.dec`.
fn pack(from: &Path, folders: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        from.join("DataCenter.xsd"),
        dir.path().join("DataCenter.xsd"),
    )
    .unwrap();
    for folder in folders {
        let to = dir.path().join(folder);
        std::fs::create_dir(&to).unwrap();
        for entry in std::fs::read_dir(from.join(folder)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    tera_datacenter::sheets::read_sheets(dir.path(), &|_, _| {})
        .unwrap()
        .into_dec(&WriteOptions::default())
        .unwrap()
}

#[test]
fn toolbox_queries_on_the_shared_sheets() {
    let Some(sheets) = shared_sheets("the query tests") else {
        return;
    };
    let dec = pack(
        &sheets,
        &["UserData", "ContinentData", "StrSheet_Abnormality"],
    );
    let dc = DataCenter::parse(&dec).unwrap();
    let q = DataQueries::new(&dc);

    // game-state's own queries: every template, every continent.
    let templates = q
        .query(
            "/UserData/Template/",
            &[],
            &QueryOptions::all()
                .without_children()
                .only(&["id", "class", "race", "gender"]),
        )
        .unwrap();
    assert_eq!(templates.len(), 99);
    let first = &templates[0];
    assert_eq!(first.attributes.len(), 4);
    assert!(first.children.is_empty());
    let continents = q.query_all("/ContinentData/Continent/", &[]).unwrap();
    assert_eq!(continents.len(), 285);

    // One node by id, typed attributes and children.
    let lancer = q
        .query_one("/UserData/Template@id=?/", &[Arg::Int(10102)])
        .unwrap()
        .unwrap();
    assert_eq!(lancer.name, "Template");
    assert_eq!(
        (
            lancer.str("class"),
            lancer.str("race"),
            lancer.str("gender")
        ),
        (Some("lancer"), Some("human"), Some("male"))
    );
    assert_eq!(lancer.int("id"), Some(10102));
    assert!(matches!(
        lancer.attribute("heightWhenClimbing"),
        Some(OwnedValue::Float(_))
    ));
    let ranged = lancer.children_named("RangeAtkSkillList").next().unwrap();
    assert_eq!(ranged.children.len(), 5);
    assert_eq!(ranged.children[0].int("id"), Some(90100));

    // Several filters joined with &, a path through a filtered parent.
    let hz = q
        .query_all(
            "/ContinentData/Continent@id=?&channelType=?/HuntingZone/",
            &[9827.into(), "dungeon".into()],
        )
        .unwrap();
    assert_eq!(
        hz.iter().map(|n| n.int("id")).collect::<Vec<_>>(),
        [Some(827)]
    );
    assert!(
        q.query_one(
            "/ContinentData/Continent@id=?&channelType=?/",
            &[9827.into(), "field".into()]
        )
        .unwrap()
        .is_none()
    );

    // Operators: ordering, IN and NOT IN, != on a missing attribute.
    let count = |path: &str, args: &[Arg]| q.query_all(path, args).unwrap().len();
    let citywar = count(
        "/ContinentData/Continent@channelType=?/",
        &["citywar".into()],
    );
    assert_eq!(citywar, 1);
    let open = count(
        "/ContinentData/Continent@channelType=?/",
        &[vec!["none", "field", "channelingZone"].into()],
    );
    assert_eq!(open, 7 + 16 + 9);
    let not_open = count(
        "/ContinentData/Continent@channelType!=?/",
        &[vec!["none", "field", "channelingZone"].into()],
    );
    assert_eq!(open + not_open, 285);
    let high = count("/UserData/Template@id>=?", &[Arg::Int(11000)]);
    let low = count("/UserData/Template@id<?", &[Arg::Int(11000)]);
    assert_eq!(high + low, 99);
    assert!(high > 0 && low > 0);
    assert_eq!(
        count(
            "/UserData/Template@id>?&id<=?",
            &[10101.into(), 10102.into()]
        ),
        1
    );
    // A literal in the path, and `*`.
    assert_eq!(count("/UserData/Template@class='warrior'", &[]), 11);
    assert_eq!(count("/UserData/*@class=\"warrior\"&id=10101", &[]), 1);
    // An attribute of another type equals nothing.
    assert_eq!(count("/UserData/Template@id=?", &["10101".into()]), 0);
    // Strings of another sheet.
    let abnormal = q.query_all("/StrSheet_Abnormality/String/", &[]).unwrap();
    assert!(abnormal.len() > 1000, "{}", abnormal.len());

    // Cached: the same query answers the same shared result.
    let again = q.query_all("/ContinentData/Continent/", &[]).unwrap();
    assert!(std::sync::Arc::ptr_eq(&continents, &again));
    assert!(q.cached() >= 10);
    q.clear_cache();
    assert_eq!(q.cached(), 0);

    // Zero-copy selection.
    let parsed = Query::parse("/UserData/Template@race=?").unwrap();
    let elements = select(dc.root(), &parsed, &["popori".into()], true).unwrap();
    assert_eq!(elements.len(), 22);
    assert_eq!(
        select(dc.root(), &parsed, &["popori".into()], false)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn bad_queries_are_errors() {
    let Some(sheets) = shared_sheets("the query tests") else {
        return;
    };
    let dec = pack(&sheets, &["ContinentData"]);
    let dc = DataCenter::parse(&dec).unwrap();
    let q = DataQueries::new(&dc);
    assert!(matches!(
        q.query_all("ContinentData", &[]),
        Err(QueryError::Syntax { at: 0, .. })
    ));
    assert!(matches!(
        q.query_all("/ContinentData/Continent@id=?", &[]),
        Err(QueryError::Arguments {
            expected: 1,
            given: 0,
            ..
        })
    ));
    assert!(matches!(
        q.query_all("/ContinentData/Continent@id>=?", &[vec![1, 2].into()]),
        Err(QueryError::ListOrdering { .. })
    ));
    // Names the data center does not hold select nothing.
    assert!(q.query_all("/NoSuchSheet/Thing/", &[]).unwrap().is_empty());
}

#[test]
fn the_whole_arise_set() {
    let Some(dir) = std::env::var_os("TERA_ARISE_SHEETS").map(std::path::PathBuf::from) else {
        eprintln!("skipping: set TERA_ARISE_SHEETS to the sheets folder of arise-data");
        return;
    };
    let dec = tera_datacenter::sheets::read_sheets(&dir, &|_, _| {})
        .unwrap()
        .into_dec(&WriteOptions::default())
        .unwrap();
    let dc = DataCenter::parse(&dec).unwrap();
    let q = DataQueries::new(&dc);
    let templates = q.query_all("/UserData/Template/", &[]).unwrap();
    assert!(templates.len() >= 99, "{}", templates.len());
    let item = q
        .query(
            "/ItemData/Item@id=?/",
            &[Arg::Int(6550)],
            &QueryOptions::default().only(&["id", "combatItemType", "rareGrade"]),
        )
        .unwrap();
    assert_eq!(item.first().and_then(|n| n.int("id")), Some(6550));
    let abnormal = q
        .query_all("/Abnormality/Abnormal@id=?/", &[Arg::Int(701420)])
        .unwrap();
    assert!(abnormal.len() <= 1);
    let effects: usize = abnormal.iter().map(|a| a.children.len()).sum();
    eprintln!(
        "arise set: {} templates, item 6550 found, abnormality 701420: {} node(s), {effects} effect(s)",
        templates.len(),
        abnormal.len()
    );
}
