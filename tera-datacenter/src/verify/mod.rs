//! The strict verifier: every check of the format, all problems reported.
//!
//! - `tables`: the string tables, the special names and the keys;
//! - the record checker that opening a file runs ([`check_records`]), on
//!   every record, reached or not;
//! - `tree`: the walk from the root (nodes, attributes, legal sharing).

mod tables;
mod tree;

use crate::bytes::u32_at;
use crate::check::check_records;
use crate::dat::{DatError, DatKey, unpack_lenient};
use crate::layout::{Layout, Version, detect_layout};
use crate::problem::{Place, Problem, ProblemKind, Table};
use crate::records::Arch;

/// What the verifier found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The element layout, when the structure could be read.
    pub arch: Option<Arch>,
    /// The version, when the structure could be read.
    pub version: Option<Version>,
    /// Nodes of the tree as readers see it, from the root: a run of
    /// children that several elements share counts under each of them.
    pub nodes: u64,
    /// Attributes of those nodes.
    pub attributes: u64,
    /// Node records in the file (used counts of the nodes region).
    pub node_records: usize,
    /// Attribute records in the file.
    pub attribute_records: usize,
    /// Every problem, in the order found.
    pub problems: Vec<Problem>,
}

impl Report {
    /// True when no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The report of a file whose structure cannot be read.
    fn unreadable(problem: Problem) -> Self {
        Report {
            arch: None,
            version: None,
            nodes: 0,
            attributes: 0,
            node_records: 0,
            attribute_records: 0,
            problems: vec![problem],
        }
    }
}

/// Verifies a `.dat`: decryption and inflation must work (else the
/// [`DatError`]); a declared size that differs is reported, and the
/// inflated bytes are verified.
pub fn verify_dat(dat: &[u8], key: &DatKey, arch: Option<Arch>) -> Result<Report, DatError> {
    let (dec, declared) = unpack_lenient(dat, key)?;
    let mut report = verify(&dec, arch);
    if declared as usize != dec.len() {
        let kind = ProblemKind::DeclaredSize {
            declared,
            actual: dec.len(),
        };
        report
            .problems
            .insert(0, Problem::new(0, Place::File, kind));
    }
    Ok(report)
}

/// Verifies decompressed bytes strictly (finding the element layout when
/// `arch` is `None`), returning every problem found.
pub fn verify(dec: &[u8], arch: Option<Arch>) -> Report {
    let layout = match detect_layout(dec, arch) {
        Ok(l) => l,
        Err(e) => return Report::unreadable(e),
    };
    let mut v = Verifier {
        b: dec,
        problems: Vec::new(),
    };
    let (nodes, attributes) = v.run(&layout);
    Report {
        arch: Some(layout.arch),
        version: Some(layout.header.version),
        nodes,
        attributes,
        node_records: layout.nodes.iter().map(|s| s.used as usize).sum(),
        attribute_records: layout.attributes.iter().map(|s| s.used as usize).sum(),
        problems: v.problems,
    }
}

struct Verifier<'a> {
    b: &'a [u8],
    problems: Vec<Problem>,
}

impl Verifier<'_> {
    fn report(&mut self, offset: usize, place: Place, kind: ProblemKind) {
        self.problems.push(Problem::new(offset, place, kind));
    }

    fn run(&mut self, l: &Layout) -> (u64, u64) {
        let b = self.b;
        for (i, &value) in l.header.unknown.iter().enumerate() {
            if value != 0 {
                let offset = if l.header.version == Version::V6 {
                    16
                } else {
                    12
                };
                self.report(
                    offset,
                    Place::Header,
                    ProblemKind::HeaderField {
                        field: i as u8,
                        value,
                    },
                );
            }
        }
        let regions = [
            ("attributes", &l.attributes),
            ("nodes", &l.nodes),
            ("values data", &l.values.data),
            ("names data", &l.names.data),
        ];
        for (what, segments) in regions {
            for (i, s) in segments.iter().enumerate() {
                if s.used > 65535 {
                    self.report(
                        s.header,
                        Place::Segment(what, i as u32),
                        ProblemKind::SegmentTooLarge(s.used),
                    );
                }
            }
        }
        let values = self.table(&l.values, Table::Values);
        let names = self.table(&l.names, Table::Names);
        self.special_names(l, &names);
        let value_index = names
            .strings
            .iter()
            .position(|s| s.is_some_and(|s| s.eq_str("__value__")));
        let value_index = value_index.map(|i| i as u16 + 1);
        self.keys(l, names.strings.len(), value_index);
        // Every record, reached or not, with the checks opening makes; the
        // walk then checks what only the tree shows.
        let _ = check_records(b, l, names.strings.len(), &mut self.problems);
        let counts = self.nodes(l, &names, &values, value_index);
        let footer = u32_at(b, l.footer) as i32;
        if footer != 0 {
            self.report(l.footer, Place::Footer, ProblemKind::Footer(footer));
        }
        counts
    }
}
