//! A proxy on a real tera-data checkout (`TERA_DATA_DIR`, or
//! `../shared/tera-data` beside the project; skipped with a notice when
//! absent): the map of the revision `C_CHECK_VERSION` announces, and a mod
//! hooking a packet that map lacks installs its other hooks and is
//! reported by name.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tera_data::packets::{s_chat, s_system_message};
use tera_proxy::harness::{TestPeers, check_version};
use tera_proxy::{
    Connection, Direction, HookError, MapSource, Mod, PacketDef, ProxyConfig, Setup, Value, Verdict,
};

/// The checkout, if there is one.
pub fn checkout() -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/tera-data")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "tera_data tests: no tera-data checkout at {} (set TERA_DATA_DIR): skipped",
            dir.display()
        );
        None
    }
}

/// The newest protocol map of the checkout: its revision.
fn newest_revision(checkout: &std::path::Path) -> u32 {
    ["map", "maps"]
        .iter()
        .filter_map(|d| std::fs::read_dir(checkout.join(d)).ok())
        .flatten()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix("protocol.")?
                .strip_suffix(".map")?
                .parse()
                .ok()
        })
        .max()
        .expect("the checkout has a protocol map")
}

/// Hooks chat lines and a packet no client build names.
struct Chatty {
    lines: Arc<Mutex<Vec<String>>>,
}

impl Mod for Chatty {
    const NAME: &'static str = "chatty";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::raw("S_NO_SUCH_PACKET", |_, _, _| Verdict::Pass));
        setup.hook(Self::on::<s_chat::V4>(|me, event, chat| {
            let revision = event.revision().unwrap_or_default();
            me.lines
                .lock()
                .unwrap()
                .push(format!("{revision}: {}", chat.message));
            Verdict::Pass
        }));
        Ok(())
    }
}

#[tokio::test]
async fn a_real_checkouts_map_is_chosen_by_c_check_version() {
    let Some(checkout) = checkout() else { return };
    let revision = newest_revision(&checkout);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::tera_data(&checkout),
        ..ProxyConfig::default()
    });
    let lines = Arc::new(Mutex::new(Vec::new()));
    conn.add_mod(Chatty {
        lines: Arc::clone(&lines),
    })
    .unwrap();
    let mut peers = TestPeers::start(conn).await;
    let arrived = peers
        .send_from(Direction::ClientToServer, &[&check_version(revision)])
        .await;
    assert_eq!(arrived.names(), ["C_CHECK_VERSION"]);
    assert_eq!(peers.handle.revision(), Some(revision));
    let line = s_chat::V4 {
        message: "hello".into(),
        ..Default::default()
    };
    // Sent with the real map's opcode of S_CHAT.
    let bytes = peers.encode(&line);
    assert_eq!(
        Some(
            tera_dynamic::load_protocol_map(checkout.join(format!("maps/protocol.{revision}.map")))
                .or_else(|_| tera_dynamic::load_protocol_map(
                    checkout.join(format!("map/protocol.{revision}.map"))
                ))
                .map_err(|r| r.render(false))
                .unwrap()
                .map
                .code("S_CHAT")
                .unwrap()
        ),
        tera_net::framing::opcode(&bytes)
    );
    let echoed = peers.send(&line).await;
    assert_eq!(echoed.expect::<s_chat::V4>().message.to_string(), "hello");
    let reports = peers.handle.unknown_names();
    peers.finish().await;
    assert_eq!(*lines.lock().unwrap(), [format!("{revision}: hello")]);
    // The hook on a name the map lacks: reported with its mod, once the
    // map is known; the mod's other hook ran.
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].module.as_deref(), Some("chatty"));
    assert_eq!(reports[0].name, "S_NO_SUCH_PACKET");
    assert_eq!(reports[0].revision, Some(revision));
    assert!(
        reports[0].to_string().starts_with("mod chatty: hook #"),
        "{}",
        reports[0]
    );
}

