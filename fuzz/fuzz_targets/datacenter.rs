//! Arbitrary bytes as a `.dec` data center: verified, opened, walked, copied
//! and exported to a sink (`tera_datacenter::fuzzing::open`); a file the strict
//! verifier accepts must also open, export every node once and survive a
//! rewrite. Errors are fine; panics, hangs and leaks are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tera_fuzz::datacenter::check_dec(data));
