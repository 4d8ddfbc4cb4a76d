//! The corpus the simulated sessions are played on: `TERA_DATA_DIR` (a
//! tera-data checkout, `../shared/tera-data` in CI). Without it the tests
//! print a notice and skip.

#![allow(dead_code)]

use std::path::PathBuf;

use tera_dynamic::Catalog;
use tera_opcodes::simulate::Protocol;
use tera_opcodes::{DefSet, ProtocolMap};

/// The corpus: its defs as discovery sees them, its map (the "previous
/// version") and the protocol its sessions are played in.
pub struct Corpus {
    pub root: PathBuf,
    pub catalog: Catalog,
    pub defs: DefSet,
    pub previous: ProtocolMap,
    pub protocol: Protocol,
}

/// The corpus, or `None` (with a notice) when `TERA_DATA_DIR` is unset.
pub fn corpus(test: &str) -> Option<Corpus> {
    let Some(root) = std::env::var_os("TERA_DATA_DIR").map(PathBuf::from) else {
        eprintln!("{test}: TERA_DATA_DIR is not set (a tera-data checkout): skipped");
        return None;
    };
    let previous = tera_dynamic::load_protocol_map(root.join("maps/protocol.365100.map"))
        .expect("the corpus map")
        .map;
    let protocol = Protocol::load(&root, &previous, 365_100).expect("the corpus defs");
    let mut catalog = Catalog::new();
    catalog.load_dir(&root);
    let defs = DefSet::from_catalog(&catalog);
    Some(Corpus {
        root,
        catalog,
        defs,
        previous,
        protocol,
    })
}
