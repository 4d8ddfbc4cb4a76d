//! A scripted TERA game server and client (real handshake and cipher) to
//! run the proxy example against, on 127.0.0.1:
//!
//! ```text
//! cargo run -p tera-proxy --example scripted -- server 9251
//! cargo run -p tera-proxy --example proxy -- 127.0.0.1:9251 9250
//! cargo run -p tera-proxy --example scripted -- client 127.0.0.1:9250
//! ```
//!
//! The client sends `C_CHECK_VERSION`, a chat line and moves;
//! the server sends two chat lines, an NPC spawn and a ping. Each prints
//! what it receives. The packets are those of the project's own defs (built
//! without `TERA_DATA_DIR`).

#[cfg(not(tera_corpus))]
mod script {
    use std::net::{Ipv4Addr, SocketAddr};

    use tera_data::packets::{c_chat, c_player_location, s_chat, s_ping, s_spawn_npc};
    use tera_data::{AnyPacket, Packet, Str};
    use tera_proxy::harness::{Peer, check_version, keys};
    use tokio::net::TcpListener;

    const KEYS_SEED: u64 = 42;

    fn encode<'a, P: Packet<'a>>(packet: &P) -> Vec<u8> {
        let map = tera_data::protocol_map().unwrap_or_default();
        let mut bytes = packet.encode().unwrap_or_default();
        tera_data::set_opcode(&mut bytes, map.code(P::NAME).unwrap_or_default());
        bytes
    }

    fn describe(packet: &[u8]) -> String {
        let map = tera_data::protocol_map().unwrap_or_default();
        match AnyPacket::decode_opcode(&map, None, packet) {
            Ok(p) => format!(
                "{}.{} {}",
                p.name(),
                p.version(),
                serde_json::to_string(&p).unwrap_or_default()
            ),
            Err(e) => format!("{} bytes ({e})", packet.len()),
        }
    }

    async fn print_until_end(who: &str, peer: &mut Peer) -> std::io::Result<()> {
        while let Some(p) = peer.reader.recv().await? {
            println!("{who} received {}", describe(&p));
        }
        println!("{who}: end of stream");
        Ok(())
    }

    pub async fn server(port: u16) -> std::io::Result<()> {
        let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await?;
        println!("server listening on {}", listener.local_addr()?);
        let (stream, _) = listener.accept().await?;
        let mut peer = Peer::server(stream, &keys(KEYS_SEED)).await?;
        let chat = |message: &str| {
            encode(&s_chat::V4 {
                channel: 1,
                player_id: 7,
                name: Str::from("Elin"),
                message: Str::from(message.to_owned()),
                ..Default::default()
            })
        };
        let npc = encode(&s_spawn_npc::V1::default());
        let packets = [
            chat("welcome!"),
            npc,
            chat("see you"),
            encode(&s_ping::V1 {}),
        ];
        peer.writer
            .send(&packets.iter().map(Vec::as_slice).collect::<Vec<_>>())
            .await?;
        // A game server stays up while the client plays: end only after the
        // client's last packet, so that what the proxy injects towards the
        // client on the client's packets still has a stream to go to.
        let last = encode(&c_player_location::V1::default());
        while let Some(p) = peer.reader.recv().await? {
            println!("server received {}", describe(&p));
            if p[2..4] == last[2..4] {
                break;
            }
        }
        peer.writer.shutdown().await?;
        print_until_end("server", &mut peer).await
    }

    pub async fn client(addr: SocketAddr) -> std::io::Result<()> {
        let mut peer = Peer::client(addr, &keys(KEYS_SEED)).await?;
        let join = encode(&c_chat::V1 {
            channel: 0,
            message: Str::from("<FONT>hello, traders</FONT>"),
        });
        let moved = encode(&c_player_location::V1 {
            r#type: 1,
            time: 1234,
            ..Default::default()
        });
        peer.writer
            .send(&[&check_version(1), &join, &moved])
            .await?;
        print_until_end("client", &mut peer).await?;
        peer.writer.shutdown().await
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    #[cfg(not(tera_corpus))]
    match args.as_slice() {
        [role, port] if role == "server" => {
            return script::server(port.parse().map_err(std::io::Error::other)?).await;
        }
        [role, addr] if role == "client" => {
            return script::client(addr.parse().map_err(std::io::Error::other)?).await;
        }
        _ => {}
    }
    #[cfg(tera_corpus)]
    eprintln!("the scripted peers send the project's own defs: build without TERA_DATA_DIR");
    eprintln!("usage: scripted server <port> | scripted client <proxy-host:port> ({args:?})");
    std::process::exit(2);
}
