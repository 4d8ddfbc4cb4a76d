//! A TERA proxy with a small mod, as tera-toolbox users write them:
//!
//! * every packet is logged as one JSON line (injected ones too);
//! * chat lines from the server are rewritten (`S_CHAT`, typed);
//! * NPC spawns are blocked (`S_SPAWN_NPC`, raw);
//! * when the client joins a private channel, a notice is injected to it.
//!
//! ```text
//! cargo run -p tera-proxy --example proxy -- <server-host:port> [listen-port] [--maps DIR]
//! ```
//!
//! Listens on 127.0.0.1 (port 0: any free port, printed). The protocol map
//! is the compiled-in one, or with `--maps` the `protocol.REV.map` of the
//! revision each client announces in `C_CHECK_VERSION`. Try it with the
//! scripted peers: `cargo run -p tera-proxy --example scripted -- server 9251`,
//! this proxy on `127.0.0.1:9251 9250`, then
//! `cargo run -p tera-proxy --example scripted -- client 127.0.0.1:9250`.

use std::net::{Ipv4Addr, SocketAddr};

use serde_json::json;
use tera_data::{AnyPacket, Str};
use tera_proxy::{Connection, Direction, Filter, Hook, MapSource, ProxyConfig, Verdict, Version};
use tokio::net::{TcpListener, TcpStream};

/// The message of a chat packet of the compiled-in defs.
fn chat_message<'p, 'a>(packet: &'p mut AnyPacket<'a>) -> Option<&'p mut Str<'a>> {
    match packet {
        #[cfg(not(tera_corpus))]
        AnyPacket::SChatV2(chat) => Some(&mut chat.message),
        #[cfg(tera_corpus)]
        AnyPacket::SChatV4(chat) => Some(&mut chat.message),
        _ => None,
    }
}

/// A chat line from "proxy".
fn notice(text: String) -> AnyPacket<'static> {
    #[cfg(not(tera_corpus))]
    let chat = AnyPacket::SChatV2(tera_data::packets::s_chat::V2 {
        author_name: Str::from("proxy"),
        message: Str::from(text),
        ..Default::default()
    });
    #[cfg(tera_corpus)]
    let chat = AnyPacket::SChatV4(tera_data::packets::s_chat::V4 {
        name: Str::from("proxy"),
        message: Str::from(text),
        ..Default::default()
    });
    chat
}

/// The mod: the hooks of one connection.
fn install(conn_id: u64, connection: &Connection) -> Result<(), tera_proxy::HookError> {
    // First, on everything, injected packets included: one JSON line each.
    connection.add_hook(
        Hook::raw("*", move |event, packet| {
            let value = event
                .protocol_map()
                .and_then(|map| AnyPacket::decode_opcode(map, None, packet.bytes()).ok())
                .and_then(|p| serde_json::to_value(&p).ok());
            let line = json!({
                "conn": conn_id,
                "dir": event.direction().arrow(),
                "opcode": event.opcode(),
                "name": event.name(),
                "len": packet.bytes().len(),
                "fake": event.is_fake(),
                "value": value,
            });
            println!("{line}");
            Verdict::Pass
        })
        .order(-100)
        .filter(Filter::ALL),
    );
    connection.add_hook(Hook::typed(
        "S_CHAT",
        Version::Latest,
        |_, packet| match chat_message(packet) {
            Some(message) => {
                *message = Str::from(format!("{message} (via tera-proxy)"));
                Verdict::Changed
            }
            None => Verdict::Pass,
        },
    )?);
    connection.add_hook(Hook::raw("S_SPAWN_NPC", |_, _| Verdict::Block));
    connection.add_hook(Hook::typed(
        "C_JOIN_PRIVATE_CHANNEL",
        Version::Latest,
        |event, packet| {
            let json = serde_json::to_value(&*packet).unwrap_or_default();
            let channel = json["channelName"].as_str().unwrap_or("?").to_owned();
            let text = format!("you are joining {channel}");
            if let Err(e) = event.send(Direction::ServerToClient, &notice(text)) {
                eprintln!("cannot inject the notice: {e}");
            }
            Verdict::Pass
        },
    )?);
    Ok(())
}

async fn handle(conn_id: u64, client: TcpStream, server_addr: String, maps: MapSource) {
    let server = match TcpStream::connect(&server_addr).await {
        Ok(s) => s,
        Err(e) => return eprintln!("#{conn_id} cannot connect to {server_addr}: {e}"),
    };
    let connection = Connection::new(ProxyConfig {
        maps,
        ..ProxyConfig::default()
    });
    if let Err(e) = install(conn_id, &connection) {
        return eprintln!("#{conn_id} {e}");
    }
    let handle = connection.handle();
    match connection.run(client, server).await {
        Ok(stats) => println!(
            "#{conn_id} closed: C->S {} packets read, S->C {} read, {} changed, {} blocked, {} injected ({} dropped: the stream had ended)",
            stats.client_to_server.packets_read,
            stats.server_to_client.packets_read,
            stats.server_to_client.changed,
            stats.server_to_client.blocked,
            stats.server_to_client.injected,
            stats.server_to_client.dropped_injections,
        ),
        Err(e) => eprintln!("#{conn_id} relay error: {e}"),
    }
    if let Some(e) = handle.map_error() {
        eprintln!("#{conn_id} had no protocol map: {e}");
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    const USAGE: &str = "usage: proxy <server-host:port> [listen-port] [--maps DIR]";
    let mut positional = Vec::new();
    let mut maps = MapSource::compiled_in();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--maps" {
            let Some(dir) = args.next() else {
                eprintln!("{USAGE}");
                std::process::exit(2);
            };
            maps = MapSource::folder(dir);
        } else {
            positional.push(arg);
        }
    }
    let Some(server_addr) = positional.first().cloned() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let port = match positional.get(1).map(|p| p.parse::<u16>()) {
        None => 0,
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("bad listen port: {e}");
            std::process::exit(2);
        }
    };
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
    println!(
        "listening on {}, relaying to {server_addr}",
        listener.local_addr()?
    );
    let mut next = 1;
    loop {
        let (client, peer) = listener.accept().await?;
        println!("#{next} client {peer}");
        tokio::spawn(handle(next, client, server_addr.clone(), maps.clone()));
        next += 1;
    }
}
