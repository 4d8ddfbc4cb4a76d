//! Grading a report against a real map: the truth is the map restricted
//! to the opcodes the session holds whose def (some version of the map's
//! name) fits every distinct packet, as a real session is graded; and the
//! written entries by confidence band, right or wrong (calibration).

use std::collections::BTreeSet;

use crate::defset::DefSet;
use crate::discover::FIXED;
use crate::fit::fit_name;
use crate::report::{Entry, Report};
use crate::samples::Samples;
use tera_dynamic::ProtocolMap;

use super::Score;

impl Score {
    /// Grades `report` against `truth` on the opcodes whose true def
    /// fits: `seen` counts those (the fixed ones aside); an entry written
    /// on any opcode whose truth is known (fitting or not) and names
    /// another packet is wrong.
    pub fn of_fitting(
        report: &Report,
        samples: &Samples,
        truth: &ProtocolMap,
        defs: &DefSet,
    ) -> Score {
        let mut score = Score::default();
        let fixed: BTreeSet<u16> = FIXED.iter().map(|(_, c)| *c).collect();
        let mut names = BTreeSet::new();
        let mut codes = BTreeSet::new();
        for e in &report.entries {
            if !names.insert(e.name.as_str()) || !codes.insert(e.opcode) {
                score.duplicates += 1;
            }
        }
        for g in samples.groups() {
            if fixed.contains(&g.opcode) {
                continue;
            }
            let truth_name = truth.name(g.opcode);
            let fits = truth_name
                .and_then(|n| defs.index(n))
                .is_some_and(|n| fit_name(samples, g, &defs.names[n]).is_ok());
            let written = report
                .entries
                .iter()
                .find(|e| e.opcode == g.opcode && e.direction == g.direction);
            if fits {
                score.seen += 1;
            }
            if let Some(e) = written {
                score.written += 1;
                if Some(e.name.as_str()) == truth_name {
                    score.right += 1;
                } else if truth_name.is_some() {
                    score.wrong += 1;
                }
            }
        }
        score
    }
}

/// The lower edges of the confidence bands, in bits of margin.
pub const BANDS: [f64; 7] = [10.0, 12.0, 16.0, 24.0, 32.0, 64.0, 128.0];

/// Written entries by confidence band, right and wrong: whether a margin
/// of `b` bits is wrong about one time in 2^b.
#[derive(Debug, Clone, Default)]
pub struct Calibration {
    /// Per band of [`BANDS`] (entries below the first band in none):
    /// (right, wrong).
    pub bands: [(usize, usize); BANDS.len()],
}

impl Calibration {
    /// Adds the written entries of `report` that `truth` names (pins aside).
    pub fn add(&mut self, report: &Report, truth: &ProtocolMap) {
        for e in &report.entries {
            if !e.margin.is_finite() {
                continue;
            }
            let Some(truth_name) = truth.name(e.opcode) else {
                continue;
            };
            let Some(band) = BANDS.iter().rposition(|&b| e.margin >= b) else {
                continue;
            };
            if truth_name == e.name {
                self.bands[band].0 += 1;
            } else {
                self.bands[band].1 += 1;
            }
        }
    }

    /// Adds another calibration's counts.
    pub fn merge(&mut self, other: &Calibration) {
        for (a, b) in self.bands.iter_mut().zip(&other.bands) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    /// The table, in Markdown.
    pub fn table(&self) -> String {
        let mut out = String::from("| margin (bits) | written | right | wrong | wrong rate |\n");
        out += "|---|---:|---:|---:|---:|\n";
        for (k, &(right, wrong)) in self.bands.iter().enumerate() {
            let band = match BANDS.get(k + 1) {
                Some(hi) => format!("{}-{}", BANDS[k], hi),
                None => format!(">= {}", BANDS[k]),
            };
            let n = right + wrong;
            let rate = if n == 0 {
                "-".to_owned()
            } else {
                format!("{:.4}", wrong as f64 / n as f64)
            };
            out += &format!("| {band} | {n} | {right} | {wrong} | {rate} |\n");
        }
        out
    }
}

/// Each entry written against `truth` (the name, the opcode, the true
/// name, the margin and the evidence), then with `left_out` each opcode
/// whose truth was not written, with its best candidate: a line each, for
/// examples and tests to print.
pub fn explain(report: &Report, samples: &Samples, truth: &ProtocolMap, left_out: bool) -> String {
    let summary = |e: &Entry| -> Vec<String> { e.evidence.iter().map(|x| x.summary()).collect() };
    let mut out = String::new();
    for e in &report.entries {
        if e.margin.is_finite() && truth.name(e.opcode) != Some(e.name.as_str()) {
            out += &format!(
                "  wrong {} at {} (truly {:?}), margin {:.1}: {:?}\n",
                e.name,
                e.opcode,
                truth.name(e.opcode),
                e.margin,
                summary(e)
            );
        }
    }
    if !left_out {
        return out;
    }
    for g in samples.groups() {
        if report.entries.iter().any(|e| e.opcode == g.opcode) {
            continue;
        }
        let best = report.candidates.iter().find(|e| e.opcode == g.opcode);
        out += &format!(
            "  left out {} {} ({} packets, {} lengths): {:?}\n",
            g.opcode,
            truth.name(g.opcode).unwrap_or("?"),
            g.len(),
            g.lengths(),
            best.map(|c| (
                &c.name,
                (c.margin * 10.0).round() / 10.0,
                &c.beat,
                summary(c)
            ))
        );
    }
    out
}
