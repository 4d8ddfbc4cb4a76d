//! Compiles the packet definitions into `$OUT_DIR/tera_packets.rs`.
//!
//! By default: the project's own `defs/` and `maps/`. With `TERA_DATA_DIR`
//! set to a tera-data checkout: its `definitions/` (or `protocol/`) and its
//! `maps/` (or `map/`, `map_base/`) instead. `TERA_EXTRA_DEFS` adds more
//! def folders (separated like `PATH`).

use std::path::{Path, PathBuf};

fn first_dir(root: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| root.join(n)).find(|p| p.is_dir())
}

fn main() {
    println!("cargo:rerun-if-env-changed=TERA_DATA_DIR");
    println!("cargo:rerun-if-env-changed=TERA_EXTRA_DEFS");
    // `tera_corpus`: the real corpus is compiled in, so the benches and tests
    // that name its packet types (`packets::s_login::V15`) can be built.
    println!("cargo::rustc-check-cfg=cfg(tera_corpus)");
    let mut builder = tera_defs::Builder::new();
    // This crate has both features (see Cargo.toml): serde derives and
    // `Arbitrary` behind them.
    builder
        .serde(tera_defs::Serde::feature())
        .arbitrary_feature(Some("arbitrary"));
    match std::env::var_os("TERA_DATA_DIR") {
        Some(dir) => {
            println!("cargo:rustc-cfg=tera_corpus");
            let root = PathBuf::from(dir);
            let defs = first_dir(&root, &["definitions", "protocol"]).unwrap_or(root.clone());
            builder.defs_dir(defs);
            if let Some(maps) = first_dir(&root, &["maps", "map", "map_base"]) {
                builder.maps_dir(maps);
            }
        }
        None => {
            builder.defs_dir("defs").maps_dir("maps");
            // The own defs' warnings, reviewed: each def is meant so (see
            // docs/wire-format.md), and whoever builds a crate that depends
            // on this one cannot change it. `tera-defs check defs` lists them.
            builder
                // The protocol document's layout (the README's first
                // command decodes it): the password after the name's data.
                .expect_warning("C_JOIN_PRIVATE_CHANNEL.1.def", "W002")
                .expect_warning("C_EDIT_PRIVATE_CHANNEL.1.def", "W002")
                // As the protocol has it (tera-data's S_JOIN_PRIVATE_CHANNEL.2
                // too): elements of which only the count is known.
                .expect_warning("S_JOIN_PRIVATE_CHANNEL.2.def", "W001");
        }
    }
    // More def folders, separated like PATH (the synthetic defs in CI).
    if let Some(extra) = std::env::var_os("TERA_EXTRA_DEFS") {
        for dir in std::env::split_paths(&extra) {
            builder.defs_dir(dir);
        }
    }
    if let Err(e) = builder.compile() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
