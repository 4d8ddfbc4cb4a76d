//! A logging TERA proxy.
//!
//! ```text
//! cargo run -p tera-net --example proxy -- <server-host:port> [listen-port]
//! ```
//!
//! Listens on 127.0.0.1 (port 0 = any free port, printed at start), and for
//! each accepted game client connects to the server, relays the handshake,
//! then decrypts, frames and logs every packet (direction, length, opcode,
//! first bytes) while forwarding the traffic unchanged.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};

use tera_net::Direction;
use tera_net::framing::opcode;
use tera_net::proxy::relay;
use tokio::net::{TcpListener, TcpStream};

const HEX_PREFIX: usize = 16;

fn log_packet(conn: u64, dir: Direction, packet: &[u8]) {
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
}

async fn handle(conn: u64, client: TcpStream, server_addr: String) {
    let server = match TcpStream::connect(&server_addr).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("#{conn} cannot connect to {server_addr}: {e}");
            return;
        }
    };
    match relay(client, server, move |dir, p: &[u8]| {
        log_packet(conn, dir, p)
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
    let mut args = std::env::args().skip(1);
    let Some(server_addr) = args.next() else {
        eprintln!("usage: proxy <server-host:port> [listen-port]");
        std::process::exit(2);
    };
    let port = match args.next().map(|p| p.parse::<u16>()) {
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

    let next_conn = AtomicU64::new(1);
    loop {
        let (client, peer) = listener.accept().await?;
        let conn = next_conn.fetch_add(1, Ordering::Relaxed);
        println!("#{conn} client {peer}");
        tokio::spawn(handle(conn, client, server_addr.clone()));
    }
}
