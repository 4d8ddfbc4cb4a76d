//! What tera-toolbox gives a mod besides hooks: `mod.log`, the destructor
//! (unload), command arguments with their chat links, hooks by the
//! client's patch.

use std::sync::{Arc, Mutex};

use tera_data::packets::{c_chat, c_login_arbiter, s_chat};
use tera_proxy::harness::TestPeers;
use tera_proxy::{Connection, HookError, MapSource, Mod, ProxyConfig, Setup, Verdict};

fn connection() -> Connection {
    Connection::new(ProxyConfig {
        maps: MapSource::test_map(),
        ..ProxyConfig::default()
    })
}

type Notes = Arc<Mutex<Vec<String>>>;

/// Logs, records its commands' arguments and its unload.
struct Toolbox {
    notes: Notes,
}

impl Toolbox {
    fn note(&self, text: String) {
        self.notes.lock().unwrap().push(text);
    }
}

impl Mod for Toolbox {
    const NAME: &'static str = "toolbox";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.log("installed");
        setup.hook(Self::on::<s_chat::V4>(|_, event, chat| {
            event.log(format!("chat: {}", chat.message));
            event.warn("loud");
            Verdict::Pass
        }));
        setup.hook(Self::command("loot", |me, cmd| {
            me.note(format!("args {:?}", cmd.args()));
            me.note(format!("raw {:?}", cmd.raw_args()));
            for link in cmd.links() {
                me.note(format!("link {} {:?} {}", link.kind, link.id(), link.text));
            }
        }));
        Ok(())
    }

    fn unload(&mut self) {
        self.note("unloaded".to_owned());
    }
}

/// Records the events of target `tera_proxy::mods`: level, `module`,
/// message, each in the list of the thread that logged it. It is the
/// global subscriber, set once: with a subscriber set per test
/// (`set_default`), a callsite first reached by a test without one, on
/// another thread at the same moment, can keep an interest of "never" and
/// the logging test misses events.
struct Recorder;

thread_local! {
    static LOGGED: Notes = Notes::default();
}

/// This thread's list of events (a `current_thread` tokio test runs its
/// connection on its own thread).
fn logged() -> Notes {
    static GLOBAL: std::sync::Once = std::sync::Once::new();
    GLOBAL.call_once(|| {
        tracing::subscriber::set_global_default(Recorder).expect("no other global subscriber");
    });
    LOGGED.with(Arc::clone)
}

struct Fields {
    module: String,
    message: String,
}

impl tracing::field::Visit for Fields {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "module" {
            self.module = value.to_owned();
        }
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "module" => self.module = format!("{value:?}"),
            _ => {}
        }
    }
}

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() != "tera_proxy::mods" {
            return;
        }
        let mut fields = Fields {
            module: String::new(),
            message: String::new(),
        };
        event.record(&mut fields);
        LOGGED.with(|logged| {
            logged.lock().unwrap().push(format!(
                "{} [{}] {}",
                event.metadata().level(),
                fields.module,
                fields.message
            ))
        });
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn a_mod_logs_under_its_name_and_is_unloaded_when_the_connection_ends() {
    let logged = logged();
    logged.lock().unwrap().clear();
    let notes = Notes::default();
    let conn = connection();
    conn.add_mod(Toolbox {
        notes: Arc::clone(&notes),
    })
    .unwrap();
    let mut peers = TestPeers::start(conn).await;
    peers
        .send(&s_chat::V4 {
            message: "hi".into(),
            ..Default::default()
        })
        .await;
    assert!(notes.lock().unwrap().is_empty());
    peers.finish().await;
    assert_eq!(*notes.lock().unwrap(), ["unloaded"]);
    assert_eq!(
        *logged.lock().unwrap(),
        [
            "INFO [toolbox] installed",
            "INFO [toolbox] chat: hi",
            "WARN [toolbox] loud"
        ]
    );
}

#[tokio::test]
async fn a_removed_mod_is_unloaded_once() {
    let notes = Notes::default();
    let conn = connection();
    let handle = conn.handle();
    let id = conn
        .add_mod(Toolbox {
            notes: Arc::clone(&notes),
        })
        .unwrap();
    let mut peers = TestPeers::start(conn).await;
    handle.remove_mod(id);
    peers.command("nothing").await;
    assert_eq!(*notes.lock().unwrap(), ["unloaded"]);
    peers.finish().await;
    assert_eq!(*notes.lock().unwrap(), ["unloaded"], "once");
}

