//! The load run: many connections at once, each a scripted client and
//! server exchanging [`Script`]s through the relay, every packet checked on
//! arrival against what must arrive.

use std::collections::VecDeque;
use std::fmt;
use std::hint::black_box;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tera_net::Direction;
use tokio::task::JoinSet;

use super::script::{Action, Script, ScriptKind, typed_packets};
use super::{Peer, PeerReader, PeerWriter, keys, loopback_with_buffers};
use crate::{
    Connection, ConnectionContext, ConnectionSetup, Hook, MapSource, ProxyConfig, ProxyError,
    RelayStats, Verdict, Version,
};

/// Which hooks the relay runs in a load run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadHooks {
    /// None: the relay's own cost.
    None,
    /// A raw `*` hook on every packet that reads the opcode and passes.
    Raw,
    /// A typed hook on every packet (packets of the compiled-in defs).
    Typed,
    /// A raw `*` hook that changes 10%, blocks 5% and injects a notice for
    /// 5% of the packets (see [`Action`]).
    Mixed,
}

/// What a load run does to each connection before it relays, after its
/// [`LoadHooks`]: where a crate built on the proxy adds its mods (game
/// state's, say). A run with one gets the made-up test map.
#[derive(Clone)]
pub struct LoadSetup(pub Arc<dyn ConnectionSetup>);

impl fmt::Debug for LoadSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LoadSetup(..)")
    }
}

/// A load run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Concurrent connections.
    pub connections: u32,
    /// Packets each side sends.
    pub packets: u32,
    /// The hooks.
    pub hooks: LoadHooks,
    /// Seed of the scripts and keys.
    pub seed: u64,
    /// Bytes queued per side ([`ProxyConfig::queue_bytes`]).
    pub queue_bytes: usize,
    /// The whole run fails after this long.
    pub time_limit: Duration,
    /// Kernel buffer size of every socket (see
    /// [`loopback_with_buffers`](super::loopback_with_buffers)); `None`
    /// lets the kernel size them. Hundreds of connections on one machine
    /// with the kernel's sizes (receive buffers growing to megabytes each)
    /// can reach the kernel's TCP memory limit, where it drops segments and
    /// backs retransmissions off for up to two minutes: a stall of the
    /// loopback, not of the relay.
    pub socket_buffer: Option<u32>,
    /// Run on each connection before it relays; `None`: nothing.
    pub setup: Option<LoadSetup>,
}

/// What a load run moved, and how fast.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadReport {
    /// Packets the peers received (both directions, all connections).
    pub packets: u64,
    /// Bytes of those packets (plain text, headers included).
    pub bytes: u64,
    /// From the first connection to the last one's end.
    pub elapsed: Duration,
    /// The relays' counters, summed.
    pub relay: RelayStats,
}

impl LoadReport {
    /// Packets per second.
    #[must_use]
    pub fn packets_per_second(&self) -> f64 {
        self.packets as f64 / self.elapsed.as_secs_f64()
    }

    /// Megabytes (10^6 bytes) per second.
    #[must_use]
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.elapsed.as_secs_f64()
    }
}

/// Why a load run failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A peer's I/O failed.
    #[error("connection {conn}: {source}")]
    Io {
        /// The connection.
        conn: u32,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// A peer received something other than expected.
    #[error("connection {conn}, {dir}, packet {index} received: {message}")]
    Mismatch {
        /// The connection.
        conn: u32,
        /// The direction.
        dir: Direction,
        /// How many packets had arrived before.
        index: u64,
        /// What was wrong.
        message: String,
    },
    /// A relay failed.
    #[error("connection {conn}: relay: {source}")]
    Relay {
        /// The connection.
        conn: u32,
        /// The error.
        #[source]
        source: Box<ProxyError>,
    },
    /// The run took longer than its limit.
    #[error("the load run did not finish in {0:?}")]
    Timeout(Duration),
}

