//! The per-connection context: what a proxy's setups put in is every mod's
//! of that connection (at install and in hooks), a new value per
//! connection, and a mod that needs what is missing says so at install.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tera_data::packets::s_chat;
use tera_proxy::harness::{Peer, TestPeers, keys};
use tera_proxy::{
    Connection, ConnectionContext, ConnectionSetup, HookError, MapSource, Mod, Proxy, ProxyConfig,
    Setup, Verdict,
};
use tokio::net::TcpListener;

/// A value shared by the mods of one connection: the chat lines any of
/// them saw.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

/// Makes a new `Lines` per connection, counting how many it made, and
/// installs a hook of its own reading it.
struct LinesSetup {
    made: Arc<AtomicUsize>,
}

impl ConnectionSetup for LinesSetup {
    fn context(&self, context: &mut ConnectionContext) {
        self.made.fetch_add(1, Ordering::Relaxed);
        context.insert(Lines::default());
    }

    fn install(&self, connection: &Connection) -> Result<(), HookError> {
        let lines: Lines = connection.context().need()?;
        connection.add_hook(tera_proxy::Hook::on::<s_chat::V4>(move |_, chat| {
            lines
                .0
                .lock()
                .unwrap()
                .push(format!("setup: {}", chat.message));
            Verdict::Pass
        }))?;
        Ok(())
    }
}

/// Writes each chat line into the connection's `Lines`, read from the
/// hook's event (a mod keeps nothing of it).
struct Writer;

impl Mod for Writer {
    const NAME: &'static str = "writer";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.need::<Lines>()?;
        setup.hook(Self::on::<s_chat::V4>(|_, event, chat| {
            let lines = event.context::<Lines>().expect("the setup put it in");
            lines
                .0
                .lock()
                .unwrap()
                .push(format!("writer: {}", chat.message));
            Verdict::Pass
        }));
        Ok(())
    }
}

/// Appends how many lines the connection's `Lines` holds to each chat
/// line: it sees what the other mod wrote.
struct Counter {
    lines: Lines,
}

impl Mod for Counter {
    const NAME: &'static str = "counter";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        self.lines = setup.need()?;
        setup.hook(
            Self::on::<s_chat::V4>(|me, _, chat| {
                let n = me.lines.0.lock().unwrap().len();
                chat.message = format!("{} ({n})", chat.message).into();
                Verdict::Changed
            })
            .order(10),
        );
        Ok(())
    }
}

fn test_map() -> ProxyConfig {
    ProxyConfig {
        maps: MapSource::test_map(),
        ..ProxyConfig::default()
    }
}

fn chat(text: &str) -> s_chat::V4<'static> {
    s_chat::V4 {
        message: text.to_owned().into(),
        ..Default::default()
    }
}

#[tokio::test]
async fn every_mod_of_a_connection_shares_its_setups_values() {
    let made = Arc::new(AtomicUsize::new(0));
    let setup = LinesSetup {
        made: Arc::clone(&made),
    };
    let conn = Connection::set_up(test_map(), &[&setup]).unwrap();
    conn.add_mod(Writer).unwrap();
    conn.add_mod(Counter {
        lines: Lines::default(),
    })
    .unwrap();
    let lines: Lines = conn.context().need().unwrap();
    let mut peers = TestPeers::start(conn).await;
    let arrived = peers.send(&chat("a")).await;
    // The setup's hook and the writer ran before the counter.
    assert_eq!(arrived.expect::<s_chat::V4>().message.to_string(), "a (2)");
    let arrived = peers.send(&chat("b")).await;
    assert_eq!(arrived.expect::<s_chat::V4>().message.to_string(), "b (4)");
    peers.finish().await;
    assert_eq!(
        *lines.0.lock().unwrap(),
        ["setup: a", "writer: a", "setup: b", "writer: b"]
    );
    assert_eq!(made.load(Ordering::Relaxed), 1);
}

#[test]
fn a_mod_missing_a_context_value_is_not_installed_and_says_which() {
    let conn = Connection::new(test_map());
    let error = conn.add_mod(Writer).unwrap_err();
    assert!(matches!(error, HookError::MissingContext(name) if name.ends_with("Lines")));
    assert!(error.to_string().contains("Lines"), "{error}");
    // A closure is a setup that only puts values in.
    let setup = |context: &mut ConnectionContext| {
        context.insert(Lines::default());
    };
    let conn = Connection::set_up(test_map(), &[&setup]).unwrap();
    conn.add_mod(Writer).unwrap();
}

