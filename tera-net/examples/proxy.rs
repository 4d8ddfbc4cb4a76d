//! A logging TERA proxy.
//!
//! ```text
//! cargo run -p tera-net --example proxy -- <server-host:port> [listen-port] [--map protocol.REV.map]
//! ```
//!
//! Listens on 127.0.0.1 (port 0 = any free port, printed at start), and for
//! each accepted game client connects to the server, relays the handshake,
//! then decrypts, frames and logs every packet (direction, length, opcode,
//! first bytes) while forwarding the traffic unchanged. Packets that the
//! compiled-in defs know (`tera-data`; build with `TERA_DATA_DIR` for the
//! real corpus) are decoded with `AnyPacket` through the protocol map (the
//! compiled-in one, or `--map`) and logged with their name, version and
//! JSON value.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tera_data::{AnyPacket, ProtocolMap};
use tera_net::Direction;
use tera_net::framing::opcode;
use tera_net::proxy::relay;
use tokio::net::{TcpListener, TcpStream};

const HEX_PREFIX: usize = 16;

fn log_packet(conn: u64, dir: Direction, packet: &[u8], map: Option<&ProtocolMap>) {
    let op = opcode(packet).unwrap_or_default();
    let hex: String = packet
        .iter()
        .take(HEX_PREFIX)
        .map(|b| format!("{b:02x}"))
        .collect();
    let more = if packet.len() > HEX_PREFIX { "..." } else { "" };
    println!(
        "#{conn} {} len={:5} op=0x{op:04x} {hex}{more}",
        dir.arrow(),
        packet.len()
    );
    let Some(map) = map else { return };
    match AnyPacket::decode_opcode(map, None, packet) {
        Ok(any) => {
            let json = serde_json::to_string(&any).unwrap_or_else(|e| format!("<{e}>"));
            println!("#{conn}   {}.{} {json}", any.name(), any.version());
        }
        Err(e) => println!("#{conn}   not decoded: {e}"),
    }
}

async fn handle(conn: u64, client: TcpStream, server_addr: String, map: Option<Arc<ProtocolMap>>) {
    let server = match TcpStream::connect(&server_addr).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("#{conn} cannot connect to {server_addr}: {e}");
            return;
        }
    };
    match relay(client, server, move |dir, p: &[u8]| {
        log_packet(conn, dir, p, map.as_deref())
    })
    .await
    {
        Ok(stats) => println!(
            "#{conn} closed: C->S {} packets / {} bytes, S->C {} packets / {} bytes",
            stats.client_to_server.packets,
            stats.client_to_server.bytes,
            stats.server_to_client.packets,
            stats.server_to_client.bytes
        ),
        Err(e) => eprintln!("#{conn} relay error: {e}"),
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    const USAGE: &str = "usage: proxy <server-host:port> [listen-port] [--map protocol.REV.map]";
    let mut positional = Vec::new();
    let mut map_file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--map" {
            map_file = args.next();
            if map_file.is_none() {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
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
    let map = match map_file {
        Some(path) => {
            let text = std::fs::read_to_string(&path)?;
            match ProtocolMap::parse(&text) {
                Ok(map) => Some(map),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    std::process::exit(2);
                }
            }
        }
        None => tera_data::protocol_map(),
    }
    .map(Arc::new);
    if map.is_none() {
        println!("no protocol map: packets are logged but not decoded");
    }
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
    println!(
        "listening on {}, relaying to {server_addr}",
        listener.local_addr()?
    );

    let next_conn = AtomicU64::new(1);
    loop {
        let (client, peer) = listener.accept().await?;
        let conn = next_conn.fetch_add(1, Ordering::Relaxed);
        println!("#{conn} client {peer}");
        tokio::spawn(handle(conn, client, server_addr.clone(), map.clone()));
    }
}