#[test]
fn on_a_known_map_a_mod_installs_its_other_hooks_and_the_unknown_one_is_reported() {
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::test_map(),
        ..ProxyConfig::default()
    });
    let handle = conn.handle();
    conn.add_mod(Chatty {
        lines: Arc::default(),
    })
    .unwrap();
    let reports = handle.unknown_names();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(
        (reports[0].module.as_deref(), &*reports[0].name),
        (Some("chatty"), "S_NO_SUCH_PACKET")
    );
    // A hook outside any mod is refused at once: its caller holds it.
    let err = conn
        .add_hook(tera_proxy::Hook::raw("S_NO_SUCH_PACKET", |_, _| {
            Verdict::Pass
        }))
        .unwrap_err();
    assert!(matches!(err, HookError::NotInMap { .. }), "{err}");
}

/// Reads system messages with the connection's sysmsg map, and answers
/// `!used` with one it builds.
struct Messages {
    read: Arc<Mutex<Vec<String>>>,
}

impl Mod for Messages {
    const NAME: &'static str = "messages";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_system_message::V1>(|me, event, sysmsg| {
            let message = event.parse_system_message(&sysmsg.message.to_string());
            me.read.lock().unwrap().push(match message {
                Ok(m) => format!("{} {:?}", m.id, m.get("ItemName")),
                Err(e) => e.to_string(),
            });
            Verdict::Pass
        }));
        setup.hook(Self::command("used", |_, cmd| {
            let built = cmd
                .event()
                .build_system_message("SMT_ITEM_USED", &[("ItemName", "@item:6552")])
                .unwrap();
            let packet = s_system_message::V1 {
                message: built.into(),
            };
            cmd.event().send(&packet).unwrap();
        }));
        Ok(())
    }
}

#[tokio::test]
async fn system_messages_read_and_written_with_the_revisions_sysmsg_map() {
    let Some(checkout) = checkout() else { return };
    let revision = newest_revision(&checkout);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::tera_data(&checkout),
        ..ProxyConfig::default()
    });
    let read = Arc::new(Mutex::new(Vec::new()));
    conn.add_mod(Messages {
        read: Arc::clone(&read),
    })
    .unwrap();
    let mut peers = TestPeers::start(conn).await;
    peers
        .send_from(Direction::ClientToServer, &[&check_version(revision)])
        .await;
    let sysmsg = peers
        .handle
        .sysmsg()
        .expect("the checkout has a sysmsg map");
    // The corpus's newest sysmsg map is older than its newest protocol map.
    assert!(sysmsg.revision() <= revision);
    let code = sysmsg.code("SMT_ITEM_USED").unwrap();
    let arrived = peers.command("used").await;
    let built = arrived.expect::<s_system_message::V1>();
    assert_eq!(
        built.message.to_string(),
        format!("@{code}\u{b}ItemName\u{b}@item:6552")
    );
    for message in [
        format!("@{code}\u{b}ItemName\u{b}@item:1"),
        "@4000000000".to_owned(),
        "plain".to_owned(),
    ] {
        peers
            .send(&s_system_message::V1 {
                message: message.into(),
            })
            .await;
    }
    peers.finish().await;
    assert_eq!(
        *read.lock().unwrap(),
        [
            "SMT_ITEM_USED Some(\"@item:1\")".to_owned(),
            format!(
                "system message code 4000000000 is not in sysmsg.{}.map",
                sysmsg.revision()
            ),
            "\"plain\" is not a system message (it does not start with @)".to_owned(),
        ]
    );
}

/// The client packets of the real 2024 session (`../shared/real-sessions`,
/// or `TERA_REAL_SESSIONS`), and its folder.
fn real_client_packets() -> Option<(PathBuf, Vec<Vec<u8>>)> {
    let dir = std::env::var_os("TERA_REAL_SESSIONS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-sessions")
        });
    let Ok(text) = std::fs::read_to_string(dir.join("classic-plus-376012-server.jsonl")) else {
        eprintln!(
            "tera_data tests: no real session in {} (set TERA_REAL_SESSIONS): skipped",
            dir.display()
        );
        return None;
    };
    let packets = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|v| v["dir"] == "c2s")
        .map(|v| {
            let hex = v["hex"].as_str().unwrap();
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect();
    Some((dir, packets))
}

#[tokio::test]
async fn the_real_clients_patch_is_read_from_its_login() {
    let Some((dir, packets)) = real_client_packets() else {
        return;
    };
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::folder(&dir),
        ..ProxyConfig::default()
    });
    let mut peers = TestPeers::start(conn).await;
    // C_CHECK_VERSION, then C_LOGIN_ARBITER, as the client sent them.
    let first: Vec<&[u8]> = packets.iter().take(2).map(Vec::as_slice).collect();
    peers.send_from(Direction::ClientToServer, &first).await;
    assert_eq!(peers.handle.map_error().map(|e| e.to_string()), None);
    assert_eq!(peers.handle.revision(), Some(376_012));
    // v100.02, as the session's README says of build 376012.
    assert_eq!(peers.handle.patch(), Some((100, 2)));
    peers.finish().await;
}

