//! A scripted TERA client and server talking over a real TCP connection,
//! for capture tools to record (`tests/fixtures/make.sh` runs it under
//! tcpdump and dumpcap).
//!
//! Both peers do the real handshake and encrypt with tera-net's cipher of
//! the key generation asked for; each side sends its packets of the script
//! (`tests/support/script.rs`, deterministic from the seed) and checks
//! every byte it receives. Consecutive packets one way are written in
//! pieces of random sizes, so that segments start and end inside packets.
//!
//! ```text
//! cargo run -p tera-sessions --example scripted_session -- ADDRESS:PORT SEED old|current COUNT [nagle]
//! ```
//!
//! With `nagle`, both sockets announce a 1,460-byte MSS (as on Ethernet)
//! and keep Nagle's algorithm on: a run of packets leaves in full segments
//! that hold the end of one packet and the start of the next, as a real
//! server sends them.

#[path = "../tests/support/script.rs"]
mod script;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;

use script::{Rng, Script};
use socket2::{Domain, Socket, Type};
use tera_net::{Direction, HELLO, KEY_LEN, KeyGeneration, Session};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (args, nagle) = match args.split_last() {
        Some((last, rest)) if last == "nagle" => (rest, true),
        _ => (&args[..], false),
    };
    let parsed = match args {
        [addr, seed, generation, count] => (|| -> Option<_> {
            let generation = match generation.as_str() {
                "old" => KeyGeneration::Old,
                "current" => KeyGeneration::Current,
                _ => return None,
            };
            Some((
                addr.parse::<SocketAddr>().ok()?,
                seed.parse::<u64>().ok()?,
                generation,
                count.parse::<usize>().ok()?,
            ))
        })(),
        _ => None,
    };
    let Some((addr, seed, generation, count)) = parsed else {
        eprintln!("usage: scripted_session ADDRESS:PORT SEED old|current COUNT [nagle]");
        return ExitCode::from(2);
    };
    match run(addr, &script::script(seed, generation, count), nagle) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scripted_session: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The MSS both sockets announce with `nagle`.
const MSS: u32 = 1460;

fn socket(addr: SocketAddr) -> std::io::Result<Socket> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    socket.set_tcp_mss(MSS)?;
    Ok(socket)
}

fn listen(addr: SocketAddr, nagle: bool) -> std::io::Result<TcpListener> {
    if !nagle {
        return TcpListener::bind(addr);
    }
    let socket = socket(addr)?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(1)?;
    Ok(socket.into())
}

fn connect(addr: SocketAddr, nagle: bool) -> std::io::Result<TcpStream> {
    if !nagle {
        return TcpStream::connect(addr);
    }
    let socket = socket(addr)?;
    socket.connect(&addr.into())?;
    Ok(socket.into())
}

fn run(addr: SocketAddr, script: &Script, nagle: bool) -> std::io::Result<()> {
    let listener = listen(addr, nagle)?;
    let bound = listener.local_addr()?;
    std::thread::scope(|scope| {
        let server = scope.spawn(|| -> std::io::Result<()> {
            let (stream, _) = listener.accept()?;
            play(stream, script, Direction::ServerToClient, nagle)
        });
        let client = play(
            connect(bound, nagle)?,
            script,
            Direction::ClientToServer,
            nagle,
        );
        let server = server
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("server panicked")));
        client.and(server)
    })?;
    let counts = |d| script.packets.iter().filter(|(dir, _)| *dir == d).count();
    println!(
        "{} packets client to server, {} server to client, {:?} keys",
        counts(Direction::ClientToServer),
        counts(Direction::ServerToClient),
        script.generation
    );
    Ok(())
}

/// Plays one side (`me` is the direction it sends).
fn play(mut stream: TcpStream, script: &Script, me: Direction, nagle: bool) -> std::io::Result<()> {
    stream.set_nodelay(!nagle)?;
    let (client_hs, server_hs) = script.handshake();
    let mut buf = [0u8; KEY_LEN];
    // Hello, client key 1, server key 1, client key 2, server key 2.
    let steps: [(Direction, &[u8]); 5] = [
        (Direction::ServerToClient, &server_hs[..HELLO.len()]),
        (Direction::ClientToServer, &client_hs[..KEY_LEN]),
        (
            Direction::ServerToClient,
            &server_hs[HELLO.len()..HELLO.len() + KEY_LEN],
        ),
        (Direction::ClientToServer, &client_hs[KEY_LEN..]),
        (
            Direction::ServerToClient,
            &server_hs[HELLO.len() + KEY_LEN..],
        ),
    ];
    for (dir, bytes) in steps {
        if dir == me {
            stream.write_all(bytes)?;
        } else {
            let got = &mut buf[..bytes.len()];
            stream.read_exact(got)?;
            expect(got, bytes, "handshake")?;
        }
    }
    let mut session = Session::with_generation(&script.keys, script.generation);
    let mut rng = Rng(0x5eed ^ u64::from(me == Direction::ClientToServer));
    let mut pending: Vec<u8> = Vec::new();
    for (i, (dir, packet)) in script.packets.iter().enumerate() {
        let last_of_run = script
            .packets
            .get(i + 1)
            .is_none_or(|(next, _)| next != dir);
        if *dir == me {
            let mut wire = packet.clone();
            session.apply(*dir, &mut wire);
            pending.extend_from_slice(&wire);
            if last_of_run {
                write_in_pieces(&mut stream, &pending, &mut rng)?;
                pending.clear();
            }
        } else {
            let mut got = vec![0u8; packet.len()];
            stream.read_exact(&mut got)?;
            session.apply(*dir, &mut got);
            expect(&got, packet, "packet")?;
        }
    }
    stream.shutdown(std::net::Shutdown::Write)?;
    // Wait for the peer's FIN.
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest)?;
    expect(&rest, &[], "end of stream")
}

/// Writes `bytes` in one to four pieces of random sizes.
fn write_in_pieces(stream: &mut TcpStream, bytes: &[u8], rng: &mut Rng) -> std::io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let take = if rng.below(3) == 0 {
            rest.len()
        } else {
            1 + rng.below(rest.len() as u64) as usize
        };
        let (now, later) = rest.split_at(take);
        stream.write_all(now)?;
        // Separate writes make separate segments only if the first has
        // left; a short pause lets it.
        std::thread::sleep(std::time::Duration::from_micros(200));
        rest = later;
    }
    Ok(())
}

fn expect(got: &[u8], want: &[u8], what: &str) -> std::io::Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "unexpected {what}: {} bytes, wanted {}",
                got.len(),
                want.len()
            ),
        ))
    }
}
