//! Per-mod settings, as tera-toolbox's `mod.settings`: loaded when the mod
//! is installed, saved when changed and when the mod leaves, migrated from
//! older versions; a file that does not load is reported, kept beside and
//! the defaults used.

mod common;

use std::path::Path;

use common::{connection, enc, exchange, map, op};
use serde::{Deserialize, Serialize};
use tera_data::Packet;
use tera_data::packets::{c_chat, s_chat, s_private_chat};
use tera_proxy::harness::{keys, loopback};
use tera_proxy::{
    Connection, HookError, MapSource, Mod, ModSettings, ProxyConfig, Settings, SettingsFile, Setup,
    Verdict,
};

/// Version 2 of the greeter's settings (version 1 named the greeting
/// `hello` and had no count).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Greeting {
    greeting: String,
    installs: u32,
}

impl Default for Greeting {
    fn default() -> Self {
        Greeting {
            greeting: "hello".to_owned(),
            installs: 0,
        }
    }
}

impl ModSettings for Greeting {
    const VERSION: u32 = 2;

    fn migrate(version: u32, data: serde_json::Value) -> Result<Self, String> {
        match (version, data.get("hello").and_then(|h| h.as_str())) {
            (1, Some(hello)) => Ok(Greeting {
                greeting: hello.to_owned(),
                installs: 0,
            }),
            (1, None) => Err("version 1 without `hello`".to_owned()),
            _ => Err(format!("unknown version {version}")),
        }
    }
}

/// Appends its greeting to chat lines; `!greet TEXT` changes it; counts
/// its installs in its settings (a change made outside any call).
#[derive(Default)]
struct Greeter {
    settings: Settings<Greeting>,
}

impl Mod for Greeter {
    const NAME: &'static str = "greeter";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        self.settings.installs += 1;
        setup.hook(Self::on::<s_chat::V4>(|me, _, chat| {
            chat.message = format!("{} {}", chat.message, me.settings.greeting).into();
            Verdict::Changed
        }));
        setup.hook(Self::command("greet", |me, cmd| {
            me.settings.greeting = cmd.args().join(" ");
            cmd.reply("ok");
        }));
        Ok(())
    }
}

fn connection_in(dir: &Path) -> Connection {
    Connection::new(ProxyConfig {
        maps: MapSource::test_map(),
        settings_dir: Some(dir.to_owned()),
        ..ProxyConfig::default()
    })
}

fn chat(message: &str) -> Vec<u8> {
    enc(&s_chat::V4 {
        message: message.into(),
        ..Default::default()
    })
}

fn chat_text(p: &[u8]) -> String {
    s_chat::V4::decode(p).unwrap().message.to_string()
}

/// The file's version and data.
fn read(path: &Path) -> (u64, Greeting) {
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let data = serde_json::from_value(file["data"].clone()).unwrap();
    (file["version"].as_u64().unwrap(), data)
}

#[tokio::test]
async fn a_settings_file_that_does_not_parse_is_reported_kept_and_the_defaults_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("greeter.json");
    let bad = "{\"version\": 2, \"data\": {\"greeting\": ";
    std::fs::write(&path, bad).unwrap();
    // One bad file kept already: the new one goes beside it, not over it.
    std::fs::write(dir.path().join("greeter.json.bad"), "older").unwrap();

    let conn = connection_in(dir.path());
    let handle = conn.handle();
    conn.add_mod(Greeter::default()).unwrap();
    let problems = handle.settings_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let problem = &problems[0];
    assert_eq!((problem.module, &*problem.path), ("greeter", &*path));
    assert!(problem.reason.contains("not JSON"), "{problem}");
    let kept = dir.path().join("greeter.json.bad.2");
    assert_eq!(problem.kept.as_deref(), Some(&*kept));
    assert!(
        problem.to_string().contains("greeter.json.bad.2"),
        "{problem}"
    );

    let ex = exchange(conn, &[], &[chat("hi")]).await;
    ex.result.unwrap();
    assert_eq!(chat_text(&ex.client_got[0]), "hi hello", "the defaults");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), bad, "never lost");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("greeter.json.bad")).unwrap(),
        "older"
    );
    let (version, saved) = read(&path);
    assert_eq!((version, saved.greeting.as_str()), (2, "hello"));
}

