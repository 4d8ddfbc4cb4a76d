//! Hooks typed by their packet type, sending by name, hooks changing hooks
//! from inside, hook-once, mods with their state, faults per mod, unknown
//! names and in-game commands, on a real relayed connection. The packets
//! are versions both the project's defs and the corpus have, so these tests
//! run with either compiled in.

mod common;

use std::sync::{Arc, Mutex};

use common::{connection, enc, exchange, map, op};
use tera_data::packets::{
    c_chat, c_whisper, s_chat, s_join_private_channel, s_private_chat, s_system_message, s_whisper,
};
use tera_data::{Packet, Str};
use tera_proxy::commands::{CHANNEL_ID, CHANNEL_INDEX};
use tera_proxy::harness::{check_version, keys, loopback, packet};
use tera_proxy::{
    Connection, Direction, Hook, HookError, MapSource, Mod, ProxyConfig, Setup, Verdict,
    direction_of,
};

fn chat(message: &str) -> Vec<u8> {
    enc(&s_chat::V4 {
        channel: 1,
        name: "Elin".into(),
        message: Str::from(message.to_owned()),
        ..Default::default()
    })
}

fn system(message: &str) -> Vec<u8> {
    enc(&s_system_message::V1 {
        message: Str::from(message.to_owned()),
    })
}

fn say(channel: u32, message: &str) -> Vec<u8> {
    enc(&c_chat::V1 {
        channel,
        message: Str::from(message.to_owned()),
    })
}

fn name_of(p: &[u8]) -> &'static str {
    let map = map();
    let name = map.name(op(p)).unwrap_or("?").to_owned();
    Box::leak(name.into_boxed_str())
}

fn chat_text(p: &[u8]) -> String {
    s_chat::V4::decode(p).unwrap().message.to_string()
}

type Log = Arc<Mutex<Vec<String>>>;

#[tokio::test]
async fn typed_by_type_hooks_change_block_and_pass() {
    let conn = connection();
    conn.add_hook(Hook::on::<s_chat::V4>(|_, chat| {
        if chat.message != "hello" {
            return Verdict::Pass;
        }
        chat.message = format!("{}, and a longer tail", chat.message).into();
        Verdict::Changed
    }))
    .unwrap();
    conn.add_hook(Hook::on::<s_system_message::V1>(|_, _| Verdict::Block))
        .unwrap();
    let down = [chat("hello"), system("@404"), chat("as is")];
    let ex = exchange(conn, &[], &down).await;
    let stats = ex.result.unwrap();
    assert_eq!(ex.client_got.len(), 2, "the system message is blocked");
    assert_eq!(chat_text(&ex.client_got[0]), "hello, and a longer tail");
    let changed = s_chat::V4::decode(&ex.client_got[0]).unwrap();
    assert_eq!((changed.channel, &*changed.name.to_string()), (1, "Elin"));
    assert_eq!(ex.client_got[1], down[2], "a passed packet keeps its bytes");
    assert_eq!(
        (
            stats.server_to_client.changed,
            stats.server_to_client.blocked
        ),
        (1, 1)
    );
}

#[tokio::test]
async fn send_takes_the_direction_from_the_name() {
    assert_eq!(direction_of("C_CHAT"), Some(Direction::ClientToServer));
    assert_eq!(direction_of("S_CHAT"), Some(Direction::ServerToClient));
    assert_eq!(direction_of("I_TELEPORT"), Some(Direction::ServerToClient));
    assert_eq!(direction_of("X_CHAT"), None);

    let conn = connection();
    let handle = conn.handle();
    conn.add_hook(Hook::on::<c_chat::V1>(|event, line| {
        // One packet each way, neither with a direction.
        let echo = s_chat::V4 {
            message: format!("echo {}", line.message).into(),
            ..Default::default()
        };
        event.send(&echo).unwrap();
        let whisper = c_whisper::V2 {
            target: "Ann".into(),
            message: line.message.clone(),
            ..Default::default()
        };
        event.send(&whisper).unwrap();
        Verdict::Pass
    }))
    .unwrap();
    let keys = keys(21);
    let mut lb = loopback(conn, &keys).await.unwrap();
    handle
        .send(&s_system_message::V1 {
            message: "from the handle".into(),
        })
        .await
        .unwrap();
    let line = say(0, "hi");
    lb.client.writer.send(&[&line]).await.unwrap();
    let got = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(
        s_system_message::V1::decode(&got).unwrap().message,
        "from the handle"
    );
    let got = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(chat_text(&got), "echo hi");
    let got = lb.server.reader.recv().await.unwrap().unwrap();
    let whisper = c_whisper::V2::decode(&got).unwrap();
    assert_eq!(
        (&*whisper.target.to_string(), op(&got)),
        ("Ann", op(&enc(&whisper)))
    );
    assert_eq!(&lb.server.reader.recv().await.unwrap().unwrap()[..], line);
}

