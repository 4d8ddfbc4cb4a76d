//! What must hold of any bytes opened as a data center, shared by the
//! `datacenter` (`.dec`) and `datacenter_dat` (`.dat`) targets.

use std::io;

use tera_datacenter::{
    DatKey, DataCenter, ExportOptions, Format, WriteOptions, export, repack, verify, write_dec,
};

/// The key of the `.dat` target and its seeds: the one
/// `tera_datacenter::fuzzing::dat` uses, so that inputs carry over.
pub const DAT_KEY: DatKey = DatKey {
    key: *b"fuzz-key-16bytes",
    iv: *b"fuzz-iv-16-bytes",
};

/// Runs the library's entry point (verify, open, walk, copy, export to a
/// sink), then checks that a file the strict verifier accepts opens, copies,
/// exports every node once and survives a rewrite unchanged.
pub fn check_dec(bytes: &[u8]) {
    tera_datacenter::fuzzing::open(bytes);
    let report = verify(bytes, None);
    // Shared runs nested in each other make a huge tree of a small file:
    // copying it is slow, not wrong.
    if !report.is_ok() || report.nodes > 1 << 20 {
        return;
    }
    let dc = match DataCenter::parse(bytes) {
        Ok(dc) => dc,
        Err(e) => panic!("verified, but does not open: {e}"),
    };
    assert_eq!(Some(dc.arch()), report.arch, "arch");
    assert_eq!(Some(dc.header().version), report.version, "version");
    let root = dc.root();
    let tree = match root.to_owned_tree() {
        Ok(t) => t,
        Err(e) => panic!("verified, but does not copy: {e}"),
    };
    assert_eq!(tree.element_count() as u64, report.nodes, "nodes copied");
    for format in [Format::Xml, Format::Json] {
        for pretty in [false, true] {
            let options = ExportOptions { format, pretty };
            match export(&root, &mut io::sink(), options, &mut |_| {}) {
                Ok(stats) => assert_eq!(stats.elements, report.nodes, "{options:?}"),
                Err(e) => panic!("verified, but {options:?} fails: {e}"),
            }
        }
    }
    // The writer takes any tree a valid file holds, with and without
    // deduplication; reading it back gives the tree in canonical order
    // (strings were already made valid UTF-16 by the lossy copy). Laying
    // the open file out again keeps its keys, so it may order same-named
    // children by key values: it must verify, count the same tree, and be
    // its own repack.
    let canonical = tree.canonical();
    for dedup in [true, false] {
        let options = WriteOptions {
            arch: dc.arch(),
            version: dc.header().version,
            dedup,
            ..WriteOptions::default()
        };
        let written = match write_dec(&canonical, &options) {
            Ok(b) => b,
            Err(e) => panic!("a verified file's tree does not write: {e}"),
        };
        check_rewritten(&written, &options, &canonical);
        if let Ok(repacked) = repack(&dc, &options) {
            let again = verify(&repacked, Some(options.arch));
            assert!(again.is_ok(), "repacked: {:?}", again.problems.first());
            assert_eq!(
                (again.nodes, again.attributes),
                (report.nodes, report.attributes)
            );
            let reopened = DataCenter::parse_as(&repacked, Some(options.arch))
                .unwrap_or_else(|e| panic!("repacked file does not open: {e}"));
            let twice = repack(&reopened, &options).expect("a repacked file repacks");
            assert!(twice == repacked, "repack is not a fixpoint ({options:?})");
        }
    }
}

/// A file the writer wrote verifies and reads back as `tree`.
fn check_rewritten(written: &[u8], options: &WriteOptions, tree: &tera_datacenter::OwnedElement) {
    // A tiny file can read as either layout: read it back as written.
    let again = verify(written, Some(options.arch));
    assert!(again.is_ok(), "rewritten: {:?}", again.problems.first());
    let back = DataCenter::parse_as(written, Some(options.arch))
        .and_then(|d| d.root().to_owned_tree())
        .unwrap_or_else(|e| panic!("rewritten file does not read back: {e}"));
    assert!(back == *tree, "tree changed by a rewrite ({options:?})");
}
