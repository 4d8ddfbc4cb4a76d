//! Entry points for fuzz targets (the `fuzzing` feature, off by default:
//! not part of the API): they must never panic, whatever the bytes.

use std::io;

use crate::{DatKey, DataCenter, ExportOptions, Format, export, unpack, verify};

/// Opens arbitrary bytes as a `.dec` and, when that works, walks, verifies,
/// copies and exports the whole tree.
pub fn open(bytes: &[u8]) {
    let report = verify(bytes, None);
    let Ok(dc) = DataCenter::parse(bytes) else {
        return;
    };
    debug_assert!(report.arch.is_some());
    // A few shared runs nested in each other make a tree of billions of
    // nodes from a small file: walking it is slow, not wrong.
    if report.nodes > 1 << 20 {
        return;
    }
    let root = dc.root();
    for format in [Format::Xml, Format::Json] {
        let _ = export(
            &root,
            &mut io::sink(),
            ExportOptions {
                format,
                pretty: true,
            },
            &mut |_| {},
        );
    }
    let _ = root.to_owned_tree();
    let mut stack = vec![root];
    let mut budget = dc.node_count() + 1;
    // Bounded walk: a cycle must not make the fuzzer spin.
    while let Some(e) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        for a in e.attributes() {
            let _ = (a.name(), a.value());
        }
        let _ = e.value();
        stack.extend(e.children());
    }
    let _ = root.select("a/b");
}

/// Unpacks arbitrary bytes as a `.dat` with a fixed key, then as
/// [`open`].
pub fn dat(bytes: &[u8]) {
    let key = DatKey {
        key: *b"fuzz-key-16bytes",
        iv: *b"fuzz-iv-16-bytes",
    };
    if let Ok(dec) = unpack(bytes, &key) {
        open(&dec);
    }
}

/// Reads arbitrary bytes as a schema and a sheet, split at the first NUL
/// byte (without one, the whole input is a sheet of a fixed schema). A
/// sheet that reads without a problem must pack into a data center that
/// passes the strict checks.
pub fn sheet(bytes: &[u8]) {
    crate::sheets::fuzz_sheet(bytes);
}
