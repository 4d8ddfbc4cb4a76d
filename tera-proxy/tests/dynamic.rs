//! Runtime defs in the proxy: a packet whose def is given only at run time
//! (no compiled-in type, not in the compiled-in map) is read and changed by
//! field name through `tera_dynamic`, and re-encoded in its place.

mod common;

use std::sync::{Arc, Mutex};

use common::exchange;
use tera_data::ProtocolMap;
use tera_proxy::harness::packet;
use tera_proxy::{
    Catalog, Connection, DefSource, DynamicError, Hook, HookError, MapSource, Mod, ProxyConfig,
    Setup, Value, Verdict, Version,
};

/// Known to nothing compiled: its def is written in the test.
const DEF: &str = "# A packet of a patch the build does not know.\n\
                   uint32 count\n\
                   string text\n";
const OPCODE: u16 = 40404;

fn setup() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("S_PATCH_DAY.3.def"), DEF).unwrap();
    let map = ProtocolMap::from_entries(None, [("S_PATCH_DAY", OPCODE)]);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::Fixed(Arc::new(map)),
        defs: DefSource::folder(dir.path()).unwrap(),
        ..ProxyConfig::default()
    });
    (dir, conn)
}

/// The packet, encoded through the same runtime def.
fn patch_day(count: u32, text: &str) -> Vec<u8> {
    let mut catalog = Catalog::new();
    let schema = catalog.add_def("S_PATCH_DAY.3.def", DEF).unwrap();
    let mut value = schema.decode(&empty()).unwrap().into_owned();
    value.try_set("count", count).unwrap();
    value.try_set("text", text).unwrap();
    schema.encode(&value, OPCODE).unwrap()
}

/// `count` 0 and an empty text: the offset of the text, the count, a NUL.
fn empty() -> Vec<u8> {
    packet(OPCODE, &[10, 0, 0, 0, 0, 0, 0, 0])
}

fn read(p: &[u8]) -> (u32, String) {
    let mut catalog = Catalog::new();
    let schema = catalog.add_def("S_PATCH_DAY.3.def", DEF).unwrap();
    let value = schema.decode(p).unwrap();
    (
        value["count"].as_u32().unwrap(),
        value["text"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_dynamic_hook_changes_a_field_of_a_packet_whose_def_is_given_only_at_run_time() {
    let (_dir, conn) = setup();
    conn.add_hook(Hook::dynamic("S_PATCH_DAY", Version::Latest, |_, value| {
        let (Some(count), Some(text)) = (value["count"].as_u32(), value["text"].as_str()) else {
            return Verdict::Pass;
        };
        let text = format!("{text} (seen by the proxy)");
        match value
            .try_set("count", count + 1)
            .and(value.try_set("text", text))
        {
            Ok(()) => Verdict::Changed,
            Err(_) => Verdict::Pass,
        }
    }))
    .unwrap();
    // A raw hook asks its event for the packet as a dynamic value.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    conn.add_hook(
        Hook::raw("S_PATCH_DAY", move |event, packet| {
            let value = event.dynamic(packet.bytes(), Version::Exact(3)).unwrap();
            log.lock()
                .unwrap()
                .push(serde_json::to_string(&value).unwrap());
            assert_eq!(
                event
                    .dynamic(packet.bytes(), Version::Exact(9))
                    .unwrap_err(),
                DynamicError::NoDef {
                    name: "S_PATCH_DAY".into(),
                    version: Some(9)
                }
            );
            Verdict::Pass
        })
        .order(-1),
    )
    .unwrap();
    let down = [patch_day(41, "hi"), patch_day(7, "")];
    let ex = exchange(conn, &[], &down).await;
    let stats = ex.result.unwrap();
    let got: Vec<_> = ex.client_got.iter().map(|p| read(p)).collect();
    assert_eq!(got[0].0, 42);
    assert_eq!(got[1].0, 8);
    assert!(got[0].1.ends_with("(seen by the proxy)"), "{got:?}");
    assert!(got[0].1.contains("hi"), "{got:?}");
    assert!(ex.client_got[0].len() > down[0].len(), "re-encoded longer");
    assert_eq!(stats.server_to_client.changed, 2);
    assert_eq!(
        *seen.lock().unwrap(),
        [r#"{"count":41,"text":"hi"}"#, r#"{"count":7,"text":""}"#]
    );
}

#[tokio::test]
async fn a_dynamic_hook_without_its_def_is_an_error_when_added() {
    let (_dir, conn) = setup();
    let err = conn
        .add_hook(Hook::dynamic("S_PATCH_DAY", Version::Exact(4), |_, _| {
            Verdict::Pass
        }))
        .unwrap_err();
    assert_eq!(
        err,
        HookError::RuntimeDef(DynamicError::NoDef {
            name: "S_PATCH_DAY".into(),
            version: Some(4)
        })
    );
    let without_defs = Connection::new(ProxyConfig::default());
    let err = without_defs
        .add_hook(Hook::dynamic("S_PATCH_DAY", Version::Latest, |_, _| {
            Verdict::Pass
        }))
        .unwrap_err();
    assert_eq!(err, HookError::RuntimeDef(DynamicError::NoDefs));
    assert!(matches!(
        DefSource::folder(tempfile::tempdir().unwrap().path()),
        Err(tera_proxy::DefsError::NoDefs { .. })
    ));
}

/// A party list of a patch the build does not know: its members are an
/// array of blocks.
const PARTY_DEF: &str = "array members\n\
                         - uint32 playerId\n\
                         - string name\n\
                         - object class\n\
                         -- uint16 id\n\
                         uint32 leaderId\n";
const PARTY_OPCODE: u16 = 40405;

#[tokio::test]
async fn a_dynamic_hook_reads_a_nested_field_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("S_PARTY_PATCH.1.def"), PARTY_DEF).unwrap();
    let map = ProtocolMap::from_entries(None, [("S_PARTY_PATCH", PARTY_OPCODE)]);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::Fixed(Arc::new(map)),
        defs: DefSource::folder(dir.path()).unwrap(),
        ..ProxyConfig::default()
    });
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    conn.add_hook(Hook::dynamic(
        "S_PARTY_PATCH",
        Version::Latest,
        move |_, party| {
            // The one line: the second member's class, by path.
            let class = party
                .get_path("members[1].class.id")
                .and_then(Value::as_u16);
            log.lock().unwrap().push(class);
            // The same field through `Index`, changed in place.
            if class.is_some() {
                party["members"][1]["class"]["id"] = Value::from(7u16);
                return Verdict::Changed;
            }
            Verdict::Pass
        },
    ))
    .unwrap();

    let mut catalog = Catalog::new();
    let schema = catalog.add_def("S_PARTY_PATCH.1.def", PARTY_DEF).unwrap();
    let party = |members: serde_json::Value| {
        let value = schema
            .deserialize(serde_json::json!({ "members": members, "leaderId": 1 }))
            .unwrap();
        schema.encode(&value, PARTY_OPCODE).unwrap()
    };
    let down = [
        party(serde_json::json!([
            {"playerId": 1, "name": "Elin", "class": {"id": 3}},
            {"playerId": 2, "name": "Baraka", "class": {"id": 12}},
        ])),
        // One member only: the path finds nothing, and the hook passes.
        party(serde_json::json!([{"playerId": 1, "name": "Elin", "class": {"id": 3}}])),
    ];
    let ex = exchange(conn, &[], &down).await;
    ex.result.unwrap();
    assert_eq!(*seen.lock().unwrap(), [Some(12), None]);
    let got = schema.decode(&ex.client_got[0]).unwrap();
    assert_eq!(
        got.get_path("members[1].class.id").and_then(Value::as_u16),
        Some(7)
    );
    assert_eq!(
        got.get_path("members[0].class.id").and_then(Value::as_u16),
        Some(3)
    );
    assert_eq!(ex.client_got[1], down[1]);
}

