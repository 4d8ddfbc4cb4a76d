//! Timers, as tera-toolbox's `mod.setTimeout` / `setInterval` /
//! `clearTimeout`: run on the connection's task with their mod's state,
//! cleared when the mod or the connection goes. Each test bounds its time.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{LIMIT, connection, enc, map, op};
use tera_data::Packet;
use tera_data::packets::{c_chat, s_private_chat, s_system_message};
use tera_proxy::harness::{Loopback, keys, loopback};
use tera_proxy::{HookError, Mod, Setup, TimerId};

fn say(message: &str) -> Vec<u8> {
    enc(&c_chat::V1 {
        channel: 0,
        message: message.into(),
    })
}

fn system(message: &str) -> Vec<u8> {
    enc(&s_system_message::V1 {
        message: message.into(),
    })
}

/// Sets its flag when dropped: the mod's state is gone.
struct Dropped(Arc<AtomicBool>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Every 20 ms from its install on, tells the client its tick count (its
/// state); `!stop` clears the interval, `!later` sets a timeout.
struct Ticker {
    ticks: u32,
    interval: Option<TimerId>,
    _dropped: Dropped,
}

impl Ticker {
    fn new(dropped: &Arc<AtomicBool>) -> Ticker {
        Ticker {
            ticks: 0,
            interval: None,
            _dropped: Dropped(Arc::clone(dropped)),
        }
    }
}

impl Mod for Ticker {
    const NAME: &'static str = "ticker";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        let every = Duration::from_millis(20);
        self.interval = Some(setup.set_interval(every, |me, event| {
            me.ticks += 1;
            let tick = s_system_message::V1 {
                message: format!("tick {}", me.ticks).into(),
            };
            event.send(&tick).unwrap();
        }));
        setup.hook(Self::command("stop", |me, cmd| {
            if let Some(id) = me.interval.take() {
                cmd.event().clear_timer(id);
            }
            cmd.reply("stopped");
        }));
        setup.hook(Self::command("later", |_, cmd| {
            let delay = Duration::from_millis(30);
            cmd.event().set_timeout(delay, |me: &mut Ticker, event| {
                let done = s_system_message::V1 {
                    message: format!("later, at tick {}", me.ticks).into(),
                };
                event.send(&done).unwrap();
            });
        }));
        setup.hook(Self::command("boom", |_, cmd| {
            cmd.event()
                .set_timeout(Duration::from_millis(1), |_: &mut Ticker, _| {
                    panic!("the timer breaks")
                });
        }));
        Ok(())
    }
}

/// The next system message or private chat line the client gets.
async fn next_line(lb: &mut Loopback) -> String {
    let map = map();
    loop {
        let p = lb.client.reader.recv().await.unwrap().unwrap();
        match map.name(op(&p)) {
            Some("S_SYSTEM_MESSAGE") => {
                return s_system_message::V1::decode(&p)
                    .unwrap()
                    .message
                    .to_string();
            }
            Some("S_PRIVATE_CHAT") => {
                let line = s_private_chat::V1::decode(&p).unwrap();
                return format!("reply: {}", line.message);
            }
            _ => {}
        }
    }
}

/// Waits `wait`, then has the server send `marker`: the lines the client
/// gets before it.
async fn lines_until_marker(lb: &mut Loopback, wait: Duration, marker: &str) -> Vec<String> {
    tokio::time::sleep(wait).await;
    lb.server.writer.send(&[&system(marker)]).await.unwrap();
    let mut lines = Vec::new();
    loop {
        let line = next_line(lb).await;
        if line == marker {
            return lines;
        }
        lines.push(line);
    }
}

#[tokio::test]
async fn an_interval_runs_with_its_mods_state_until_cleared_and_a_timeout_once() {
    tokio::time::timeout(LIMIT, async {
        let dropped = Arc::new(AtomicBool::new(false));
        let conn = connection();
        conn.add_mod(Ticker::new(&dropped)).unwrap();
        let mut lb = loopback(conn, &keys(50)).await.unwrap();
        for n in 1..=3 {
            assert_eq!(next_line(&mut lb).await, format!("tick {n}"));
        }
        lb.client.writer.send(&[&say("!stop")]).await.unwrap();
        // Ticks queued before the command arrive first; none after its
        // reply.
        loop {
            let line = next_line(&mut lb).await;
            if line == "reply: stopped" {
                break;
            }
            assert!(line.starts_with("tick "), "{line}");
        }
        assert_eq!(lb.handle.timer_count(), 0, "the interval is cleared");
        let after = lines_until_marker(&mut lb, Duration::from_millis(100), "marker").await;
        assert_eq!(after, Vec::<String>::new(), "no tick after the clear");

        lb.client.writer.send(&[&say("!later")]).await.unwrap();
        let later = next_line(&mut lb).await;
        assert!(later.starts_with("later, at tick "), "{later}");
        assert_eq!(lb.handle.timer_count(), 0, "a timeout runs once");
        assert!(!dropped.load(Ordering::SeqCst), "the mod is still there");
    })
    .await
    .expect("in time");
}

#[tokio::test]
async fn a_timer_that_outlives_its_mod_never_runs() {
    tokio::time::timeout(LIMIT, async {
        let dropped = Arc::new(AtomicBool::new(false));
        let conn = connection();
        let id = conn.add_mod(Ticker::new(&dropped)).unwrap();
        let mut lb = loopback(conn, &keys(51)).await.unwrap();
        assert_eq!(next_line(&mut lb).await, "tick 1");
        // A timeout far in the future too.
        lb.client.writer.send(&[&say("!later")]).await.unwrap();
        lb.handle.remove_mod(id);
        // The removal is taken before the next packet or timer.
        let after = lines_until_marker(&mut lb, Duration::from_millis(100), "marker").await;
        assert!(
            after.len() <= 1 && after.iter().all(|l| l == "tick 2"),
            "at most the tick already due: {after:?}"
        );
        assert_eq!(lb.handle.timer_count(), 0, "its timers went with it");
        assert!(dropped.load(Ordering::SeqCst), "and so did its state");
        let after = lines_until_marker(&mut lb, Duration::from_millis(100), "again").await;
        assert_eq!(after, Vec::<String>::new());
    })
    .await
    .expect("in time");
}

#[tokio::test]
async fn the_timers_go_with_the_connection() {
    tokio::time::timeout(LIMIT, async {
        let dropped = Arc::new(AtomicBool::new(false));
        let conn = connection();
        conn.add_mod(Ticker::new(&dropped)).unwrap();
        let mut lb = loopback(conn, &keys(52)).await.unwrap();
        assert_eq!(next_line(&mut lb).await, "tick 1");
        lb.client.writer.shutdown().await.unwrap();
        lb.server.writer.shutdown().await.unwrap();
        lb.relay.await.unwrap().unwrap();
        assert_eq!(lb.handle.timer_count(), 0);
        assert!(
            dropped.load(Ordering::SeqCst),
            "the mod left the connection"
        );
    })
    .await
    .expect("in time");
}

#[tokio::test]
async fn a_panicking_timer_disables_its_mod_and_is_reported() {
    tokio::time::timeout(LIMIT, async {
        let dropped = Arc::new(AtomicBool::new(false));
        let conn = connection();
        conn.add_mod(Ticker::new(&dropped)).unwrap();
        let mut lb = loopback(conn, &keys(53)).await.unwrap();
        assert_eq!(next_line(&mut lb).await, "tick 1");
        lb.client.writer.send(&[&say("!boom")]).await.unwrap();
        let _ = lines_until_marker(&mut lb, Duration::from_millis(100), "marker").await;
        let faults = lb.handle.faults();
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0].module.as_deref(), Some("ticker"));
        assert!(faults[0].target.starts_with("timer #"), "{}", faults[0]);
        assert!(faults[0].message.contains("the timer breaks"));
        assert!(dropped.load(Ordering::SeqCst), "the mod is disabled");
        let after = lines_until_marker(&mut lb, Duration::from_millis(100), "again").await;
        assert_eq!(after, Vec::<String>::new(), "its interval went with it");
    })
    .await
    .expect("in time");
}

