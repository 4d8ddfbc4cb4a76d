//! A meter's plumbing over the public API: a session read, each packet
//! named through a map of any file name and read with the version of its
//! name that fits the session (a def folder holds every version a packet
//! had), one field of one packet summed, with an error that names the
//! packet and the field for a typo.
//!
//! ```text
//! cargo run -p tera-sessions --example meter -- SESSION MAP REVISION NAME FIELD DEFS...
//! cargo run -p tera-sessions --example meter -- ../shared/real-sessions/classic-plus-376012-server.jsonl \
//!     protocol.376012.map 376012 S_PLAYER_STAT_UPDATE hp ../shared/tera-data ../shared/real-sessions/defs-376012
//! ```

use std::collections::BTreeSet;
use std::error::Error;
use std::process::ExitCode;

use tera_dynamic::Catalog;
use tera_sessions::{Events, Namer};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [session, map, revision, name, field, defs @ ..] = args.as_slice() else {
        return Err("usage: meter SESSION MAP REVISION NAME FIELD DEFS...".into());
    };
    let mut catalog = Catalog::new();
    for dir in defs {
        catalog.load_dir(dir);
    }
    catalog
        .load_map_as(map, revision.parse()?)
        .map_err(|r| r.render(false))?;

    let mut namer = Namer::new(&catalog, None);
    // A first pass chooses each name's version over the whole session.
    for event in Events::open(session)? {
        namer.learn(&event?);
    }
    let (mut total, mut packets, mut unread) = (0i128, 0, 0);
    let mut versions = BTreeSet::new();
    for event in Events::open(session)? {
        let Some(named) = namer.name(&event?) else {
            continue;
        };
        let Some(def) = named.def.as_ref().filter(|d| d.name() == name.as_str()) else {
            continue;
        };
        versions.insert(def.to_string());
        match named.record() {
            Ok(record) => {
                total += i128::from(record.i64(field)?);
                packets += 1;
            }
            Err(why) => {
                eprintln!("{why}");
                unread += 1;
            }
        }
    }
    let versions: Vec<String> = versions.into_iter().collect();
    println!(
        "{name}.{field}: {total} over {packets} packets ({unread} unread), read with {}",
        versions.join(", ")
    );
    Ok(())
}
