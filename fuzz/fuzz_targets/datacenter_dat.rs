//! Arbitrary bytes as a `.dat` under a fixed key (`DAT_KEY`, the one of
//! `tera_datacenter::fuzzing::dat`): decryption and inflation either fail, and
//! the `.dat` verifier fails or reports a problem, or give a `.dec` that the
//! verifier judges as it judges those bytes alone, and that passes the checks
//! of the `datacenter` target.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tera_datacenter::{unpack, verify, verify_dat};
use tera_fuzz::datacenter::{DAT_KEY, check_dec};

fuzz_target!(|data: &[u8]| {
    let report = verify_dat(data, &DAT_KEY, None);
    match unpack(data, &DAT_KEY) {
        Ok(dec) => {
            let report = report.expect("unpack works, so verify_dat reads it");
            let direct = verify(&dec, None);
            assert_eq!(report.problems.len(), direct.problems.len());
            assert_eq!((report.arch, report.version), (direct.arch, direct.version));
            assert_eq!(report.nodes, direct.nodes);
            check_dec(&dec);
        }
        Err(e) => assert!(
            report.as_ref().is_ok_and(|r| !r.is_ok()) || report.is_err(),
            "unpack fails ({e}), verify_dat passes"
        ),
    }
});