/// Sets a timeout of `u64::MAX` ms and an interval of the longest
/// `Duration` on install: timers that never come due.
struct Forever;

impl Mod for Forever {
    const NAME: &'static str = "forever";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.set_timeout(Duration::from_millis(u64::MAX), |_, _| {
            panic!("a timeout of u64::MAX ms came due")
        });
        setup.set_interval(Duration::MAX, |_, _| {});
        setup.hook(Self::command("soon", |_, cmd| {
            cmd.event()
                .set_timeout(Duration::MAX, |_: &mut Forever, _| panic!("came due"));
            cmd.reply("set");
        }));
        Ok(())
    }
}

#[tokio::test]
async fn a_timer_past_the_clock_waits_and_the_connection_goes_on() {
    tokio::time::timeout(LIMIT, async {
        let conn = connection();
        conn.add_mod(Forever).unwrap();
        let mut lb = loopback(conn, &keys(54)).await.unwrap();
        lb.client.writer.send(&[&say("!soon")]).await.unwrap();
        assert_eq!(next_line(&mut lb).await, "reply: set");
        // The interval ran once at its install (a zero first delay is not
        // asked for: its first run is one period on), then waits.
        let after = lines_until_marker(&mut lb, Duration::from_millis(50), "marker").await;
        assert_eq!(after, Vec::<String>::new());
        assert_eq!(lb.handle.timer_count(), 3, "all three still wait");
        assert_eq!(lb.handle.faults(), Vec::new(), "nothing failed");
        lb.client.writer.send(&[&say("!soon")]).await.unwrap();
        assert_eq!(next_line(&mut lb).await, "reply: set", "still relaying");
    })
    .await
    .expect("in time");
}