/// Runs a load: `connections` connections at once, each side sending
/// `packets` packets, and checks that each side receives exactly the
/// expected stream (in order, nothing lost, nothing duplicated) and that
/// the relays' counters agree.
///
/// # Errors
/// [`LoadError`]: the first failure.
pub async fn run(config: &LoadConfig) -> Result<LoadReport, LoadError> {
    let kind = match config.hooks {
        LoadHooks::Mixed => ScriptKind::Mixed,
        LoadHooks::None | LoadHooks::Raw => ScriptKind::Plain,
        LoadHooks::Typed => {
            let map = tera_data::protocol_map().unwrap_or_default();
            ScriptKind::Typed(Arc::new(typed_packets(&map)))
        }
    };
    let start = Instant::now();
    let all = async {
        let mut tasks = JoinSet::new();
        for conn in 0..config.connections {
            let (config, kind) = (config.clone(), kind.clone());
            tasks.spawn(async move { one(&config, conn, kind).await });
        }
        let mut report = LoadReport::default();
        while let Some(done) = tasks.join_next().await {
            let (packets, bytes, stats) = done.map_err(|e| LoadError::Io {
                conn: u32::MAX,
                source: io::Error::other(e),
            })??;
            report.packets += packets;
            report.bytes += bytes;
            for dir in [Direction::ClientToServer, Direction::ServerToClient] {
                let (sum, one) = match dir {
                    Direction::ClientToServer => {
                        (&mut report.relay.client_to_server, &stats.client_to_server)
                    }
                    Direction::ServerToClient => {
                        (&mut report.relay.server_to_client, &stats.server_to_client)
                    }
                };
                sum.bytes_read += one.bytes_read;
                sum.packets_read += one.packets_read;
                sum.packets_sent += one.packets_sent;
                sum.bytes_written += one.bytes_written;
                sum.blocked += one.blocked;
                sum.changed += one.changed;
                sum.injected += one.injected;
                sum.decode_errors += one.decode_errors;
                sum.dropped_injections += one.dropped_injections;
            }
        }
        Ok(report)
    };
    let mut report = tokio::time::timeout(config.time_limit, all)
        .await
        .map_err(|_| LoadError::Timeout(config.time_limit))??;
    report.elapsed = start.elapsed();
    Ok(report)
}

fn dir_index(dir: Direction) -> usize {
    usize::from(dir == Direction::ServerToClient)
}

/// The load hooks of a run.
fn install_hooks(connection: &Connection, hooks: LoadHooks, kind: &ScriptKind) {
    match hooks {
        LoadHooks::None => {}
        LoadHooks::Raw => {
            connection
                .add_hook(Hook::raw("*", |_, packet| {
                    black_box(packet.opcode());
                    Verdict::Pass
                }))
                .expect("a hook on every packet has no name to miss");
        }
        LoadHooks::Typed => {
            let ScriptKind::Typed(packets) = kind else {
                return;
            };
            let map = tera_data::protocol_map().unwrap_or_default();
            let mut names: Vec<&str> = packets
                .iter()
                .filter_map(|p| map.name(tera_net::framing::opcode(p)?))
                .collect();
            names.sort_unstable();
            names.dedup();
            for name in names {
                if let Ok(hook) = Hook::typed(name, Version::Latest, |_, packet| {
                    black_box(packet.encoded_len());
                    Verdict::Pass
                }) {
                    connection
                        .add_hook(hook)
                        .expect("the names come from the map");
                }
            }
        }
        LoadHooks::Mixed => {
            // Real packets only (the default filter): the count of each
            // direction is the packet's sequence number.
            let mut seen = [0u32; 2];
            let mixed = connection.add_hook(Hook::raw("*", move |event, packet| {
                let dir = event.direction();
                let seq = seen[dir_index(dir)];
                seen[dir_index(dir)] += 1;
                match Action::of(packet.opcode()) {
                    Some(Action::Change) => {
                        Action::change(packet.bytes_mut());
                        Verdict::Changed
                    }
                    Some(Action::Block) => Verdict::Block,
                    Some(Action::Inject) => {
                        let to = Action::notice_direction(seq, dir);
                        match event.send_raw(to, Action::notice(seq, dir)) {
                            Ok(()) => Verdict::Pass,
                            Err(e) => panic!("a notice is a valid packet: {e}"),
                        }
                    }
                    Some(Action::Pass) | None => Verdict::Pass,
                }
            }));
            mixed.expect("a hook on every packet has no name to miss");
        }
    }
}

