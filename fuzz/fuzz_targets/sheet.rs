//! Arbitrary bytes as a sheet (or a schema, a NUL byte, then a sheet),
//! read and checked (`tera_datacenter::fuzzing::sheet`): problems are fine;
//! panics, hangs and leaks are not, and a sheet read without a problem must
//! pack into a data center the strict verifier accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tera_datacenter::fuzzing::sheet(data));
