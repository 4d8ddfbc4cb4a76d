//! Compile-fail tests of the derives: each `tests/ui/*.rs` must fail to
//! compile with the error in its `.stderr` snapshot (regenerate with
//! `TRYBUILD=overwrite` and read the result); each `tests/ui/pass/*.rs` must
//! compile and run.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/*.rs");
}
