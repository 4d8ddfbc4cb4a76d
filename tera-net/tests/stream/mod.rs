//! Sending and receiving encrypted packet streams over TCP, for the proxy
//! tests.
#![allow(dead_code)]

use tera_net::framing::Reassembler;
use tera_net::{Direction, Session};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Encrypts `packets` as one stream and writes it in pieces of `piece`
/// bytes, so that packets straddle reads.
pub async fn send(
    stream: &mut TcpStream,
    session: &mut Session,
    dir: Direction,
    packets: &[Vec<u8>],
    piece: usize,
) {
    let mut wire = packets.concat();
    session.apply(dir, &mut wire);
    for chunk in wire.chunks(piece) {
        stream.write_all(chunk).await.unwrap();
    }
    stream.flush().await.unwrap();
}

/// Reads and decrypts until `count` whole packets have arrived, and checks
/// that nothing is left over.
pub async fn receive(
    stream: &mut TcpStream,
    session: &mut Session,
    dir: Direction,
    count: usize,
) -> Vec<Vec<u8>> {
    let mut r = Reassembler::new();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 4096];
    while out.len() < count {
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0, "{dir}: EOF after {} packets", out.len());
        session.apply(dir, r.push(&buf[..n]));
        while let Some(p) = r.next_packet().unwrap() {
            out.push(p.to_vec());
        }
    }
    assert_eq!(r.buffered(), 0);
    out
}