#[tokio::test]
async fn settings_of_an_older_version_are_migrated_and_saved_as_the_new() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("greeter.json");
    std::fs::write(&path, r#"{"version": 1, "data": {"hello": "hey"}}"#).unwrap();
    let conn = connection_in(dir.path());
    let handle = conn.handle();
    conn.add_mod(Greeter::default()).unwrap();
    let ex = exchange(conn, &[], &[chat("hi")]).await;
    ex.result.unwrap();
    assert_eq!(handle.settings_problems(), []);
    assert_eq!(chat_text(&ex.client_got[0]), "hi hey");
    assert_eq!(
        read(&path),
        (
            2,
            Greeting {
                greeting: "hey".to_owned(),
                installs: 1
            }
        )
    );

    // A migration that fails is a file that does not load.
    std::fs::write(&path, r#"{"version": 1, "data": {"hullo": "hey"}}"#).unwrap();
    let conn = connection_in(dir.path());
    let handle = conn.handle();
    conn.add_mod(Greeter::default()).unwrap();
    let problems = handle.settings_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .reason
            .contains("migration from version 1: version 1 without `hello`"),
        "{}",
        problems[0]
    );
    assert!(dir.path().join("greeter.json.bad").exists());
}

#[tokio::test]
async fn settings_are_saved_when_changed_and_when_the_mod_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("greeter.json");
    let conn = connection_in(dir.path());
    let handle = conn.handle();
    let id = conn.add_mod(Greeter::default()).unwrap();
    let mut lb = loopback(conn, &keys(60)).await.unwrap();
    // The install's change waits for a call or the mod's end.
    lb.server.writer.send(&[&chat("a")]).await.unwrap();
    assert_eq!(
        chat_text(&lb.client.reader.recv().await.unwrap().unwrap()),
        "a hello"
    );
    assert_eq!(read(&path).1.installs, 1, "saved after the first call");

    let line = enc(&c_chat::V1 {
        channel: 0,
        message: "!greet good day".into(),
    });
    lb.client.writer.send(&[&line]).await.unwrap();
    let reply = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(map().name(op(&reply)), Some("S_PRIVATE_CHAT"));
    assert_eq!(s_private_chat::V1::decode(&reply).unwrap().message, "ok");
    assert_eq!(read(&path).1.greeting, "good day", "saved when changed");

    // A change nobody calls after is saved when the mod leaves.
    std::fs::remove_file(&path).unwrap();
    handle.remove_mod(id);
    lb.server.writer.send(&[&chat("b")]).await.unwrap();
    assert_eq!(
        chat_text(&lb.client.reader.recv().await.unwrap().unwrap()),
        "b",
        "the mod has left"
    );
    assert_eq!(read(&path).1.greeting, "good day", "saved as it left");
}

#[tokio::test]
async fn settings_are_saved_at_exit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("greeter.json");
    for installs in 1..=2 {
        let conn = connection_in(dir.path());
        conn.add_mod(Greeter::default()).unwrap();
        // No packet reaches the mod: the install's change is saved when
        // the connection ends.
        let ex = exchange(conn, &[], &[]).await;
        ex.result.unwrap();
        assert_eq!(read(&path).1.installs, installs);
    }
    // Without a settings folder nothing is written.
    let conn = connection();
    conn.add_mod(Greeter::default()).unwrap();
    exchange(conn, &[], &[]).await.result.unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Ends a loopback connection: its mods leave and save their settings.
async fn end(mut lb: tera_proxy::harness::Loopback) {
    lb.client.writer.shutdown().await.unwrap();
    lb.server.writer.shutdown().await.unwrap();
    lb.relay.await.unwrap().unwrap();
}