/// One connection: returns packets and bytes received by its peers, and the
/// relay's counters.
async fn one(
    config: &LoadConfig,
    conn: u32,
    kind: ScriptKind,
) -> Result<(u64, u64, RelayStats), LoadError> {
    let io = |source| LoadError::Io { conn, source };
    let maps = match (config.hooks, &config.setup) {
        (LoadHooks::Typed, _) | (_, Some(_)) => MapSource::test_map(),
        _ => MapSource::None,
    };
    let mut context = ConnectionContext::default();
    if let Some(setup) = &config.setup {
        setup.0.context(&mut context);
    }
    let proxy_config = ProxyConfig {
        maps,
        queue_bytes: config.queue_bytes,
        ..ProxyConfig::default()
    };
    let connection = Connection::with_context(proxy_config, context);
    install_hooks(&connection, config.hooks, &kind);
    if let Some(setup) = &config.setup
        && let Err(e) = setup.0.install(&connection)
    {
        tracing::warn!(error = %e, "the load's setup did not install");
    }
    let lb = loopback_with_buffers(
        connection,
        &keys(config.seed ^ u64::from(conn)),
        config.socket_buffer,
    )
    .await
    .map_err(io)?;
    let client = side(config, conn, &kind, lb.client, Direction::ClientToServer);
    let server = side(config, conn, &kind, lb.server, Direction::ServerToClient);
    let ((cp, cb), (sp, sb)) = tokio::try_join!(client, server)?;
    let stats = lb
        .relay
        .await
        .map_err(|e| io(io::Error::other(e)))?
        .map_err(|source| LoadError::Relay {
            conn,
            source: Box::new(source),
        })?;
    check_stats(config, conn, &kind, &stats)?;
    Ok((cp + sp, cb + sb, stats))
}

/// One peer: sends its script while checking what arrives; then ends its
/// stream and waits for the other's end.
async fn side(
    config: &LoadConfig,
    conn: u32,
    kind: &ScriptKind,
    peer: Peer,
    sends: Direction,
) -> Result<(u64, u64), LoadError> {
    let io = |source| LoadError::Io { conn, source };
    let Peer {
        mut reader,
        mut writer,
    } = peer;
    let script = Script::new(config.seed, conn, sends, config.packets, kind.clone());
    let send = async { send_script(&mut writer, script).await.map_err(io) };
    let receive = receive_checked(config, conn, kind, &mut reader, sends.reverse());
    let ((), received) = tokio::try_join!(send, receive)?;
    writer.shutdown().await.map_err(io)?;
    match reader.recv().await.map_err(io)? {
        None => Ok(received),
        Some(p) => Err(LoadError::Mismatch {
            conn,
            dir: sends.reverse(),
            index: received.0,
            message: format!("a packet ({} bytes) after the expected stream", p.len()),
        }),
    }
}

/// Sends a script in writes of about 64 KiB.
async fn send_script(writer: &mut PeerWriter, script: Script) -> io::Result<()> {
    let mut wire = Vec::with_capacity(128 * 1024);
    for (_, _, packet) in script {
        wire.extend_from_slice(&packet);
        if wire.len() >= 64 * 1024 {
            writer.send_in_place(&mut wire).await?;
            wire.clear();
        }
    }
    if !wire.is_empty() {
        writer.send_in_place(&mut wire).await?;
    }
    Ok(())
}