#[tokio::test]
async fn hooks_add_and_remove_hooks_from_inside_without_deadlock() {
    let seen: Log = Log::default();
    let conn = connection();
    let handle = conn.handle();
    // A system message "add" adds a chat hook; "remove" removes it; "both"
    // adds one through a handle, from inside the hook.
    let added = Arc::new(Mutex::new(None));
    {
        let (seen, added, handle) = (Arc::clone(&seen), Arc::clone(&added), handle.clone());
        conn.add_hook(Hook::on::<s_system_message::V1>(move |event, message| {
            let seen2 = Arc::clone(&seen);
            let hook = move |label: &'static str| {
                let seen = Arc::clone(&seen2);
                Hook::on::<s_chat::V4>(move |_, chat| {
                    seen.lock()
                        .unwrap()
                        .push(format!("{label} {}", chat.message));
                    Verdict::Pass
                })
            };
            match &*message.message.to_string() {
                "add" => *added.lock().unwrap() = Some(event.add_hook(hook("event")).unwrap()),
                "remove" => event.remove_hook(added.lock().unwrap().take().unwrap()),
                "handle" => drop(handle.add_hook(hook("handle")).unwrap()),
                _ => {}
            }
            Verdict::Pass
        }))
        .unwrap();
    }
    let down = [
        chat("1"),
        system("add"),
        chat("2"),
        system("remove"),
        chat("3"),
        system("handle"),
        chat("4"),
    ];
    let ex = exchange(conn, &[], &down).await;
    ex.result.unwrap();
    assert_eq!(ex.client_got, down);
    assert_eq!(*seen.lock().unwrap(), ["event 2", "handle 4"]);
}

#[tokio::test]
async fn a_hook_once_runs_once() {
    let seen: Log = Log::default();
    let conn = connection();
    let log = Arc::clone(&seen);
    conn.add_hook(
        Hook::on::<s_chat::V4>(move |_, chat| {
            log.lock().unwrap().push(chat.message.to_string());
            Verdict::Block
        })
        .once(),
    )
    .unwrap();
    let down = [chat("first"), chat("second"), chat("third")];
    let ex = exchange(conn, &[], &down).await;
    ex.result.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["first"]);
    assert_eq!(ex.client_got, down[1..], "only the first was blocked");
}

/// Counts chat lines into each message; `!count` replies with the count;
/// panics on a chat line "boom".
#[derive(Default)]
struct Counter {
    lines: u32,
}

impl Mod for Counter {
    const NAME: &'static str = "counter";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_chat::V4>(|me, _, chat| {
            assert_ne!(chat.message, "boom", "the counter breaks on boom");
            me.lines += 1;
            chat.message = format!("{} #{}", chat.message, me.lines).into();
            Verdict::Changed
        }));
        setup.hook(Self::command("count", |me, cmd| {
            let text = format!("{} lines {}", me.lines, cmd.args().join(" "));
            cmd.reply(text);
        }));
        Ok(())
    }
}

/// Marks every chat line (a second mod, which must keep working).
struct Marker;

impl Mod for Marker {
    const NAME: &'static str = "marker";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(
            Self::on::<s_chat::V4>(|_, _, chat| {
                chat.message = format!("[{}]", chat.message).into();
                Verdict::Changed
            })
            .order(10),
        );
        Ok(())
    }
}

