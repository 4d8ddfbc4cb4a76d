//! A TERA proxy with a small mod, as tera-toolbox users write them:
//!
//! * every packet is logged as one JSON line (injected ones too), decoded
//!   by the compiled-in defs, or with `--defs DIR` by the defs of that
//!   folder, read at run time (a new patch's defs, no rebuild);
//! * chat lines from the server are rewritten (`S_CHAT.4`, typed);
//! * NPC spawns are blocked (`S_SPAWN_NPC`, raw);
//! * when the player writes in chat (`C_CHAT.1`), a notice answers.
//!
//! ```text
//! cargo run -p tera-proxy --example proxy -- <server-host:port> [listen-port] [--tera-data CHECKOUT] [--maps DIR] [--defs DIR]
//! ```
//!
//! Listens on 127.0.0.1 (port 0: any free port, printed). For a real game
//! client, `--tera-data CHECKOUT` takes maps and defs from a tera-data
//! checkout, as tera-toolbox does: each connection the `protocol.REV.map`
//! of the revision its client announces in `C_CHECK_VERSION`. `--maps`
//! takes the maps of a folder; without either, the made-up test map the
//! scripted peers speak. Try it with the
//! scripted peers: `cargo run -p tera-proxy --example scripted -- server 9251`,
//! this proxy on `127.0.0.1:9251 9250`, then
//! `cargo run -p tera-proxy --example scripted -- client 127.0.0.1:9250`.

use std::net::{Ipv4Addr, SocketAddr};

use serde_json::json;
use tera_data::AnyPacket;
use tera_data::packets::{c_chat, s_chat};
use tera_proxy::{
    Connection, DefSource, Filter, Hook, HookError, MapSource, Proxy, ProxyConfig, RelayStats,
    Verdict, Version,
};

/// The mod: the hooks of one connection.
fn install(conn: u64, connection: &Connection) -> Result<(), HookError> {
    // First, on everything, injected packets included: one JSON line each.
    let log = Hook::raw("*", move |event, packet| {
        let value = match event.runtime_defs() {
            Some(_) => event
                .dynamic(packet.bytes(), Version::Latest)
                .ok()
                .and_then(|p| serde_json::to_value(&p).ok()),
            None => event
                .protocol_map()
                .and_then(|map| AnyPacket::decode_opcode(map, None, packet.bytes()).ok())
                .and_then(|p| serde_json::to_value(&p).ok()),
        };
        let line = json!({
            "conn": conn, "dir": event.direction().arrow(), "opcode": event.opcode(),
            "name": event.name(), "len": packet.bytes().len(), "fake": event.is_fake(),
            "value": value,
        });
        println!("{line}");
        Verdict::Pass
    });
    connection.add_hook(log.order(-100).filter(Filter::ALL))?;
    connection.add_hook(Hook::on::<s_chat::V4>(|_, chat| {
        chat.message = format!("{} (via tera-proxy)", chat.message).into();
        Verdict::Changed
    }))?;
    connection.add_hook(Hook::raw("S_SPAWN_NPC", |_, _| Verdict::Block))?;
    connection.add_hook(Hook::on::<c_chat::V1>(|event, chat| {
        let notice = s_chat::V4 {
            name: "proxy".into(),
            message: format!("you wrote {} letters", chat.message.chars().count()).into(),
            ..Default::default()
        };
        if let Err(e) = event.send(&notice) {
            eprintln!("cannot send the notice: {e}");
        }
        Verdict::Pass
    }))?;
    Ok(())
}

fn closed(conn: u64, result: Result<RelayStats, tera_proxy::ProxyError>) {
    match result {
        Ok(stats) => println!(
            "#{conn} closed: C->S {} packets read, S->C {} read, {} changed, {} blocked, {} injected ({} dropped: the stream had ended)",
            stats.client_to_server.packets_read,
            stats.server_to_client.packets_read,
            stats.server_to_client.changed,
            stats.server_to_client.blocked,
            stats.server_to_client.injected,
            stats.server_to_client.dropped_injections,
        ),
        Err(e) => eprintln!("#{conn} relay error: {e}"),
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    const USAGE: &str = "usage: proxy <server-host:port> [listen-port] [--tera-data CHECKOUT] [--maps DIR] [--defs DIR]";
    let mut positional = Vec::new();
    let mut maps = MapSource::test_map();
    let mut defs = DefSource::None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut dir = || {
            args.next().unwrap_or_else(|| {
                eprintln!("{USAGE}");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--maps" => maps = MapSource::folder(dir()),
            "--tera-data" => {
                let checkout = dir();
                maps = MapSource::tera_data(&checkout);
                defs = DefSource::tera_data(&checkout).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                });
            }
            "--defs" => match DefSource::folder(dir()) {
                Ok(source) => defs = source,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
            },
            _ => positional.push(arg),
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
    let proxy = Proxy::new(server_addr.clone())
        .config(ProxyConfig {
            maps,
            defs,
            ..ProxyConfig::default()
        })
        .on_connection(|conn, connection| {
            if let Err(e) = install(conn, connection) {
                eprintln!("#{conn} {e}");
            }
        })
        .on_close(|conn, handle, result| {
            closed(conn, result);
            for report in handle.unknown_names() {
                eprintln!("#{conn} {report}");
            }
            if let Some(e) = handle.map_error() {
                eprintln!("#{conn} had no protocol map: {e}");
            }
        })
        .bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await?;
    println!(
        "listening on {}, relaying to {server_addr}",
        proxy.local_addr()?
    );
    proxy
        .run_until(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
}