#[tokio::test]
async fn command_arguments_keep_chat_links_as_toolbox_gives_them() {
    let notes = Notes::default();
    let conn = connection();
    conn.add_mod(Toolbox {
        notes: Arc::clone(&notes),
    })
    .unwrap();
    let mut peers = TestPeers::start(conn).await;
    let link = r#"<ChatLinkAction param="1#####169747@3345@Ann">&lt;Fish Pie&gt;</ChatLinkAction>"#;
    // As the client sends a line with a shift-clicked item.
    let arrived = peers
        .send(&c_chat::V1 {
            channel: 0,
            message: format!("<FONT>!loot add {link}</FONT>").into(),
        })
        .await;
    assert!(
        arrived.server.is_empty(),
        "a command never reaches the server"
    );
    assert_eq!(
        *notes.lock().unwrap(),
        [
            r#"args ["add", "<Fish", "Pie>"]"#.to_owned(),
            format!("raw {:?}", ["add", link]),
            "link 1 Some(169747) <Fish Pie>".to_owned(),
        ]
    );
    peers.finish().await;
}

/// Hooks chat lines with one hook per client patch range.
struct ByPatch {
    notes: Notes,
}

impl Mod for ByPatch {
    const NAME: &'static str = "by-patch";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        let ranges = [(0, 1), (92, 2), (100, 3)];
        for hook in tera_proxy::Hook::by_patch(&ranges, |row| {
            Self::raw("S_CHAT", move |me: &mut ByPatch, event, _| {
                me.notes
                    .lock()
                    .unwrap()
                    .push(format!("row {row} at patch {:?}", event.patch()));
                Verdict::Pass
            })
        }) {
            setup.hook(hook);
        }
        Ok(())
    }
}

fn login(patch_version: i32) -> c_login_arbiter::V2<'static> {
    c_login_arbiter::V2 {
        patch_version,
        name: "ann".into(),
        ..Default::default()
    }
}

#[tokio::test]
async fn hooks_chosen_by_the_patch_the_client_says_at_login() {
    let line = s_chat::V4 {
        message: "x".into(),
        ..Default::default()
    };
    for (patch_version, expected) in [
        (9205, "row 2 at patch Some(92)"),
        (10002, "row 3 at patch Some(100)"),
        (8600, "row 1 at patch Some(86)"),
    ] {
        let notes = Notes::default();
        let conn = connection();
        conn.add_mod(ByPatch {
            notes: Arc::clone(&notes),
        })
        .unwrap();
        let mut peers = TestPeers::start(conn).await;
        // Before the login the patch is unknown: the newest clients' hook.
        peers.send(&line).await;
        peers.send(&login(patch_version)).await;
        let minor = u32::try_from(patch_version % 100).unwrap();
        assert_eq!(
            peers.handle.patch(),
            Some((u32::try_from(patch_version / 100).unwrap(), minor))
        );
        peers.send(&line).await;
        peers.finish().await;
        assert_eq!(
            *notes.lock().unwrap(),
            ["row 3 at patch None", expected],
            "{patch_version}"
        );
    }
}

#[tokio::test]
async fn a_proxy_that_stops_unloads_the_mods_of_its_open_connections() {
    use tera_proxy::Proxy;
    use tera_proxy::harness::{Peer, keys};

    let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let notes = Notes::default();
    let for_mods = Arc::clone(&notes);
    let proxy = Proxy::new(server.local_addr().unwrap().to_string())
        .config(ProxyConfig {
            maps: MapSource::test_map(),
            ..ProxyConfig::default()
        })
        .with_mod(move || Toolbox {
            notes: Arc::clone(&for_mods),
        })
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = proxy.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(proxy.run_until(async {
        stopped.await.ok();
    }));
    let keys = keys(70);
    let game = async { Peer::server(server.accept().await?.0, &keys).await };
    let (client, game) = tokio::join!(Peer::client(addr, &keys), game);
    let (mut client, _game) = (client.unwrap(), game.unwrap());
    assert!(notes.lock().unwrap().is_empty(), "open: not unloaded");
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
    assert_eq!(*notes.lock().unwrap(), ["unloaded"]);
    // The connection was ended: the client's stream closes.
    assert!(client.reader.recv().await.map_or(true, |p| p.is_none()));
}