#[tokio::test]
async fn mods_keep_state_per_connection_and_removing_one_removes_its_hooks() {
    for round in 0..2 {
        let conn = connection();
        let handle = conn.handle();
        let id = conn.add_mod(Counter::default()).unwrap();
        let keys = keys(30 + round);
        let mut lb = loopback(conn, &keys).await.unwrap();
        let mut round_trip = async |line: &str| {
            lb.server.writer.send(&[&chat(line)]).await.unwrap();
            chat_text(&lb.client.reader.recv().await.unwrap().unwrap())
        };
        // Each connection has its own counter.
        assert_eq!(round_trip("a").await, "a #1");
        assert_eq!(round_trip("b").await, "b #2");
        handle.remove_mod(id);
        assert_eq!(round_trip("c").await, "c", "the mod's hook is gone");
        lb.client.writer.send(&[&say(0, "!count")]).await.unwrap();
        let got = lb.server.reader.recv().await.unwrap().unwrap();
        assert_eq!(
            c_chat::V1::decode(&got).unwrap().message,
            "!count",
            "so is its command"
        );
    }
}

#[tokio::test]
async fn a_panicking_hook_disables_only_its_mod_and_packets_keep_flowing_in_order() {
    let conn = connection();
    let handle = conn.handle();
    conn.add_mod(Counter::default()).unwrap();
    conn.add_mod(Marker).unwrap();
    let lines = ["a", "b", "boom", "c", "d"];
    let down: Vec<_> = lines.iter().map(|l| chat(l)).collect();
    let ex = exchange(conn, &[say(0, "!count")], &down).await;
    ex.result.unwrap();
    let got: Vec<_> = ex.client_got.iter().map(|p| chat_text(p)).collect();
    assert_eq!(got, ["[a #1]", "[b #2]", "[boom]", "[c]", "[d]"]);
    let faults = handle.faults();
    assert_eq!(faults.len(), 1, "reported once: {faults:?}");
    let fault = &faults[0];
    assert_eq!(fault.module.as_deref(), Some("counter"));
    assert_eq!(fault.target, "S_CHAT.4");
    assert_eq!(fault.packet, "S_CHAT");
    assert!(
        fault.message.contains("the counter breaks on boom"),
        "{fault}"
    );
    assert!(
        fault.to_string().starts_with("mod counter: hook #"),
        "{fault}"
    );
}

#[tokio::test]
async fn a_hook_on_a_name_the_map_lacks_is_reported() {
    // The map is known: an error at once.
    let conn = connection();
    let err = conn
        .add_hook(Hook::raw("S_CAHT", |_, _| Verdict::Pass))
        .unwrap_err();
    assert!(
        matches!(&err, HookError::NotInMap { name, .. } if name == "S_CAHT"),
        "{err}"
    );
    // A mod's: reported with the mod's name, the mod installed (as
    // tera-toolbox logs it and goes on).
    struct Typo;
    impl Mod for Typo {
        const NAME: &'static str = "typo";
        fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
            setup.hook(Self::raw("S_CAHT", |_, _, _| Verdict::Pass));
            Ok(())
        }
    }
    conn.add_mod(Typo).unwrap();
    let reports = conn.handle().unknown_names();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].module.as_deref(), Some("typo"));

    // The map comes from C_CHECK_VERSION: a report once it is known.
    let dir = tempfile::tempdir().unwrap();
    let chat_code = map().code("S_CHAT").unwrap();
    std::fs::write(
        dir.path().join("protocol.77.map"),
        format!("S_CHAT = {chat_code}\n"),
    )
    .unwrap();
    let conn = Connection::new(ProxyConfig {
        maps: MapSource::folder(dir.path()),
        ..ProxyConfig::default()
    });
    let handle = conn.handle();
    let typo = conn
        .add_hook(Hook::raw("S_CAHT", |_, _| Verdict::Pass))
        .unwrap();
    conn.add_hook(Hook::raw("S_CHAT", |_, _| Verdict::Pass))
        .unwrap();
    let ex = exchange(conn, &[check_version(77)], &[chat("x")]).await;
    ex.result.unwrap();
    let reports = handle.unknown_names();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!((reports[0].hook, &*reports[0].name), (typo, "S_CAHT"));
    assert_eq!(reports[0].revision, Some(77));
}

