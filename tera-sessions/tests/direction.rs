//! `direction_of` on the names of a real client build's map: every `C_`,
//! `S_` and `I_` entry of the public map of build 376012 travels one way,
//! `I_INPUT_COMMAND` (opcode 19 there) to the client, as tera-toolbox sends
//! `I_` packets; its two `M_` names say no direction.

use std::path::PathBuf;

use tera_sessions::{Direction, direction_of};

fn real_map() -> Option<PathBuf> {
    let shared = std::env::var_os("TERA_SHARED_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
        PathBuf::from,
    );
    let path = shared.join("real-sessions/protocol.376012.map");
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "skipping: no real map at {} (set TERA_SHARED_DIR)",
            path.display()
        );
        None
    }
}

#[test]
fn every_name_of_a_real_map_has_a_direction() {
    let Some(path) = real_map() else { return };
    let checked = tera_defs_front::load_map_file(&path);
    let map = checked.map.expect("a protocol map");
    assert!(map.entries.len() > 2000, "{} entries", map.entries.len());
    let without: Vec<&str> = map
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .filter(|n| direction_of(n).is_none())
        .collect();
    assert_eq!(without, ["M_PDH_DATA", "M_PONG"]);
    let input = map.entries.iter().find(|e| e.name == "I_INPUT_COMMAND");
    assert_eq!(input.map(|e| e.code), Some(19));
    assert_eq!(
        direction_of("I_INPUT_COMMAND"),
        Some(Direction::ServerToClient)
    );
}
