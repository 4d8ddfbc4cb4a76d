//! An entry's odds against its opcode's true def being one the set lacks
//! (a new name, a def the patch changed): a third of a real session's
//! opcodes have no def of their own that fits, and the matching only
//! weighs the set's names against each other.
//!
//! Such an opcode still fits some def of the set now and then, as often as
//! that def's layout is common, which the fit's bits already weigh
//! ([`rarity`](super::candidate::rarity)), but for its further lengths:
//! a def that fits a like layout at one length fits it at the others
//! (`Candidate::alike_fit`). Given it fits, it reads as well
//! as any packet (values, field names) and the previous map names the def
//! as much as ever. What ties the def's fields to the session (value
//! links, positions near the player's, a family, a despawn's ends) it
//! holds as often as its packet carries a field of the same name: a packet
//! about the player holds the player's id and place, whichever packet it
//! is, and a third of the defs have a `gameId`. A response that follows
//! each packet it holds as often as it is of the response's family.
//!
//! A name is also one of the set's thousand, of which a session holds a
//! tenth. When nothing of its own (its login place, a scene, a
//! consequence) says the session holds it, its fit may be a chance one on
//! any of the session's groups whose def is lacking, and the odds against
//! are that many times shorter. On 300 copies of the real 376012 session,
//! drifted years away (defs dropped, changed and added), the entries named
//! by fit alone at 10 to 12 bits were wrong 1 time in 60 before this
//! charge (`examples/real_session.rs`).

use std::collections::{BTreeSet, HashMap, HashSet};

use tera_sessions::Direction;

use crate::defset::DefSet;
use crate::field_names::{FieldNames, has_text};
use crate::links::kin;
use crate::report::Evidence;
use crate::samples::Samples;

use super::candidate::Candidate;

/// An entry's margin against the def being one the set lacks: its weight
/// less what such a def would gain, and, for a name that nothing of its
/// own ties to the session, less `log2(1 + 4 unfit)` for the groups of
/// its side whose def is lacking, four for each of the `unfit` groups no
/// def fits ([`Unfit`], [`LACKING_PER_UNFIT`]): its fit could have landed
/// on any of them by chance.
pub(super) fn margin(c: &Candidate, field_names: &FieldNames, defs: &DefSet, unfit: usize) -> f64 {
    let mut tied = 0.0;
    let mut fields: Vec<&str> = Vec::new();
    let mut with: Option<&str> = None;
    // A response that follows the packet, whatever its fields.
    let mut answered = 0.0;
    let mut response: Option<&str> = None;
    for e in &c.evidence {
        let (bits, field, name) = match e {
            Evidence::Link { field, bits, .. } | Evidence::Position { field, bits, .. } => {
                (*bits, Some(field), None)
            }
            Evidence::Pair { with, bits, .. } => {
                if *bits > 0.0 {
                    answered += bits;
                    response = response.or(Some(with.as_str()));
                }
                continue;
            }
            Evidence::Family { with, bits, .. } => (*bits, None, Some(with.as_str())),
            Evidence::Tuple { with, bits, .. } => (*bits, None, with.first().map(String::as_str)),
            Evidence::LifeEnds { begun_by, bits, .. } => (*bits, None, begun_by.as_deref()),
            _ => continue,
        };
        // Evidence against holds against a lacking def alike.
        if bits <= 0.0 {
            continue;
        }
        tied += bits;
        fields.extend(field.map(String::as_str));
        with = with.or(name);
    }
    // Without a field named, the packet is tied to the session as often as
    // a name is of the family of the packet it is tied to.
    let share = if !fields.is_empty() {
        let read_with = defs.version(c.name, c.fit.version).root();
        let text = fields.iter().any(|f| has_text(read_with, f));
        field_names.share_of_all(fields, text)
    } else {
        with.map_or(1.0, |w| kin_share(w, defs))
    };
    // A def the set lacks is answered by the response as often as it is of
    // the response's family.
    let answer = response.map_or(0.0, |r| kept(answered, kin_share(r, defs)));
    let specific = c.weight - c.generic;
    let lacking = specific + c.alike_fit + kept(tied, share) + answer;
    if specific < OWN_BITS {
        lacking - (1.0 + LACKING_PER_UNFIT * unfit as f64).log2()
    } else {
        lacking
    }
}