#[tokio::test]
async fn a_command_typed_in_chat_never_reaches_the_server_and_its_reply_reaches_the_client() {
    let conn = connection();
    conn.add_mod(Counter::default()).unwrap();
    let settings = packet(
        map().code("S_LOAD_CLIENT_USER_SETTING").unwrap(),
        &[1, 2, 3],
    );
    let up = [
        say(0, "<FONT>!count a b</FONT>"),
        say(11 + CHANNEL_INDEX as u32, "<FONT>count c</FONT>"),
        say(11 + CHANNEL_INDEX as u32, "nope"),
        say(0, "!nope is ordinary chat"),
        say(0, "!!count is ordinary chat"),
    ];
    let down = [settings.clone()];
    let ex = exchange(conn, &up, &down).await;
    ex.result.unwrap();
    assert_eq!(ex.server_got, up[3..], "no command line reaches the server");
    // The replies come in the order of the lines; the server's packets
    // are on their own stream.
    let (replies, others): (Vec<_>, Vec<_>) = ex
        .client_got
        .iter()
        .partition(|p| name_of(p) == "S_PRIVATE_CHAT");
    let replies: Vec<_> = replies
        .iter()
        .map(|p| {
            let line = s_private_chat::V1::decode(p).unwrap();
            assert_eq!(line.channel, CHANNEL_ID as u32);
            line.message.to_string()
        })
        .collect();
    assert_eq!(
        replies,
        ["0 lines a b", "0 lines c", "unknown command: nope"]
    );
    let names: Vec<_> = others.iter().map(|p| name_of(p)).collect();
    assert_eq!(
        names,
        ["S_JOIN_PRIVATE_CHANNEL", "S_LOAD_CLIENT_USER_SETTING"]
    );
    let join = s_join_private_channel::V2::decode(others[0]).unwrap();
    assert_eq!((join.index, join.channel_id), (CHANNEL_INDEX, CHANNEL_ID));
    assert_eq!(*others[1], settings);
}

#[tokio::test]
async fn whispers_decode_both_ways() {
    // The defs the afk example uses, in both directions.
    let whisper = s_whisper::V4 {
        name: "Ann".into(),
        recipient: "Elin".into(),
        message: "hi".into(),
        ..Default::default()
    };
    let bytes = enc(&whisper);
    assert_eq!(s_whisper::V4::decode(&bytes).unwrap(), whisper);
}

#[tokio::test]
async fn a_proxy_relays_each_client_with_a_new_value_of_each_mod_until_stopped() {
    use tera_proxy::Proxy;
    use tera_proxy::harness::Peer;
    use tokio::net::TcpListener;

    let server = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let closed = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&closed);
    let proxy = Proxy::new(server.local_addr().unwrap().to_string())
        .config(ProxyConfig {
            maps: MapSource::test_map(),
            ..ProxyConfig::default()
        })
        .with_mod(Counter::default)
        .on_close(move |number, _, result| {
            log.lock().unwrap().push((number, result.is_ok()));
        })
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = proxy.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(proxy.run_until(async {
        stopped.await.ok();
    }));
    for round in 0..2 {
        let keys = keys(40 + round);
        let game = async { Peer::server(server.accept().await?.0, &keys).await };
        let (client, game) = tokio::join!(Peer::client(addr, &keys), game);
        let (mut client, mut game) = (client.unwrap(), game.unwrap());
        for expected in ["a #1", "b #2"] {
            game.writer.send(&[&chat(&expected[..1])]).await.unwrap();
            let got = client.reader.recv().await.unwrap().unwrap();
            assert_eq!(chat_text(&got), expected, "round {round}");
        }
        client.writer.shutdown().await.unwrap();
        assert!(game.reader.recv().await.unwrap().is_none());
        game.writer.shutdown().await.unwrap();
        assert!(client.reader.recv().await.unwrap().is_none());
    }
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
    let mut closed = closed.lock().unwrap().clone();
    closed.sort_unstable();
    assert_eq!(closed, [(1, true), (2, true)]);
}

/// Every kind of hook of one mod, each counting into the mod's state:
/// typed by type, typed by name, raw, a command, a subscriber and a hook
/// added from inside a hook.
#[derive(Default)]
struct Tally {
    seen: Vec<String>,
    spoke: tera_proxy::Signal<String>,
}