/// A def of the checkout read through its path, as a mod would ship it.
fn shipped(checkout: &std::path::Path, name: &str, version: u32) -> PacketDef {
    let file = checkout.join(format!("definitions/{name}.{version}.def"));
    PacketDef::parse(name, version, &std::fs::read_to_string(file).unwrap()).unwrap()
}

/// Reads S_DEAD_LOCATION.2 and answers with C_USE_ITEM.3: two packets the
/// project does not compile in, by the defs the mod ships.
struct Deaths {
    dead: PacketDef,
    use_item: PacketDef,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Mod for Deaths {
    const NAME: &'static str = "deaths";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::shipped(&self.dead, |me, event, dead| {
            let id = dead.get("gameId").and_then(Value::as_u64).unwrap();
            me.seen.lock().unwrap().push(format!("dead {id}"));
            let mut item = me.use_item.zero();
            *item.get_mut("id").unwrap() = Value::from(6552i32);
            event.send_record(&me.use_item, &item).unwrap();
            // The change is encoded by the shipped def.
            *dead.get_mut("gameId").unwrap() = Value::from(id + 1);
            Verdict::Changed
        }));
        Ok(())
    }
}

#[tokio::test]
async fn a_mod_ships_the_defs_of_packets_the_project_does_not_compile_in() {
    let Some(checkout) = checkout() else { return };
    let revision = newest_revision(&checkout);
    // Neither is in the project's own defs (a build on the corpus,
    // TERA_DATA_DIR, compiles them in; the shipped defs work the same).
    let dead = shipped(&checkout, "S_DEAD_LOCATION", 2);
    let use_item = shipped(&checkout, "C_USE_ITEM", 3);
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::tera_data(&checkout),
        ..ProxyConfig::default()
    });
    let seen = Arc::new(Mutex::new(Vec::new()));
    conn.add_mod(Deaths {
        dead: dead.clone(),
        use_item: use_item.clone(),
        seen: Arc::clone(&seen),
    })
    .unwrap();
    let mut peers = TestPeers::start(conn).await;
    peers
        .send_from(Direction::ClientToServer, &[&check_version(revision)])
        .await;
    let map = peers.map();
    let mut record = dead.zero();
    *record.get_mut("gameId").unwrap() = Value::from(41u64);
    let bytes = dead
        .encode(&record, map.code("S_DEAD_LOCATION").unwrap())
        .unwrap();
    let arrived = peers.send_named("S_DEAD_LOCATION", bytes).await;
    let changed = dead.decode(arrived.named("S_DEAD_LOCATION")[0]).unwrap();
    assert_eq!(changed.get("gameId").and_then(Value::as_u64), Some(42));
    let sent = use_item.decode(arrived.named("C_USE_ITEM")[0]).unwrap();
    assert_eq!(sent.get("id").and_then(Value::as_i32), Some(6552));
    peers.finish().await;
    assert_eq!(*seen.lock().unwrap(), ["dead 41"]);
}

#[test]
fn a_shipped_def_that_does_not_read_says_where() {
    let err = PacketDef::parse("S_X", 1, "uint32 a\nnot a field line\n").unwrap_err();
    assert!(
        matches!(&err, HookError::BadDef { def, .. } if def == "S_X.1.def"),
        "{err}"
    );
    assert!(err.to_string().contains("S_X.1.def"), "{err}");
}