/// The groups whose own def the set lacks, for each group no def fits: of
/// the real 376012 session's 32 opcodes whose def defs-376012 lacks, 8
/// fit no def and 24 fit another's (`examples/real_session.rs`).
const LACKING_PER_UNFIT: f64 = 4.0;

/// The least of a name's own evidence (login order, scenes, consequences,
/// keepalives, system messages) that says the session holds it at all.
const OWN_BITS: f64 = 1.0;

/// The groups of each side that no def of the set fits and no pin names:
/// what the session shows of the groups whose def the set lacks, where
/// the chance fit of a name the session does not hold lands. A group whose
/// def is lacking often fits another def, so they stand for more
/// ([`LACKING_PER_UNFIT`]).
pub(super) struct Unfit {
    by_side: HashMap<Direction, usize>,
}

impl Unfit {
    /// Counts the groups no candidate and no pin holds.
    pub(super) fn count(samples: &Samples, cands: &[Candidate], pinned: &BTreeSet<usize>) -> Unfit {
        let fitted: HashSet<usize> = cands.iter().map(|c| c.group).collect();
        let mut by_side = HashMap::new();
        for (g, group) in samples.groups().iter().enumerate() {
            if !fitted.contains(&g) && !pinned.contains(&g) {
                *by_side.entry(group.direction).or_default() += 1;
            }
        }
        Unfit { by_side }
    }

    /// The unfit groups of `side`.
    pub(super) fn of(&self, side: Direction) -> usize {
        self.by_side.get(&side).copied().unwrap_or(0)
    }
}

/// Of `bits` of evidence that a lacking def would gain a `share` of the
/// time, what it does not: `-log2(share + (1 - share) 2^-bits)`, `bits`
/// when the share is 0, `-log2(share)` at most.
fn kept(bits: f64, share: f64) -> f64 {
    -(share + (1.0 - share) * (-bits).exp2()).log2()
}

