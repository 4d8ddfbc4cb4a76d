//! The proxy's relay on hostile bytes from either peer: a connection
//! (compiled-in map, a chain of typed and raw hooks that change, block and
//! inject, a mod with a command) relays a scripted client and server over
//! in-memory streams. Whatever the bytes, the relay ends with `Ok` or an
//! `Err`, never a panic, and neither side's queue ever holds more than its
//! byte bound.
//!
//! Input: a flags byte, a `u16` (LE) length `n`, then `n` bytes the client
//! sends and the rest the server sends. Flags bit 0: both peers first do a
//! valid handshake and then encrypt what they send, as real peers do (so
//! the fuzzer controls the plain text the relay frames and hooks); without
//! it the bytes go to the wire as they are (the handshake sees them).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tera_data::packets::{c_chat, s_chat, s_system_message};
use tera_net::{Direction, HandshakeStep, Session};
use tera_proxy::harness::keys;
use tera_proxy::{
    Connection, ConnectionHandle, Hook, HookError, MapSource, Mod, ProxyConfig, Setup, Verdict,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// A small queue, so that the fuzzer reaches its bound.
const QUEUE_BYTES: usize = 4096;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime")
    })
}

/// Counts chat lines; `!lines` answers with the count.
#[derive(Default)]
struct Lines(u32);

impl Mod for Lines {
    const NAME: &'static str = "lines";

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        setup.hook(Self::on::<s_chat::V4>(|me, _, chat| {
            me.0 += 1;
            chat.message = format!("{} #{}", chat.message, me.0).into();
            Verdict::Changed
        }));
        setup.hook(Self::command("lines", |me, cmd| {
            cmd.reply(format!("{} lines", me.0));
        }));
        Ok(())
    }
}

fn connection() -> Connection {
    let connection = Connection::new(ProxyConfig {
        maps: MapSource::test_map(),
        queue_bytes: QUEUE_BYTES,
        ..ProxyConfig::default()
    });
    let _ = connection.add_mod(Lines::default());
    let hooks = [
        Hook::on::<c_chat::V1>(|event, line| {
            let notice = s_system_message::V1 {
                message: line.message.clone(),
            };
            let _ = event.send(&notice);
            if line.message.is_empty() {
                Verdict::Block
            } else {
                Verdict::Pass
            }
        }),
        Hook::raw("*", |event, packet| match packet.opcode() % 5 {
            0 => Verdict::Block,
            1 => {
                packet.bytes_mut().extend_from_slice(b"tail");
                Verdict::Changed
            }
            2 => {
                let _ = event.send_raw(event.direction().reverse(), packet.bytes().to_vec());
                Verdict::Pass
            }
            _ => Verdict::Pass,
        }),
        Hook::on::<s_chat::V4>(|event, _| {
            event.unhook();
            Verdict::Pass
        })
        .once(),
    ];
    for hook in hooks {
        let _ = connection.add_hook(hook);
    }
    connection
}

/// What one peer does: the handshake steps it sends (if any), then its
/// bytes, encrypted when `session` says so; reading everything sent to it,
/// and checking the queue towards it each time.
async fn peer(
    stream: DuplexStream,
    sends: Direction,
    valid: bool,
    mut bytes: Vec<u8>,
    handle: ConnectionHandle,
) {
    let keys = keys(1);
    let (mut read, mut write) = tokio::io::split(stream);
    let send = async {
        if valid {
            for step in HandshakeStep::ALL {
                if step.sender() == sends {
                    let _ = write.write_all(step.message(&keys)).await;
                }
            }
            let (c2s, s2c) = Session::new(&keys).into_ciphers();
            let mut cipher = match sends {
                Direction::ClientToServer => c2s,
                Direction::ServerToClient => s2c,
            };
            cipher.apply(&mut bytes);
        }
        let _ = write.write_all(&bytes).await;
        let _ = write.shutdown().await;
    };
    let receive = async {
        let mut buf = vec![0u8; 8192];
        while let Ok(n) = read.read(&mut buf).await {
            let queued = handle.queued_bytes(sends.reverse());
            assert!(queued <= QUEUE_BYTES, "{queued} bytes queued");
            if n == 0 {
                break;
            }
        }
    };
    tokio::join!(send, receive);
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Some((&[lo, hi], rest)) = rest.split_first_chunk::<2>() else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([lo, hi])).min(rest.len());
    let (from_client, from_server) = rest.split_at(split);
    let valid = flags & 1 == 1;
    runtime().block_on(async {
        let connection = connection();
        let handle = connection.handle();
        let (client_end, proxy_client) = tokio::io::duplex(16 * 1024);
        let (server_end, proxy_server) = tokio::io::duplex(16 * 1024);
        let relay = connection.run(proxy_client, proxy_server);
        let client = peer(
            client_end,
            Direction::ClientToServer,
            valid,
            from_client.to_vec(),
            handle.clone(),
        );
        let server = peer(
            server_end,
            Direction::ServerToClient,
            valid,
            from_server.to_vec(),
            handle.clone(),
        );
        let (result, (), ()) = tokio::join!(relay, client, server);
        // Either way the relay ended; its error formats.
        if let Err(e) = result {
            let _ = e.to_string();
        }
        for dir in [Direction::ClientToServer, Direction::ServerToClient] {
            assert!(handle.queued_bytes(dir) <= QUEUE_BYTES);
        }
    });
});
