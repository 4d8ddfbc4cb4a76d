//! Which version of a name reads a session's packets: chosen by exact fit
//! over the packets of that name the session carried (every one decodes
//! with no byte left and encodes back to the same bytes), or the highest
//! version a def folder holds.
//!
//! A def folder keeps every version of a packet the game ever had, and a
//! session of an older build plays an older one; the highest version may
//! fail on every packet, or decode them with bytes to spare.

use std::fmt;

use crate::def::Def;
use crate::packet_set::PacketSet;

/// How a [`Namer`](crate::Namer) picks the version of each name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VersionRule {
    /// Per session and name, the version that fits every packet of that
    /// name seen so far exactly (the highest of those that do); when none
    /// fits them all, the one that fits the most. Names with one version
    /// are read with it, untried.
    #[default]
    Fit,
    /// The highest version of each name, whatever the packets hold.
    Latest,
}

/// How one version of a name did on a session's packets of that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionTrial {
    /// The version.
    pub version: u32,
    /// The packets that did not fit it exactly.
    pub misfits: u64,
    /// Why the first of them did not.
    pub first_misfit: Option<String>,
}

/// The versions of one name, tried on one session's packets of that name,
/// and the one chosen. Displays as
/// `S_SPAWN_NPC.9 (12 packets; rivals: .10 misfits 12: ..., .8 fits too)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionChoice {
    /// The packet name.
    pub name: String,
    /// The packets of that name tried.
    pub packets: u64,
    /// Every version, highest first.
    pub trials: Vec<VersionTrial>,
}

impl VersionChoice {
    /// The versions of `name` in `set`, none tried yet.
    pub(crate) fn new(set: &dyn PacketSet, name: &str) -> VersionChoice {
        VersionChoice {
            name: name.to_owned(),
            packets: 0,
            trials: set
                .versions(name)
                .into_iter()
                .rev()
                .map(|version| VersionTrial {
                    version,
                    misfits: 0,
                    first_misfit: None,
                })
                .collect(),
        }
    }

    /// Tries `packet` on every version (a name has a handful: counting
    /// each one's misfits exactly is cheap, and says how far a rival is).
    pub(crate) fn try_packet(&mut self, set: &dyn PacketSet, packet: &[u8]) {
        if self.trials.len() < 2 {
            return;
        }
        self.packets += 1;
        for trial in &mut self.trials {
            let def = Def::new(self.name.as_str(), trial.version);
            if let Err(why) = set.fit(&def, packet) {
                trial.misfits += 1;
                trial.first_misfit.get_or_insert(why);
            }
        }
    }

    /// The chosen version: the highest that fits every packet tried, else
    /// the one with the fewest misfits (the higher on a tie); the highest
    /// when none was tried.
    #[must_use]
    pub fn chosen(&self) -> Option<u32> {
        self.best().map(|t| t.version)
    }

    /// Whether the chosen version fits every packet tried (true when there
    /// was nothing to try).
    #[must_use]
    pub fn exact(&self) -> bool {
        self.best().is_none_or(|t| t.misfits == 0)
    }

    /// Whether more than one version was in the running.
    #[must_use]
    pub fn contested(&self) -> bool {
        self.trials.len() > 1 && self.packets > 0
    }

    /// The versions not chosen.
    pub fn rivals(&self) -> impl Iterator<Item = &VersionTrial> {
        let chosen = self.chosen();
        self.trials
            .iter()
            .filter(move |t| Some(t.version) != chosen)
    }

    fn best(&self) -> Option<&VersionTrial> {
        // Highest first, so the first of the fewest misfits is the highest.
        self.trials.iter().min_by_key(|t| t.misfits)
    }
}

impl fmt::Display for VersionChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(best) = self.best() else {
            return write!(f, "{} (no version)", self.name);
        };
        write!(
            f,
            "{}.{} ({} packets",
            self.name, best.version, self.packets
        )?;
        if best.misfits > 0 {
            write!(f, ", none fits them all: {} misfit", best.misfits)?;
        }
        let rivals: Vec<String> = self
            .rivals()
            .map(|t| match (&t.first_misfit, t.misfits) {
                (Some(why), n) => format!(".{} misfits {n}: {why}", t.version),
                (None, _) => format!(".{} fits too", t.version),
            })
            .collect();
        if !rivals.is_empty() {
            write!(f, "; rivals: {}", rivals.join(", "))?;
        }
        f.write_str(")")
    }
}