/// The share of the set's names of the family of `name`.
fn kin_share(name: &str, defs: &DefSet) -> f64 {
    let total = defs.names.len().max(1);
    let kin = defs.names.iter().filter(|n| kin(&n.name, name)).count();
    (kin + 1) as f64 / (total + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::Fit;
    use crate::links::Digest;
    use tera_dynamic::Catalog;

    /// A candidate with `evidence` and a fit of `fit` bits, weighed as
    /// the weigher weighs it (1 bit for any fit, the generic kinds apart).
    fn candidate(fit: f64, mut evidence: Vec<Evidence>) -> Candidate {
        evidence.insert(
            0,
            Evidence::Fit {
                version: 1,
                distinct: 1,
                lengths: 1,
                bits: fit,
            },
        );
        let weight = 1.0 + evidence.iter().map(Evidence::bits).sum::<f64>();
        let generic = 1.0
            + evidence
                .iter()
                .filter(|e| super::super::candidate::is_generic(e))
                .map(Evidence::bits)
                .sum::<f64>();
        Candidate {
            group: 0,
            name: 0,
            fit: Fit {
                version: 1,
                structure: fit,
                plausibility: 0.0,
            },
            digest: Digest::default(),
            fixed: evidence[..1].to_vec(),
            evidence,
            weight,
            generic,
            alike_fit: fit,
        }
    }

    fn link(field: &str, bits: f64) -> Evidence {
        Evidence::Link {
            field: field.into(),
            values: 1,
            with: vec!["S_LOGIN".into()],
            bits,
        }
    }

    #[test]
    fn what_any_packet_about_the_player_holds_says_little_against_a_lacking_def() {
        let mut catalog = Catalog::new();
        // Eight defs: all hold a gameId, half a loc, one a contractId.
        for k in 0..8 {
            let mut body = String::from("uint64 gameId\n");
            if k % 2 == 0 {
                body += "vec3 loc\n";
            }
            if k == 0 {
                body += "uint32 contractId\n";
            }
            catalog.add_def(&format!("S_P{k}.1.def"), &body).unwrap();
        }
        let defs = DefSet::from_catalog(&catalog);
        let names = FieldNames::count(&defs);
        // An id every def holds and a position half of them do: a def the
        // set lacks holds them as often, and keeps 1 bit of 28.
        let common = candidate(
            0.0,
            vec![
                link("gameId", 16.0),
                Evidence::Position {
                    field: "loc".into(),
                    near: 3,
                    bits: 12.0,
                },
            ],
        );
        let m = margin(&common, &names, &defs, 0);
        assert!(m > 0.9 && m < 1.1, "{m}");
        // A field one def of eight holds keeps 3 bits, and the fit its own.
        let rare = candidate(6.0, vec![link("contractId", 16.0)]);
        let m = margin(&rare, &names, &defs, 0);
        assert!((m - 9.0).abs() < 0.01, "{m}");
        // Values, field names and the previous map keep nothing; what the
        // game's rules say is the name's own and keeps it all.
        let own = candidate(
            0.0,
            vec![
                Evidence::Values { bits: 6.0 },
                Evidence::PreviousMap {
                    same_opcode: false,
                    bits: 6.0,
                },
                Evidence::LoginOrder { bits: 14.0 },
            ],
        );
        assert_eq!(margin(&own, &names, &defs, 0), 14.0);
    }

    #[test]
    fn a_name_nothing_of_its_own_ties_to_the_session_pays_for_the_unfit_groups() {
        let mut catalog = Catalog::new();
        catalog.add_def("S_A.1.def", "uint64 gameId\n").unwrap();
        let defs = DefSet::from_catalog(&catalog);
        let names = FieldNames::count(&defs);
        // A fit alone, with 2 groups no def fits (8 whose def is lacking):
        // log2(1 + 8), 3.2 bits less.
        let alone = candidate(14.0, vec![]);
        assert_eq!(margin(&alone, &names, &defs, 0), 14.0);
        assert!((margin(&alone, &names, &defs, 2) - 14.0 + 9f64.log2()).abs() < 1e-9);
        // Its login place says the session holds it: nothing less.
        let placed = candidate(14.0, vec![Evidence::LoginOrder { bits: 3.0 }]);
        assert_eq!(margin(&placed, &names, &defs, 31), 17.0);
    }

    #[test]
    fn a_response_follows_a_lacking_def_as_often_as_it_is_of_its_family() {
        let mut catalog = Catalog::new();
        // Every text def names its text `message`; one name of eight is
        // of the chat's family.
        catalog
            .add_def("C_CHAT.1.def", "uint32 channel\nstring message\n")
            .unwrap();
        catalog
            .add_def("S_CHAT.1.def", "uint32 channel\nstring message\n")
            .unwrap();
        catalog
            .add_def("C_WRITE_BOARD.1.def", "uint32 board\nstring message\n")
            .unwrap();
        for k in 0..5 {
            catalog
                .add_def(&format!("S_OTHER{k}.1.def"), "uint32 a\n")
                .unwrap();
        }
        let defs = DefSet::from_catalog(&catalog);
        let names = FieldNames::count(&defs);
        let mut chat = candidate(
            0.0,
            vec![
                link("message", 10.0),
                Evidence::Pair {
                    with: "S_CHAT".into(),
                    matched: 6,
                    of: 6,
                    bits: 10.0,
                },
            ],
        );
        chat.name = defs.index("C_CHAT").unwrap();
        // The text every text def names alike keeps nothing; the response
        // keeps what the chat's family leaves (C_CHAT of 8 names, plus
        // one): 2 bits.
        let m = margin(&chat, &names, &defs, 0);
        assert!((m - kept(10.0, 2.0 / 9.0)).abs() < 1e-9, "{m}");
        assert!(m > 2.0, "{m}");
    }

    #[test]
    fn evidence_a_lacking_def_shares_keeps_what_its_rarity_says() {
        // Nothing shares: all of it is kept.
        assert_eq!(kept(12.0, 0.0), 12.0);
        // Everything shares: nothing is.
        assert_eq!(kept(12.0, 1.0), 0.0);
        // A field an eighth of the defs have keeps 3 bits of much.
        assert!((kept(40.0, 0.125) - 3.0).abs() < 1e-6);
        // Little evidence keeps nearly all of itself.
        let little = kept(1.0, 0.125);
        assert!(little > 0.8 && little < 1.0, "{little}");
    }
}
