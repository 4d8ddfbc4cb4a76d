//! Known-answer tests from `pike-vectors.json` (located through
//! `$TERA_DATA_DIR/../net/pike-vectors.json`).

mod common;

use common::{field, hex, key, unhex, vectors};
use std::sync::OnceLock;

use proptest::prelude::*;
use tera_net::Direction;
use tera_net::framing::{Reassembler, opcode, packets};
use tera_net::pike::Pike;
use tera_net::session::{Session, SessionKeys};

fn keys_of(v: &serde_json::Value) -> SessionKeys {
    SessionKeys {
        client_key1: key(field(v, "client_key1")),
        server_key1: key(field(v, "server_key1")),
        client_key2: key(field(v, "client_key2")),
        server_key2: key(field(v, "server_key2")),
    }
}

#[test]
fn pike_single() {
    let Some(v) = vectors("pike_single") else {
        return;
    };
    let single = &v["pike_single"];
    let mut pike = Pike::new(&key(field(single, "key")));
    let steps = single["steps"].as_array().expect("steps");
    assert!(!steps.is_empty());
    for (i, step) in steps.iter().enumerate() {
        let mut data = unhex(field(step, "input"));
        pike.apply(&mut data);
        assert_eq!(hex(&data), field(step, "output"), "step {i}");
    }
}

#[test]
fn session_constant_keys() {
    let Some(v) = vectors("session_constant_keys") else {
        return;
    };
    let s = &v["session_constant_keys"];
    let mut session = Session::new(&keys_of(s));
    for (name, dir) in [
        ("client_to_server", Direction::ClientToServer),
        ("server_to_client", Direction::ServerToClient),
    ] {
        let mut data = unhex(field(&s[name], "input"));
        session.apply(dir, &mut data);
        assert_eq!(hex(&data), field(&s[name], "output"), "{name}");
    }
}

#[test]
fn session_real_decrypts() {
    let Some(v) = vectors("session_real") else {
        return;
    };
    let s = &v["session_real"];
    let mut session = Session::new(&keys_of(s));
    let mut data = unhex(field(s, "client_to_server_encrypted"));
    session.apply(Direction::ClientToServer, &mut data);
    assert_eq!(hex(&data), field(s, "client_to_server_plain"));
}

/// The real stream as `(keys, ciphertext)`, if the vectors are available.
fn real_stream(test: &str) -> Option<(SessionKeys, Vec<u8>)> {
    let v = vectors(test)?;
    let s = &v["session_real"];
    Some((keys_of(s), unhex(field(s, "client_to_server_encrypted"))))
}

#[test]
fn session_real_is_two_whole_packets() {
    let Some((keys, mut data)) = real_stream("session_real_is_two_whole_packets") else {
        return;
    };
    assert_eq!(data.len(), 133);
    Session::new(&keys).apply(Direction::ClientToServer, &mut data);
    let mut it = packets(&data);
    let found: Vec<_> = it
        .by_ref()
        .map(|p| p.map(|p| (p.len(), opcode(p))))
        .collect::<Result<_, _>>()
        .expect("valid framing");
    assert_eq!(found, [(32, Some(0x4dbc)), (101, Some(0x9a62))]);
    assert_eq!(it.consumed(), data.len());
    assert!(it.remainder().is_empty());
}

/// Decrypts `data` in the pieces given by `cuts` and reassembles packets.
fn decrypt_in_pieces(keys: &SessionKeys, data: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut cipher = Session::new(keys).into_ciphers().0;
    let mut stream = Reassembler::new();
    let mut out = Vec::new();
    let mut start = 0;
    for &end in cuts.iter().chain(std::iter::once(&data.len())) {
        cipher.apply(stream.push(&data[start..end]));
        while let Some(p) = stream.next_packet().expect("valid framing") {
            out.push(p.to_vec());
        }
        start = end;
    }
    assert_eq!(stream.buffered(), 0);
    out
}

static REAL: OnceLock<Option<(SessionKeys, Vec<u8>)>> = OnceLock::new();

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn session_real_any_split(mut cuts in proptest::collection::vec(0usize..=133, 0..12)) {
        let Some((keys, data)) = REAL.get_or_init(|| real_stream("session_real_any_split")) else {
            return Ok(());
        };
        cuts.sort_unstable();
        let whole = decrypt_in_pieces(keys, data, &[]);
        prop_assert_eq!(whole.len(), 2);
        prop_assert_eq!(decrypt_in_pieces(keys, data, &cuts), whole);
    }
}
