//! Where recall is lost: each opcode seen, by the shape of its packets and
//! by what discovery made of it, against the truth.

use std::collections::BTreeMap;

use tera_dynamic::ProtocolMap;

use crate::discover::FIXED;
use crate::report::Report;
use crate::samples::{Group, Samples};

/// The shape of an opcode's packets: what a def's fit can tell from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// Every packet is the bare header: only order and pairs say what it is.
    Empty,
    /// One packet, with a body.
    Once,
    /// Several packets, all of one length.
    FixedLength,
    /// Packets of several lengths.
    VariedLength,
}

impl Shape {
    /// The shape of a group's packets.
    pub fn of(group: &Group) -> Shape {
        if group.longest() <= 4 {
            Shape::Empty
        } else if group.len() == 1 {
            Shape::Once
        } else if group.lengths() == 1 {
            Shape::FixedLength
        } else {
            Shape::VariedLength
        }
    }

    /// Every shape, in the table's order.
    pub const ALL: [Shape; 4] = [
        Shape::Empty,
        Shape::Once,
        Shape::FixedLength,
        Shape::VariedLength,
    ];

    /// The shape's name in the table.
    pub fn label(self) -> &'static str {
        match self {
            Shape::Empty => "empty body",
            Shape::Once => "one packet",
            Shape::FixedLength => "fixed length",
            Shape::VariedLength => "varied lengths",
        }
    }
}

/// What discovery made of an opcode seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Written, with the right name.
    Right,
    /// The right name chosen, but below the threshold (a candidate).
    Unsure,
    /// Another name chosen, below the threshold.
    OtherName,
    /// Written with a wrong name.
    Wrong,
    /// No name chosen at all.
    Nothing,
}

/// Opcodes seen, counted by shape and outcome, and the names missed.
#[derive(Debug, Clone, Default)]
pub struct Breakdown {
    /// (shape, outcome) -> opcodes.
    pub counts: BTreeMap<(Shape, Outcome), usize>,
    /// Each name missed (any outcome but right) -> how many times.
    pub missed: BTreeMap<String, usize>,
}

impl Breakdown {
    /// Adds one discovery's opcodes.
    pub fn add(&mut self, report: &Report, samples: &Samples, truth: &ProtocolMap) {
        for g in samples.groups() {
            if FIXED.iter().any(|(_, c)| *c == g.opcode) {
                continue;
            }
            let right = truth.name(g.opcode);
            let written = report
                .entries
                .iter()
                .find(|e| e.opcode == g.opcode && e.direction == g.direction);
            let unsure = report
                .candidates
                .iter()
                .find(|e| e.opcode == g.opcode && e.direction == g.direction);
            let outcome = match (written, unsure) {
                (Some(e), _) if Some(e.name.as_str()) == right => Outcome::Right,
                (Some(_), _) => Outcome::Wrong,
                (None, Some(c)) if Some(c.name.as_str()) == right => Outcome::Unsure,
                (None, Some(_)) => Outcome::OtherName,
                (None, None) => Outcome::Nothing,
            };
            *self.counts.entry((Shape::of(g), outcome)).or_default() += 1;
            if outcome != Outcome::Right {
                *self
                    .missed
                    .entry(right.unwrap_or("?").to_owned())
                    .or_default() += 1;
            }
        }
    }

    /// Opcodes of `shape` with `outcome`.
    pub fn count(&self, shape: Shape, outcome: Outcome) -> usize {
        self.counts.get(&(shape, outcome)).copied().unwrap_or(0)
    }

    /// The table, in Markdown: a row per shape, what was seen, named
    /// right, and each way of missing.
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| shape | seen | right | right name, unsure | other name, unsure | wrong | none |\n\
             |---|---:|---:|---:|---:|---:|---:|\n",
        );
        let outcomes = [
            Outcome::Right,
            Outcome::Unsure,
            Outcome::OtherName,
            Outcome::Wrong,
            Outcome::Nothing,
        ];
        let mut totals = [0usize; 5];
        for shape in Shape::ALL {
            let row: Vec<usize> = outcomes.iter().map(|&o| self.count(shape, o)).collect();
            let seen: usize = row.iter().sum();
            for (t, n) in totals.iter_mut().zip(&row) {
                *t += n;
            }
            out += &format!(
                "| {} | {seen} | {} | {} | {} | {} | {} |\n",
                shape.label(),
                row[0],
                row[1],
                row[2],
                row[3],
                row[4]
            );
        }
        let seen: usize = totals.iter().sum();
        out += &format!(
            "| all | {seen} | {} | {} | {} | {} | {} |\n",
            totals[0], totals[1], totals[2], totals[3], totals[4]
        );
        out
    }

    /// The names missed most, most first.
    pub fn most_missed(&self, n: usize) -> Vec<(&str, usize)> {
        let mut v: Vec<(&str, usize)> = self.missed.iter().map(|(k, c)| (k.as_str(), *c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }
}