async fn say(lb: &mut tera_proxy::harness::Loopback, line: &str) -> String {
    let line = enc(&c_chat::V1 {
        channel: 0,
        message: line.into(),
    });
    lb.client.writer.send(&[&line]).await.unwrap();
    let reply = lb.client.reader.recv().await.unwrap().unwrap();
    s_private_chat::V1::decode(&reply)
        .unwrap()
        .message
        .to_string()
}

async fn relayed(lb: &mut tera_proxy::harness::Loopback, message: &str) -> String {
    lb.server.writer.send(&[&chat(message)]).await.unwrap();
    chat_text(&lb.client.reader.recv().await.unwrap().unwrap())
}

#[tokio::test]
async fn two_connections_that_change_the_settings_both_keep_their_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("greeter.json");
    let first = connection_in(dir.path());
    let first_handle = first.handle();
    first.add_mod(Greeter::default()).unwrap();
    let second = connection_in(dir.path());
    let second_handle = second.handle();
    second.add_mod(Greeter::default()).unwrap();
    let mut a = loopback(first, &keys(61)).await.unwrap();
    let mut b = loopback(second, &keys(62)).await.unwrap();

    // Each install counted itself; the first connection changes the
    // greeting, and the second sees it on its next call.
    assert_eq!(say(&mut a, "!greet hey").await, "ok");
    assert_eq!(relayed(&mut b, "b").await, "b hey");
    assert_eq!(
        read(&path).1,
        Greeting {
            greeting: "hey".to_owned(),
            installs: 2
        }
    );
    // The second changes it back and then forth, the first closes last:
    // its copy, made before, does not write over the change.
    assert_eq!(say(&mut b, "!greet hi").await, "ok");
    end(b).await;
    end(a).await;
    assert_eq!(
        read(&path).1,
        Greeting {
            greeting: "hi".to_owned(),
            installs: 2
        }
    );
    assert_eq!(first_handle.settings_problems(), []);
    assert_eq!(second_handle.settings_problems(), []);

    // The owner went with its last connection: the next one reads the file.
    let conn = connection_in(dir.path());
    conn.add_mod(Greeter::default()).unwrap();
    exchange(conn, &[], &[]).await.result.unwrap();
    assert_eq!(read(&path).1.installs, 3);
}

#[test]
fn a_change_that_could_not_be_written_is_written_by_the_next_save() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("settings");
    let path = folder.join("greeter.json");
    let (mut settings, problem) = Settings::<Greeting>::load(&folder, "greeter");
    assert_eq!(problem, None);
    settings.greeting = "hey".to_owned();
    // The folder cannot be made: a file has its name (as root, permission
    // bits would not stop the write).
    std::fs::write(&folder, "in the way").unwrap();
    let problem = settings.save_changes("greeter").unwrap_err();
    assert!(problem.reason.contains("folder"), "{problem}");
    assert_eq!(problem.path, path);
    std::fs::remove_file(&folder).unwrap();
    // No change since: the failed one is still to be written.
    settings.save_changes("greeter").unwrap();
    assert_eq!(read(&path).1.greeting, "hey");
}

#[test]
fn a_save_has_a_temporary_file_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("greeter.json.tmp");
    std::fs::write(&stale, "another writer's").unwrap();
    let (mut settings, problem) = Settings::<Greeting>::load(dir.path(), "greeter");
    assert_eq!(problem, None);
    settings.greeting = "hey".to_owned();
    settings.save_changes("greeter").unwrap();
    settings.greeting = "hi".to_owned();
    settings.save_changes("greeter").unwrap();
    assert_eq!(read(&dir.path().join("greeter.json")).1.greeting, "hi");
    assert_eq!(
        std::fs::read_to_string(&stale).unwrap(),
        "another writer's",
        "another writer's temporary file is left alone"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}
