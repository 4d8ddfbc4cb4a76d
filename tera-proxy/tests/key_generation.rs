//! The proxy serves clients of either key generation
//! ([`ProxyConfig::key_generation`]): with the generation the peers use, its
//! hooks see the packets they sent; a change it makes arrives encrypted
//! with that generation's ciphers.

use std::sync::{Arc, Mutex};

use tera_net::{Direction, HELLO, KeyGeneration, Pike, Session};
use tera_proxy::harness::{keys, packet};
use tera_proxy::{Connection, Hook, ProxyConfig, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Reads one whole packet, decrypting with `cipher`.
async fn recv(stream: &mut TcpStream, cipher: &mut Pike) -> Vec<u8> {
    let mut header = [0u8; 4];
    stream.read_exact(&mut header).await.unwrap();
    cipher.apply(&mut header);
    let len = usize::from(u16::from_le_bytes([header[0], header[1]]));
    let mut packet = header.to_vec();
    packet.resize(len, 0);
    stream.read_exact(&mut packet[4..]).await.unwrap();
    cipher.apply(&mut packet[4..]);
    packet
}

/// Encrypts `packet` with `cipher` and sends it.
async fn send(stream: &mut TcpStream, cipher: &mut Pike, packet: &[u8]) {
    let mut wire = packet.to_vec();
    cipher.apply(&mut wire);
    stream.write_all(&wire).await.unwrap();
}

/// A client and a server of `peers`' generation relayed by a proxy serving
/// `served`. The client sends `C`, the server answers `S`; a hook of the
/// proxy records what it decrypted and appends a byte to `C` (when it
/// decrypted a packet with `C`'s opcode). Returns what the hook saw, what
/// the server got and what the client got.
async fn relay(peers: KeyGeneration, served: KeyGeneration) -> (Vec<Vec<u8>>, Vec<u8>, Vec<u8>) {
    let keys = keys(45);
    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_addr = server_listener.local_addr().unwrap();
    let proxy_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy_listener.local_addr().unwrap();

    let seen = Arc::new(Mutex::new(Vec::new()));
    let connection = Connection::new(ProxyConfig {
        key_generation: served,
        ..ProxyConfig::default()
    });
    let log = Arc::clone(&seen);
    connection
        .add_hook(Hook::raw("*", move |_, p| {
            log.lock().unwrap().push(p.bytes().to_vec());
            if p.opcode() != 0x1111 {
                return Verdict::Pass;
            }
            p.bytes_mut().push(b'!');
            Verdict::Changed
        }))
        .unwrap();
    let relay = tokio::spawn(async move {
        let (client, _) = proxy_listener.accept().await.unwrap();
        let server = TcpStream::connect(server_addr).await.unwrap();
        connection.run(client, server).await
    });

    let server_keys = keys.clone();
    let server = tokio::spawn(async move {
        let (mut s, _) = server_listener.accept().await.unwrap();
        let mut key = [0u8; 128];
        s.write_all(&HELLO).await.unwrap();
        s.read_exact(&mut key).await.unwrap();
        s.write_all(&server_keys.server_key1).await.unwrap();
        s.read_exact(&mut key).await.unwrap();
        s.write_all(&server_keys.server_key2).await.unwrap();
        let (mut from_client, mut to_client) =
            Session::with_generation(&server_keys, peers).into_ciphers();
        let got = recv(&mut s, &mut from_client).await;
        send(&mut s, &mut to_client, &packet(0x2222, b"S")).await;
        got
    });

    let mut c = TcpStream::connect(proxy_addr).await.unwrap();
    let mut key = [0u8; 128];
    c.read_exact(&mut key[..4]).await.unwrap();
    c.write_all(&keys.client_key1).await.unwrap();
    c.read_exact(&mut key).await.unwrap();
    c.write_all(&keys.client_key2).await.unwrap();
    c.read_exact(&mut key).await.unwrap();
    let mut session = Session::with_generation(&keys, peers);
    let mut to_server = session.cipher_mut(Direction::ClientToServer).clone();
    let mut from_server = session.cipher_mut(Direction::ServerToClient).clone();
    send(&mut c, &mut to_server, &packet(0x1111, b"C")).await;
    let client_got = recv(&mut c, &mut from_server).await;
    let server_got = server.await.unwrap();
    drop(c);
    let _ = relay.await.unwrap();
    let seen = seen.lock().unwrap().clone();
    (seen, server_got, client_got)
}

#[tokio::test]
async fn an_old_client_is_served_with_the_old_generation() {
    let (seen, server_got, client_got) = relay(KeyGeneration::Old, KeyGeneration::Old).await;
    assert_eq!(seen, [packet(0x1111, b"C"), packet(0x2222, b"S")]);
    assert_eq!(server_got, packet(0x1111, b"C!"));
    assert_eq!(client_got, packet(0x2222, b"S"));
}

#[tokio::test]
async fn todays_generation_stays_the_default() {
    assert_eq!(
        ProxyConfig::default().key_generation,
        KeyGeneration::Current
    );
    let (seen, server_got, _) = relay(KeyGeneration::Current, KeyGeneration::Current).await;
    assert_eq!(seen[0], packet(0x1111, b"C"));
    assert_eq!(server_got, packet(0x1111, b"C!"));
}
