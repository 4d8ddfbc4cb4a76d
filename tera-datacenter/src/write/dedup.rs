//! Runs of records stored once: a run of the same bytes is found again by
//! its hash and given the address of the first one.

use std::collections::HashMap;
use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use super::error::WriteError;
use super::regions::Records;
use crate::address::Address;

/// The runs of one region placed so far, by the hash of their bytes.
#[derive(Default)]
pub(crate) struct RunIndex {
    runs: HashMap<u64, Address, FixedState>,
}

impl RunIndex {
    /// The address of `run` in `records`: an identical run already there
    /// when `share`, else a new one.
    pub(crate) fn place(
        &mut self,
        records: &mut Records,
        run: &[u8],
        share: bool,
    ) -> Result<Address, WriteError> {
        if run.is_empty() {
            return Ok(Address::NONE);
        }
        if !share {
            return records.append(run);
        }
        // A fixed seed: the same tree gives the same file.
        let hash = FixedState::with_seed(0).hash_one(run);
        if let Some(&at) = self.runs.get(&hash) {
            // A hash collision keeps the new run apart.
            if records.run(at, run.len()) == run {
                return Ok(at);
            }
            return records.append(run);
        }
        let at = records.append(run)?;
        self.runs.insert(hash, at);
        Ok(at)
    }
}