impl Mod for Tally {
    const NAME: &'static str = "tally";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_chat::V4>(|me, event, chat| {
            me.seen.push(format!("on {}", chat.message));
            me.spoke.clone().emit(event, chat.name.to_string());
            Verdict::Pass
        }));
        let typed = Self::typed("C_CHAT", tera_proxy::Version::Latest, |me, event, line| {
            me.seen.push(format!("typed {}", line.name()));
            if me.seen.len() == 1 {
                // The first line adds a hook of the mod, with its state.
                let raw = Self::raw("S_SYSTEM_MESSAGE", |me, _, _| {
                    me.seen.push("raw added".to_owned());
                    Verdict::Pass
                });
                event.add_hook(raw).unwrap();
            }
            Verdict::Pass
        })?;
        setup.hook(typed);
        setup.hook(self.spoke.hook(|me: &mut Tally, _, author| {
            me.seen.push(format!("signal {author}"));
        }));
        setup.hook(Self::command("tally", |me, cmd| {
            me.seen.push("command".to_owned());
            cmd.reply(me.seen.join(", "));
        }));
        Ok(())
    }
}

/// Hears the tally's signal with its own state.
struct Listener {
    spoke: tera_proxy::Signal<String>,
    heard: Arc<Mutex<Vec<String>>>,
}

impl Mod for Listener {
    const NAME: &'static str = "listener";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(self.spoke.hook(|me: &mut Listener, event, author| {
            me.heard
                .lock()
                .unwrap()
                .push(format!("{author} on {}", event.name().unwrap_or("?")));
        }));
        Ok(())
    }
}

#[tokio::test]
async fn every_kind_of_hook_of_a_mod_gets_the_mods_state() {
    let conn = connection();
    let tally = Tally::default();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let listener = Listener {
        spoke: tally.spoke.clone(),
        heard: Arc::clone(&heard),
    };
    conn.add_mod(tally).unwrap();
    conn.add_mod(listener).unwrap();
    let mut lb = loopback(conn, &keys(70)).await.unwrap();
    lb.client.writer.send(&[&say(0, "hi")]).await.unwrap();
    assert_eq!(
        name_of(&lb.server.reader.recv().await.unwrap().unwrap()),
        "C_CHAT"
    );
    for packet in [system("x"), chat("a")] {
        lb.server.writer.send(&[&packet]).await.unwrap();
        lb.client.reader.recv().await.unwrap().unwrap();
    }
    lb.client.writer.send(&[&say(0, "!tally")]).await.unwrap();
    let reply = lb.client.reader.recv().await.unwrap().unwrap();
    let reply = s_private_chat::V1::decode(&reply)
        .unwrap()
        .message
        .to_string();
    assert_eq!(
        reply, "typed C_CHAT, raw added, on a, signal Elin, command",
        "in the order they ran"
    );
    assert_eq!(
        *heard.lock().unwrap(),
        ["Elin on S_CHAT"],
        "the other mod's subscriber, with its own state"
    );
}

/// Panics on `!break`; marks chat lines until then.
struct Breaker;

impl Mod for Breaker {
    const NAME: &'static str = "breaker";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::command("break", |_, _| panic!("the command breaks")));
        setup.hook(Self::on::<s_chat::V4>(|_, _, chat| {
            chat.message = format!("{} (b)", chat.message).into();
            Verdict::Changed
        }));
        Ok(())
    }
}

#[tokio::test]
async fn a_panicking_command_is_a_panicking_hook_of_its_mod() {
    let conn = connection();
    let handle = conn.handle();
    conn.add_mod(Breaker).unwrap();
    conn.add_mod(Counter::default()).unwrap();
    let mut lb = loopback(conn, &keys(71)).await.unwrap();
    lb.server.writer.send(&[&chat("a")]).await.unwrap();
    let got = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(chat_text(&got), "a (b) #1");
    lb.client
        .writer
        .send(&[&say(0, "!break"), &say(0, "after")])
        .await
        .unwrap();
    let got = lb.server.reader.recv().await.unwrap().unwrap();
    assert_eq!(
        c_chat::V1::decode(&got).unwrap().message,
        "after",
        "the command line stays in the proxy"
    );
    lb.server.writer.send(&[&chat("b")]).await.unwrap();
    let got = lb.client.reader.recv().await.unwrap().unwrap();
    assert_eq!(
        chat_text(&got),
        "b #2",
        "the breaker is gone, the counter goes on"
    );
    let faults = handle.faults();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].module.as_deref(), Some("breaker"));
    assert_eq!(faults[0].target, "command break");
    assert_eq!(faults[0].packet, "C_CHAT");
    assert!(faults[0].message.contains("the command breaks"));
}