#[tokio::test]
async fn a_proxy_runs_its_setups_on_each_connection_with_new_values() {
    let server = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let made = Arc::new(AtomicUsize::new(0));
    let proxy = Proxy::new(server.local_addr().unwrap().to_string())
        .config(test_map())
        .with_setup(LinesSetup {
            made: Arc::clone(&made),
        })
        .with_mod(|| Writer)
        .with_mod(|| Counter {
            lines: Lines::default(),
        })
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = proxy.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(proxy.run_until(async {
        stopped.await.ok();
    }));
    let map = tera_data::protocol_map().unwrap();
    let code = map.code("S_CHAT").unwrap();
    for round in 0..2 {
        let keys = keys(60 + round);
        let game = async { Peer::server(server.accept().await?.0, &keys).await };
        let (client, game) = tokio::join!(Peer::client(addr, &keys), game);
        let (mut client, mut game) = (client.unwrap(), game.unwrap());
        for (text, expected) in [("a", "a (2)"), ("b", "b (4)")] {
            let mut bytes = tera_data::Packet::encode(&chat(text)).unwrap();
            tera_data::set_opcode(&mut bytes, code);
            game.writer.send(&[&bytes]).await.unwrap();
            let got = client.reader.recv().await.unwrap().unwrap();
            let line = <s_chat::V4 as tera_data::Packet>::decode(&got).unwrap();
            // A new `Lines` per connection: each starts from none.
            assert_eq!(line.message.to_string(), expected, "round {round}");
        }
        client.writer.shutdown().await.unwrap();
        assert!(game.reader.recv().await.unwrap().is_none());
        game.writer.shutdown().await.unwrap();
        assert!(client.reader.recv().await.unwrap().is_none());
    }
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
    assert_eq!(made.load(Ordering::Relaxed), 2);
}

/// Appends how many lines the connection's `Lines` holds, from the value
/// it was made with (`Proxy::with_mod_from`): its install reads nothing.
struct MadeWith {
    lines: Lines,
}

impl Mod for MadeWith {
    const NAME: &'static str = "made-with";
    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_chat::V4>(|me, _, chat| {
            let n = me.lines.0.lock().unwrap().len();
            chat.message = format!("{} [{n}]", chat.message).into();
            Verdict::Changed
        }));
        Ok(())
    }
}

#[tokio::test]
async fn a_proxy_makes_a_mod_from_each_connections_context() {
    let server = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let made = Arc::new(AtomicUsize::new(0));
    let proxy = Proxy::new(server.local_addr().unwrap().to_string())
        .config(test_map())
        .with_setup(LinesSetup {
            made: Arc::clone(&made),
        })
        .with_mod(|| Writer)
        // A value the context lacks: this mod is left out, the others run.
        .with_mod_from(|context| {
            Ok(MadeWith {
                lines: Lines(context.need::<Arc<Mutex<Vec<String>>>>()?),
            })
        })
        .with_mod_from(|context| {
            Ok(MadeWith {
                lines: context.need()?,
            })
        })
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = proxy.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(proxy.run_until(async {
        stopped.await.ok();
    }));
    let code = tera_data::protocol_map().unwrap().code("S_CHAT").unwrap();
    let keys = keys(70);
    let game = async { Peer::server(server.accept().await?.0, &keys).await };
    let (client, game) = tokio::join!(Peer::client(addr, &keys), game);
    let (mut client, mut game) = (client.unwrap(), game.unwrap());
    for (text, expected) in [("a", "a [2]"), ("b", "b [4]")] {
        let mut bytes = tera_data::Packet::encode(&chat(text)).unwrap();
        tera_data::set_opcode(&mut bytes, code);
        game.writer.send(&[&bytes]).await.unwrap();
        let got = client.reader.recv().await.unwrap().unwrap();
        let line = <s_chat::V4 as tera_data::Packet>::decode(&got).unwrap();
        // The connection's `Lines`, as the setup and the writer filled it;
        // one `[n]`: the mod whose value was missing is not installed.
        assert_eq!(line.message.to_string(), expected);
    }
    client.writer.shutdown().await.unwrap();
    assert!(game.reader.recv().await.unwrap().is_none());
    game.writer.shutdown().await.unwrap();
    assert!(client.reader.recv().await.unwrap().is_none());
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
    assert_eq!(made.load(Ordering::Relaxed), 1);
}
