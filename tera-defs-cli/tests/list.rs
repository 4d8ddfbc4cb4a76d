//! `tera-defs list` as a process.

mod common;

use common::*;
use tera_data::PACKETS;

fn row<'a>(stdout: &'a str, name: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&name))
        .unwrap_or_else(|| panic!("no row {name} in\n{stdout}"))
}

#[test]
fn lists_every_compiled_packet() {
    let out = run(&["list"], None);
    assert_eq!(out.code, 0);
    let last = out.stdout.lines().last().unwrap();
    let mut names: Vec<&str> = PACKETS.iter().map(|p| p.name).collect();
    names.dedup();
    assert_eq!(
        last,
        format!("{} packets, {} versions", names.len(), PACKETS.len())
    );
    // A header, one row per name, the summary.
    assert_eq!(out.stdout.lines().count(), names.len() + 2);
    assert!(out.stdout.starts_with("NAME "));
}

#[test]
fn own_rows() {
    if !own_defs() {
        return;
    }
    let out = run(&["list"], None);
    assert_eq!(
        out.stdout
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["NAME", "VERSIONS", "protocol.1", "SIZE"]
    );
    assert_eq!(
        row(&out.stdout, "S_CHAT"),
        ["S_CHAT", "1,2,4", "19503", "variable"]
    );
    assert_eq!(row(&out.stdout, "S_PING"), ["S_PING", "1", "19508", "4"]);
    // Columns line up: every row starts its second column at the same place.
    let starts: Vec<usize> = out
        .stdout
        .lines()
        .filter(|l| !l.ends_with("versions"))
        .map(|l| {
            l.find("  ").unwrap() + l[l.find("  ").unwrap()..].find(|c: char| c != ' ').unwrap()
        })
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{}", out.stdout);
}

#[test]
fn filter() {
    let out = run(&["list", "chat"], None);
    assert_eq!(out.code, 0);
    assert!(row(&out.stdout, "S_CHAT").len() >= 3);
    assert!(
        out.stdout
            .lines()
            .skip(1)
            .all(|l| l.contains("CHAT") || l.ends_with("versions")),
        "{}",
        out.stdout
    );
    let out = run(&["list", "NO_SUCH_THING"], None);
    assert_eq!(out.stdout.lines().last().unwrap(), "0 packets, 0 versions");
}

#[test]
fn corpus_rows() {
    if !corpus() {
        return;
    }
    let out = run(&["list", "S_LOGIN"], None);
    assert!(out.stdout.starts_with("NAME "), "{}", out.stdout);
    assert!(
        out.stdout
            .lines()
            .next()
            .unwrap()
            .contains("protocol.365100")
    );
    let login = row(&out.stdout, "S_LOGIN");
    assert_eq!(login[1], "14,15");
    assert!(login[2].parse::<u16>().is_ok(), "{login:?}");
    assert_eq!(*login.last().unwrap(), "variable");
}