/// Receives direction `dir` and checks each packet against the expected
/// stream: the sender's script after the load hooks, with the notices for
/// the receiver's own packets (the odd `Inject`s) in their own order
/// anywhere among them.
async fn receive_checked(
    config: &LoadConfig,
    conn: u32,
    kind: &ScriptKind,
    reader: &mut PeerReader,
    dir: Direction,
) -> Result<(u64, u64), LoadError> {
    let mixed = matches!(kind, ScriptKind::Mixed);
    let mut main = Script::new(config.seed, conn, dir, config.packets, kind.clone());
    let mut replies = Script::new(
        config.seed,
        conn,
        dir.reverse(),
        config.packets,
        kind.clone(),
    )
    .filter(|(seq, action, _)| {
        mixed && *action == Action::Inject && Action::notice_direction(*seq, dir.reverse()) == dir
    })
    .map(|(seq, _, _)| Action::notice(seq, dir.reverse()));
    let mut next_reply = replies.next();
    let mut pending: VecDeque<Vec<u8>> = VecDeque::new();
    let (mut packets, mut bytes) = (0u64, 0u64);
    loop {
        if pending.is_empty() {
            for (seq, action, mut packet) in main.by_ref() {
                match action {
                    Action::Pass => {}
                    Action::Block if mixed => continue,
                    Action::Change if mixed => Action::change(&mut packet),
                    Action::Inject if mixed && Action::notice_direction(seq, dir) == dir => {
                        pending.push_back(Action::notice(seq, dir));
                    }
                    _ => {}
                }
                pending.push_back(packet);
                break;
            }
        }
        if pending.is_empty() && next_reply.is_none() {
            return Ok((packets, bytes));
        }
        let mismatch = |message: String| LoadError::Mismatch {
            conn,
            dir,
            index: packets,
            message,
        };
        let got = reader
            .recv()
            .await
            .map_err(|source| LoadError::Io { conn, source })?
            .ok_or_else(|| mismatch(format!("end of stream; {} more expected", pending.len())))?;
        let is_reply = got.get(2..4) == Some(&Action::NOTICE.to_le_bytes()[..])
            && got.get(8) == Some(&u8::from(dir.reverse() == Direction::ServerToClient));
        let expected = if is_reply {
            next_reply.take()
        } else {
            pending.pop_front()
        };
        let Some(expected) = expected else {
            return Err(mismatch(format!(
                "unexpected packet of {} bytes",
                got.len()
            )));
        };
        if got[..] != expected[..] {
            return Err(mismatch(format!(
                "{} bytes with header {:02x?}, expected {} bytes with header {:02x?} (sequence {:?})",
                got.len(),
                got.get(..8),
                expected.len(),
                expected.get(..8),
                expected.get(4..8),
            )));
        }
        if is_reply {
            next_reply = replies.next();
        }
        packets += 1;
        bytes += got.len() as u64;
    }
}

/// The relay's counters against the scripts.
fn check_stats(
    config: &LoadConfig,
    conn: u32,
    kind: &ScriptKind,
    stats: &RelayStats,
) -> Result<(), LoadError> {
    let mixed = matches!(kind, ScriptKind::Mixed);
    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        let count = |d: Direction, f: &dyn Fn(u32, Action) -> bool| {
            Script::new(config.seed, conn, d, config.packets, kind.clone())
                .filter(|(seq, action, _)| mixed && f(*seq, *action))
                .count() as u64
        };
        let blocked = count(dir, &|_, a| a == Action::Block);
        let changed = count(dir, &|_, a| a == Action::Change);
        let injected = count(dir, &|s, a| {
            a == Action::Inject && Action::notice_direction(s, dir) == dir
        }) + count(dir.reverse(), &|s, a| {
            a == Action::Inject && Action::notice_direction(s, dir.reverse()) == dir
        });
        let got = stats.dir(dir);
        let want = (u64::from(config.packets), blocked, changed, injected, 0);
        let have = (
            got.packets_read,
            got.blocked,
            got.changed,
            got.injected,
            got.dropped_injections,
        );
        if have != want {
            return Err(LoadError::Mismatch {
                conn,
                dir,
                index: got.packets_read,
                message: format!(
                    "relay counters (read, blocked, changed, injected, dropped) {have:?}, expected {want:?}"
                ),
            });
        }
    }
    Ok(())
}
