//! Compile-fail tests of mod state: each `tests/ui/*.rs` must fail to
//! compile with the error in its `.stderr` snapshot (regenerate with
//! `TRYBUILD=overwrite` and read the result). A hook, timer or command of
//! one mod cannot reach another mod's state.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