/// Counts patch-day packets in its state, from a dynamic hook of its own.
#[derive(Default)]
struct PatchCounter {
    seen: u32,
}

impl tera_proxy::Mod for PatchCounter {
    const NAME: &'static str = "patch-counter";

    fn install(&mut self, setup: &mut tera_proxy::Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::dynamic(
            "S_PATCH_DAY",
            Version::Latest,
            |me, _, value| {
                me.seen += 1;
                *value.get_mut("count").unwrap() = Value::UInt32(me.seen * 100);
                Verdict::Changed
            },
        ));
        Ok(())
    }
}

#[tokio::test]
async fn a_mods_dynamic_hook_gets_the_mods_state() {
    let (_dir, conn) = setup();
    conn.add_mod(PatchCounter::default()).unwrap();
    let ex = exchange(conn, &[], &[patch_day(1, "a"), patch_day(1, "b")]).await;
    ex.result.unwrap();
    let got: Vec<_> = ex.client_got.iter().map(|p| read(p)).collect();
    assert_eq!(got, [(100, "a".to_owned()), (200, "b".to_owned())]);
}

/// The first member's id and whether it had no name, per packet.
type Seen = Arc<Mutex<Vec<(Option<u32>, bool)>>>;

/// Reads the first member of a party list: `list[0]["id"]` as a mod ported
/// from JS writes it (`event.members[0].id`).
#[derive(Default)]
struct FirstMember {
    seen: Seen,
}

impl Mod for FirstMember {
    const NAME: &'static str = "first-member";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::dynamic(
            "S_PARTY_LIST",
            Version::Latest,
            |me, _, value| {
                let first = &value["members"][0];
                let seen = (first["id"].as_u32(), first["name"].as_str().is_none());
                me.seen.lock().unwrap().push(seen);
                Verdict::Pass
            },
        ));
        Ok(())
    }
}

#[tokio::test]
async fn a_mod_indexing_an_empty_list_reads_a_null_and_goes_on() {
    const PARTY: &str = "array members\n- uint32 id\n- string name\n";
    const PARTY_OPCODE: u16 = 40405;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("S_PARTY_LIST.1.def"), PARTY).unwrap();
    let map = ProtocolMap::from_entries(None, [("S_PARTY_LIST", PARTY_OPCODE)]);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::Fixed(Arc::new(map)),
        defs: DefSource::folder(dir.path()).unwrap(),
        ..ProxyConfig::default()
    });
    let handle = conn.handle();
    let module = FirstMember::default();
    let seen = Arc::clone(&module.seen);
    conn.add_mod(module).unwrap();

    let mut catalog = Catalog::new();
    let schema = catalog.add_def("S_PARTY_LIST.1.def", PARTY).unwrap();
    let list = |members: serde_json::Value| {
        let value = schema
            .deserialize(serde_json::json!({ "members": members }))
            .unwrap();
        schema.encode(&value, PARTY_OPCODE).unwrap()
    };
    let down = [
        list(serde_json::json!([])),
        list(serde_json::json!([{"id": 7, "name": "Elin"}])),
    ];
    let ex = exchange(conn, &[], &down).await;
    ex.result.unwrap();
    assert_eq!(handle.faults(), [], "no panic, the mod stays");
    assert_eq!(*seen.lock().unwrap(), [(None, true), (Some(7), false)]);
    assert_eq!(ex.client_got, down, "both relayed as they were");
}
