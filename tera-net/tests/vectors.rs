//! Known-answer tests from `pike-vectors.json` (located through
//! `$TERA_DATA_DIR/../net/pike-vectors.json`).

mod common;

use common::{field, hex, key, unhex, vectors};
use tera_net::Direction;
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
