//! End to end: fake client <-> `proxy::relay` <-> fake server, all on
//! 127.0.0.1 with random keys. Needs the `tokio` feature (on by default).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tera_net::proxy::relay;
use tera_net::{Direction, HELLO, Session, SessionKeys};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

mod stream;
use stream::{receive, send};

/// Packets the proxy hook saw.
type Seen = Vec<(Direction, Vec<u8>)>;

const LIMIT: Duration = Duration::from_secs(10);

/// splitmix64: enough randomness for keys and sizes in a test.
struct Rng(u64);

impl Rng {
    fn seeded() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Rng(nanos as u64 ^ 0x9e37_79b9_7f4a_7c15)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn key(&mut self) -> [u8; 128] {
        let mut k = [0u8; 128];
        k.fill_with(|| self.next() as u8);
        k
    }
}

fn packets(rng: &mut Rng, count: usize, op_base: u16) -> Vec<Vec<u8>> {
    let mut lens = vec![4usize, 65535];
    while lens.len() < count {
        lens.push(4 + (rng.next() % 3000) as usize);
    }
    lens.iter()
        .enumerate()
        .map(|(i, &len)| {
            let mut p = (len as u16).to_le_bytes().to_vec();
            p.extend_from_slice(&(op_base + i as u16).to_le_bytes());
            p.resize(len, 0);
            p.iter_mut().skip(4).for_each(|b| *b = rng.next() as u8);
            p
        })
        .collect()
}

async fn read_exact<const N: usize>(s: &mut TcpStream) -> [u8; N] {
    let mut b = [0u8; N];
    s.read_exact(&mut b).await.unwrap();
    b
}

#[tokio::test]
async fn proxy_relays_both_ways() {
    let mut rng = Rng::seeded();
    let keys = SessionKeys {
        client_key1: rng.key(),
        server_key1: rng.key(),
        client_key2: rng.key(),
        server_key2: rng.key(),
    };
    let up = packets(&mut rng, 6, 0x1000);
    let down = packets(&mut rng, 5, 0x2000);

    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_addr = server_listener.local_addr().unwrap();
    let proxy_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy_listener.local_addr().unwrap();

    let seen: Arc<Mutex<Seen>> = Arc::default();
    let proxy = {
        let seen = Arc::clone(&seen);
        tokio::spawn(async move {
            let (client, _) = proxy_listener.accept().await.unwrap();
            let server = TcpStream::connect(server_addr).await.unwrap();
            relay(client, server, move |dir, p: &[u8]| {
                seen.lock().unwrap().push((dir, p.to_vec()))
            })
            .await
        })
    };

    let server = {
        let (keys, up, down) = (keys.clone(), up.clone(), down.clone());
        tokio::spawn(async move {
            let (mut s, _) = server_listener.accept().await.unwrap();
            s.write_all(&HELLO).await.unwrap();
            assert_eq!(read_exact::<128>(&mut s).await, keys.client_key1);
            s.write_all(&keys.server_key1).await.unwrap();
            assert_eq!(read_exact::<128>(&mut s).await, keys.client_key2);
            s.write_all(&keys.server_key2).await.unwrap();
            let mut session = Session::new(&keys);
            send(&mut s, &mut session, Direction::ServerToClient, &down, 1777).await;
            let got = receive(&mut s, &mut session, Direction::ClientToServer, up.len()).await;
            s.shutdown().await.unwrap();
            assert_eq!(s.read(&mut [0u8; 1]).await.unwrap(), 0, "client closed");
            got
        })
    };

    let client = {
        let (keys, up, down) = (keys.clone(), up.clone(), down.clone());
        tokio::spawn(async move {
            let mut c = TcpStream::connect(proxy_addr).await.unwrap();
            assert_eq!(read_exact::<4>(&mut c).await, HELLO);
            c.write_all(&keys.client_key1).await.unwrap();
            assert_eq!(read_exact::<128>(&mut c).await, keys.server_key1);
            c.write_all(&keys.client_key2).await.unwrap();
            assert_eq!(read_exact::<128>(&mut c).await, keys.server_key2);
            let mut session = Session::new(&keys);
            send(&mut c, &mut session, Direction::ClientToServer, &up, 1777).await;
            let got = receive(&mut c, &mut session, Direction::ServerToClient, down.len()).await;
            c.shutdown().await.unwrap();
            assert_eq!(c.read(&mut [0u8; 1]).await.unwrap(), 0, "server closed");
            got
        })
    };

    let (server_got, client_got, stats) = tokio::time::timeout(LIMIT, async {
        (
            server.await.unwrap(),
            client.await.unwrap(),
            proxy.await.unwrap().unwrap(),
        )
    })
    .await
    .expect("relay finished in time");

    assert_eq!(server_got, up);
    assert_eq!(client_got, down);
    assert_eq!(stats.client_to_server.packets, up.len() as u64);
    assert_eq!(stats.server_to_client.packets, down.len() as u64);
    assert_eq!(stats.client_to_server.bytes, up.concat().len() as u64);

    let seen = seen.lock().unwrap();
    let seen_dir = |d| {
        seen.iter()
            .filter(|(dir, _)| *dir == d)
            .map(|(_, p)| p.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(seen_dir(Direction::ClientToServer), up);
    assert_eq!(seen_dir(Direction::ServerToClient), down);
}

#[tokio::test]
async fn proxy_rejects_bad_hello() {
    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_addr = server_listener.local_addr().unwrap();
    let proxy_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy_listener.local_addr().unwrap();

    let result = tokio::time::timeout(LIMIT, async {
        let server = tokio::spawn(async move {
            let (mut s, _) = server_listener.accept().await.unwrap();
            s.write_all(&[2, 0, 0, 0]).await.unwrap();
            s
        });
        let client = tokio::spawn(async move { TcpStream::connect(proxy_addr).await.unwrap() });
        let (c, _) = proxy_listener.accept().await.unwrap();
        let s = TcpStream::connect(server_addr).await.unwrap();
        let r = relay(c, s, |_, _: &[u8]| {}).await;
        drop((server.await, client.await));
        r
    })
    .await
    .expect("finished in time");
    assert!(
        matches!(result, Err(tera_net::proxy::ProxyError::Handshake(_))),
        "{result:?}"
    );
}
